import t from 'tap';
import { inlineHeader } from '../../../src/project/tools/tool-discovery.js';

t.test('an inline "# mcp:" header is a JSON object; any other line that starts like one is a warning', async (t) => {
  const read = (line: string) => {
    const warnings: string[] = [];
    const header = inlineHeader(`#!/usr/bin/env bash\n${line}\necho hi\n`, 'tools/x/tool.sh', warnings);
    return { header, warnings };
  };
  t.same(read('# mcp: {"name":"x","description":"d"}'), { header: { name: 'x', description: 'd' }, warnings: [] });
  t.same(read('  #mcp:{"name":"x"}  '), { header: { name: 'x' }, warnings: [] }, 'spacing as 1.x allowed');
  for (const bad of ['# mcp: [1,2]', '# mcp: {"name":"x"', '# mcp: {"description": oops}', '# mcp: null', '# mcp:']) {
    t.same(
      read(bad),
      { header: undefined, warnings: ['tools/x/tool.sh: the "# mcp:" header is not a JSON object; ignored'] },
      bad,
    );
  }
  t.same(read('# not a header: mcp: {}'), { header: undefined, warnings: [] }, 'only lines that start with "# mcp:"');
});
