/**
 * `txray call --tx`: a mined transaction run again where it stood, on its parent block's state with
 * the block's earlier transactions replayed first (as re-execution does, see runMined.ts), its fields
 * changed as asked and the state overrides applied under the whole block (its earlier transactions
 * run on them too, as they would have had the state been so).
 */
import type { LocalOptions, LocalTrace, Rerun } from '../evm/localTrace.js';
import type { RpcClient } from '../rpc/createRpcClient.js';
import { refusedRun } from './refusedRun.js';
import { runMined } from './runMined.js';

/** `tx` as the node gave it with the changes made (from, gas, value, input); `receipt` the mined one. The run, and the block it ran in. */
export async function runAtPosition(client: RpcClient, tx: Record<string, unknown>, receipt: Record<string, unknown>, overrides: Readonly<Record<string, unknown>> | null, deadline: AbortSignal, opts: LocalOptions, rerun: Rerun): Promise<{ readonly trace: LocalTrace; readonly block: unknown }> {
  const trace = await runMined(client, tx, receipt, deadline, opts, { overrides, rerun }).catch((err: unknown) => {
    throw refusedRun(err, String(tx.from)) ?? err;
  });
  return { trace, block: trace.block };
}
