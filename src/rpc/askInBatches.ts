/**
 * Many calls of one kind (a block's receipts, its transactions' traces) in as few requests as the node
 * takes: JSON-RPC batches of at most BATCH_SIZE calls (geth refuses batches of more than 1,000), and
 * one call at a time, a few at once, where the node refuses batches (some providers do for trace and
 * debug methods). Each call's answer is its result or its error, in the order of `calls`.
 */
import { Interrupted, RpcFailure } from '../errors.js';
import type { BatchAnswer, BatchRequest, RpcClient } from './createRpcClient.js';
import { deadlineSignal } from './deadline.js';
import { runInOrder } from './runInOrder.js';
import { messageOf } from './types.js';

const BATCH_SIZE = 100;
/** Single calls at once where batches are refused. */
const AT_ONCE = 8;

/** A batch the node would not take as a batch (its answer was one error, or not an array). */
const batchRefused = (err: unknown): boolean => err instanceof RpcFailure && (err.kind === 'protocol' || err.kind === 'http');

async function oneByOne(client: RpcClient, calls: readonly BatchRequest[], timeoutMs: number): Promise<BatchAnswer[]> {
  return runInOrder(calls.length, AT_ONCE, async (i) => {
    const c = calls[i]!;
    try {
      return { result: await client.call(c.method, c.params, deadlineSignal(timeoutMs)) };
    } catch (err) {
      if (err instanceof Interrupted || !(err instanceof RpcFailure) || err.kind !== 'rpc-error') throw err;
      return { error: messageOf(err) };
    }
  });
}

export async function askInBatches(client: RpcClient, calls: readonly BatchRequest[], timeoutMs: number): Promise<BatchAnswer[]> {
  const out: BatchAnswer[] = [];
  for (let i = 0; i < calls.length; i += BATCH_SIZE) {
    const chunk = calls.slice(i, i + BATCH_SIZE);
    try {
      out.push(...(await client.batch(chunk, deadlineSignal(timeoutMs))));
    } catch (err) {
      if (!batchRefused(err)) throw err;
      out.push(...(await oneByOne(client, chunk, timeoutMs)));
    }
  }
  return out;
}
