/**
 * The internal function calls of each frame of a step log, read once when it is built (the keys then
 * read one number per step): a frame whose code matched an artifact with a source map and its files'
 * ASTs (buildStepLog's matching, the AST as the artifacts were loaded) has its JUMPs read from the
 * steps (jumpsOfSteps) and told apart as --internal does (internalCallsOf); elsewhere nothing. Pure.
 */
import { internalCallsOf } from '../locate/internalCallsOf.js';
import { jumpsOfSteps } from '../locate/jumpsOfSteps.js';
import type { InternalItem } from '../model/types.js';
import type { Hex } from '../raw/types.js';
import type { DebugFrame, DebugStepLog, InternalTable } from './types.js';
import { cell } from '../locate/cell.js';

/** Each internal call's open steps (after its jump in, up to its jump out) counted into `diff`. */
function count(items: readonly InternalItem[], last: number, diff: Int32Array): void {
  for (const x of items) {
    if (typeof x !== 'object' || 'event' in x) continue;
    diff[x.from + 1] = cell(diff, x.from + 1) + 1;
    diff[Math.min(x.to, last) + 1] = cell(diff, Math.min(x.to, last) + 1) - 1;
    count(x.inside, last, diff);
  }
}

/** A frame's internal calls (step indexes as positions), or null where they cannot be read. */
function callsOf(f: DebugFrame, steps: Parameters<typeof jumpsOfSteps>[0]): InternalItem[] | null {
  // Constructors are left out, as --internal leaves them out.
  if (f.source === null || f.source.sources.ast === undefined || f.code === null || f.last < f.first || f.kind.startsWith('create')) return null;
  const jumps = jumpsOfSteps(steps, f.first);
  const code = `0x${Buffer.from(f.code).toString('hex')}` as Hex;
  return internalCallsOf(code, f.source.debug, jumps, { gas: cell(steps.gas, f.last), reverted: f.error !== null, at: f.last, callsAt: [] });
}

export function internalTable(rec: Pick<DebugStepLog, 'steps' | 'frames'>): InternalTable {
  const s = rec.steps;
  // The log's arrays are read once: each read of them makes a view.
  const steps = { pc: s.pc, op: s.op, depth: s.depth, gas: s.gas };
  const diff = new Int32Array(s.count + 1);
  const calls = rec.frames.map((f) => {
    const items = callsOf(f, steps);
    if (items !== null) count(items, f.last, diff);
    // Read and none (an empty list) is told apart from not known (null): the locals trust the first.
    return items;
  });
  const open = new Int32Array(s.count);
  let level = 0;
  for (let i = 0; i < s.count; i++) open[i] = level += cell(diff, i);
  return { calls, open };
}
