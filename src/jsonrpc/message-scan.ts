import { JsonTokenizer } from '../json/json-tokens.js';

/** What parsing loses about one message (the line itself, or one element of a batch). */
export interface ScannedMessage {
  /** How deeply its containers nest (the message object itself is 1). */
  depth: number;
  /** The exact text of a numeric top-level `id` (the last one, as JSON.parse keeps the last). */
  idText: string | undefined;
  /** The exact text of a numeric `params.requestId` (cancellation names an id, too). */
  requestIdText: string | undefined;
  /** The exact text of a numeric `params._meta.progressToken` (progress names it back). */
  progressTokenText: string | undefined;
}

/** The messages of one line: one for an object, one per element for a batch (array). */
export interface LineScan {
  readonly batch: boolean;
  readonly messages: ScannedMessage[];
}

interface Walk {
  readonly tokens: JsonTokenizer;
  /** The depth at which a message's own members live: 1, or 2 inside a batch. */
  readonly memberDepth: number;
  depth: number;
  /** Per open container: whether it is an object (its next string may be a key). */
  readonly objects: boolean[];
  expectKey: boolean;
  /** The key at the message's level, the key one level inside it, and one inside that. */
  memberKey: string | undefined;
  innerKey: string | undefined;
  metaKey: string | undefined;
  message: ScannedMessage | undefined;
}

function newMessage(): ScannedMessage {
  return { depth: 0, idText: undefined, requestIdText: undefined, progressTokenText: undefined };
}

/** Whether the walk is inside `params._meta` itself (not deeper). */
function inMeta(walk: Walk): boolean {
  return walk.depth === walk.memberDepth + 2 && walk.memberKey === 'params' && walk.innerKey === '_meta';
}

/** A value token (scalar or the start of a container) at the current position. */
function recordValue(walk: Walk, numberText: string | undefined): void {
  const { message } = walk;
  if (!message) return;
  if (walk.depth === walk.memberDepth && walk.memberKey === 'id') message.idText = numberText;
  if (walk.depth === walk.memberDepth + 1 && walk.memberKey === 'params' && walk.innerKey === 'requestId') {
    message.requestIdText = numberText;
  }
  if (inMeta(walk) && walk.metaKey === 'progressToken') message.progressTokenText = numberText;
}

function open(walk: Walk, isObject: boolean, scan: LineScan): void {
  recordValue(walk, undefined);
  walk.depth += 1;
  walk.objects.push(isObject);
  walk.expectKey = isObject;
  if (walk.depth === walk.memberDepth) {
    walk.message = newMessage();
    walk.memberKey = undefined;
    scan.messages.push(walk.message);
  }
  if (walk.depth === walk.memberDepth + 1) walk.innerKey = undefined;
  if (walk.depth === walk.memberDepth + 2) walk.metaKey = undefined;
  if (walk.message) walk.message.depth = Math.max(walk.message.depth, walk.depth - walk.memberDepth + 1);
}

/** A string, number or literal: a key, a value, or (in a batch) an element of its own. */
function readScalar(walk: Walk, kind: 'string' | 'number' | 'literal', scan: LineScan): void {
  // A scalar element of a batch is a message of its own (an invalid one).
  if (scan.batch && walk.depth === 1) {
    scan.messages.push(newMessage());
    return;
  }
  if (kind !== 'string' || !walk.expectKey) {
    recordValue(walk, kind === 'number' ? walk.tokens.token : undefined);
    return;
  }
  walk.expectKey = false;
  // Only the keys that matter are decoded: the rest of the message is skipped cheaply.
  if (walk.depth === walk.memberDepth) walk.memberKey = walk.tokens.stringValue;
  else if (walk.depth === walk.memberDepth + 1 && walk.memberKey === 'params') walk.innerKey = walk.tokens.stringValue;
  else if (inMeta(walk)) walk.metaKey = walk.tokens.stringValue;
}

/**
 * One pass over a line that JSON.parse accepted: how deep each message nests, and the exact
 * text of its numeric ids and progress token, which JSON.parse may have rounded
 * (`9007199254740993` reads back as `...992`). Cost: one linear walk, no allocation per token.
 */
export function scanLine(text: string): LineScan {
  const tokens = new JsonTokenizer(text);
  const first = tokens.next();
  const scan: LineScan = { batch: first === '[', messages: [] };
  const walk: Walk = {
    tokens,
    memberDepth: scan.batch ? 2 : 1,
    depth: 0,
    objects: [],
    expectKey: false,
    memberKey: undefined,
    innerKey: undefined,
    metaKey: undefined,
    message: undefined,
  };
  for (let kind = first; kind !== 'end'; kind = tokens.next()) {
    switch (kind) {
      case '{':
      case '[':
        open(walk, kind === '{', scan);
        break;
      case '}':
      case ']':
        walk.depth -= 1;
        walk.objects.pop();
        walk.expectKey = false;
        break;
      case ',':
        walk.expectKey = walk.objects[walk.objects.length - 1] === true;
        if (scan.batch && walk.depth === 1) walk.message = undefined;
        break;
      case ':':
        walk.expectKey = false;
        break;
      default:
        readScalar(walk, kind, scan);
    }
  }
  return scan;
}
