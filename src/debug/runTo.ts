/**
 * Where running on (or back) from a step stops: the next (the latest earlier) arrival at a breakpoint's
 * line — the first step of a line, as a line is a (frame, file, line), after a step of another line —
 * or, where asked, where a failure began (the transaction's, a failed user operation's or batch call's, a
 * caught call's: the step log's `failures`); null where nothing is met before the end
 * (the start). The terminal's `c` and the editor's continue and reverse continue read it.
 */
import type { DebugStepLog } from './types.js';
import { cell } from '../locate/cell.js';

export type RunStop = { readonly step: number; readonly why: 'breakpoint' | 'failure' };

interface RunUntil {
  /** Breakpoints as `file:line` (the file as the compiler named it). */
  readonly breakpoints: ReadonlySet<string>;
  /** Stop where a failure began too. */
  readonly failure?: boolean;
  readonly backward?: boolean;
}

/** Whether line number `k` is a breakpoint's, asked once per line. */
function breakpointLines(rec: DebugStepLog, breakpoints: ReadonlySet<string>): (k: number) => boolean {
  const hit = new Map<number, boolean>();
  const { places } = rec.lines;
  return (k) => {
    let is = hit.get(k);
    if (is === undefined) hit.set(k, (is = breakpoints.size > 0 && breakpoints.has(`${cell(places, k).file}:${cell(places, k).line}`)));
    return is;
  };
}

/** The next arrival after `i` (steps without a place pass over, keeping the line before them). */
function nextArrival(rec: DebugStepLog, i: number, isBreakpoint: (k: number) => boolean): number | null {
  const ids = rec.lines.ids;
  let was = i >= 0 ? cell(ids, i) : -1;
  for (let j = i + 1; j < rec.steps.count; j++) {
    const k = cell(ids, j);
    if (k < 0 || k === was) continue;
    was = k;
    if (isBreakpoint(k)) return j;
  }
  return null;
}

/** The latest arrival before `i`: walking back, a step is an arrival where the line met before it (further back) differs. */
function lastArrival(rec: DebugStepLog, i: number, isBreakpoint: (k: number) => boolean): number | null {
  const ids = rec.lines.ids;
  let later = -1;
  for (let j = i - 1; j >= 0; j--) {
    const k = cell(ids, j);
    if (k < 0) continue;
    if (later >= 0 && cell(ids, later) !== k && isBreakpoint(cell(ids, later))) return later;
    later = j;
  }
  return later >= 0 && isBreakpoint(cell(ids, later)) ? later : null;
}

export function runTo(rec: DebugStepLog, i: number, target: RunUntil): RunStop | null {
  const isBreakpoint = breakpointLines(rec, target.breakpoints);
  const at = target.backward === true ? lastArrival(rec, i, isBreakpoint) : nextArrival(rec, i, isBreakpoint);
  const failed = target.failure !== true ? null : target.backward === true ? (rec.failures.findLast((f) => f < i) ?? null) : (rec.failures.find((f) => f > i) ?? null);
  if (failed === null) return at === null ? null : { step: at, why: 'breakpoint' };
  if (at === null) return { step: failed, why: 'failure' };
  // The nearer of the two; at the same step the failure says more.
  const nearer = target.backward === true ? Math.max(at, failed) : Math.min(at, failed);
  return { step: nearer, why: nearer === failed ? 'failure' : 'breakpoint' };
}
