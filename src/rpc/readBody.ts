import { RpcFailure } from '../errors.js';

/**
 * Read a response body within `maxBytes`, counting while it streams in, so memory is bounded by the
 * cap and not by what the server sends. Returns the text. With the declared length (content-length,
 * already checked against the cap) the pieces are copied into one buffer of that size as they come,
 * instead of being held until the end and joined: a 15 MB answer then needs 15 MB of buffers, not 30.
 */
export async function readCapped(
  body: AsyncIterable<Uint8Array> & { destroy?: (err?: Error) => unknown; on?: (event: 'error', fn: () => void) => unknown },
  maxBytes: number,
  where: string,
  declaredLength?: number,
): Promise<string> {
  const stop = (err: RpcFailure): never => {
    body.on?.('error', () => undefined);
    body.destroy?.();
    throw err;
  };
  if (declaredLength !== undefined) {
    const whole = Buffer.allocUnsafe(declaredLength);
    let at = 0;
    for await (const chunk of body) {
      // Node's HTTP parser frames the body by content-length, so this would be a broken server or proxy.
      if (at + chunk.length > declaredLength) stop(new RpcFailure('protocol', `the answer from ${where} is longer than its content-length.`));
      whole.set(chunk, at);
      at += chunk.length;
    }
    return whole.toString('utf8', 0, at);
  }
  return (await readUpTo(body, maxBytes, () => stop(tooLarge(maxBytes, where)))).toString('utf8');
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
