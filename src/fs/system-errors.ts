/** A failed system call as Node reports it: ENOSPC, EACCES, ENOTDIR, ... */
export interface SystemError extends Error {
  readonly code: string;
  readonly syscall?: string;
  readonly path?: string;
}

/** Whether `error` is a failed system call (it has an errno code such as ENOSPC). */
export function isSystemError(error: unknown): error is SystemError {
  return (
    error instanceof Error &&
    typeof (error as SystemError).code === 'string' &&
    /^E[A-Z0-9]+$/.test((error as SystemError).code)
  );
}

/** The cause in words with its code: `no space left on device (ENOSPC)`. */
export function systemErrorCause(error: SystemError): string {
  // Node writes "CODE: description, syscall 'path'" (fs) or "CODE, Description 'path'" (cp).
  const description = error.message
    .replace(new RegExp(`^${error.code}[:,]\\s*`), '')
    .replace(/,\s*[a-z]+(\s+'[^']*'(\s*->\s*'[^']*')?)?\s*$/s, '')
    .replace(/\s+'[^']*'\s*$/s, '')
    .trim();
  if (description === '' || description === error.code) return error.code;
  return `${description.charAt(0).toLowerCase()}${description.slice(1)} (${error.code})`;
}

/** One line naming what failed, where and why: `cannot mkdir /tmp/x: no space left on device (ENOSPC)`. */
export function systemErrorLine(error: SystemError): string {
  const what = error.syscall ? `cannot ${error.syscall}` : 'failed';
  return `${what}${error.path ? ` ${error.path}` : ''}: ${systemErrorCause(error)}`;
}
