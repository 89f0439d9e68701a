/**
 * Where a movement key takes the cursor, as the node's opcode trace and the compiler's source map say
 * it: a line is a (frame, file, line) — the same line in another frame is another line — and steps
 * whose map entry is the compiler's own code are passed over. Levels are the frames open
 * (levelAt), so stepping over and out of calls follows what framesAt shows.
 */
import { levelAt } from './levelAt.js';
import { runTo } from './runTo.js';
import type { DebugStepLog } from './types.js';
import { cell } from '../locate/cell.js';

export type Move = 'into' | 'over' | 'out' | 'back' | 'continue';

/** Step i's line (the same number for the same frame, file and line), or null where it has no place. */
function lineKey(rec: DebugStepLog, i: number): number | null {
  const id = cell(rec.lines.ids, i);
  return id < 0 ? null : id;
}

/** The first step after `from` that `fits`, else the last step. */
function forward(rec: DebugStepLog, from: number, fits: (j: number) => boolean): number {
  for (let j = from + 1; j < rec.steps.count; j++) if (fits(j)) return j;
  return rec.steps.count - 1;
}

/** `n`: the next line at this level or above (over calls); where the step has no place, the next opcode at this level or above. */
function over(rec: DebugStepLog, i: number): number {
  const level = levelAt(rec, i);
  const here = lineKey(rec, i);
  return forward(rec, i, (j) => {
    const l = levelAt(rec, j);
    if (l > level) return false;
    if (here === null) return true;
    const k = lineKey(rec, j);
    return k !== null && (l < level || k !== here);
  });
}

/** `p`: back to the first step of the previous line at this level or above (its calls passed over); where the step has no place, the previous opcode at this level or above (`n`'s mirror). */
function back(rec: DebugStepLog, i: number): number {
  const level = levelAt(rec, i);
  const here = lineKey(rec, i);
  let j = i - 1;
  if (here === null) {
    while (j > 0 && levelAt(rec, j) > level) j--;
    return Math.max(j, 0);
  }
  while (j >= 0 && (levelAt(rec, j) > level || lineKey(rec, j) === null || lineKey(rec, j) === here)) j--;
  if (j < 0) return 0;
  const key = lineKey(rec, j);
  const at = levelAt(rec, j);
  let land = j;
  for (let k = j - 1; k >= 0; k--) {
    const l = levelAt(rec, k);
    if (l < at) break;
    if (l > at) continue;
    const kk = lineKey(rec, k);
    if (kk === null) continue;
    if (kk !== key) break;
    land = k;
  }
  return land;
}

/**
 * `o`: out of this frame, to the caller's next line (the end where there is no caller or no next line).
 * Inside an internal function the caller is in the same frame: the caller's next line there, else the
 * step the function returned at; one that never returned (it reverted) stops where its frame ends (and
 * from there, out of the frame).
 */
function out(rec: DebugStepLog, i: number): number {
  const level = levelAt(rec, i);
  const frame = rec.frames[cell(rec.steps.frame, i)];
  // The internal calls open in this frame: those open at the step less those of its callers (constant while it runs).
  const own = frame === undefined ? 0 : cell(rec.internal.open, i) - cell(rec.internal.open, frame.first);
  if (frame !== undefined && own > 0 && i < frame.last) {
    let returned = -1;
    for (let j = i + 1; j <= frame.last && returned < 0; j++) if (levelAt(rec, j) < level) returned = j;
    if (returned < 0) return frame.last;
    const next = over(rec, returned);
    return next <= frame.last ? next : returned;
  }
  const returned = forward(rec, i, (j) => levelAt(rec, j) < level);
  if (levelAt(rec, returned) >= level) return returned;
  return over(rec, returned);
}

export function nextStep(rec: DebugStepLog, i: number, move: Move, breakpoints: ReadonlySet<string> = new Set()): number {
  if (rec.steps.count === 0) return 0;
  switch (move) {
    case 'into': {
      const here = lineKey(rec, i);
      return forward(rec, i, (j) => (here === null ? true : lineKey(rec, j) !== null && lineKey(rec, j) !== here));
    }
    case 'over':
      return over(rec, i);
    case 'out':
      return out(rec, i);
    case 'back':
      return back(rec, i);
    case 'continue':
      // The next arrival at a breakpoint's line, else the end.
      return runTo(rec, i, { breakpoints })?.step ?? rec.steps.count - 1;
  }
}
