/*
 * The view side of the MCP Apps protocol (SEP-1865, 2026-01-26) as one inline script: JSON-RPC
 * 2.0 over postMessage with the host (`window.parent`). It answers the handshake
 * (`ui/initialize`, then `ui/notifications/initialized`), applies the host's theme, style
 * variables and fonts, reports its size (`ui/notifications/size-changed`), receives the tool's
 * input and result, and lets the page call tools (`tools/call`), post to the chat
 * (`ui/message`) and update the model's context (`ui/update-model-context`, when the host
 * declares `hostCapabilities.updateModelContext`).
 *
 * It defines `window.mcpApp`; templates register their handlers, then call `connect()`.
 * Plain ES2019 without modules or imports: it runs under the host's default CSP.
 */
(function () {
  'use strict';
  var PROTOCOL_VERSION = '2026-01-26';
  var host = window.parent;
  var nextId = 1;
  var pending = {};
  var listeners = {};
  var last = {};
  var hostContext = {};
  var hostCapabilities = {};
  var configNode = document.getElementById('mcp-app-config');
  var config = {};
  try { config = JSON.parse((configNode && configNode.textContent) || '{}') || {}; } catch (e) { config = {}; }

  function post(message) { host.postMessage(message, '*'); }

  function request(method, params) {
    var id = nextId++;
    return new Promise(function (resolve, reject) {
      pending[id] = { resolve: resolve, reject: reject };
      post({ jsonrpc: '2.0', id: id, method: method, params: params || {} });
    });
  }

  function notify(method, params) { post({ jsonrpc: '2.0', method: method, params: params || {} }); }

  function on(method, handler) {
    (listeners[method] = listeners[method] || []).push(handler);
    if (Object.prototype.hasOwnProperty.call(last, method)) handler(last[method]);
  }

  function emit(method, params) {
    last[method] = params;
    (listeners[method] || []).forEach(function (handler) {
      try { handler(params); } catch (error) { console.error(error); }
    });
  }

  function answer(id, result) { post({ jsonrpc: '2.0', id: id, result: result }); }

  function onHostRequest(message) {
    if (message.method === 'ping') return answer(message.id, {});
    if (message.method === 'ui/resource-teardown') {
      emit('teardown', message.params || {});
      return answer(message.id, {});
    }
    post({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found: ' + message.method } });
  }

  function onResponse(message) {
    var waiter = pending[message.id];
    if (!waiter) return;
    delete pending[message.id];
    if (message.error) {
      var error = new Error(message.error.message || 'Request failed');
      error.code = message.error.code;
      error.data = message.error.data;
      waiter.reject(error);
    } else {
      waiter.resolve(message.result);
    }
  }

  window.addEventListener('message', function (event) {
    if (event.source !== host) return;
    var message = event.data;
    if (!message || typeof message !== 'object' || message.jsonrpc !== '2.0') return;
    if (typeof message.method === 'string') {
      if (message.id !== undefined && message.id !== null) onHostRequest(message);
      else receiveNotification(message.method, message.params || {});
    } else if (message.id !== undefined) {
      onResponse(message);
    }
  });

  function receiveNotification(method, params) {
    if (method === 'ui/notifications/host-context-changed') {
      applyHostContext(params);
      emit('hostContext', hostContext);
      return;
    }
    emit(method, params);
  }

  function applyHostContext(context) {
    if (!context || typeof context !== 'object') return;
    Object.keys(context).forEach(function (key) { hostContext[key] = context[key]; });
    var root = document.documentElement;
    if (context.theme === 'light' || context.theme === 'dark') {
      root.style.colorScheme = context.theme;
      root.setAttribute('data-theme', context.theme);
    }
    var styles = context.styles || {};
    var variables = styles.variables || {};
    Object.keys(variables).forEach(function (name) {
      if (name.indexOf('--') === 0 && typeof variables[name] === 'string') {
        root.style.setProperty(name, variables[name]);
      }
    });
    if (styles.css && typeof styles.css.fonts === 'string' && !document.getElementById('mcp-app-fonts')) {
      var fonts = document.createElement('style');
      fonts.id = 'mcp-app-fonts';
      fonts.textContent = styles.css.fonts;
      document.head.appendChild(fonts);
    }
    var dims = context.containerDimensions;
    if (dims && typeof dims === 'object') {
      if (typeof dims.height === 'number') root.style.height = '100vh';
      else if (typeof dims.maxHeight === 'number') root.style.maxHeight = dims.maxHeight + 'px';
      if (typeof dims.width === 'number') root.style.width = '100vw';
      else if (typeof dims.maxWidth === 'number') root.style.maxWidth = dims.maxWidth + 'px';
    }
  }

  var reported = { width: -1, height: -1 };
  var sizeQueued = false;
  function reportSize() {
    sizeQueued = false;
    var root = document.documentElement;
    var width = Math.ceil(root.getBoundingClientRect().width);
    var height = Math.ceil(Math.max(root.scrollHeight, document.body ? document.body.scrollHeight : 0));
    if (width === reported.width && height === reported.height) return;
    reported = { width: width, height: height };
    notify('ui/notifications/size-changed', { width: width, height: height });
  }
  function queueSize() {
    if (sizeQueued) return;
    sizeQueued = true;
    (window.requestAnimationFrame || setTimeout)(reportSize);
  }

  function connect(appInfo) {
    return request('ui/initialize', {
      appInfo: appInfo || { name: 'mcp-bash view', version: '1.0.0' },
      appCapabilities: { availableDisplayModes: ['inline'] },
      protocolVersion: PROTOCOL_VERSION,
    }).then(function (result) {
      result = result || {};
      hostCapabilities = result.hostCapabilities || {};
      applyHostContext(result.hostContext || {});
      notify('ui/notifications/initialized', {});
      if (window.ResizeObserver) new ResizeObserver(queueSize).observe(document.documentElement);
      queueSize();
      emit('hostContext', hostContext);
      return result;
    });
  }

  function textOf(result) {
    return ((result && result.content) || [])
      .filter(function (block) { return block && block.type === 'text'; })
      .map(function (block) { return block.text; })
      .join('\n');
  }

  function dataOf(result) {
    if (!result) return undefined;
    if (result.structuredContent && typeof result.structuredContent === 'object') return result.structuredContent;
    var text = textOf(result).trim();
    if (text === '') return undefined;
    try { return JSON.parse(text); } catch (e) { return undefined; }
  }

  function el(tag, props, children) {
    var node = document.createElement(tag);
    Object.keys(props || {}).forEach(function (key) {
      var value = props[key];
      if (value === undefined || value === null || value === false) return;
      if (key === 'text') node.textContent = String(value);
      else if (key === 'className') node.className = value;
      else if (key.indexOf('on') === 0 && typeof value === 'function') node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? '' : String(value));
    });
    (children || []).forEach(function (child) {
      if (child !== undefined && child !== null) {
        node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
      }
    });
    return node;
  }

  function showMessage(node, text, kind) {
    if (!node) return;
    node.textContent = text;
    node.className = 'message ' + (kind || 'success');
  }

  window.mcpApp = {
    config: config,
    hostContext: hostContext,
    connect: connect,
    request: request,
    notify: notify,
    on: on,
    onToolInput: function (handler) {
      on('ui/notifications/tool-input', function (p) { handler(p.arguments || {}); });
    },
    onToolResult: function (handler) { on('ui/notifications/tool-result', handler); },
    onToolCancelled: function (handler) { on('ui/notifications/tool-cancelled', handler); },
    callTool: function (name, args) { return request('tools/call', { name: name, arguments: args || {} }); },
    hostCapabilities: function () { return hostCapabilities; },
    sendMessage: function (text) {
      return request('ui/message', { role: 'user', content: [{ type: 'text', text: text }] });
    },
    updateModelContext: function (text, structured) {
      // Only hosts that declare it take model context; for the others it is a no-op.
      if (!hostCapabilities.updateModelContext) return Promise.resolve({});
      var params = { content: [{ type: 'text', text: text }] };
      if (structured && typeof structured === 'object') params.structuredContent = structured;
      return request('ui/update-model-context', params);
    },
    log: function (level, data) { notify('notifications/message', { level: level, logger: 'mcp-app', data: data }); },
    textOf: textOf,
    dataOf: dataOf,
    el: el,
    showMessage: showMessage,
  };
})();
