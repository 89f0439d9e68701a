import { RpcFailure } from '../errors.js';
import { parseJsonBytes } from './parseJsonBytes.js';

/** A body read whole: its text, or (over 1 MiB) its bytes, for parseBody. */
export type BodyText = string | Buffer;

/**
 * Read a response body within `maxBytes`, counting while it streams in, so memory is bounded by the
 * cap and not by what the server sends. Returns the text, or a large body's bytes. With the declared
 * length (content-length, already checked against the cap) the pieces are copied into one buffer of
 * that size as they come, instead of being held until the end and joined: a 15 MB answer then needs
 * 15 MB of buffers, not 30.
 */
export async function readCapped(
  body: AsyncIterable<Uint8Array> & { destroy?: (err?: Error) => unknown; on?: (event: 'error', fn: () => void) => unknown },
  maxBytes: number,
  where: string,
  declaredLength?: number,
): Promise<BodyText> {
  const stop = (err: RpcFailure): never => {
    body.on?.('error', () => undefined);
    body.destroy?.();
    throw err;
  };
  if (declaredLength !== undefined) {
    const whole = Buffer.allocUnsafe(declaredLength > ALONE_FROM ? Math.max(declaredLength, MAPPED_ALONE) : declaredLength);
    let at = 0;
    for await (const chunk of body) {
      // Node's HTTP parser frames the body by content-length, so this would be a broken server or proxy.
      if (at + chunk.length > declaredLength) stop(new RpcFailure('protocol', `the answer from ${where} is longer than its content-length.`));
      whole.set(chunk, at);
      at += chunk.length;
    }
    if (at > ALONE_FROM) return whole.subarray(0, at);
    const text = whole.toString('utf8', 0, at);
    release(whole);
    return text;
  }
  const whole = await readUpTo(body, maxBytes, () => stop(tooLarge(maxBytes, where)));
  return whole.length > ALONE_FROM ? whole : whole.toString('utf8');
}

/**
 * glibc's malloc serves a block below its mmap threshold from its heap, which keeps the pages after the
 * block is freed; and it raises that threshold to the size of each mapped block freed (up to 32 MiB), so
 * the second large answer of a run lands in the heap and stays resident to the end. A block of 32 MiB or
 * more is always mapped on its own and unmapped when freed; only the pages written are resident.
 */
const MAPPED_ALONE = 32 * (1 << 20) + 1;
/** Bodies above this size get a block of their own (MAPPED_ALONE). */
const ALONE_FROM = 1 << 20;

/** JSON.parse of a body; a large body's bytes are parsed from there (parseJsonBytes) and given back. */
export function parseBody(body: BodyText): unknown {
  if (typeof body === 'string') return JSON.parse(body);
  try {
    return parseJsonBytes(body);
  } finally {
    release(body);
  }
}

/**
 * Give a read buffer's memory back now. The buffer lives as long as its body streams in, long enough
 * for V8 to move it to the old generation, where it would wait for a full collection that a short run
 * may never make; detached, its memory goes with the copy made here, which dies young.
 */
function release(buffer: Buffer): void {
  // Only a buffer of its own (readCapped's, or Buffer.concat's for a large body), never a shared pool.
  if (buffer.byteOffset === 0 && buffer.buffer.byteLength > ALONE_FROM) structuredClone(buffer.buffer, { transfer: [buffer.buffer] });
}

/**
 * A stream read whole, but never more than `maxBytes` of it: past that, `tooMuch` is called (it
 * throws). For an answer without a declared length, and for stdin.
 */
export async function readUpTo(stream: AsyncIterable<Uint8Array>, maxBytes: number, tooMuch: () => never): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    total += chunk.length;
    if (total > maxBytes) tooMuch();
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  }
  const whole = Buffer.concat(chunks, total);
  chunks.length = 0; // the pieces can go while the text is made
  return whole;
}

export function tooLarge(maxBytes: number, where: string): RpcFailure {
  const mb = Math.round((maxBytes / (1 << 20)) * 100) / 100;
  return new RpcFailure(
    'too-large',
    `the answer from ${where} is larger than ${mb} MiB; raise the cap with --max-response-mb if this is expected.`,
  );
}
