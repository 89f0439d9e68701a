/**
 * A recording from disk, as hostile input: its size capped before it is read, its gzip checked (CRC and
 * length: a flipped bit or a cut end is refused, never replayed as something else), its uncompressed size
 * capped, then its shape checked field by field. Any failure is one UsageError line (exit 2).
 */
import { open } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { UsageError } from '../errors.js';
import { escapeShort } from '../raw/escape.js';
import { checkRecording, NEWER } from './checkRecording.js';
import type { Recording } from './types.js';

export const MAX_RECORDING_BYTES = 64 * 1024 * 1024;
const MAX_DOCUMENT_BYTES = 256 * 1024 * 1024;

async function readCappedFile(path: string, fail: (why: string) => UsageError): Promise<Buffer> {
  let file: Awaited<ReturnType<typeof open>>;
  try {
    file = await open(path, 'r');
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    throw fail(code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a folder, not a file' : 'cannot read it');
  }
  try {
    const st = await file.stat();
    if (st.isDirectory()) throw fail('a folder, not a file');
    if (!st.isFile()) throw fail('not a regular file');
    if (st.size > MAX_RECORDING_BYTES) throw fail(`larger than ${MAX_RECORDING_BYTES / (1024 * 1024)} MiB, more than a recording holds`);
    const buf = Buffer.alloc(st.size);
    let at = 0;
    while (at < st.size) {
      const { bytesRead } = await file.read(buf, at, st.size - at, at);
      if (bytesRead === 0) break;
      at += bytesRead;
    }
    return buf.subarray(0, at);
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw fail(err !== null && (err as { code?: unknown }).code === 'EISDIR' ? 'a folder, not a file' : 'cannot read it');
  } finally {
    await file.close();
  }
}

/** The bytes as JSON text: gunzipped (checked, capped) where they are gzip, else as they are. */
function textOf(bytes: Buffer, fail: (why: string) => UsageError): string {
  if (bytes.length === 0) throw fail('empty');
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes.toString('utf8');
  try {
    return gunzipSync(bytes, { maxOutputLength: MAX_DOCUMENT_BYTES }).toString('utf8');
  } catch (err) {
    throw fail(err instanceof RangeError ? `more than ${MAX_DOCUMENT_BYTES / (1024 * 1024)} MiB once uncompressed` : 'damaged (its compressed data does not check out: cut short or changed)');
  }
}

export async function readRecording(path: string): Promise<Recording> {
  const fail = (why: string): UsageError => new UsageError(`replay ${escapeShort(path, 80)}: ${why}; give a file that txray --record wrote.`);
  const text = textOf(await readCappedFile(path, fail), fail);
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw fail('not JSON (damaged, or not a recording)');
  }
  const checked = checkRecording(doc);
  if (typeof checked === 'string') throw checked.startsWith(NEWER) ? new UsageError(`replay ${escapeShort(path, 80)}: ${checked}.`) : fail(checked);
  return checked;
}
