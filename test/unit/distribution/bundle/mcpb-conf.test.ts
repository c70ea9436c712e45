import t from 'tap';
import { MCPB_CONF_KEYS, parseMcpbConf, readMcpbConf } from '../../../../src/distribution/bundle/mcpb-conf.js';

t.test('KEY="value" lines in every form sh reads without running anything', async (t) => {
  const conf = parseMcpbConf(
    [
      '# a comment',
      '',
      'MCPB_NAME="my-server"',
      'MCPB_DESCRIPTION=\'Says "hi" $literally\'',
      'export MCPB_LICENSE=MIT',
      '  MCPB_VERSION="1.2.3"   # trailing comment',
      'MCPB_KEYWORDS="a b"\'c\'d',
      'MCPB_AUTHOR_NAME="Back\\\\slash \\"quoted\\" \\$ \\` and \\n kept"',
      'MCPB_INCLUDE=',
      'MCPB_HOMEPAGE=https://example.com/a?b=c',
    ].join('\n'),
    'mcpb.conf',
  );
  t.same(Object.fromEntries(conf.values), {
    MCPB_NAME: 'my-server',
    MCPB_DESCRIPTION: 'Says "hi" $literally',
    MCPB_LICENSE: 'MIT',
    MCPB_VERSION: '1.2.3',
    MCPB_KEYWORDS: 'a bcd',
    MCPB_AUTHOR_NAME: 'Back\\slash "quoted" $ ` and \\n kept',
    MCPB_INCLUDE: '',
    MCPB_HOMEPAGE: 'https://example.com/a?b=c',
  });
  t.same(conf.warnings, []);
});

t.test('every 1.x key is read; others are ignored with a warning naming the line', async (t) => {
  const text = MCPB_CONF_KEYS.map((key) => `${key}="v-${key}"`).join('\n');
  const conf = parseMcpbConf(`${text}\nOTHER_KEY="x"\r\n`, 'mcpb.conf');
  t.equal(conf.values.size, 22, 'all 22 keys');
  for (const key of MCPB_CONF_KEYS) t.equal(conf.values.get(key), `v-${key}`, key);
  t.same(conf.warnings, [`mcpb.conf line ${MCPB_CONF_KEYS.length + 1}: unknown key OTHER_KEY; ignored`]);
  t.equal(
    parseMcpbConf('MCPB_NAME="a"\nMCPB_NAME="b"\n', 'x').values.get('MCPB_NAME'),
    'b',
    'the last assignment wins, as in sh',
  );
});

t.test('a line only a shell could evaluate is an error naming the line', async (t) => {
  const cases: Array<[string, RegExp]> = [
    ['MCPB_VERSION="$(cat VERSION)"', /"\$" expands only in a shell/],
    ['MCPB_NAME="$NAME"', /"\$" expands only in a shell/],
    ['MCPB_NAME=`hostname`', /"`" means something to a shell/],
    ['MCPB_NAME="a" ; rm -rf /', /would run as a command/],
    ['MCPB_NAME=two words', /"words" after the value would run as a command/],
    ['MCPB_NAME="unclosed', /not closed on this line/],
    ["MCPB_NAME='unclosed", /not closed on this line/],
    ['MCPB_NAME = "spaced"', /not a KEY="value" assignment/],
    ['source other.conf', /not a KEY="value" assignment/],
    ['MCPB_NAME=a&b', /"&" means something to a shell/],
  ];
  for (const [line, reason] of cases) {
    t.throws(
      () => parseMcpbConf(`# header\n${line}\n`, 'mcpb.conf'),
      {
        message: new RegExp(`^mcpb\\.conf line 2 needs a shell to evaluate \\(.*${reason.source}.*\\): `),
        exitCode: 1,
      },
      line,
    );
  }
});

t.test('a project without mcpb.conf has an empty configuration', async (t) => {
  const dir = t.testdir({});
  t.same(readMcpbConf(dir).values.size, 0);
  const withConf = t.testdir({ 'mcpb.conf': 'MCPB_NAME=x\n' });
  t.equal(readMcpbConf(withConf).values.get('MCPB_NAME'), 'x');
});
