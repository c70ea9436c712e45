/** The kinds of token in JSON text. */
export type JsonTokenKind = '{' | '}' | '[' | ']' | ':' | ',' | 'string' | 'number' | 'literal' | 'end';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const NUMBER_OR_LITERAL = /[^\s,:[\]{}"]*/y;

/**
 * A tokenizer over JSON text that `JSON.parse` has already accepted, for the few places that
 * need what parsing throws away: the exact text of a number, where a member starts and ends,
 * how deep the nesting goes. It allocates nothing per token: `next()` returns the kind and
 * leaves the token's span in `start` and `end` (end exclusive). On text that is not JSON the
 * tokens are meaningless, but it always terminates.
 */
export class JsonTokenizer {
  start = 0;
  end = 0;

  constructor(readonly text: string) {}

  next(): JsonTokenKind {
    const { text } = this;
    let at = this.end;
    while (at < text.length && isSpace(text.charCodeAt(at))) at += 1;
    this.start = at;
    if (at >= text.length) {
      this.end = at;
      return 'end';
    }
    const char = text[at] as string;
    switch (char) {
      case '{':
      case '}':
      case '[':
      case ']':
      case ':':
      case ',':
        this.end = at + 1;
        return char;
      case '"':
        this.end = stringEnd(text, at);
        return 'string';
      default: {
        NUMBER_OR_LITERAL.lastIndex = at;
        NUMBER_OR_LITERAL.exec(text);
        // A character no token starts with still moves us on, so the walk always ends.
        this.end = Math.max(NUMBER_OR_LITERAL.lastIndex, at + 1);
        const first = text.charCodeAt(at);
        return first === 0x2d || (first >= 0x30 && first <= 0x39) ? 'number' : 'literal';
      }
    }
  }

  /** The current token's text. */
  get token(): string {
    return this.text.slice(this.start, this.end);
  }

  /** The current string token's value (escapes decoded). */
  get stringValue(): string {
    const raw = this.token;
    return raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1);
  }
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

/** The index just past the closing quote of the string starting at `open`. */
function stringEnd(text: string, open: number): number {
  let at = open + 1;
  for (;;) {
    const quote = text.indexOf('"', at);
    if (quote === -1) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0 && text.charCodeAt(quote) === QUOTE) return quote + 1;
    at = quote + 1;
  }
}
