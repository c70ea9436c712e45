/**
 * Names whose values count as secrets in a kept trace: anything containing TOKEN, SECRET,
 * PASSWORD, PASSWD or KEY, in any case (`API_TOKEN`, `db_password`, `sshKey`).
 */
const SECRET_NAME = '(?=[A-Za-z_])[A-Za-z0-9_]*?(?:TOKEN|SECRET|PASSWORD|PASSWD|KEY)[A-Za-z0-9_]*';

/** xtrace quotes whole words of declaration builtins: `export 'DB_PASSWORD=two words'`. */
const QUOTED_WORD = new RegExp(`'(${SECRET_NAME})(\\+?=)(?:[^']|'\\\\'')*'`, 'gi');

/**
 * A plain assignment: `API_KEY=abc`, `API_KEY='a b'`, `API_KEY='it'\''s'`, `API_KEY=$'a\tb'`.
 * The value runs to the first unquoted blank or command separator.
 */
const ASSIGNMENT = new RegExp(
  `(^|[\\s;&|(])(${SECRET_NAME})(\\+?=)` +
    `(?:'[^']*'|\\$'(?:[^'\\\\]|\\\\.)*'|"(?:[^"\\\\]|\\\\.)*"|\\\\.|[^\\s;&|()'"\\\\])+`,
  'gim',
);

const REDACTED = '[REDACTED]';

/**
 * Hides the values of secret-looking variables in xtrace output, as `NAME=[REDACTED]`. Only
 * `NAME=value` patterns are recognised: a secret expanded into a command line under another
 * name stays visible, which is why the SDK also turns xtrace off around payloads.
 */
export function redactTrace(text: string): string {
  return text
    .replace(QUOTED_WORD, (_match, name: string, operator: string) => `'${name}${operator}${REDACTED}'`)
    .replace(
      ASSIGNMENT,
      (_match, before: string, name: string, operator: string) => `${before}${name}${operator}${REDACTED}`,
    );
}
