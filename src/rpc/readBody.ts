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
 * nested answer is refused with a clear message and never reaches the later stages. Strings (most of
 * an answer's bytes: hex data) are skipped with indexOf, so the loop only steps through structure.
 */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      let end = text.indexOf('"', i + 1);
      // A quote preceded by an odd number of backslashes is inside the string.
      while (end !== -1) {
        let backslashes = 0;
        while (text.charCodeAt(end - 1 - backslashes) === 92) backslashes++;
        if (backslashes % 2 === 0) break;
        end = text.indexOf('"', end + 1);
      }
      if (end === -1) return false; // unterminated: JSON.parse says so
      i = end;
    } else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > limit) return true;
    } else if (c === 125 || c === 93) depth--;
  }
  return false;
}
