/**
 * The frames open at a step, outermost first: each external call (`Contract::function`) followed by
 * the internal functions open in it where they are known (`Contract.function`, internalTable.ts) —
 * in a frame that called another, those open at its call. The call-stack pane, `--at … --json`'s
 * callStack and the keys that step over or out of calls (n, o, p, through levelAt) follow them.
 */
import { shortAddress } from '../format/format.js';
import { openAt } from '../locate/openAt.js';
import type { DebugStepLog } from './types.js';
import { cell } from '../locate/cell.js';

export interface OpenFrame {
  readonly kind: 'external' | 'internal';
  /** The step log's frame (for an internal function, the frame it runs in). */
  readonly frame: number;
  /** `Contract::function`, or what is known of them (the address, the selector); `Contract.function` for an internal one. */
  readonly name: string;
  /** The step it stands at: the step asked for in the innermost; in a caller, its call (the jump into the function, the step before the called frame's first). */
  readonly at: number;
}

/** The name a frame is shown by: its contract and function as its artifact names them, else as the lookup does (labels, loaded ABIs), else its address and selector. */
function frameName(rec: DebugStepLog, index: number): string {
  const f = cell(rec.frames, index);
  const contract = f.contract ?? f.lookup?.label ?? (f.codeAddress === null ? '?' : shortAddress(f.codeAddress));
  const fn = f.function ?? f.lookup?.function ?? f.selector ?? (f.kind.startsWith('create') ? 'constructor' : '-');
  return `${contract}::${fn}`;
}

export function framesAt(rec: DebugStepLog, step: number): OpenFrame[] {
  const chain: number[] = [];
  let at: number | null = rec.frames.length === 0 ? null : cell(rec.steps.frame, step);
  while (at !== null) {
    chain.push(at);
    at = cell(rec.frames, at).parent;
  }
  chain.reverse();
  const out: OpenFrame[] = [];
  chain.forEach((frame, k) => {
    // A caller stands at its call: the step before its callee's first.
    const position = k === chain.length - 1 ? step : cell(rec.frames, chain[k + 1]!).first - 1;
    out.push({ kind: 'external', frame, name: frameName(rec, frame), at: position });
    const items = rec.internal.calls[frame];
    if (items == null) return;
    for (const c of openAt(items, position)) {
      // The function it was called from stands at the jump into it.
      const caller = out.length - 1;
      out[caller] = { ...cell(out, caller), at: c.from };
      out.push({ kind: 'internal', frame, name: c.contract === null ? c.name : `${c.contract}.${c.name}`, at: position });
    }
  });
  return out;
}
