/**
 * A simulated call has no receipt, but every stage after the model reads one (status, gas used, the
 * logs, the fee split). This is the receipt the call would get if mined in the simulated block, made
 * only from what the tracer said: status from the root frame's error, gas used from its gasUsed (geth's
 * callTracer counts the intrinsic gas in it; Parity's trace_call does not, so that gas stays unknown),
 * the events of every frame that did not fail (a failed frame's events are rolled back), in execution
 * order. It never reaches --json: the document says `receipt: null` and lists these logs on their own.
 */
import { isHash, isQuantity, toQuantity } from '../raw/hex.js';
import type { FrameLog } from '../raw/parseCallTrace.js';
import type { Hex, RpcLog, RpcReceipt, RpcTransaction } from '../raw/types.js';
import { frameKey } from './frameKey.js';
import type { CallTree } from './types.js';
import { walkCalls } from './walk.js';

export interface SimulatedOutcome {
  /** The tracer's call tree (null: no tracer, eth_call only). */
  readonly tree: CallTree | null;
  readonly frameLogs: readonly FrameLog[] | null;
  /** The callTracer root frame's gasUsed (intrinsic gas included, so the transaction's); null when not known. */
  readonly gasUsed: Hex | null;
  /** eth_call's verdict when there is no trace. */
  readonly reverted: boolean;
  readonly header: Readonly<Record<string, unknown>>;
}

const ZERO_HASH: Hex = `0x${'0'.repeat(64)}`;

/** What the sender would pay per gas in this block: the legacy price, or min(max fee, base fee + tip). */
function effectivePrice(tx: RpcTransaction, baseFee: bigint | null): Hex | undefined {
  if (tx.maxFeePerGas !== undefined) {
    if (baseFee === null) return undefined;
    const tip = BigInt(tx.maxPriorityFeePerGas ?? '0x0');
    const max = BigInt(tx.maxFeePerGas);
    const price = baseFee + tip < max ? baseFee + tip : max;
    return toQuantity(price);
  }
  return tx.gasPrice;
}

/** Frames that failed, or sit under one that failed, by traceAddress key: their events never happened. */
function failedPaths(tree: CallTree): Set<string> {
  const failed = new Set<string>();
  walkCalls(tree.root, (node, parent) => {
    if (node.error !== null || (parent !== null && failed.has(frameKey(parent.traceAddress)))) failed.add(frameKey(node.traceAddress));
  });
  return failed;
}

export function simulatedReceipt(tx: RpcTransaction, o: SimulatedOutcome): RpcReceipt {
  const root = o.tree?.root;
  const failed = o.tree === null ? new Set<string>() : failedPaths(o.tree);
  const reverted = root === undefined ? o.reverted : root.error !== null;
  const logs: RpcLog[] = (o.frameLogs ?? [])
    .filter((l) => !failed.has(frameKey(l.traceAddress)))
    .map((l, i) => ({ address: l.address, topics: l.topics, data: l.data, logIndex: toQuantity(i) }));
  const gasUsed = o.gasUsed ?? undefined;
  const created = root?.type === 'create' && !reverted && root.to !== null ? root.to : undefined;
  const baseFee = isQuantity(o.header.baseFeePerGas) ? BigInt(o.header.baseFeePerGas) : null;
  const price = effectivePrice(tx, baseFee);
  const blockHash = isHash(o.header.hash) ? o.header.hash : undefined;
  return {
    transactionHash: tx.hash ?? ZERO_HASH,
    ...(blockHash !== undefined ? { blockHash } : {}),
    ...(isQuantity(o.header.number) ? { blockNumber: o.header.number } : {}),
    ...(created !== undefined ? { contractAddress: created } : {}),
    ...(gasUsed !== undefined ? { gasUsed } : {}),
    ...(gasUsed !== undefined && price !== undefined ? { effectiveGasPrice: price } : {}),
    status: reverted ? '0x0' : '0x1',
    logs,
  };
}
