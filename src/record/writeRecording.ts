/** --record's file: the recording as gzip-compressed JSON, written beside its place and renamed into it (never half a file). */
import { rename, unlink, writeFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { UsageError } from '../errors.js';
import { escapeShort } from '../raw/escape.js';
import { MAX_RECORDING_BYTES } from './readRecording.js';
import type { Recording } from './types.js';

export async function writeRecording(path: string, rec: Recording): Promise<number> {
  const shown = escapeShort(path, 80);
  const bytes = gzipSync(JSON.stringify(rec));
  // Larger than a replay reads: refused here rather than written and then refused.
  if (bytes.length > MAX_RECORDING_BYTES) throw new UsageError(`--record ${shown}: the recording would be larger than ${MAX_RECORDING_BYTES / (1024 * 1024)} MiB; record fewer transactions at once.`);
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    await writeFile(tmp, bytes);
    await rename(tmp, path);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw new UsageError(`--record ${shown}: cannot write it (${escapeShort((err as { code?: string }).code ?? 'I/O error', 40)}).`);
  }
  return bytes.length;
}
