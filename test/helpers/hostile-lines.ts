/**
 * A seeded generator of hostile JSON-RPC input lines, each with the replies it must get: the
 * exact JSON text of the id of every reply (`null` included), none for notifications and
 * responses. Ids are unique, so "answered exactly once" can be checked by counting.
 */

/** One generated input line and the ids (as JSON text) its replies must carry. */
export interface HostileLine {
  readonly kind: string;
  readonly bytes: Buffer;
  readonly expect: readonly string[];
}

/** One message inside a line (alone or in a batch). */
interface Element {
  readonly text: Buffer;
  readonly expect: readonly string[];
}

/** mulberry32: small, fast, and the same sequence for the same seed everywhere. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const ANSWERED_METHODS = [
  'ping',
  'tools/list',
  'resources/list',
  'resources/templates/list',
  'prompts/list',
  'initialize',
  'exit',
  'completion/complete',
  'logging/setLevel',
  'no/such/method',
];
const NOTIFICATIONS = [
  'notifications/initialized',
  'notifications/roots/list_changed',
  'notifications/progress',
  'x/y',
];
const GARBAGE = 'abcxyz0123456789{}[]:,.-+ \t\\\u00e9\u4e2d';

export class HostileLines {
  private serial = 0;

  constructor(
    private readonly random: () => number,
    /** MCPBASH_MAX_MESSAGE_BYTES of the server under test. */
    private readonly maxLineBytes: number,
  ) {}

  private int(below: number): number {
    return Math.floor(this.random() * below);
  }

  private pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }

  /** A fresh id as JSON text, in one of the forms a client may write. */
  private id(): string {
    const n = (this.serial += 1);
    return this.pick([
      `"q-${n}"`,
      `${n}`,
      `-${n}`,
      `${n}${'7'.repeat(20 + (n % 20))}`,
      `${n}.0`,
      `${n}.25`,
      `${n}e0`,
      `"${'w'.repeat(n % 300)}-${n}"`,
    ]);
  }

  private nested(levels: number): string {
    return `${'['.repeat(levels)}${this.pick(['1', '"x"', '{}', 'null'])}${']'.repeat(levels)}`;
  }

  /** Params as bytes: ordinary, huge, with escaped NULs, invalid UTF-8 or deep nesting. */
  private params(method: string): Buffer {
    if (method === 'logging/setLevel' && this.random() < 0.7)
      return Buffer.from(`{"level":"${this.pick(['debug', 'error', 'loud'])}"}`);
    switch (this.int(7)) {
      case 0:
        return Buffer.from('{}');
      case 1:
        return Buffer.from(`{"s":"${'y'.repeat(1000 + this.int(20_000))}"}`);
      case 2:
        return Buffer.from('{"s":"a\\u0000b\\u0000","_meta":{"progressToken":"t"}}');
      case 3:
        return Buffer.concat([
          Buffer.from('{"s":"a'),
          Buffer.from([0xff, 0xc3, 0x28, 0xed, 0xa0, 0x80]),
          Buffer.from('z"}'),
        ]);
      case 4:
        return Buffer.from(`{"deep":${this.nested(this.pick([10, 200, 252, 253, 300, 3000, 6000]))}}`);
      case 5:
        return Buffer.from('[1,2,3]');
      default:
        return Buffer.from(
          `{"cursor":${this.pick(['"junk"', '7', 'null'])},"name":"x","ref":{"type":"ref/prompt","name":"x"}}`,
        );
    }
  }

  /** A request that must be answered exactly once, under its id (a message too deep is refused under it). */
  private request(): Element {
    const id = this.id();
    const method = this.pick(ANSWERED_METHODS);
    const head = Buffer.from(`{"jsonrpc":"2.0","id":${id},"method":"${method}"`);
    const text =
      this.random() < 0.3
        ? Buffer.concat([head, Buffer.from('}')])
        : Buffer.concat([head, Buffer.from(',"params":'), this.params(method), Buffer.from('}')]);
    return { text, expect: [id] };
  }

  /** Something never answered: a notification (malformed or deep ones too) or a response. */
  private silent(): Element {
    const n = (this.serial += 1);
    const text = this.pick([
      `{"jsonrpc":"2.0","method":"${this.pick(NOTIFICATIONS)}"}`,
      `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"nc-${n}"}}`,
      `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":${n}${'3'.repeat(25)}}}`,
      `{"jsonrpc":"2.0","method":7}`,
      `{"jsonrpc":"1.0","method":"x"}`,
      `{"jsonrpc":"2.0","method":"x","params":"scalar"}`,
      `{"jsonrpc":"2.0","method":"x","params":{"d":${this.nested(5000)}}}`,
      `{"jsonrpc":"2.0","id":"r-${n}","result":{}}`,
      `{"jsonrpc":"2.0","id":${n}${'1'.repeat(30)},"error":{"code":-1,"message":"no"}}`,
      `{"jsonrpc":"2.0","id":"r-${n}","result":${this.nested(4000)}}`,
    ]);
    return { text: Buffer.from(text), expect: [] };
  }

  /** Invalid messages: answered with -32600 under their id when it is usable, else null. */
  private invalid(): Element {
    const id = this.id();
    const [text, expect] = this.pick<[string, string]>([
      [`{"jsonrpc":"1.0","id":${id},"method":"ping"}`, id],
      [`{"jsonrpc":"2.0","id":${id},"method":"ping","params":"scalar"}`, id],
      [`{"jsonrpc":"2.0","id":${id},"method":7}`, id],
      [`{"jsonrpc":"2.0","id":${id}}`, id],
      [`{"jsonrpc":"2.0","id":true,"method":"ping"}`, 'null'],
      [`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, 'null'],
      [`{"jsonrpc":"2.0","id":${this.nested(600)},"method":"ping"}`, 'null'],
      [`{"jsonrpc":"2.0","id":null,"method":"ping"}`, 'null'],
      ['42', 'null'],
      ['"text"', 'null'],
      ['null', 'null'],
      ['[[]]', 'null'],
    ]);
    return { text: Buffer.from(text), expect: [expect] };
  }

  private element(): Element {
    const roll = this.random();
    return roll < 0.55 ? this.request() : roll < 0.8 ? this.silent() : this.invalid();
  }

  private batch(): Element {
    const elements = Array.from({ length: 1 + this.int(25) }, () => this.element());
    const parts = elements.flatMap((element, index) => [Buffer.from(index === 0 ? '' : ','), element.text]);
    const text = Buffer.concat([Buffer.from('['), ...parts, Buffer.from(']')]);
    return { text, expect: elements.flatMap((element) => element.expect) };
  }

  /** Lines that are not JSON at all: parse errors, under the id when one can be recovered. */
  private broken(): Element {
    const id = this.id();
    const garbage = Array.from({ length: 1 + this.int(200) }, () => this.pick([...GARBAGE])).join('');
    const [text, expect] = this.pick<[Buffer, string]>([
      [Buffer.from(`{"jsonrpc":"2.0","id":${id},"method":"ping","params":{"a":${garbage}`), id],
      [
        Buffer.concat([
          Buffer.from(`{"jsonrpc":"2.0","id":${id},"method":"ping","params":{"s":"a`),
          Buffer.from([0]),
          Buffer.from('b"}}'),
        ]),
        id,
      ],
      [
        Buffer.concat([
          Buffer.from(`{"jsonrpc":"2.0","id":${id},`),
          Buffer.from([0xff, 0x00]),
          Buffer.from('"method":"ping"}'),
        ]),
        id,
      ],
      [Buffer.from(`{x${garbage}`), 'null'],
      [Buffer.concat([Buffer.from('{'), Buffer.from([0, 0, 0xfe]), Buffer.from(garbage)]), 'null'],
      [Buffer.from(`{"jsonrpc":"2.0","method":"ping","params":{"id":${id}}`), 'null'],
      [Buffer.from('[]'), 'null'],
      [Buffer.from(`${'['.repeat(5000)}${']'.repeat(5000)}`), 'null'],
    ]);
    return { text, expect: [expect] };
  }

  /** A line longer than the server accepts: refused under the id it starts with. */
  private oversized(): Element {
    const id = this.id();
    const filler = 'o'.repeat(this.maxLineBytes + 10);
    return this.random() < 0.7
      ? { text: Buffer.from(`{"jsonrpc":"2.0","id":${id},"method":"ping","params":{"s":"${filler}"}}`), expect: [id] }
      : { text: Buffer.from(`{"jsonrpc":"2.0","method":"ping","params":{"s":"${filler}"}}`), expect: ['null'] };
  }

  /** The next line: a message, a batch, a broken or oversized line, or framing noise (BOM, CRLF, blanks). */
  next(): HostileLine {
    for (;;) {
      const [kind, element] = this.nextElement();
      // Only the oversized kind may pass the limit: a long batch would otherwise be refused whole.
      if (kind === 'oversized' || element.text.length <= this.maxLineBytes) {
        return { kind, bytes: Buffer.concat([element.text, Buffer.from('\n')]), expect: element.expect };
      }
    }
  }

  private nextElement(): [string, Element] {
    const roll = this.random();
    if (roll < 0.45) return ['message', this.element()];
    if (roll < 0.65) return ['batch', this.batch()];
    if (roll < 0.9) return ['broken', this.broken()];
    if (roll < 0.92) return ['oversized', this.oversized()];
    if (roll < 0.96) return ['blank', { text: Buffer.from(this.pick(['', '   ', '\t', '\r'])), expect: [] }];
    const request = this.request();
    const prefix = this.random() < 0.5 ? Buffer.from([0xef, 0xbb, 0xbf]) : Buffer.from('  ');
    return ['framed', { text: Buffer.concat([prefix, request.text, Buffer.from('\r')]), expect: request.expect }];
  }
}
