/**
 * How many frames are open at a step: framesAt(rec, i).length, without building them, for the keys
 * that scan many steps (n, o, p): the external frames (the step's depth) and the internal calls open
 * in them, counted once when the recording was built (internalTable.ts).
 */
import type { DebugRecording } from './types.js';

export function levelAt(rec: DebugRecording, step: number): number {
  return rec.steps.depth[step]! + rec.internal.open[step]!;
}
