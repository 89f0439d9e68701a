/**
 * Safe transactions: an execTransaction frame (without a trace, the transaction itself) and the
 * ExecutionSuccess or ExecutionFailure that Safe emitted, matched in the order they ran. A Safe
 * event from an address no execTransaction called is not read. The inner call is the Safe's call (or
 * delegatecall, operation 1) to the `to` its execTransaction names.
 */
import type { AbiIndex } from '../decode/abiIndex.js';
import type { CallNode, InspectModel, SafeTransaction } from '../model/types.js';
import { byteLength, lowerHex, wordToAddress } from '../raw/hex.js';
import type { Hex, RpcLog } from '../raw/types.js';
import { envelopeFrames, type EnvelopeCall } from './envelopeFrames.js';
import { forwarded } from './forwarded.js';
import { operationAction } from './operationAction.js';
import { revertOf } from './revertOf.js';
import { EXEC_TRANSACTION, EXECUTION_FAILURE, EXECUTION_SUCCESS } from './signatures.js';


/** The Safe's hash of its transaction: indexed since 1.4.0, in the data before. */
function safeTxHashOf(l: RpcLog): Hex | null {
  if (l.topics.length === 2 && byteLength(l.data) === 32) return lowerHex(l.topics[1]!);
  if (l.topics.length === 1 && byteLength(l.data) === 64) return `0x${l.data.slice(2, 66).toLowerCase()}`;
  return null;
}

/** The Safe's own call to the `to` its execTransaction names (the first argument). */
export function innerOf(frame: EnvelopeCall): CallNode | null {
  if (frame.node === null || byteLength(frame.input) < 36) return null;
  const to = wordToAddress(frame.input.slice(10, 74)).toLowerCase();
  return forwarded(frame.node).children.find((c) => c.type === 'call' && c.to !== null && lowerHex(c.to) === to && c.from !== null && lowerHex(c.from) === frame.to) ?? null;
}

export function safeTransactions(model: InspectModel, index: AbiIndex): SafeTransaction[] {
  const logs = model.status === 'success' ? (model.receipt?.logs ?? []) : [];
  const isExecution = (l: RpcLog): boolean => {
    const t0 = l.topics[0]?.toLowerCase();
    return (t0 === EXECUTION_SUCCESS || t0 === EXECUTION_FAILURE) && safeTxHashOf(l) !== null;
  };
  if (!logs.some(isExecution)) return [];
  const frames = envelopeFrames(model, new Set([EXEC_TRANSACTION])).filter((f) => !f.failed);
  const out: SafeTransaction[] = [];
  let previous = -1;
  logs.forEach((l, at) => {
    if (!isExecution(l)) return;
    const account = lowerHex(l.address);
    const k = frames.findIndex((f) => f.to === account);
    if (k < 0) return;
    const frame = frames.splice(k, 1)[0]!;
    const success = l.topics[0]!.toLowerCase() === EXECUTION_SUCCESS;
    const inner = innerOf(frame);
    // Frame and event disagree (the inner call failed, the Safe says success): not listed.
    if (inner !== null && success && inner.error !== null) return;
    const revert = !success && inner?.error != null && inner.output !== null && byteLength(inner.output) > 0 ? revertOf(index, inner.output) : null;
    const own: number[] = [];
    for (let i = previous + 1; i < at; i++) if (lowerHex(logs[i]!.address) !== account || !isExecution(logs[i]!)) own.push(i);
    previous = at;
    const action = operationAction(model, { kind: 'safeTransaction', account, success, frame: inner, logs: own, revert });
    out.push({ kind: 'safeTransaction', account, success, traceAddress: inner?.traceAddress ?? frame.node?.traceAddress ?? null, action, safeTxHash: safeTxHashOf(l)!, revert });
  });
  return out;
}
