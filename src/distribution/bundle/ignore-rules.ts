import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Left out of every bundle: what the official `mcpb pack` leaves out (secrets in `.env*`,
 * logs, earlier bundles, package-manager and build litter), and private keys.
 * `.mcpbignore` comes after these, so a `!pattern` there takes one back.
 */
const DEFAULT_IGNORES = (
  '.DS_Store Thumbs.db .gitignore .git .mcpbignore *.log .env* .npm .npmrc .yarnrc .yarn .eslintrc .editorconfig ' +
  '.prettierrc .prettierignore .eslintignore .nycrc .babelrc .pnp.* node_modules/.cache node_modules/.bin *.map ' +
  'npm-debug.log* yarn-debug.log* yarn-error.log* package-lock.json yarn.lock *.mcpb *.d.ts *.tsbuildinfo ' +
  'tsconfig.json id_rsa id_dsa id_ecdsa id_ed25519 *.pem *.key *.p12 *.pfx'
).split(' ');

interface Rule {
  readonly pattern: string;
  readonly source: string;
  readonly negated: boolean;
  readonly directoryOnly: boolean;
  readonly regex: RegExp;
}

function escapeRegex(char: string): string {
  return /[\\^$.*+?()[\]{}|/]/.test(char) ? `\\${char}` : char;
}

/** A character class `[...]` starting at `start`, as a regex, and where it ends; undefined if unclosed. */
function charClass(glob: string, start: number): { regex: string; end: number } | undefined {
  const close = glob.indexOf(']', start + 2);
  if (close === -1) return undefined;
  let body = glob.slice(start + 1, close);
  if (body.startsWith('!')) body = `^${body.slice(1)}`;
  return { regex: `[${body.replace(/\\/g, '\\\\')}]`, end: close };
}

/** gitignore's glob language: `*`, `?`, `[...]`, `**` across folders, `\` escapes. */
function globToRegex(glob: string): string {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i] as string;
    if (char === '*' && glob[i + 1] === '*') {
      const slashAfter = glob[i + 2] === '/';
      out += slashAfter ? '(?:.*/)?' : '.*';
      i += slashAfter ? 2 : 1;
    } else if (char === '*') out += '[^/]*';
    else if (char === '?') out += '[^/]';
    else if (char === '\\' && i + 1 < glob.length) out += escapeRegex(glob[++i] as string);
    else if (char === '[' && charClass(glob, i)) {
      const cls = charClass(glob, i) as { regex: string; end: number };
      out += cls.regex;
      i = cls.end;
    } else out += escapeRegex(char);
  }
  return out;
}

function parseRule(line: string, source: string): Rule | undefined {
  let pattern = line.trim();
  if (pattern === '' || pattern.startsWith('#')) return undefined;
  const negated = pattern.startsWith('!');
  if (negated) pattern = pattern.slice(1);
  if (pattern.startsWith('\\#') || pattern.startsWith('\\!')) pattern = pattern.slice(1);
  const directoryOnly = pattern.endsWith('/');
  const body = pattern.replace(/\/+$/, '');
  if (body === '') return undefined;
  // A slash before the end anchors the pattern to the project root; else it matches at any depth.
  const anchored = body.includes('/');
  const glob = globToRegex(body.replace(/^\//, ''));
  const regex = new RegExp(`^${anchored ? '' : '(?:.*/)?'}${glob}$`);
  return { pattern: line.trim(), source, negated, directoryOnly, regex };
}

/** Why a path is left out: the pattern and where it came from. */
export interface IgnoreMatch {
  readonly pattern: string;
  /** `the default exclusions` or `.mcpbignore line <n>`. */
  readonly source: string;
}

/** The default exclusions and a project's `.mcpbignore`, in gitignore's syntax: the last match wins. */
export class IgnoreRules {
  private readonly rules: Rule[] = [];

  constructor(mcpbignore: string | undefined) {
    for (const pattern of DEFAULT_IGNORES) this.push(parseRule(pattern, 'the default exclusions'));
    const lines = mcpbignore?.split(/\r?\n/) ?? [];
    lines.forEach((line, index) => {
      this.push(parseRule(line, `.mcpbignore line ${index + 1}`));
    });
  }

  private push(rule: Rule | undefined): void {
    if (rule) this.rules.push(rule);
  }

  /** The rule that leaves `rel` (a project-relative path, `/`-separated) out, or undefined. */
  match(rel: string, isDirectory: boolean): IgnoreMatch | undefined {
    let found: Rule | undefined;
    for (const rule of this.rules) {
      if (rule.directoryOnly && !isDirectory) continue;
      if (rule.regex.test(rel)) found = rule;
    }
    return found && !found.negated ? { pattern: found.pattern, source: found.source } : undefined;
  }
}

/** The rules of the project at `root`: the defaults and its `.mcpbignore`, when it has one. */
export function projectIgnoreRules(root: string): IgnoreRules {
  let text: string | undefined;
  try {
    text = readFileSync(join(root, '.mcpbignore'), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  return new IgnoreRules(text);
}
