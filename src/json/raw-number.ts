import { randomUUID } from 'node:crypto';

/** How many RawNumbers JSON.stringify has met so far (stringifyExact's cheap check). */
let rawNumbersSerialised = 0;

/**
 * A JSON number whose text a JavaScript number cannot reproduce: an integer beyond 2^53
 * (`9007199254740993`), or a number written another way than JavaScript would (`1.0`,
 * `1e3`). It goes back to the peer exactly as the peer wrote it: request ids through
 * `serializeId`, anything else (a progress token) through {@link stringifyExact}.
 */
export class RawNumber {
  constructor(readonly text: string) {}

  /**
   * The text as a JSON string: what plain JSON.stringify (logs, diagnostics) writes. The
   * count tells stringifyExact that its output needs the bare number instead.
   */
  toJSON(): string {
    rawNumbersSerialised += 1;
    return this.text;
  }

  toString(): string {
    return this.text;
  }
}

/** JSON text like JSON.stringify's, with every RawNumber in `value` written as a bare number. */
function stringifyWithBareNumbers(value: unknown): string | undefined {
  // A placeholder no peer can guess stands for each RawNumber, then is swapped for its text.
  const mark = `mcpbash-raw-number-${randomUUID()}-`;
  const texts: string[] = [];
  const json = JSON.stringify(value, function (this: Record<string, unknown>, key, item: unknown) {
    const original = this[key];
    return original instanceof RawNumber ? `${mark}${texts.push(original.text) - 1}` : item;
  });
  return json?.replace(new RegExp(`"${mark}(\\d+)"`, 'g'), (_, index: string) => texts[Number(index)] as string);
}

/**
 * JSON.stringify, except that a RawNumber anywhere in `value` is written as the bare
 * number the peer sent. A value without one costs one JSON.stringify, as before; only a
 * value that holds one is serialised a second time.
 */
export function stringifyExact(value: unknown): string | undefined {
  const before = rawNumbersSerialised;
  const json = JSON.stringify(value);
  return rawNumbersSerialised === before ? json : stringifyWithBareNumbers(value);
}
