/**
 * The only network stage: the three reads, in parallel, as single requests (not a JSON-RPC batch:
 * several providers refuse trace/debug methods inside batches and geth caps batch sizes).
 */
import { Interrupted } from '../errors.js';
import type { RawAnswers } from '../model/buildModel.js';
import type { Hex } from '../raw/types.js';
import { isMethodNotFound, type RpcClient } from './createRpcClient.js';

export interface Bundle extends RawAnswers {
  readonly warnings: string[];
}

const blockHashOf = (v: unknown): string | undefined => {
  const h = (v as { blockHash?: unknown } | null)?.blockHash;
  return typeof h === 'string' ? h.toLowerCase() : undefined;
};

async function fetchOnce(client: RpcClient, hash: Hex, withTrace: boolean): Promise<Bundle> {
  const warnings: string[] = [];
  const [tx, receipt, trace] = await Promise.allSettled([
    client.call('eth_getTransactionByHash', [hash]),
    client.call('eth_getTransactionReceipt', [hash]),
    withTrace ? client.call('trace_transaction', [hash]) : Promise.resolve(null),
  ]);
  for (const r of [tx, receipt, trace]) if (r.status === 'rejected' && r.reason instanceof Interrupted) throw r.reason;
  if (tx.status === 'rejected') throw tx.reason;
  if (receipt.status === 'rejected') throw receipt.reason;
  let traceValue: unknown = null;
  if (trace.status === 'fulfilled') traceValue = trace.value;
  else if (isMethodNotFound(trace.reason)) {
    warnings.push(`trace_transaction is not available on ${client.where} (method not found); the call tree is not shown.`);
  } else {
    // Only the trace failed: the transaction and receipt are still worth showing.
    const message = trace.reason instanceof Error ? trace.reason.message : String(trace.reason);
    warnings.push(`${message.replace(/^trace_transaction: /, 'trace_transaction failed: ')} The call tree is not shown.`);
  }
  return { transaction: tx.value, receipt: receipt.value, trace: traceValue, warnings };
}

export async function fetchBundle(client: RpcClient, hash: Hex, opts: { withTrace: boolean }): Promise<Bundle> {
  const first = await fetchOnce(client, hash, opts.withTrace);
  const txBlock = blockHashOf(first.transaction);
  const receiptBlock = blockHashOf(first.receipt);
  if (txBlock === undefined || receiptBlock === undefined || txBlock === receiptBlock) return first;
  // A reorg between the calls: the transaction and its receipt come from different blocks. Ask once more.
  const second = await fetchOnce(client, hash, opts.withTrace);
  const a = blockHashOf(second.transaction);
  const b = blockHashOf(second.receipt);
  if (a !== undefined && b !== undefined && a !== b) {
    second.warnings.push('the transaction and its receipt name different blocks (a reorg while asking?), twice; the answers may disagree.');
  }
  return second;
}
