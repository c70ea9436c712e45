(function (app) {
  var config = app.config;
  var head = document.getElementById('tableHead');
  var body = document.getElementById('tableBody');
  var count = document.getElementById('rowCount');
  var filter = document.getElementById('filter');
  var columns = config.columns.slice();
  var rows = [];
  var sort = { key: null, direction: 1 };

  function rowsOf(data) {
    if (Array.isArray(data)) return data;
    if (!data || typeof data !== 'object') return data === undefined ? [] : [data];
    var keys = [config.rowsKey, 'items', 'rows', 'data', 'results'];
    for (var i = 0; i < keys.length; i++) if (keys[i] && Array.isArray(data[keys[i]])) return data[keys[i]];
    return [data];
  }
  function cell(value) {
    if (value === undefined || value === null) return '';
    return typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
  function renderHead() {
    head.textContent = '';
    var tr = app.el('tr');
    columns.forEach(function (column) {
      var th = app.el('th', { text: column.label, scope: 'col', className: column.sortable ? 'sortable' : '' });
      if (sort.key === column.key) th.setAttribute('aria-sort', sort.direction > 0 ? 'ascending' : 'descending');
      if (column.sortable) th.addEventListener('click', function () {
        sort = { key: column.key, direction: sort.key === column.key ? -sort.direction : 1 };
        render();
      });
      tr.appendChild(th);
    });
    head.appendChild(tr);
  }
  function visibleRows() {
    var needle = filter.value.trim().toLowerCase();
    var shown = rows.filter(function (row) {
      return needle === '' || columns.some(function (column) {
        return cell(row[column.key]).toLowerCase().indexOf(needle) >= 0;
      });
    });
    if (sort.key !== null) shown.sort(function (a, b) {
      var x = a[sort.key], y = b[sort.key];
      var order = typeof x === 'number' && typeof y === 'number'
        ? x - y
        : cell(x).localeCompare(cell(y), undefined, { numeric: true });
      return order * sort.direction;
    });
    return shown;
  }
  function render() {
    renderHead();
    var shown = visibleRows();
    body.textContent = '';
    if (shown.length === 0) {
      body.appendChild(app.el('tr', {}, [
        app.el('td', { colspan: Math.max(columns.length, 1), className: 'muted', text: config.emptyText }),
      ]));
    }
    shown.forEach(function (row) {
      body.appendChild(app.el('tr', {}, columns.map(function (column) {
        return app.el('td', { text: cell(row[column.key]) });
      })));
    });
    count.textContent = shown.length === rows.length
      ? rows.length + ' rows'
      : shown.length + ' of ' + rows.length + ' rows';
  }
  function show(data) {
    rows = rowsOf(data).map(function (row) {
      return row && typeof row === 'object' && !Array.isArray(row) ? row : { value: row };
    });
    if (config.columns.length === 0) {
      var keys = [];
      rows.forEach(function (row) {
        Object.keys(row).forEach(function (key) { if (keys.indexOf(key) < 0) keys.push(key); });
      });
      columns = keys.map(function (key) { return { key: key, label: key, sortable: true }; });
    }
    render();
  }
  if (Array.isArray(config.rows)) show(config.rows);
  app.onToolResult(function (result) { show(app.dataOf(result)); });
  filter.addEventListener('input', render);
  app.connect({ name: 'mcp-bash data-table', version: '1.0.0' });
})(window.mcpApp);
