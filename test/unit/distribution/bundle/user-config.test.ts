import t from 'tap';
import { planUserConfig, type UserConfigInput } from '../../../../src/distribution/bundle/user-config.js';

const base = { title: 'T', description: 'D' };
const plan = (input: Partial<UserConfigInput>) =>
  planUserConfig({ userConfig: undefined, source: 'test', envMap: undefined, argsMap: undefined, ...input });

t.test('valid entries of every type, with their maps', async (t) => {
  const userConfig = {
    api_key: { ...base, type: 'string', sensitive: true, required: true, default: 'x' },
    limit: { ...base, type: 'number', min: 1, max: 10, default: 5 },
    verbose: { ...base, type: 'boolean', default: false },
    workspace: { ...base, type: 'directory', multiple: true, default: ['${HOME}/a', '${HOME}/b'] },
    config: { ...base, type: 'file', default: '${HOME}/c.json' },
  };
  const result = plan({ userConfig, envMap: 'api_key=API_KEY, limit=LIMIT', argsMap: 'workspace,config' });
  t.same(result.userConfig, userConfig);
  t.same(result.envMap, [
    ['api_key', 'API_KEY'],
    ['limit', 'LIMIT'],
  ]);
  t.same(result.argsKeys, ['workspace', 'config']);
  t.same(result.warnings, []);
  t.same(plan({ userConfig, envMap: { verbose: 'MCPBASH_LOG_VERBOSE' } }).warnings, [
    'env map: verbose sets MCPBASH_LOG_VERBOSE, which configures mcp-bash itself',
  ]);
  t.same(plan({}).userConfig, undefined, 'no user_config at all');
});

t.test('every rule violation is reported, together, naming the entry', async (t) => {
  const cases: Array<[Record<string, unknown>, RegExp]> = [
    [{ a: { ...base, type: 'url' } }, /user_config\.a: type must be one of string, number, boolean, directory, file/],
    [{ a: { type: 'string', description: 'D' } }, /user_config\.a: needs a title/],
    [{ a: { type: 'string', title: 'T' } }, /user_config\.a: needs a description \(MCPB requires one\)/],
    [{ a: { ...base, type: 'number', sensitive: true } }, /user_config\.a: sensitive is only for type string/],
    [{ a: { ...base, type: 'string', multiple: true } }, /user_config\.a: multiple is only for type directory or file/],
    [{ a: { ...base, type: 'string', min: 1 } }, /user_config\.a: min is only for type number/],
    [{ a: { ...base, type: 'number', min: 5, max: 1 } }, /user_config\.a: min is greater than max/],
    [{ a: { ...base, type: 'number', default: 'five' } }, /user_config\.a: default must be a number/],
    [{ a: { ...base, type: 'number', max: 3, default: 4 } }, /user_config\.a: default must be at most max \(3\)/],
    [{ a: { ...base, type: 'number', min: 3, default: 2 } }, /default must be at least min \(3\)/],
    [{ a: { ...base, type: 'boolean', default: 'yes' } }, /default must be true or false/],
    [{ a: { ...base, type: 'string', default: 1 } }, /default must be a string/],
    [{ a: { ...base, type: 'file', default: ['x'] } }, /default must be a path \(a string\)/],
    [{ a: { ...base, type: 'string', required: 'yes' } }, /required must be true or false/],
    [{ a: { ...base, type: 'string', secret: true } }, /unknown field "secret"/],
    [{ 'a=b': { ...base, type: 'string' } }, /user_config\.a=b: a key must not be empty or contain "=", ","/],
    [{ 'a,b': { ...base, type: 'string' } }, /user_config\.a,b: a key must not/],
    [{ a: 'string' }, /user_config\.a: must be an object/],
  ];
  for (const [userConfig, message] of cases) {
    t.throws(() => plan({ userConfig }), { message, exitCode: 1 }, message.source);
  }
  t.throws(() => plan({ userConfig: [] }), { message: /user_config must be an object of entries/ });
  t.throws(
    () => plan({ userConfig: { a: { type: 'x' }, b: { ...base, type: 'number', default: true } } }),
    { message: /type must be one of[\s\S]*needs a title[\s\S]*user_config\.b: default must be a number/ },
    'all problems at once',
  );
});

t.test('env and args maps: keys must exist, targets must be unique POSIX names', async (t) => {
  const userConfig = { a: { ...base, type: 'string' }, b: { ...base, type: 'string' } };
  const cases: Array<[Partial<UserConfigInput>, RegExp]> = [
    [{ envMap: 'c=C' }, /env map: "c" is not a user_config key/],
    [{ envMap: 'a=1BAD' }, /env map: "1BAD" \(for a\) is not a valid environment variable name/],
    [{ envMap: 'a=X-Y' }, /"X-Y" \(for a\) is not a valid environment variable name/],
    [{ envMap: 'a=SAME,b=SAME' }, /env map: SAME is the target of more than one key/],
    [{ envMap: 'a' }, /env map entry "a" is not key=ENV_NAME/],
    [{ envMap: 42 }, /the user_config env map must be/],
    [{ argsMap: 'a,zzz' }, /args map: "zzz" is not a user_config key/],
    [{ argsMap: { a: true } }, /the user_config args map must be/],
  ];
  for (const [input, message] of cases) t.throws(() => plan({ userConfig, ...input }), { message }, message.source);
});
