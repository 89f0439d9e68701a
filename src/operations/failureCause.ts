/**
 * The call an envelope's own revert hides: where the failure's origin is a batch (Multicall3's
 * aggregate3 reverts "Multicall3: call failed") or a Safe's execTransaction (GS013) that reverted with
 * its own words, the failed call it ran is the cause, and the envelope's words come after it.
 */
import type { EnvelopeCause, InspectModel, Operation } from '../model/types.js';
import { envelopeFrames } from './envelopeFrames.js';
import { innerOf } from './safeTransactions.js';
import { EXEC_TRANSACTION } from './signatures.js';

/** `path` is `under` or a frame below it. */
const within = (under: readonly number[], path: readonly number[]): boolean => path.length >= under.length && under.every((p, i) => path[i] === p);

/** Null where the failure is not an envelope's own revert over a failed call. */
export function failureCause(model: InspectModel, operations: readonly Operation[]): EnvelopeCause | null {
  const origin = model.failure?.origin;
  if (origin == null || model.tree === null) return null;
  const at = origin.traceAddress;
  for (const b of operations) {
    if (b.kind !== 'batchCall' || b.success || b.traceAddress === null || !within(b.traceAddress, at)) continue;
    // The first call that failed and was not allowed to: the one the batch reverted for.
    const k = b.calls.findIndex((c) => c.success === false && c.allowFailure !== true && c.traceAddress !== undefined);
    const failed = b.calls[k]?.traceAddress;
    if (failed !== undefined && !within(failed, at)) return { traceAddress: failed, kind: 'batch', account: b.account, call: k + 1 };
  }
  for (const f of envelopeFrames(model, new Set([EXEC_TRANSACTION]))) {
    const inner = innerOf(f);
    if (!f.failed || f.node === null || inner === null || inner.error === null) continue;
    if (within(f.node.traceAddress, at) && !within(inner.traceAddress, at)) return { traceAddress: inner.traceAddress, kind: 'safe', account: f.to, call: null };
  }
  return null;
}
