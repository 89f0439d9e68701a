import { RpcFailure } from '../errors.js';

/** Deeper than any real answer: a callTracer frame costs two levels and the EVM stops at 1024 calls. */
export const MAX_JSON_DEPTH = 4096;

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
  return Buffer.concat(chunks, total).toString('utf8');
}

export function tooLarge(maxBytes: number, where: string): RpcFailure {
  const mb = Math.round((maxBytes / (1 << 20)) * 100) / 100;
  return new RpcFailure(
    'too-large',
    `the answer from ${where} is larger than ${mb} MiB; raise the cap with --max-response-mb if this is expected.`,
  );
}

/**
 * Nesting depth of a JSON text, counted outside strings. Checked before JSON.parse so that an absurdly
 * nested answer is refused with a clear message and never reaches the later stages.
 */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > limit) return true;
    } else if (c === 125 || c === 93) depth--;
  }
  return false;
}
