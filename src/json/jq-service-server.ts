import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { runJqInvocation } from './jq-invocation.js';
import {
  encodeReply,
  type JqServiceRequest,
  needsPerCallJq,
  ProtocolError,
  RequestHeaderReader,
} from './jq-service-protocol.js';
import type { JqEngine } from './jq-wasm.js';

export interface JqServiceOptions {
  /** The shared secret every request must carry (the tools get it in MCPBASH_JQ_SERVICE). */
  readonly token: string;
  /** Loads the engine on the first request, so an unused service costs no WebAssembly. */
  readonly engine: () => Promise<JqEngine>;
  /** A connection that has not sent its whole header by then is dropped. */
  readonly headerTimeoutMs?: number;
  /** How long a run waits for its stdin connection. */
  readonly inputTimeoutMs?: number;
  readonly maxHeaderBytes?: number;
  readonly maxInputBytes?: number;
}

interface PendingInput {
  resolve(text: string): void;
  reject(error: Error): void;
}

const sameToken = (expected: Buffer, given: string): boolean => {
  const candidate = Buffer.from(given);
  return candidate.length === expected.length && timingSafeEqual(candidate, expected);
};

/**
 * The warm built-in jq for tools on hosts without jq or gojq: a loopback TCP server that
 * runs jq command lines on one WebAssembly jq instance. Only holders of the token (the
 * server's own tools, which get it in their environment) are served; anything else is
 * dropped without a reply. Runs one jq at a time: each run takes milliseconds.
 */
export class JqService {
  private readonly server: Server;
  private readonly expected: Buffer;
  private readonly inputs = new Map<string, PendingInput>();
  private enginePromise: Promise<JqEngine> | undefined;

  constructor(private readonly options: JqServiceOptions) {
    this.expected = Buffer.from(options.token);
    this.server = createServer((socket) => this.accept(socket));
  }

  /** Listens on 127.0.0.1 (a free port) and resolves with the port. */
  listen(): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen({ host: '127.0.0.1', port: 0 }, () => {
        const address = this.server.address();
        resolve(typeof address === 'object' && address ? address.port : 0);
      });
    });
  }

  close(): void {
    this.server.close();
    for (const pending of this.inputs.values()) pending.reject(new Error('service closed'));
    this.inputs.clear();
  }

  private accept(socket: Socket): void {
    const reader = new RequestHeaderReader(this.options.maxHeaderBytes ?? 16 * 1024 * 1024);
    // Replies are small and the client waits on each: no Nagle delay.
    socket.setNoDelay(true);
    socket.setTimeout(this.options.headerTimeoutMs ?? 10_000, () => socket.destroy());
    socket.on('error', () => socket.destroy());
    const onData = (chunk: Buffer) => {
      let header: ReturnType<RequestHeaderReader['push']>;
      try {
        header = reader.push(chunk);
      } catch (error) {
        if (error instanceof ProtocolError) socket.destroy();
        return;
      }
      if (!header) return;
      socket.off('data', onData);
      socket.setTimeout(0);
      if (!sameToken(this.expected, header.request.token)) {
        socket.destroy();
        return;
      }
      this.handle(socket, header.request, header.rest);
    };
    socket.on('data', onData);
  }

  private handle(socket: Socket, request: JqServiceRequest, rest: Buffer): void {
    if (request.kind === 'input') {
      this.receiveInput(socket, request.id, rest);
      return;
    }
    if (needsPerCallJq(request.argv)) {
      socket.end('F\n');
      return;
    }
    void this.run(socket, request).catch((error: Error) => {
      socket.end(encodeReply({ stdout: '', stderr: `jq: error: ${error.message}\n`, exitCode: 2 }));
    });
  }

  private async run(socket: Socket, request: Extract<JqServiceRequest, { kind: 'run' }>): Promise<void> {
    this.enginePromise ??= this.options.engine();
    const engine = await this.enginePromise;
    const result = await runJqInvocation(engine, {
      argv: request.argv,
      cwd: request.cwd,
      readStdin: () => (request.data === undefined ? this.askForInput(socket) : Promise.resolve(request.data)),
    });
    socket.end(encodeReply(result));
  }

  /** Tells the client to send stdin on a second connection, and waits for all of it. */
  private askForInput(socket: Socket): Promise<string> {
    const id = randomBytes(12).toString('hex');
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.inputs.delete(id);
        reject(new Error('standard input did not arrive'));
      }, this.options.inputTimeoutMs ?? 30_000);
      timer.unref();
      const settle = () => {
        clearTimeout(timer);
        this.inputs.delete(id);
      };
      this.inputs.set(id, {
        resolve: (text) => {
          settle();
          resolve(text);
        },
        reject: (error) => {
          settle();
          reject(error);
        },
      });
      socket.write(`S ${id}\n`);
    });
  }

  private receiveInput(socket: Socket, id: string, first: Buffer): void {
    const pending = this.inputs.get(id);
    if (!pending) {
      socket.destroy();
      return;
    }
    const limit = this.options.maxInputBytes ?? 256 * 1024 * 1024;
    const chunks: Buffer[] = first.length > 0 ? [first] : [];
    let size = first.length;
    socket.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        pending.reject(new Error(`standard input is larger than ${limit} bytes`));
        socket.destroy();
        return;
      }
      chunks.push(chunk);
    });
    socket.on('end', () => {
      pending.resolve(Buffer.concat(chunks).toString('utf8'));
      socket.end();
    });
  }
}
