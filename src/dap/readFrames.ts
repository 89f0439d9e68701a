/**
 * The Debug Adapter Protocol's framing read from a byte stream: `Content-Length: <n>\r\n\r\n` and n bytes of
 * JSON, in chunks as they come (a message split over chunks, several in one). The input is hostile: a
 * header section without an end in sight, a header without a length, a length over the cap (its bytes are
 * passed over unread) or a body that is not JSON is one `bad` frame, and reading goes on after it.
 */

export type Framed = { readonly message: unknown } | { readonly bad: string };

/** A request's body: the largest a client sends (a source's breakpoints, an evaluate) is far under this. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;
const MAX_HEADER_BYTES = 8 * 1024;
const END = Buffer.from('\r\n\r\n');

/** A reader: give it each chunk; it calls `onFrame` for every whole message (or bad one) in order. */
export function readFrames(onFrame: (f: Framed) => void): (chunk: Uint8Array) => void {
  let buf = Buffer.alloc(0);
  // Bytes of an oversize body still to pass over.
  let skip = 0;
  return (chunk) => {
    buf = buf.length === 0 ? Buffer.from(chunk) : Buffer.concat([buf, chunk]);
    for (;;) {
      if (skip > 0) {
        const dropped = Math.min(skip, buf.length);
        skip -= dropped;
        buf = buf.subarray(dropped);
        if (skip > 0) return;
      }
      const end = buf.indexOf(END);
      if (end < 0) {
        if (buf.length > MAX_HEADER_BYTES) {
          buf = Buffer.alloc(0);
          onFrame({ bad: `a header of more than ${MAX_HEADER_BYTES} bytes without its end (\\r\\n\\r\\n)` });
        }
        return;
      }
      const length = /^content-length: *(\d{1,15}) *$/im.exec(buf.subarray(0, end).toString('latin1'))?.[1];
      const start = end + END.length;
      if (length === undefined) {
        buf = buf.subarray(start);
        onFrame({ bad: 'a header without a Content-Length' });
        continue;
      }
      const n = Number(length);
      if (n > MAX_BODY_BYTES) {
        buf = buf.subarray(start);
        skip = n;
        onFrame({ bad: `a message of ${n} bytes, over the limit of ${MAX_BODY_BYTES}` });
        continue;
      }
      if (buf.length < start + n) return;
      const body = buf.subarray(start, start + n).toString('utf8');
      buf = buf.subarray(start + n);
      onFrame(parsed(body));
    }
  };
}

function parsed(body: string): Framed {
  try {
    return { message: JSON.parse(body) };
  } catch {
    return { bad: 'a body that is not JSON' };
  }
}
