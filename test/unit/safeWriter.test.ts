import { PassThrough, Writable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { SafeWriter } from '../../src/cli/io.js';

/** A real Writable that takes each chunk a little later, so writes past its small buffer must wait. */
function slowSink(received: string[], highWaterMark = 16): Writable {
  return new Writable({
    highWaterMark,
    decodeStrings: false,
    write(chunk: string, _encoding, done) {
      setTimeout(() => {
        received.push(chunk);
        done();
      }, 1);
    },
  });
}

const listeners = (s: Writable): number[] => ['drain', 'error', 'close'].map((e) => s.listenerCount(e));

describe('SafeWriter', () => {
  test('waits for drain between batches: everything arrives, in order, and no listener is left behind', async () => {
    const received: string[] = [];
    const sink = slowSink(received);
    const out = new SafeWriter(sink);
    const before = listeners(sink);
    const chunks = Array.from({ length: 200 }, (_, i) => `line ${i}\n`);
    await out.writeAll(chunks, 64);
    expect(received.join('')).toBe(chunks.join(''));
    expect(received.length).toBeGreaterThan(10); // batched, and each batch past the buffer waited
    expect(listeners(sink)).toEqual(before);
    expect(out.failed).toBe(false);
  });

  test('a stream that dies while a write waits ends the wait; later writes are dropped quietly', async () => {
    const sink = new PassThrough({ highWaterMark: 8 }); // nobody reads: the first big write must wait
    const out = new SafeWriter(sink);
    const waiting = out.write('x'.repeat(64));
    sink.destroy(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    await waiting;
    expect(out.failed).toBe(true);
    const calls: unknown[] = [];
    const write = sink.write.bind(sink) as (chunk: unknown) => boolean;
    sink.write = ((chunk: unknown) => {
      calls.push(chunk);
      return write(chunk);
    }) as typeof sink.write;
    await out.writeAll(['more', 'text']);
    expect(calls).toEqual([]); // not even tried
    expect(listeners(sink)[0]).toBe(0); // the drain listener is gone
  });

  test('a stream closed without an error also ends the wait', async () => {
    const sink = new PassThrough({ highWaterMark: 8 });
    const out = new SafeWriter(sink);
    const waiting = out.write('y'.repeat(64));
    sink.destroy();
    await waiting;
    expect(listeners(sink)[0]).toBe(0);
  });
});
