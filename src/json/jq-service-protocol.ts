/**
 * The wire format between the Bash SDK (sdk-sh/lib/jq-service.sh, over bash's /dev/tcp) and
 * the warm built-in jq service. Bash writes NUL-terminated fields with one `printf` and reads
 * line-based replies without starting a process, so the format is shaped by what Bash 3.2
 * can do cheaply:
 *
 *   request   MCPJQ1 \0 TOKEN \0 R \0 CWD \0 ARGC \0 ARG... (each \0-terminated)
 *   server    `S <id>\n` when jq reads stdin: the client then opens a second connection,
 *             sends MCPJQ1 \0 TOKEN \0 I \0 ID \0 followed by the raw stdin, and closes it
 *   or        MCPJQ1 \0 TOKEN \0 D \0 CWD \0 ARGC \0 ARG... DATA \0: the input is DATA (the
 *             SDK's own calls, whose input is a shell variable and so holds no NUL)
 *   or        `F\n`: run this one with the per-call `mcp-bash jq` instead (its --help)
 *   reply     `R <status> <stderr lines> <stderr ends with \n: 1|0> <S|L>\n`, the stderr
 *             text, then stdout until the connection closes. `S`: stdout is short and has no
 *             NUL, so `read -d ''` may take it; `L`: the client copies it with `cat`.
 *
 * Arguments cannot hold NUL (they are C strings), so NUL is a safe terminator.
 */

const MAGIC = 'MCPJQ1';
/** Above this, bash's byte-at-a-time `read` costs more than starting `cat`. */
const SHORT_STDOUT_BYTES = 2048;

export type JqServiceRequest =
  | {
      readonly kind: 'run';
      readonly token: string;
      readonly cwd: string;
      readonly argv: readonly string[];
      /** The input sent along (`D` requests); undefined: ask for stdin if jq reads it. */
      readonly data: string | undefined;
    }
  | { readonly kind: 'input'; readonly token: string; readonly id: string };

/** A header the service cannot accept; the connection is closed without a reply. */
export class ProtocolError extends Error {
  override name = 'ProtocolError';
}

/**
 * Collects NUL-terminated fields from a connection until a request header is complete.
 * `push` returns the request and whatever bytes followed it (stdin of an `input` request),
 * or undefined while more bytes are needed.
 */
export class RequestHeaderReader {
  private pending: Buffer = Buffer.alloc(0);
  private readonly fields: string[] = [];

  constructor(private readonly maxHeaderBytes: number) {}

  push(chunk: Buffer): { request: JqServiceRequest; rest: Buffer } | undefined {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    let start = 0;
    let nul = this.pending.indexOf(0, start);
    while (nul !== -1) {
      this.fields.push(this.pending.toString('utf8', start, nul));
      start = nul + 1;
      const request = this.complete();
      if (request) return { request, rest: this.pending.subarray(start) };
      nul = this.pending.indexOf(0, start);
    }
    this.pending = this.pending.subarray(start);
    if (this.pending.length + this.fieldBytes() > this.maxHeaderBytes) throw new ProtocolError('header too large');
    return undefined;
  }

  private fieldBytes(): number {
    return this.fields.reduce((sum, field) => sum + field.length + 1, 0);
  }

  /** The request once every field it needs has arrived; validates as fields come in. */
  private complete(): JqServiceRequest | undefined {
    const [magic, token, kind, fourth, fifth] = this.fields;
    if (magic !== MAGIC) throw new ProtocolError('not a jq service request');
    if (kind === undefined) return undefined;
    if (token === undefined) return undefined;
    if (kind === 'I') return fourth === undefined ? undefined : { kind: 'input', token, id: fourth };
    if (kind !== 'R' && kind !== 'D') throw new ProtocolError(`unknown request kind ${JSON.stringify(kind)}`);
    if (fifth === undefined || fourth === undefined) return undefined;
    if (!/^\d{1,6}$/.test(fifth)) throw new ProtocolError('bad argument count');
    const argc = Number(fifth);
    const withData = kind === 'D' ? 1 : 0;
    if (this.fields.length < 5 + argc + withData) return undefined;
    const data = withData ? this.fields[5 + argc] : undefined;
    return { kind: 'run', token, cwd: fourth, argv: this.fields.slice(5, 5 + argc), data };
  }
}

/** Options `mcp-bash jq` answers itself (its usage), so the service sends them back. */
export function needsPerCallJq(argv: readonly string[]): boolean {
  for (const arg of argv) {
    if (arg === '--') return false;
    if (arg === '--help' || arg === '-h') return true;
  }
  return false;
}

/** The reply to a finished run (see the module comment). */
export function encodeReply(result: { stdout: string; stderr: string; exitCode: number }): Buffer {
  const stdout = Buffer.from(result.stdout, 'utf8');
  const stderr = Buffer.from(result.stderr, 'utf8');
  const endsWithNewline = stderr.length === 0 || stderr[stderr.length - 1] === 0x0a;
  let lines = 0;
  for (const byte of stderr) if (byte === 0x0a) lines += 1;
  if (!endsWithNewline) lines += 1;
  const short = stdout.length <= SHORT_STDOUT_BYTES && !stdout.includes(0);
  const header = `R ${result.exitCode} ${lines} ${endsWithNewline ? 1 : 0} ${short ? 'S' : 'L'}\n`;
  return Buffer.concat([Buffer.from(header), stderr, stdout]);
}
