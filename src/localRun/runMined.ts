/**
 * A mined transaction run in txray's EVM on its parent block's state as the node has it: the first reads
 * asked ahead (askAhead) before the EVM is loaded, so that the wait for them hides the loading. `change`
 * (`txray call --tx`): the state overrides under the whole block, and how it is run again.
 */
import { loadLocalTrace } from '../evm/loadLocalTrace.js';
import type { LocalOptions, LocalTrace, Position, Rerun } from '../evm/localTrace.js';
import { overrideReader } from '../evm/overrideReader.js';
import { isAddress, isRecord, toQuantity } from '../raw/hex.js';
import { sameHash } from '../raw/parseRaw.js';
import type { RpcReceipt, StateOverride } from '../raw/types.js';
import { type AskedAhead, accountsNamed, askAhead } from '../rpc/askAhead.js';
import { letRequestsOut } from '../rpc/letRequestsOut.js';
import type { RpcClient } from '../rpc/createRpcClient.js';
import { nodeReader } from './nodeReader.js';

/** A mined transaction as the node gave it, checked (see checkedMined.ts), its receipt as raw/ checked it, and where it stands. */
export interface MinedInput {
  readonly tx: Readonly<Record<string, unknown>>;
  readonly receipt: RpcReceipt;
  readonly at: Position;
}

/**
 * The coinbase of `tx`'s block from its header (null where the ask failed, or it is another block's: a
 * reorg between the asks; only a prefetch, the block's own answer decides).
 */
async function coinbaseOf(header: Promise<unknown>, tx: Readonly<Record<string, unknown>>): Promise<string | null> {
  const h = await header;
  return isRecord(h) && isAddress(h.miner) && typeof h.hash === 'string' && typeof tx.blockHash === 'string' && sameHash(h.hash, tx.blockHash) ? h.miner.toLowerCase() : null;
}

/** The run, and the block it ran in (`asked`: its first reads, where the local-run service asked them before). */
export async function runMined(
  client: RpcClient,
  mined: MinedInput,
  deadline: AbortSignal,
  opts: LocalOptions,
  change: { readonly overrides: StateOverride | null; readonly rerun: Rerun } | null,
  asked: AskedAhead | null,
): Promise<LocalTrace & { readonly block: unknown }> {
  const { tx, receipt, at } = mined;
  const ahead = asked ?? askAhead(client, tx, receipt, deadline);
  const reader = nodeReader(client, toQuantity(at.blockNumber - 1n), deadline);
  reader.adopt(ahead.accounts.addresses, ahead.accounts.slots, ahead.accounts.answers);
  // Asked as soon as the first batch names them (while the EVM loads, or the run goes on).
  accountsNamed(ahead.accounts).then(
    (named) => reader.prefetch(named, []),
    () => undefined,
  );
  coinbaseOf(ahead.header, tx).then(
    (coinbase) => reader.prefetch(coinbase === null ? [] : [coinbase], []),
    () => undefined,
  );
  if (asked === null) await letRequestsOut();
  const { traceLocally } = await loadLocalTrace();
  const trace = await traceLocally(change === null ? reader : overrideReader(reader, change.overrides), tx, receipt, at, ahead, opts, change?.rerun);
  return { ...trace, block: await ahead.block };
}
