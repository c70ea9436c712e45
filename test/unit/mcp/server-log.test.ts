import { PassThrough } from 'node:stream';
import t from 'tap';
import { ServerLog } from '../../../src/mcp/logging.js';
import type { LoggingMessageParams } from '../../../src/spec/types.js';

function setup(level: 'debug' | 'info' | 'error' = 'info') {
  const stderr = new PassThrough();
  let text = '';
  stderr.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  const log = new ServerLog({ stderr, level, quiet: false, timestamps: false });
  const sent: LoggingMessageParams[] = [];
  log.attachClient((params) => sent.push(params));
  return { log, sent, stderr: () => text };
}

t.test('stderr keeps the start-up level whatever level the client sets', async (t) => {
  const { log, sent, stderr } = setup('info');
  log.level = 'emergency';
  log.error('mcp.rpc', 'handler blew up: TypeError: boom');
  t.same(sent, [], 'nothing reaches a client at emergency');
  t.match(stderr(), /error: mcp\.rpc: handler blew up: TypeError: boom/);
  log.toStderr('warning', 'mcp.rpc', 'engine diagnostic');
  t.match(stderr(), /engine diagnostic/, 'engine diagnostics too');
});

t.test('a client at debug gets debug messages; stderr at info does not', async (t) => {
  const { log, sent, stderr } = setup('info');
  log.level = 'debug';
  log.debug('mcp.tools', 'detail');
  t.same(sent, [{ level: 'debug', logger: 'mcp.tools', data: 'detail' }]);
  t.equal(stderr(), '');
});
