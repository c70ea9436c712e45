import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { bashScriptCommand } from '../../../src/process/script-command.js';
import { redactTrace } from '../../../src/runner/trace-redaction.js';

t.test('Bash scripts for tracing: through bash anyway, or a bash shebang (options kept)', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpbash-shebang-'));
  const script = (name: string, text: string, mode = 0o755) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    chmodSync(path, mode);
    return path;
  };
  const env = script('env.sh', '#!/usr/bin/env bash\n');
  t.same(bashScriptCommand(env), { command: 'bash', args: [env] });
  const options = script('opts', '#!/bin/bash -eu\n');
  t.same(bashScriptCommand(options), { command: 'bash', args: ['-eu', options] });
  const envS = script('envs', '#!/usr/bin/env -S bash -e\n');
  t.same(bashScriptCommand(envS), { command: 'bash', args: ['-e', envS] });
  const plain = script('plain.sh', 'echo hi\n', 0o644);
  t.same(bashScriptCommand(plain), { command: 'bash', args: [plain] });
  t.equal(bashScriptCommand(script('sh', '#!/bin/sh\n')), undefined, 'sh is not bash');
  t.equal(bashScriptCommand(script('py', '#!/usr/bin/env python3\n')), undefined);
});

t.test('trace redaction: values of *TOKEN*, *SECRET*, *PASSWORD*, *KEY* variables', async (t) => {
  const trace = [
    '+ API_TOKEN=supersecret',
    "+ export 'DB_PASSWORD=two words'",
    "+ local 'my_key=it'\\''s'",
    "+ SECRET=$'a\\tb' other=visible",
    '+ curl -H x API_KEY=abc;NEXT=1',
    "+ x='it'\\''s'",
  ].join('\n');
  t.equal(
    redactTrace(trace),
    [
      '+ API_TOKEN=[REDACTED]',
      "+ export 'DB_PASSWORD=[REDACTED]'",
      "+ local 'my_key=[REDACTED]'",
      '+ SECRET=[REDACTED] other=visible',
      '+ curl -H x API_KEY=[REDACTED];NEXT=1',
      "+ x='it'\\''s'",
    ].join('\n'),
  );
});
