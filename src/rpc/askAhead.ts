/**
 * What a local re-execution of a mined transaction asks the node first, asked before the EVM is loaded:
 * loading it is ~30 ms of work for the processor that the wait for these answers hides. Nothing here
 * needs EthereumJS.
 */
import { keccak256 } from '../decode/keccak.js';
import { isAddress, isRecord } from '../raw/hex.js';

const wordHex = (bytes: Uint8Array): string => `0x${Buffer.from(bytes).toString('hex')}`;
import type { BatchAnswer, BatchCall, RpcClient } from './createRpcClient.js';

/** The three reads that make one account at a block. */
export const accountCalls = (address: string, block: string): BatchCall[] => [
  { method: 'eth_getTransactionCount', params: [address, block] },
  { method: 'eth_getBalance', params: [address, block] },
  { method: 'eth_getCode', params: [address, block] },
];

/** One batch's reads: each account's three, then each slot (`<address>:<slot>`), in that order. */
export const readCalls = (accounts: readonly string[], slots: readonly string[], block: string): BatchCall[] => [
  ...accounts.flatMap((a) => accountCalls(a, block)),
  ...slots.map((id) => ({ method: 'eth_getStorageAt', params: [...id.split(':'), block] })),
];

export interface AskedAhead {
  /** The transaction's block, with its transactions (the replay needs them). */
  readonly block: Promise<unknown>;
  readonly chainId: Promise<unknown>;
  /** eth_createAccessList at the parent block: what the node says the transaction touches (not Hardhat). */
  readonly accessList: Promise<unknown>;
  /**
   * In one batch: the accounts it surely touches (its sender, its recipient, every contract that logged),
   * then the recipient's first storage slots (`<address>:<slot>`).
   */
  readonly accounts: { readonly addresses: readonly string[]; readonly slots: readonly string[]; readonly answers: Promise<BatchAnswer[]> };
}

/**
 * A contract keeps its plain variables from slot 0 up; on a node without eth_createAccessList (Hardhat)
 * the run would otherwise ask for each the recipient reads, one round trip at a time. Eight words more
 * in a batch already on its way cost little where they go unread.
 */
const FIRST_SLOTS = Array.from({ length: 8 }, (_, i) => `0x${i.toString(16).padStart(64, '0')}`);

/** How many of a contract's first slots may hold a mapping keyed by address (an ERC-20's balances: slot 0, 2, 3, 9 in the common ones). */
const MAPPING_SLOTS = 10;

/**
 * The sender's entry in a mapping at each of the token's first slots. A busy sender's earlier
 * transactions in the block (an exchange's or a relayer's payouts of one token) all read its balance
 * there: known before the replay starts, it is not waited for after the access list names it. Asked
 * only for a token transfer that is not the block's first (ten hashes cost a cold process a few ms).
 */
function senderEntries(to: string, from: string): string[] {
  const key = from.slice(2).toLowerCase().padStart(64, '0');
  return Array.from({ length: MAPPING_SLOTS }, (_, i) => `${to}:${wordHex(keccak256(Buffer.from(`${key}${i.toString(16).padStart(64, '0')}`, 'hex')))}`);
}

/** ERC-20's transfer(address,uint256) and transferFrom(address,address,uint256): a payout's call. */
const isTokenTransfer = (input: unknown): boolean => typeof input === 'string' && /^0x(a9059cbb|23b872dd)/i.test(input);

/** `coinbase`: the block's, where its header came before (the replay pays it every earlier transaction's fee). */
export function askAhead(client: RpcClient, tx: Record<string, unknown>, receipt: Record<string, unknown>, deadline: AbortSignal, coinbase: string | null = null): AskedAhead {
  const blockNumber = BigInt(tx.blockNumber as string);
  const parent = `0x${(blockNumber - 1n).toString(16)}`;
  const logged = Array.isArray(receipt.logs) ? receipt.logs.map((l: unknown) => (isRecord(l) ? l.address : undefined)) : [];
  const addresses = [...new Set([tx.from, tx.to, ...logged, coinbase].filter(isAddress).map((a) => a.toLowerCase()))];
  const to = isAddress(tx.to) ? tx.to.toLowerCase() : null;
  const guessed = to !== null && isAddress(tx.from) && Number(BigInt(tx.transactionIndex as string)) > 0 && isTokenTransfer(tx.input) ? senderEntries(to, tx.from) : [];
  const slots = to === null ? [] : [...FIRST_SLOTS.map((k) => `${to}:${k}`), ...guessed];
  const calls = readCalls(addresses, slots, parent);
  // The sender's entries are a guess at a layout: a run may read none of them.
  const first = calls.length - guessed.length;
  const asked: AskedAhead = {
    block: client.call('eth_getBlockByNumber', [`0x${blockNumber.toString(16)}`, true], deadline),
    chainId: client.call('eth_chainId', [], deadline),
    accessList: client.call('eth_createAccessList', [{ from: tx.from, to: tx.to ?? undefined, data: tx.input, value: tx.value, gas: tx.gas }, parent], deadline),
    accounts: {
      addresses,
      slots,
      answers: client.batch(calls.map((c, i) => (i < first ? c : { ...c, speculative: true })), deadline),
    },
  };
  // Each is awaited later, or not at all where the run ends first: none may go unhandled meanwhile.
  for (const p of [asked.block, asked.chainId, asked.accessList, asked.accounts.answers]) p.catch(() => undefined);
  return asked;
}
