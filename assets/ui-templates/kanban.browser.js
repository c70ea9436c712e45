(function (app) {
  var config = app.config;
  var board = document.getElementById('kanbanBoard');
  var message = document.getElementById('message');
  var columns = config.columns.slice();
  var cards = [];
  var dragged = null;

  function columnOf(card) {
    return String(card.column !== undefined ? card.column : card.status !== undefined ? card.status : columns[0].id);
  }
  function cardsOf(data) {
    if (Array.isArray(data)) return data;
    if (data && typeof data === 'object') {
      return Array.isArray(data.cards) ? data.cards : Array.isArray(data.items) ? data.items : [];
    }
    return [];
  }
  function move(card, to) {
    var from = columnOf(card);
    if (from === to) return;
    card.column = to;
    render();
    if (!config.onMoveTool) return;
    var args = { cardId: String(card.id), fromColumn: from, toColumn: to };
    app.callTool(config.onMoveTool, args).then(function (result) {
      if (result && result.isError) throw new Error(app.textOf(result) || 'the tool reported an error');
      app.showMessage(message, app.textOf(result) || 'Moved.', 'success');
    }).catch(function (error) {
      card.column = from;
      render();
      app.showMessage(message, 'Could not move the card: ' + error.message, 'error');
    });
  }
  function cardNode(card) {
    var tags = [];
    if (card.priority) {
      var priorityClass = 'kanban-tag priority-' + String(card.priority).toLowerCase();
      tags.push(app.el('span', { className: priorityClass, text: card.priority }));
    }
    (Array.isArray(card.tags) ? card.tags : []).forEach(function (tag) {
      tags.push(app.el('span', { className: 'kanban-tag', text: tag }));
    });
    if (card.assignee) tags.push(app.el('span', { text: card.assignee }));
    var pickerAttrs = { className: 'kanban-move', 'aria-label': 'Move card' };
    var picker = app.el('select', pickerAttrs, columns.map(function (column) {
      return app.el('option', { value: column.id, text: column.title, selected: column.id === columnOf(card) });
    }));
    picker.addEventListener('click', function (event) { event.stopPropagation(); });
    picker.addEventListener('change', function () { move(card, picker.value); });
    var nodeAttrs = {
      className: 'kanban-card', draggable: config.draggable ? 'true' : undefined, 'data-card-id': String(card.id),
    };
    var node = app.el('div', nodeAttrs, [
      app.el('div', { className: 'kanban-card-title', text: card.title !== undefined ? card.title : card.id }),
      card.description ? app.el('div', { className: 'kanban-card-description', text: card.description }) : null,
      tags.length ? app.el('div', { className: 'kanban-card-meta' }, tags) : null,
      config.draggable ? picker : null,
    ]);
    node.addEventListener('dragstart', function (event) {
      dragged = card;
      node.classList.add('dragging');
      event.dataTransfer.setData('text/plain', String(card.id));
    });
    node.addEventListener('dragend', function () { dragged = null; node.classList.remove('dragging'); });
    if (config.onCardClickTool) node.addEventListener('click', function () {
      app.callTool(config.onCardClickTool, { cardId: String(card.id) }).then(function (result) {
        app.showMessage(
          message, app.textOf(result) || String(card.title || card.id), result && result.isError ? 'error' : 'success');
      }).catch(function (error) { app.showMessage(message, 'Error: ' + error.message, 'error'); });
    });
    return node;
  }
  function columnNode(column) {
    var mine = cards.filter(function (card) { return columnOf(card) === column.id; });
    var body = app.el('div', { className: 'kanban-column-body' }, mine.length
      ? mine.map(cardNode)
      : [app.el('div', { className: 'kanban-empty', text: 'No cards' })]);
    if (config.draggable) {
      body.addEventListener('dragover', function (event) { event.preventDefault(); body.classList.add('drag-over'); });
      body.addEventListener('dragleave', function () { body.classList.remove('drag-over'); });
      body.addEventListener('drop', function (event) {
        event.preventDefault();
        body.classList.remove('drag-over');
        if (dragged) move(dragged, column.id);
      });
    }
    return app.el('section', { className: 'kanban-column', 'data-column-id': column.id }, [
      app.el('div', { className: 'kanban-column-header' }, [
        app.el('span', { text: column.title }),
        app.el('span', { className: 'kanban-column-count', text: String(mine.length) }),
      ]),
      body,
    ]);
  }
  function render() {
    cards.forEach(function (card) {
      var id = columnOf(card);
      if (!columns.some(function (column) { return column.id === id; })) columns.push({ id: id, title: id });
    });
    board.textContent = '';
    columns.forEach(function (column) { board.appendChild(columnNode(column)); });
  }
  app.onToolResult(function (result) {
    cards = cardsOf(app.dataOf(result)).filter(function (card) {
      return card && typeof card === 'object' && card.id !== undefined;
    });
    render();
  });
  app.connect({ name: 'mcp-bash kanban', version: '1.0.0' });
})(window.mcpApp);
