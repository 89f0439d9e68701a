/**
 * Every step's line as a number — the same number for the same frame, file and line; -1 where the step
 * has no place — and each number's place: made once when the step log is, so that the keys that scan
 * a long run (n, o, p, c) read an array instead of the source map.
 */
import { placeAt } from './placeAt.js';
import type { DebugStepLog, LineTable, SourcePlace } from './types.js';

export function lineTable(rec: Pick<DebugStepLog, 'steps' | 'frames'>): LineTable {
  const ids = new Int32Array(rec.steps.count);
  const places: SourcePlace[] = [];
  const byKey = new Map<string, number>();
  for (let i = 0; i < rec.steps.count; i++) {
    const p = placeAt(rec, i);
    if (p === null) {
      ids[i] = -1;
      continue;
    }
    const key = `${rec.steps.frame[i]}:${p.file}:${p.line}`;
    let id = byKey.get(key);
    if (id === undefined) byKey.set(key, (id = places.push(p) - 1));
    ids[i] = id;
  }
  return { ids, places };
}
