/**
 * Node's warning when FORCE_COLOR and NO_COLOR (and perhaps NODE_DISABLE_COLORS) are both
 * set: "The 'NO_COLOR' env is ignored due to the 'FORCE_COLOR' env being set."
 */
const IGNORED_NO_COLOR =
  /^The '(?:NODE_DISABLE_COLORS' and ')?NO_COLOR' env is ignored due to the 'FORCE_COLOR' env being set\.$/;

type EmitWarning = (warning: string | Error, ...rest: unknown[]) => void;

/**
 * Drops Node's "NO_COLOR is ignored" warning, which Node prints on stderr the first time
 * anything asks for the colour depth with both variables set. Our rule is the reverse (NO_COLOR
 * wins: cli/terminal.ts), so the warning would only mislead. Every other warning passes on
 * unchanged. Call it before anything can ask for the colour depth.
 */
export function dropIgnoredNoColorWarning(target: { emitWarning: EmitWarning } = process as never): void {
  const emitWarning = target.emitWarning;
  target.emitWarning = (warning, ...rest) => {
    const message = typeof warning === 'string' ? warning : warning.message;
    if (IGNORED_NO_COLOR.test(message)) return;
    emitWarning.call(target, warning, ...rest);
  };
}
