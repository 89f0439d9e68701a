import { RpcFailure } from '../errors.js';

/**
 * Read a response body within `maxBytes`, counting while it streams in, so memory is bounded by the
 * cap and not by what the server sends. Returns the text.
 */
export async function readCapped(
  body: AsyncIterable<Uint8Array> & { destroy?: (err?: Error) => unknown; on?: (event: 'error', fn: () => void) => unknown },
  maxBytes: number,
  where: string,
): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body) {
    total += chunk.length;
    if (total > maxBytes) {
      body.on?.('error', () => undefined);
      body.destroy?.();
      throw tooLarge(maxBytes, where);
    }
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  }
  const whole = Buffer.concat(chunks, total);
  chunks.length = 0; // the pieces can go while the text is made
  return whole.toString('utf8');
}

export function tooLarge(maxBytes: number, where: string): RpcFailure {
  const mb = Math.round((maxBytes / (1 << 20)) * 100) / 100;
  return new RpcFailure(
    'too-large',
    `the answer from ${where} is larger than ${mb} MiB; raise the cap with --max-response-mb if this is expected.`,
  );
}
