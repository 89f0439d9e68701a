/**
 * `txray debug <hash>`'s data path: the transaction and its receipt (through raw/'s checks), its one
 * run in txray's EVM with every step kept (on its parent block's state, the block's earlier transactions
 * run first where the receipt says they matter), and the debugger's step log from it.
 */
import type { Decoder } from '../decode/createDecoder.js';
import type { DebugStepLog } from '../debug/types.js';
import { NotFound, RpcFailure } from '../errors.js';
import { checkedMined } from '../localRun/checkedMined.js';
import { createLocalRuns } from '../localRun/localRuns.js';
import { isQuantity, isRecord } from '../raw/hex.js';
import type { Hex } from '../raw/types.js';
import type { RpcClient } from '../rpc/createRpcClient.js';
import { deadlineSignal } from '../rpc/deadline.js';
import { frameNamesOf } from './frameNamesOf.js';
import { stepLogOf } from './stepLogOf.js';

/** The step log and what to say of it; null where the transaction is not mined yet; NotFound (exit 3) where the node does not know it. */
export async function debugTransaction(client: RpcClient, hash: Hex, decoder: Promise<Decoder>, timeoutMs: number, debug?: (line: string) => void): Promise<{ readonly rec: DebugStepLog; readonly warnings: string[] } | null> {
  const deadline = deadlineSignal(timeoutMs);
  const [tx, receipt] = await Promise.all([client.call('eth_getTransactionByHash', [hash], deadline), client.call('eth_getTransactionReceipt', [hash], deadline)]);
  if (tx === null || tx === undefined) throw new NotFound(`the node does not know transaction ${hash}.`);
  if (!isRecord(tx)) throw new RpcFailure('malformed', `the node gave a malformed transaction for ${hash}.`);
  if (!isQuantity(tx.blockNumber)) return null;
  // Mined, and no receipt: the node's fault, not a pending transaction.
  if (!isRecord(receipt)) throw new RpcFailure('malformed', `the node gave no receipt for the mined transaction ${hash}.`);
  const checked = checkedMined(tx, receipt, hash);
  if ('pending' in checked) throw new RpcFailure('malformed', `the node gave a mined transaction ${hash} without its position.`);
  const runs = createLocalRuns(client, { config: () => Promise.resolve({ steps: true }), timeoutMs, debug });
  const local = await runs.of({ kind: 'mined', hash, mined: checked.mined }, deadline).result();
  const d = await decoder;
  const rec = await stepLogOf(client, { steps: local.steps, root: local.calls.tree.root }, { block: tx.blockNumber }, d.index.artifacts, timeoutMs, frameNamesOf(d));
  const warnings = local.mismatch.length > 0 ? [`the run here differs from the receipt (${local.mismatch.join('; ')}): the steps may not be the chain's`] : [];
  return { rec, warnings };
}
