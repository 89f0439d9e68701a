/**
 * EIP-7702: each authorization of a type-4 transaction with its signer and whether it took effect.
 * Whether it did depends on the authority's nonce and code at that point of the block, after the
 * block's earlier transactions. The first transaction of a block finds the parent block's state; a
 * later one, what the node's prestateTracer gives (the accounts the transaction touched, as they were
 * before it, the authorities among them); a simulation, the state at the simulated block. Where the
 * node gives none of these, `applied` is null: the earlier transactions may have moved the nonce in
 * ways their own fields do not show (a delegated account's code creating a contract bumps it).
 */
import { Interrupted } from '../errors.js';
import { type AccountAt, authorizationFacts, type StateBefore } from '../model/authorizationFacts.js';
import { chainIdOf } from '../model/chain.js';
import type { AuthorizationFact, InspectModel } from '../model/types.js';
import { isAddress, isData, isQuantity, isRecord, lowerHex, toQuantity } from '../raw/hex.js';
import type { Hex } from '../raw/types.js';
import type { RpcClient } from '../rpc/createRpcClient.js';
import { deadlineSignal } from '../rpc/deadline.js';
import { blockOf } from './blockOf.js';

/** One account of a prestateTracer answer: geth leaves out a zero nonce and empty code. */
function accountAt(v: unknown): AccountAt | null {
  if (!isRecord(v)) return null;
  const nonce = v.nonce === undefined ? 0n : Number.isSafeInteger(v.nonce) && (v.nonce as number) >= 0 ? BigInt(v.nonce as number) : isQuantity(v.nonce) ? BigInt(v.nonce) : null;
  const code = v.code === undefined ? '0x' : isData(v.code) ? lowerHex(v.code) : null;
  return nonce === null || code === null ? null : { nonce, code };
}

/** The authorities as the transaction found them, from the node's prestateTracer. */
async function prestate(client: RpcClient, hash: Hex, wanted: readonly Hex[], timeoutMs: number): Promise<StateBefore> {
  const answer = await client.call('debug_traceTransaction', [hash, { tracer: 'prestateTracer', tracerConfig: { disableStorage: true } }], deadlineSignal(timeoutMs));
  if (!isRecord(answer)) return { unknown: 'the node\'s prestateTracer gave no state' };
  const byLower = new Map(Object.entries(answer).flatMap(([k, v]) => (isAddress(k) ? [[k.toLowerCase(), v] as const] : [])));
  const accounts = new Map<string, AccountAt>();
  for (const a of wanted) {
    const at = accountAt(byLower.get(a));
    if (at !== null) accounts.set(a, at);
  }
  return { accounts };
}

/** A simulation's authorities: their nonce and code at the simulated block, in one batch. */
async function atBlock(client: RpcClient, wanted: readonly Hex[], block: string, timeoutMs: number): Promise<StateBefore> {
  const calls = wanted.flatMap((a) => [
    { method: 'eth_getTransactionCount', params: [a, block] },
    { method: 'eth_getCode', params: [a, block] },
  ]);
  const answers = (await client.batch(calls, deadlineSignal(timeoutMs))).map((x) => ('result' in x ? x.result : undefined));
  const accounts = new Map<string, AccountAt>();
  wanted.forEach((a, i) => {
    const nonce = answers[2 * i];
    const code = answers[2 * i + 1];
    if (isQuantity(nonce) && isData(code)) accounts.set(a, { nonce: BigInt(nonce), code: lowerHex(code) });
  });
  return { accounts };
}

/** The facts of the transaction's authorizations (null for a transaction without any), and a warning where the state could not be read. */
export async function authorizationsOf(client: RpcClient, model: InspectModel, timeoutMs: number): Promise<{ facts: AuthorizationFact[]; warning: string | null } | null> {
  const tx = model.tx;
  const list = tx?.authorizationList ?? [];
  if (tx === null || list.length === 0) return null;
  const { recoverAuthority } = await import('../decode/recoverAuthority.js');
  const authorities = await Promise.all(list.map((a) => recoverAuthority(a)));
  const wanted = [...new Set(authorities.filter((a): a is Hex => a !== null))];
  let state: StateBefore;
  let warning: string | null = null;
  try {
    if (wanted.length === 0) state = { accounts: new Map() };
    else if (model.simulation !== undefined) state = await atBlock(client, wanted, blockOf(model), timeoutMs);
    else if (tx.transactionIndex === 0 && tx.blockNumber != null && tx.blockNumber > 0n) state = await atBlock(client, wanted, toQuantity(tx.blockNumber - 1n), timeoutMs);
    else if (model.hash !== null && tx.blockNumber != null) state = await prestate(client, model.hash, wanted, timeoutMs);
    else state = { unknown: 'the transaction is not in a block yet' };
  } catch (err) {
    if (err instanceof Interrupted) throw err;
    const why = 'the node did not give the state before the transaction (prestateTracer)';
    warning = `whether the EIP-7702 authorizations took effect is not known: ${why}.`;
    state = { unknown: why };
  }
  const chainId = chainIdOf(tx);
  return { facts: authorizationFacts(list, authorities, tx.from, chainId === null ? null : BigInt(chainId), state), warning };
}
