/**
 * ERC-4337 user operations, from their EntryPoint's UserOperationEvent: read only from an emitter the
 * address book knows as an EntryPoint, or that a handleOps frame called (without a trace: the
 * transaction's own `to` when its input is handleOps, or a call of the batch its input sends). Each op is matched to the frame its execution ran
 * in — the EntryPoint's call to its sender that is not validateUserOp, in the order the ops ran — and
 * listed only where the two agree. Its figures are the event's, verbatim.
 */
import type { AbiIndex } from '../decode/abiIndex.js';
import type { CallNode, InspectModel, UserOperation } from '../model/types.js';
import { walkCalls } from '../model/walk.js';
import { byteLength, lowerHex, wordToAddress } from '../raw/hex.js';
import type { Hex, RpcLog } from '../raw/types.js';
import { decodeAbiParameters } from 'viem';
import { batchedCalls } from './batchCalls.js';
import { envelopeFrames, type EnvelopeCall } from './envelopeFrames.js';
import { operationAction } from './operationAction.js';
import { revertOf } from './revertOf.js';
import { ENTRY_POINTS, HANDLE_OPS, POST_OP_REVERT_REASON, USER_OPERATION_EVENT, USER_OPERATION_REVERT_REASON, VALIDATE_USER_OP } from './signatures.js';

const isOpEvent = (l: RpcLog): boolean => l.topics[0]?.toLowerCase() === USER_OPERATION_EVENT && l.topics.length === 4 && byteLength(l.data) === 128;
const word = (data: Hex, i: number): bigint => BigInt(`0x${data.slice(2 + i * 64, 2 + (i + 1) * 64)}`);

/** The EntryPoint's calls to the ops' senders that ran their call data (validation calls left out), per sender in order. */
function executionFrames(frames: readonly EnvelopeCall[], entryPoint: Hex): Map<string, CallNode[]> {
  const out = new Map<string, CallNode[]>();
  for (const f of frames) {
    if (f.to !== entryPoint || f.node === null) continue;
    walkCalls(f.node, (n) => {
      const input = n.input ?? '0x';
      if (n.type !== 'call' || (n.callType ?? 'call') !== 'call' || n.from === null || n.to === null || lowerHex(n.from) !== entryPoint || lowerHex(n.to) === entryPoint) return;
      if (VALIDATE_USER_OP.has(input.slice(0, 10).toLowerCase()) || byteLength(input) === 0) return;
      const list = out.get(lowerHex(n.to)) ?? [];
      list.push(n);
      out.set(lowerHex(n.to), list);
    });
  }
  return out;
}

/**
 * The logs op `at` emitted: those after the EntryPoint's previous log that is not a revert reason (the
 * previous op's event, BeforeExecution, or the validation phase's Deposited and AccountDeployed),
 * the EntryPoint's own left out. The EntryPoint runs each op's call, then its postOp, then emits its event.
 */
function logsOf(logs: readonly RpcLog[], at: number, entryPoint: Hex): number[] {
  const out: number[] = [];
  for (let i = at - 1; i >= 0; i--) {
    const l = logs[i]!;
    const t0 = l.topics[0]?.toLowerCase();
    if (lowerHex(l.address) !== entryPoint) out.unshift(i);
    else if (t0 !== USER_OPERATION_REVERT_REASON && t0 !== POST_OP_REVERT_REASON) break;
  }
  return out;
}

/** Its execution's revert reason (UserOperationRevertReason for the same hash, between the previous op and this one). */
function reasonOf(logs: readonly RpcLog[], at: number, entryPoint: Hex, hash: string): Hex | null {
  for (let i = at - 1; i >= 0; i--) {
    const l = logs[i]!;
    if (lowerHex(l.address) !== entryPoint) continue;
    if (isOpEvent(l)) return null;
    if (l.topics[0]?.toLowerCase() !== USER_OPERATION_REVERT_REASON || l.topics[1]?.toLowerCase() !== hash) continue;
    try {
      return decodeAbiParameters([{ type: 'uint256' }, { type: 'bytes' }], l.data)[1];
    } catch {
      return null;
    }
  }
  return null;
}

export function userOperations(model: InspectModel, index: AbiIndex, warnings: string[]): UserOperation[] {
  const logs = model.status === 'success' ? (model.receipt?.logs ?? []) : [];
  if (!logs.some(isOpEvent)) return [];
  const frames = envelopeFrames(model, HANDLE_OPS).filter((f) => !f.failed);
  const called = new Set(frames.map((f) => f.to));
  // Without a tree, a batch the transaction sent (Multicall3's aggregate3, an account's executeBatch) calls handleOps as plainly as the transaction's own input would.
  const input = model.tree === null ? model.tx?.input : undefined;
  for (const c of input === undefined ? [] : (batchedCalls(input) ?? [])) if (HANDLE_OPS.has(c.data.slice(0, 10).toLowerCase())) called.add(c.to);
  const queues = new Map<Hex, Map<string, CallNode[]>>();
  const out: UserOperation[] = [];
  const untrusted = new Set<Hex>();
  logs.forEach((l, at) => {
    if (!isOpEvent(l)) return;
    const entryPoint = lowerHex(l.address);
    if (!ENTRY_POINTS.has(entryPoint) && !called.has(entryPoint)) {
      untrusted.add(entryPoint);
      return;
    }
    if (!queues.has(entryPoint)) queues.set(entryPoint, executionFrames(frames, entryPoint));
    const account = lowerHex(wordToAddress(l.topics[2]!));
    const success = word(l.data, 1) !== 0n;
    const frame = model.tree === null ? null : (queues.get(entryPoint)!.get(account)?.shift() ?? null);
    // The event says it succeeded, the tree says its call failed: they disagree, and neither is shown as the truth.
    if (frame !== null && success && frame.error !== null) {
      warnings.push(`A UserOperationEvent of ${account} says it succeeded, but its call at [${frame.traceAddress.join(',')}] failed: not listed as a user operation.`);
      return;
    }
    const hash = lowerHex(l.topics[1]!);
    const reason = success ? null : reasonOf(logs, at, entryPoint, hash);
    const revert = reason === null ? null : revertOf(index, reason);
    const paymaster = lowerHex(wordToAddress(l.topics[3]!));
    const action = operationAction(model, { kind: 'userOperation', account, success, frame, logs: logsOf(logs, at, entryPoint), revert });
    out.push({
      kind: 'userOperation', account, success, traceAddress: frame?.traceAddress ?? null, action, entryPoint, userOpHash: hash, nonce: word(l.data, 0),
      paymaster: /^0x0{40}$/.test(paymaster) ? null : paymaster, actualGasCost: word(l.data, 2), actualGasUsed: word(l.data, 3), revert,
    });
  });
  // One line for any number of lookalikes (a hostile transaction may emit from thousands).
  const named = [...untrusted].slice(0, 3).join(', ');
  const more = untrusted.size > 3 ? ` and ${untrusted.size - 3} more` : '';
  if (untrusted.size > 0) warnings.push(`${named}${more} emitted UserOperationEvent but ${untrusted.size === 1 ? 'is' : 'are'} neither a known EntryPoint nor called through handleOps: ${untrusted.size === 1 ? 'its' : 'their'} events are not read as user operations.`);
  return out;
}
