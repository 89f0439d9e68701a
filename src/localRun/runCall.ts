/** A call run in txray's EVM on the node's state after `block`, with state overrides, as debug_traceCall would run it. */
import { loadLocalTrace } from '../evm/loadLocalTrace.js';
import type { LocalOptions, LocalTrace } from '../evm/localTrace.js';
import { isRecord } from '../raw/hex.js';
import { parseEvmHeader } from '../raw/parseBlock.js';
import type { StateOverride } from '../raw/types.js';
import type { RpcClient } from '../rpc/createRpcClient.js';
import { overrideReader } from '../evm/overrideReader.js';
import { nodeReader } from './nodeReader.js';

/** The call as eth_call takes it, with the block it runs after and the state overrides. */
export interface CallTarget {
  readonly call: Readonly<Record<string, unknown>>;
  readonly block: string;
  readonly overrides: StateOverride | null;
}

/** The run, and the header of the block it ran after. */
export async function runCall(client: RpcClient, input: CallTarget, deadline: AbortSignal, opts: LocalOptions): Promise<LocalTrace & { readonly block: unknown }> {
  const { call, block, overrides } = input;
  const header = client.call('eth_getBlockByNumber', [block, false], deadline);
  const chainId = client.call('eth_chainId', [], deadline);
  // Each is awaited below, or not at all where loading fails first: none may go unhandled meanwhile.
  for (const p of [header, chainId]) p.catch(() => undefined);
  const { simulateLocally } = await loadLocalTrace();
  const h = await header;
  if (!isRecord(h)) throw new Error(`the node has no block ${block}`);
  const trace = await simulateLocally(overrideReader(nodeReader(client, block, deadline), overrides), { ...call }, { header: parseEvmHeader(h), chainId: await chainId }, opts);
  return { ...trace, block: h };
}
