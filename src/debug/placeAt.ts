/**
 * The source line of a step: its frame's source map entry for the step's pc (by instruction index),
 * the file and the 1-based line its range starts on, as the compiler's map says. Null where the frame
 * has no matched map, the entry is the compiler's own code (`f` −1 or past the compilation's files) or
 * its file is not to be had. Line starts are found once per file and searched, so a scan over a
 * million steps stays cheap.
 */
import type { SourceFile } from '../locate/sourceMap.js';
import type { DebugFrame, DebugStepLog, FrameSource, SourcePlace } from './types.js';
import { cell } from '../locate/cell.js';

const lineStarts = new WeakMap<SourceFile, Int32Array>();

/** The byte offset of each line's start in `file` (index 0: line 1), found once per file. */
export function lineStartsOf(file: SourceFile): Int32Array {
  let starts = lineStarts.get(file);
  if (starts === undefined) {
    const at: number[] = [0];
    file.bytes.forEach((b, i) => {
      if (b === 0x0a) at.push(i + 1);
    });
    lineStarts.set(file, (starts = Int32Array.from(at)));
  }
  return starts;
}

/** The 1-based line of byte `offset`. */
function lineOf(starts: Int32Array, offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (cell(starts, mid) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

/** Each frame's places by pc, as found: a loop meets the same few pcs again and again. */
const found = new WeakMap<DebugFrame, Map<number, SourcePlace | null>>();

/** Step `i`'s place in the source, or null. */
export function placeAt(rec: Pick<DebugStepLog, 'steps' | 'frames'>, i: number): SourcePlace | null {
  const frame = rec.frames[cell(rec.steps.frame, i)];
  if (frame?.source == null) return null;
  let byPc = found.get(frame);
  if (byPc === undefined) found.set(frame, (byPc = new Map()));
  const pc = cell(rec.steps.pc, i);
  let place = byPc.get(pc);
  if (place === undefined) byPc.set(pc, (place = placeOf(frame.source, pc)));
  return place;
}

/** A pc's source map entry: its file id, start and length; null inside PUSH data or past the map. */
export function mapEntryAt(source: FrameSource, pc: number): readonly [number, number, number] | null {
  const k = source.index[pc] ?? -1;
  return k < 0 || k >= source.map.count ? null : [cell(source.map.f, k), cell(source.map.s, k), cell(source.map.l, k)];
}

function placeOf(source: FrameSource, pc: number): SourcePlace | null {
  const entry = mapEntryAt(source, pc);
  if (entry === null) return null;
  const [id, start] = entry;
  if (id < 0 || id >= source.sources.count || start < 0) return null;
  const file = source.sources.file(id);
  if (file === null || start > file.bytes.length) return null;
  return { file: file.path, line: lineOf(lineStartsOf(file), start), id };
}
