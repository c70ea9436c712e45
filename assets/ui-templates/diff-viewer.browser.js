(function (app) {
  var config = app.config;
  var panel = document.getElementById('diffPanel');
  var stats = document.getElementById('diffStats');
  var splitBtn = document.getElementById('splitBtn');
  var unifiedBtn = document.getElementById('unifiedBtn');
  var mode = config.viewMode;
  var ops = null;
  var MAX_CELLS = 2250000;

  function lines(value) {
    return typeof value === 'string' ? value.replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n') : [];
  }
  function lcsOps(left, right) {
    var start = 0;
    while (start < left.length && start < right.length && left[start] === right[start]) start++;
    var endL = left.length, endR = right.length;
    while (endL > start && endR > start && left[endL - 1] === right[endR - 1]) { endL--; endR--; }
    var a = left.slice(start, endL), b = right.slice(start, endR), middle = [];
    if (a.length * b.length > MAX_CELLS) {
      a.forEach(function (line) { middle.push({ t: 'del', text: line }); });
      b.forEach(function (line) { middle.push({ t: 'add', text: line }); });
    } else {
      var w = b.length + 1, table = new Uint32Array((a.length + 1) * w);
      for (var i = a.length - 1; i >= 0; i--) for (var j = b.length - 1; j >= 0; j--)
        table[i * w + j] = a[i] === b[j]
          ? table[(i + 1) * w + j + 1] + 1
          : Math.max(table[(i + 1) * w + j], table[i * w + j + 1]);
      var x = 0, y = 0;
      while (x < a.length && y < b.length) {
        if (a[x] === b[y]) { middle.push({ t: 'ctx', text: a[x] }); x++; y++; }
        else if (table[(x + 1) * w + y] >= table[x * w + y + 1]) middle.push({ t: 'del', text: a[x++] });
        else middle.push({ t: 'add', text: b[y++] });
      }
      while (x < a.length) middle.push({ t: 'del', text: a[x++] });
      while (y < b.length) middle.push({ t: 'add', text: b[y++] });
    }
    var head = left.slice(0, start).map(function (line) { return { t: 'ctx', text: line }; });
    var tail = left.slice(endL).map(function (line) { return { t: 'ctx', text: line }; });
    return number(head.concat(middle, tail), 1, 1);
  }
  function number(list, oldStart, newStart) {
    var a = oldStart, b = newStart;
    return list.map(function (op) {
      if (op.t !== 'add') op.a = a++;
      if (op.t !== 'del') op.b = b++;
      return op;
    });
  }
  function unifiedOps(text) {
    var out = [], a = 0, b = 0, inHunk = false;
    lines(text).forEach(function (line) {
      var hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
      if (hunk) {
        a = Number(hunk[1]); b = Number(hunk[2]); inHunk = true;
        out.push({ t: 'hunk', text: line });
        return;
      }
      if (!inHunk || line.indexOf('\\') === 0) return;
      var sign = line.charAt(0), body = line.slice(1);
      if (sign === '+') out.push({ t: 'add', text: body, b: b++ });
      else if (sign === '-') out.push({ t: 'del', text: body, a: a++ });
      else out.push({ t: 'ctx', text: body, a: a++, b: b++ });
    });
    return out;
  }
  function changeOps(changes) {
    var list = [];
    changes.forEach(function (change) {
      var t = change.added ? 'add' : change.removed ? 'del' : 'ctx';
      lines(change.value).forEach(function (line) { list.push({ t: t, text: line }); });
    });
    return number(list, 1, 1);
  }
  function opsOf(data) {
    if (typeof data === 'string') return unifiedOps(data);
    if (!data || typeof data !== 'object') return [];
    if (typeof data.diff === 'string' || typeof data.patch === 'string') return unifiedOps(data.diff || data.patch);
    if (Array.isArray(data.changes)) return changeOps(data.changes);
    var left = data.left !== undefined ? data.left : data.original !== undefined ? data.original : data.before;
    var right = data.right !== undefined ? data.right : data.modified !== undefined ? data.modified : data.after;
    return lcsOps(lines(left), lines(right));
  }
  function td(value, className) {
    return app.el('td', { text: value === undefined ? '' : String(value), className: className });
  }
  function unifiedRows(table) {
    ops.forEach(function (op) {
      var cls = op.t === 'add' ? 'added' : op.t === 'del' ? 'removed' : '';
      var sign = op.t === 'add' ? '+' : op.t === 'del' ? '-' : op.t === 'hunk' ? '' : ' ';
      table.appendChild(app.el('tr', { className: 'diff-line ' + cls }, [
        td(op.a, 'ln'), td(op.b, 'ln'), td(sign + op.text),
      ]));
    });
  }
  function splitRows(table) {
    var i = 0;
    while (i < ops.length) {
      var op = ops[i];
      if (op.t === 'ctx' || op.t === 'hunk') {
        table.appendChild(app.el('tr', { className: 'diff-line' }, [
          td(op.a, 'ln'), td(op.text), td(op.b, 'ln'), td(op.t === 'hunk' ? '' : op.text),
        ]));
        i++;
        continue;
      }
      var dels = [], adds = [];
      while (i < ops.length && ops[i].t === 'del') dels.push(ops[i++]);
      while (i < ops.length && ops[i].t === 'add') adds.push(ops[i++]);
      for (var k = 0; k < Math.max(dels.length, adds.length); k++) {
        var d = dels[k] || {}, a = adds[k] || {};
        table.appendChild(app.el('tr', { className: 'diff-line' }, [
          td(d.a, 'ln'), td(d.text, dels[k] ? 'removed' : ''), td(a.b, 'ln'), td(a.text, adds[k] ? 'added' : ''),
        ]));
      }
    }
  }
  function render() {
    splitBtn.classList.toggle('active', mode === 'split');
    unifiedBtn.classList.toggle('active', mode === 'unified');
    if (ops === null) return;
    panel.textContent = '';
    if (ops.length === 0) {
      panel.appendChild(app.el('div', { className: 'diff-empty', text: 'No differences' }));
      return;
    }
    var table = app.el('table', { className: 'diff-table ' + mode + (config.showLineNumbers ? '' : ' no-numbers') });
    if (mode === 'split') {
      table.appendChild(app.el('tr', {}, [
        app.el('th', { className: 'ln' }), app.el('th', { text: config.leftTitle }),
        app.el('th', { className: 'ln' }), app.el('th', { text: config.rightTitle }),
      ]));
    }
    if (mode === 'split') splitRows(table); else unifiedRows(table);
    panel.appendChild(table);
  }
  splitBtn.addEventListener('click', function () { mode = 'split'; render(); });
  unifiedBtn.addEventListener('click', function () { mode = 'unified'; render(); });
  app.onToolResult(function (result) {
    ops = opsOf(app.dataOf(result) || app.textOf(result));
    var added = ops.filter(function (op) { return op.t === 'add'; }).length;
    var removed = ops.filter(function (op) { return op.t === 'del'; }).length;
    stats.textContent = '+' + added + ' / -' + removed + ' lines';
    render();
  });
  render();
  app.connect({ name: 'mcp-bash diff-viewer', version: '1.0.0' });
})(window.mcpApp);
