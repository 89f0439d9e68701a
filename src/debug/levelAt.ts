/**
 * How many frames are open at a step: framesAt(rec, i).length, without building them, for the keys
 * that scan many steps (n, o, p). Today the external frames only (the step's depth); where the
 * internal-call stage adds frames to framesAt, it adds them here too.
 */
import type { DebugRecording } from './types.js';

export function levelAt(rec: DebugRecording, step: number): number {
  return rec.steps.depth[step]!;
}
