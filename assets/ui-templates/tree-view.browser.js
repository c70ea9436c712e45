(function (app) {
  var config = app.config;
  var root = document.getElementById('treeRoot');
  var stats = document.getElementById('treeStats');
  var search = document.getElementById('searchInput');
  var message = document.getElementById('message');
  var nodes = [];
  var selected = null;

  function labelOf(node) {
    return String(node.label !== undefined ? node.label
      : node.name !== undefined ? node.name
      : node.title !== undefined ? node.title
      : node.id !== undefined ? node.id
      : '');
  }
  function childrenOf(node) {
    return Array.isArray(node.children)
      ? node.children.filter(function (c) { return c && typeof c === 'object'; })
      : [];
  }
  function nodesOf(data) {
    if (Array.isArray(data)) return data;
    if (!data || typeof data !== 'object') return [];
    var keys = ['nodes', 'tree', 'items', 'roots'];
    for (var i = 0; i < keys.length; i++) if (Array.isArray(data[keys[i]])) return data[keys[i]];
    if (data.root && typeof data.root === 'object') return [data.root];
    return [data];
  }
  function matches(node, needle) {
    if (needle === '') return true;
    if (labelOf(node).toLowerCase().indexOf(needle) >= 0) return true;
    return childrenOf(node).some(function (child) { return matches(child, needle); });
  }
  function icon(node, open) {
    if (!config.showIcons) return null;
    if (node.icon) return app.el('span', { className: 'tree-icon-text', text: node.icon });
    var kind = childrenOf(node).length ? 'folder' + (open ? ' open' : '') : 'file';
    return app.el('span', { className: 'tree-icon ' + kind, 'aria-hidden': 'true' });
  }
  function select(content, node, path) {
    if (!config.selectable) return;
    if (selected) selected.classList.remove('selected');
    selected = content;
    content.classList.add('selected');
    content.setAttribute('aria-selected', 'true');
    if (!config.onSelectTool) return;
    var id = node.id !== undefined ? String(node.id) : path.join('/');
    app.callTool(config.onSelectTool, { nodeId: id, label: labelOf(node), path: path }).then(function (result) {
      if (result && result.isError) throw new Error(app.textOf(result) || 'the tool reported an error');
      app.showMessage(message, app.textOf(result) || 'Selected ' + labelOf(node), 'success');
    }).catch(function (error) { app.showMessage(message, 'Error: ' + error.message, 'error'); });
  }
  function renderNode(node, level, needle, path) {
    var children = childrenOf(node).filter(function (child) { return matches(child, needle); });
    var open = needle !== '' || level < config.expandLevel;
    var item = app.el('li', {
      role: 'treeitem', className: open ? '' : 'collapsed', 'aria-expanded': children.length ? String(open) : undefined,
    });
    var toggle = app.el('button', {
      type: 'button', className: 'tree-toggle' + (children.length ? '' : ' leaf'), 'aria-label': 'expand',
      text: open ? '▾' : '▸',
    });
    var label = labelOf(node);
    var content = app.el('div', {
      className: 'tree-node-content' + (config.selectable ? ' selectable' : ''),
      'data-node-id': node.id !== undefined ? String(node.id) : path.join('/'),
    }, [
      toggle, icon(node, open), app.el('span', { className: 'tree-label', text: label }),
      node.meta !== undefined || node.description !== undefined
        ? app.el('span', {
          className: 'tree-meta', text: String(node.meta !== undefined ? node.meta : node.description),
        })
        : null,
    ]);
    toggle.addEventListener('click', function (event) {
      event.stopPropagation();
      var collapsed = item.classList.toggle('collapsed');
      toggle.textContent = collapsed ? '▸' : '▾';
      item.setAttribute('aria-expanded', String(!collapsed));
    });
    content.addEventListener('click', function () { select(content, node, path); });
    item.appendChild(content);
    if (children.length) item.appendChild(app.el('ul', { role: 'group' }, children.map(function (child) {
      return renderNode(child, level + 1, needle, path.concat(labelOf(child)));
    })));
    return item;
  }
  function countNodes(list) {
    return list.reduce(function (sum, node) { return sum + 1 + countNodes(childrenOf(node)); }, 0);
  }
  function render() {
    var needle = search ? search.value.trim().toLowerCase() : '';
    root.textContent = '';
    var shown = nodes.filter(function (node) { return matches(node, needle); });
    if (shown.length === 0) {
      root.appendChild(app.el('p', { className: 'muted', text: nodes.length ? 'Nothing matches' : 'No data' }));
    }
    else {
      root.appendChild(app.el('ul', { role: 'tree' }, shown.map(function (node) {
        return renderNode(node, 0, needle, [labelOf(node)]);
      })));
    }
    stats.textContent = countNodes(nodes) + ' items';
  }
  app.onToolResult(function (result) {
    nodes = nodesOf(app.dataOf(result)).filter(function (node) { return node && typeof node === 'object'; });
    render();
  });
  if (search) search.addEventListener('input', render);
  app.connect({ name: 'mcp-bash tree-view', version: '1.0.0' });
})(window.mcpApp);
