/**
 * How many frames are open at a step: framesAt(rec, i).length, without building them, for the keys
 * that scan many steps (n, o, p): the external frames (the step's depth) and the internal calls open
 * in them, counted once when the step log was built (internalTable.ts).
 */
import type { DebugStepLog } from './types.js';
import { cell } from '../locate/cell.js';

export function levelAt(rec: DebugStepLog, step: number): number {
  return cell(rec.steps.depth, step) + cell(rec.internal.open, step);
}
