import { text } from 'node:stream/consumers';
import { runJqInvocation } from '../../json/jq-invocation.js';
import { loadBuiltinJq } from '../builtin-jq.js';
import type { RawCommand } from '../command.js';

export const command: RawCommand = {
  name: 'jq',
  summary: 'Run jq 1.8 (built in; tools use it when neither jq nor gojq is installed)',
  usage: 'mcp-bash jq [options] FILTER [FILE...]',
  options: 'any',
  details: [
    'The real jq 1.8.2, compiled to WebAssembly, with its own options and exit statuses',
    '(see `man jq`), e.g. -r -c -n -e -s -R -j -a -S --arg --argjson --args --jsonargs',
    '--slurpfile --rawfile -f --tab --indent N. Input comes from the FILEs or stdin.',
  ].join('\n'),
  async run(argv, context) {
    const { io } = context;
    const engine = await loadBuiltinJq(context.frameworkHome().root);
    const result = await runJqInvocation(engine, { argv, cwd: io.cwd, readStdin: () => text(io.stdin) });
    io.stdout.write(result.stdout);
    io.stderr.write(result.stderr);
    return result.exitCode;
  },
};
