import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import t from 'tap';
import { EventStream, MAX_UNREAD_BYTES, REPLAY_MAX_EVENTS } from '../../../src/http/event-stream.js';

/** Just enough of a ServerResponse to watch what a stream writes. */
class FakeResponse extends EventEmitter {
  text = '';
  status = 0;
  headers: Record<string, unknown> = {};
  writableEnded = false;
  writeHead(status: number, headers: Record<string, unknown>) {
    this.status = status;
    this.headers = headers;
    return this;
  }
  flushHeaders() {}
  write(chunk: string) {
    this.text += chunk;
    return true;
  }
  end() {
    this.writableEnded = true;
    this.emit('close');
  }
  /** The client went away. */
  drop() {
    this.emit('close');
  }
}

const attach = (stream: EventStream, after?: number) => {
  const res = new FakeResponse();
  stream.attach(res as unknown as ServerResponse, {}, after);
  return res;
};

const dataOf = (text: string) =>
  text
    .split('\n')
    .filter((line) => line.startsWith('data: {'))
    .map((line) => line.slice(6));

t.test('events are numbered, kept, replayed after the id a client names, once', async (t) => {
  let disconnects = 0;
  const stream = new EventStream({ key: '3', resumable: true, prime: true, onDisconnect: () => disconnects++ });
  const first = attach(stream);
  t.equal(first.status, 200);
  t.equal(first.headers['Content-Type'], 'text/event-stream');
  t.match(first.text, /^id: 3-0\nretry: 1000\ndata: \n\n/, 'a priming event first, with the reconnection time');
  stream.push('{"a":1}');
  stream.push('{"a":2}');
  t.match(first.text, /id: 3-1\nevent: message\ndata: \{"a":1\}\n\nid: 3-2\n/);
  first.drop();
  t.equal(disconnects, 1, 'a broken connection is reported');
  stream.push('{"a":3}');
  t.equal(stream.seqOf('3-2'), 2);
  t.equal(stream.seqOf('4-2'), undefined, 'an id of another stream');
  t.equal(stream.seqOf('3-9'), undefined, 'an id not sent yet');
  const resumed = attach(stream, 1);
  t.same(dataOf(resumed.text), ['{"a":2}', '{"a":3}'], 'what came after event 1');
  stream.finish();
  t.ok(resumed.writableEnded, 'a finished stream ends its connection');
  t.equal(disconnects, 1, 'an end we made is no disconnect');
  const late = attach(stream, 2);
  t.same(dataOf(late.text), ['{"a":3}'], 'a finished stream can still be resumed');
  t.ok(late.writableEnded);
});

t.test('replay keeps only the newest events; a stateless stream keeps nothing once delivered', async (t) => {
  const stream = new EventStream({ key: '1', resumable: true, prime: false });
  for (let n = 1; n <= REPLAY_MAX_EVENTS + 10; n++) stream.push(`{"n":${n}}`);
  const res = attach(stream, 0);
  const replayed = dataOf(res.text);
  t.equal(replayed.length, REPLAY_MAX_EVENTS);
  t.equal(replayed[0], '{"n":11}');
  const plain = new EventStream({ key: 'x', resumable: false, prime: false });
  const live = attach(plain);
  plain.push('{"x":1}');
  t.notMatch(live.text, /id:/, 'no ids when nobody can resume');
  live.drop();
  plain.push('{"x":2}');
  t.same(dataOf(attach(plain).text), ['{"x":2}'], 'only what no connection had yet');
});

t.test('a reader that falls too far behind is dropped; it resumes from what it had', async (t) => {
  let disconnects = 0;
  const stream = new EventStream({ key: '2', resumable: true, prime: false, onDisconnect: () => disconnects++ });
  const slow = new FakeResponse() as FakeResponse & { writableLength: number; destroyed: boolean; destroy(): void };
  slow.writableLength = 0;
  slow.destroyed = false;
  slow.destroy = () => {
    slow.destroyed = true;
    slow.emit('close');
  };
  stream.attach(slow as unknown as ServerResponse, {});
  stream.push('{"n":1}');
  t.equal(disconnects, 0);
  slow.writableLength = MAX_UNREAD_BYTES + 1;
  stream.push('{"n":2}');
  t.ok(slow.destroyed, 'the stalled connection is dropped');
  t.equal(disconnects, 1, 'as a broken connection: the session may wait for a resume');
  stream.push('{"n":3}');
  t.same(dataOf(attach(stream, 1).text), ['{"n":2}', '{"n":3}'], 'nothing it missed is lost');
});
