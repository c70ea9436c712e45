import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { newProject, sharedCliEnv } from '../../helpers/cli-projects.js';
import { validateJson } from '../../helpers/validate-report.js';

const env = sharedCliEnv();

t.test('scripts with CRLF line endings are errors naming the fix; --fix leaves their content alone', async (t) => {
  const root = await newProject(t, env);
  const crlf = (text: string) => text.replace(/\n/g, '\r\n');
  const tool = join(root, 'tools/hello/tool.sh');
  writeFileSync(tool, crlf(readFileSync(tool, 'utf8')));
  writeFileSync(join(root, 'tools/hello/lib.sh'), crlf('#!/usr/bin/env bash\nhelper() { :; }\n'), { mode: 0o644 });
  writeFileSync(join(root, 'server.d/policy.sh'), crlf('mcp_tools_policy_check() { return 0; }\n'), {
    mode: 0o644,
  });
  mkdirSync(join(root, 'providers'));
  writeFileSync(join(root, 'providers/echo2.sh'), crlf('#!/usr/bin/env bash\nprintf "%s" "$1"\n'), { mode: 0o755 });
  const before = readFileSync(tool);
  const { code, report } = await validateJson(t, env, root, ['--fix']);
  t.equal(code, 1, 'CRLF fails validation');
  const crlfErrors = report.messages.filter((m) => m.level === 'error' && /CRLF/.test(m.message));
  t.same(
    crlfErrors.map((m) => [m.section, m.file]).sort(),
    [
      ['registrations', 'server.d/policy.sh'],
      ['resources', 'providers/echo2.sh'],
      ['tools', 'tools/hello/lib.sh'],
      ['tools', 'tools/hello/tool.sh'],
    ],
    'tool scripts, their helpers, hooks and providers are checked',
  );
  t.match(
    crlfErrors.find((m) => m.file === 'tools/hello/tool.sh')?.message,
    /bash\\r: No such file or directory.*sed -i 's\/\\r\$\/\/' tools\/hello\/tool\.sh \(or dos2unix tools\/hello\/tool\.sh\)/,
    'the message names the symptom and the fix',
  );
  t.same(readFileSync(tool), before, '--fix does not rewrite the script');
  t.equal(report.fixesApplied, 0);
});
