import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { scriptCommand } from '../../../src/process/script-command.js';

t.test('how a project script starts', { skip: process.platform === 'win32' ? 'bash always' : false }, async (t) => {
  const dir = t.testdir();
  const script = (name: string, text: string, mode = 0o755) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    chmodSync(path, mode);
    return path;
  };
  const envBash = script('env-bash.sh', '#!/usr/bin/env bash\nprintf ok\n');
  t.same(scriptCommand(envBash), { command: 'bash', args: [envBash] }, '#!/usr/bin/env bash: bash from PATH');
  const binBash = script('bin-bash.sh', '#!/bin/bash  \nprintf ok\n');
  t.same(scriptCommand(binBash), { command: '/bin/bash', args: [binBash] }, '#!/bin/bash');
  for (const [name, line] of [
    ['options.sh', '#!/bin/bash -e'],
    ['sh.sh', '#!/bin/sh'],
    ['crlf.sh', '#!/usr/bin/env bash\r'],
    ['env-s.sh', '#!/usr/bin/env -S bash -e'],
  ]) {
    const path = script(name as string, `${line}\nprintf ok\n`);
    t.same(scriptCommand(path), { command: path, args: [] }, `${JSON.stringify(line)}: the kernel decides`);
  }
  const noShebang = script('plain.sh', 'printf ok\n');
  t.same(scriptCommand(noShebang), { command: 'bash', args: [noShebang] }, 'no shebang: bash');
  const notExecutable = script('noexec.sh', '#!/bin/sh\nprintf ok\n', 0o644);
  t.same(scriptCommand(notExecutable), { command: 'bash', args: [notExecutable] }, 'not executable: bash');
});
