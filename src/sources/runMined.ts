/**
 * A mined transaction run in txray's EVM on its parent block's state as the node has it: the first reads
 * asked ahead (askAhead) before the EVM is loaded, so that the wait for them hides the loading.
 */
import { loadLocalTrace } from '../evm/loadLocalTrace.js';
import type { LocalOptions, LocalTrace } from '../evm/localTrace.js';
import { askAhead } from '../rpc/askAhead.js';
import type { RpcClient } from '../rpc/createRpcClient.js';
import { nodeReader } from './nodeReader.js';

/** `tx` and `receipt` as the node gave them (mined: `blockNumber` is a quantity). */
export async function runMined(client: RpcClient, tx: Record<string, unknown>, receipt: Record<string, unknown>, deadline: AbortSignal, opts: LocalOptions): Promise<LocalTrace> {
  const ahead = askAhead(client, tx, receipt, deadline);
  const { traceLocally } = await loadLocalTrace();
  const reader = nodeReader(client, `0x${(BigInt(tx.blockNumber as string) - 1n).toString(16)}`, deadline);
  reader.adopt(ahead.accounts.addresses, ahead.accounts.slots, ahead.accounts.answers);
  return traceLocally(reader, tx, receipt, ahead, opts);
}
