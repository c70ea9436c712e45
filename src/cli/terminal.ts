/** Colours for human output: only on a TTY, never with NO_COLOR (https://no-color.org). */
export interface Palette {
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  bold(text: string): string;
  dim(text: string): string;
}

export function colorEnabled(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '' && env.FORCE_COLOR !== '0') return true;
  return stream.isTTY === true && env.TERM !== 'dumb';
}

/** The mark of a finding's level: ✗ error, ⚠ warning, ✓ anything else (info, a pass). */
export function levelMark(level: string, colors: Palette): string {
  if (level === 'error') return colors.red('✗');
  return level === 'warning' ? colors.yellow('⚠') : colors.green('✓');
}

export function palette(enabled: boolean): Palette {
  const wrap = (open: number, close: number) => (text: string) =>
    enabled ? `\u001b[${open}m${text}\u001b[${close}m` : text;
  return { red: wrap(31, 39), green: wrap(32, 39), yellow: wrap(33, 39), bold: wrap(1, 22), dim: wrap(2, 22) };
}
