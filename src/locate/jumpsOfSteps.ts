/**
 * A frame's JUMPs read from a step log (txray's StepLog, or a node's struct logs as typed arrays), for
 * internalCallsOf: each JUMP the frame ran at `depth` from step `first` until it ended, where it landed
 * (the frame's next step), the gas left after it (before the landing step runs) and its step index as
 * its position, so that the internal calls' `from`/`to` are step indexes (see openAt).
 */
import type { FrameJumps } from './internalCallsOf.js';
import { cell } from './cell.js';

const JUMP = 0x56;

/** What the walk reads of a step log: one entry per step. */
export interface Steps {
  readonly pc: ArrayLike<number>;
  readonly op: ArrayLike<number>;
  readonly depth: ArrayLike<number>;
  readonly gas: ArrayLike<number>;
}

/** The JUMPs of the frame whose first step is `first`; `end`: the step past its last. */
export function jumpsOfSteps(steps: Steps, first: number): FrameJumps & { readonly end: number } {
  const depth = cell(steps.depth, first);
  const from: number[] = [];
  const to: number[] = [];
  const gas: number[] = [];
  const at: number[] = [];
  let k = first;
  for (; k < steps.pc.length && cell(steps.depth, k) >= depth; k++) {
    if (steps.depth[k] !== depth || steps.op[k] !== JUMP) continue;
    const next = k + 1;
    // A JUMP that failed (a bad destination) ends the frame: no landing.
    if (next >= steps.pc.length || steps.depth[next] !== depth) continue;
    from.push(cell(steps.pc, k));
    to.push(cell(steps.pc, next));
    gas.push(cell(steps.gas, next));
    at.push(k);
  }
  return { from, to, gas, at, end: k };
}
