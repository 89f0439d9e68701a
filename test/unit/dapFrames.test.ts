/**
 * The Debug Adapter Protocol's framing as txray's adapter reads and writes it: messages split over
 * chunks, several in one chunk, a body that is not JSON, a header without a length, an oversize body
 * passed over — and reading goes on after each.
 */
import { describe, expect, test } from 'vitest';
import { frameMessage } from '../../src/dap/frameMessage.js';
import { type Framed, readFrames } from '../../src/dap/readFrames.js';

const framed = (body: string): Buffer => Buffer.concat([Buffer.from(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n`), Buffer.from(body)]);

function reader(): { readonly got: Framed[]; readonly feed: (chunk: Uint8Array) => void } {
  const got: Framed[] = [];
  return { got, feed: readFrames((f) => got.push(f)) };
}

describe('readFrames', () => {
  test('a message split anywhere, byte by byte included (a multi-byte character across chunks)', () => {
    const msg = { seq: 1, type: 'request', command: 'evaluate', arguments: { expression: 'été' } };
    const bytes = framed(JSON.stringify(msg));
    for (const size of [1, 2, 7, 20, bytes.length]) {
      const { got, feed } = reader();
      for (let i = 0; i < bytes.length; i += size) feed(bytes.subarray(i, i + size));
      expect(got, `chunks of ${size}`).toEqual([{ message: msg }]);
    }
  });

  test('two messages (and the start of a third) in one chunk', () => {
    const { got, feed } = reader();
    const third = framed('{"seq":3}');
    feed(Buffer.concat([framed('{"seq":1}'), framed('{"seq":2}'), third.subarray(0, 10)]));
    expect(got).toEqual([{ message: { seq: 1 } }, { message: { seq: 2 } }]);
    feed(third.subarray(10));
    expect(got.at(-1)).toEqual({ message: { seq: 3 } });
  });

  test('other header fields beside Content-Length, in any case', () => {
    const { got, feed } = reader();
    feed(Buffer.from('Content-Type: application/vscode-jsonrpc; charset=utf-8\r\ncontent-length: 2\r\n\r\n{}'));
    expect(got).toEqual([{ message: {} }]);
  });

  test('a body that is not JSON, a header without a length: one bad frame each, then the next message is read', () => {
    const { got, feed } = reader();
    feed(Buffer.concat([framed('not json'), Buffer.from('X-Nothing: 1\r\n\r\n'), framed('{"seq":9}')]));
    expect(got).toEqual([{ bad: 'a body that is not JSON' }, { bad: 'a header without a Content-Length' }, { message: { seq: 9 } }]);
  });

  test('an oversize body: one bad frame at once, its bytes passed over unread as they come, then the next message', () => {
    const { got, feed } = reader();
    const n = 5 * 1024 * 1024;
    feed(Buffer.from(`Content-Length: ${n}\r\n\r\n`));
    expect(got).toEqual([{ bad: `a message of ${n} bytes, over the limit of ${4 * 1024 * 1024}` }]);
    const filler = Buffer.alloc(1024 * 1024, 0x7b);
    for (let i = 0; i < 5; i++) feed(filler);
    feed(framed('{"seq":2}'));
    expect(got).toEqual([got[0], { message: { seq: 2 } }]);
  });

  test('a header that never ends: one bad frame once it passes 8 KiB, then reading starts afresh', () => {
    const { got, feed } = reader();
    feed(Buffer.alloc(9000, 0x41));
    expect(got).toEqual([{ bad: 'a header of more than 8192 bytes without its end (\\r\\n\\r\\n)' }]);
    feed(framed('{"seq":4}'));
    expect(got.at(-1)).toEqual({ message: { seq: 4 } });
  });
});

describe('frameMessage', () => {
  test('the length counts bytes, not characters; the reader reads it back', () => {
    const text = frameMessage({ seq: 1, type: 'event', event: 'output', body: { output: 'naïve → ok' } });
    const header = /^Content-Length: (\d+)\r\n\r\n/.exec(text)!;
    expect(Number(header[1])).toBe(Buffer.byteLength(text.slice(header[0].length)));
    const { got, feed } = reader();
    feed(Buffer.from(text));
    expect(got).toEqual([{ message: { seq: 1, type: 'event', event: 'output', body: { output: 'naïve → ok' } } }]);
  });
});
