import { JsonTokenizer, type JsonTokenKind } from './json-tokens.js';

/** A value's span in the text: `start` is its first character, `end` just past its last. */
interface Span {
  readonly start: number;
  readonly end: number;
}

interface MemberSpan extends Span {
  readonly key: string;
  readonly keyStart: number;
}

/** Moves past the value whose first token (`kind`) was just read; returns its span. */
function skipValue(tokens: JsonTokenizer, kind: JsonTokenKind): Span {
  const start = tokens.start;
  let depth = kind === '{' || kind === '[' ? 1 : 0;
  while (depth > 0) {
    const inner = tokens.next();
    if (inner === 'end') break;
    if (inner === '{' || inner === '[') depth += 1;
    if (inner === '}' || inner === ']') depth -= 1;
  }
  return { start, end: tokens.end };
}

/** The top-level object's members, or undefined when the text is not an object. */
function topLevelMembers(text: string): MemberSpan[] | undefined {
  const tokens = new JsonTokenizer(text);
  if (tokens.next() !== '{') return undefined;
  const members: MemberSpan[] = [];
  for (let kind = tokens.next(); kind === 'string'; kind = tokens.next()) {
    const key = tokens.stringValue;
    const keyStart = tokens.start;
    if (tokens.next() !== ':') return undefined;
    members.push({ key, keyStart, ...skipValue(tokens, tokens.next()) });
    if (tokens.next() !== ',') break;
  }
  return members;
}

/** The elements of the array whose `[` is at `open`. */
function arrayElements(text: string, open: number): Span[] {
  const tokens = new JsonTokenizer(text);
  tokens.end = open + 1;
  const elements: Span[] = [];
  for (let kind = tokens.next(); kind !== ']' && kind !== 'end'; kind = tokens.next()) {
    elements.push(skipValue(tokens, kind));
    if (tokens.next() !== ',') break;
  }
  return elements;
}

/** The indentation of a token that starts its own line, or undefined when it shares one. */
function indentationAt(text: string, at: number): string | undefined {
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  const before = text.slice(lineStart, at);
  return lineStart > 0 && /^[ \t]*$/.test(before) ? before : undefined;
}

/** `value` as JSON laid out like its neighbours: on one line, or indented by `unit` below `indent`. */
function render(value: unknown, indent: string | undefined, unit: string): string {
  return indent === undefined ? JSON.stringify(value) : JSON.stringify(value, null, unit).replace(/\n/g, `\n${indent}`);
}

/** An array holding `element`, multi-line below `indent` when the member is on its own line. */
function newArray(element: unknown, indent: string | undefined, unit: string): string {
  if (indent === undefined) return `[${JSON.stringify(element)}]`;
  const inner = `${indent}${unit}`;
  return `[\n${inner}${render(element, inner, unit)}\n${indent}]`;
}

/**
 * Appends `element` to the array under `key` in the top-level object of JSON `text`, or adds
 * that member last, changing nothing else: every other byte (formatting, big numbers,
 * duplicate keys, the order of members) stays as it was, and the new text follows the
 * layout around it. Returns undefined when the text is not an object or `key` (its last
 * occurrence, the one JSON.parse keeps) holds something other than an array (or null,
 * which becomes one).
 */
export function appendToArrayMember(text: string, key: string, element: unknown): string | undefined {
  const members = topLevelMembers(text);
  if (!members) return undefined;
  const firstIndent = members[0] ? indentationAt(text, members[0].keyStart) : undefined;
  const unit = firstIndent ? firstIndent : '  ';
  const member = members.filter((candidate) => candidate.key === key).pop();
  if (member) {
    const isNull = text.slice(member.start, member.end) === 'null';
    if (!isNull && text[member.start] !== '[') return undefined;
    const elements = isNull ? [] : arrayElements(text, member.start);
    const last = elements[elements.length - 1];
    // null and [] alike become a new array holding just `element`.
    if (!last) {
      const array = newArray(element, indentationAt(text, member.keyStart), unit);
      return `${text.slice(0, member.start)}${array}${text.slice(member.end)}`;
    }
    const indent = indentationAt(text, (elements[0] as Span).start);
    const separator = indent === undefined ? ', ' : `,\n${indent}`;
    return `${text.slice(0, last.end)}${separator}${render(element, indent, unit)}${text.slice(last.end)}`;
  }
  const entry = `${JSON.stringify(key)}: ${newArray(element, firstIndent, unit)}`;
  const last = members[members.length - 1];
  if (!last) {
    const open = text.indexOf('{') + 1;
    return `${text.slice(0, open)}${entry}${text.slice(open)}`;
  }
  const separator = firstIndent === undefined ? ', ' : `,\n${firstIndent}`;
  return `${text.slice(0, last.end)}${separator}${entry}${text.slice(last.end)}`;
}
