/**
 * What a local re-execution of a mined transaction asks the node first, asked before the EVM is loaded:
 * loading it is ~30 ms of work for the processor that the wait for these answers hides. Nothing here
 * needs EthereumJS.
 */
import { keccak_256 as keccak256 } from '../hash/wasmKeccak.js';
import { isAddress } from '../raw/hex.js';
import type { RpcReceipt } from '../raw/types.js';
import type { BatchAnswer, BatchRequest, RpcClient } from './createRpcClient.js';

const wordHex = (bytes: Uint8Array): string => `0x${Buffer.from(bytes).toString('hex')}`;

/** The three reads that make one account at a block. */
export const accountCalls = (address: string, block: string): BatchRequest[] => [
  { method: 'eth_getTransactionCount', params: [address, block] },
  { method: 'eth_getBalance', params: [address, block] },
  { method: 'eth_getCode', params: [address, block] },
];

/** One batch's reads: each account's three, then each slot (`<address>:<slot>`), in that order. */
export const readCalls = (accounts: readonly string[], slots: readonly string[], block: string): BatchRequest[] => [
  ...accounts.flatMap((a) => accountCalls(a, block)),
  ...slots.map((id) => ({ method: 'eth_getStorageAt', params: [...id.split(':'), block] })),
];

export interface AskedAhead {
  /** The transaction's block, with its transactions (the replay needs them). */
  readonly block: Promise<unknown>;
  /**
   * The block's header alone: it comes before the block with its transactions, and names the coinbase
   * (each transaction pays it a fee), whose account a run asks for at once (see runMined).
   */
  readonly header: Promise<unknown>;
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

/** EIP-1967's implementation slot: where a proxy keeps the contract each of its calls runs. */
const IMPLEMENTATION_SLOT = '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc';

/** The recipient's slots whose words may name another contract (see accountsNamed). */
const LAYOUT_SLOTS = new Set([...FIRST_SLOTS, IMPLEMENTATION_SLOT]);

/** How many of a contract's first slots may hold a mapping keyed by address (an ERC-20's balances: slot 0, 2, 3, 9 in the common ones). */
const MAPPING_SLOTS = 10;

/** The entry of `holder` in a mapping at slot `slot` of token `to` (`<address>:<slot>`). */
function holderEntry(to: string, holder: string, slot: number): string {
  const key = holder.slice(2).toLowerCase().padStart(64, '0');
  return `${to}:${wordHex(keccak256(Buffer.from(`${key}${slot.toString(16).padStart(64, '0')}`, 'hex')))}`;
}

/**
 * The entries of `holders` in a mapping at each of the token's first slots. A token transfer reads its
 * sender's and its recipient's balances there, and a busy sender's earlier transactions in the block (an
 * exchange's or a relayer's payouts of one token) read the sender's too: known before the run starts,
 * they are not waited for after the access list or a guess names them.
 */
function holderEntries(to: string, holders: readonly string[]): string[] {
  return holders.flatMap((holder) => Array.from({ length: MAPPING_SLOTS }, (_, i) => holderEntry(to, holder, i)));
}

/** An address argument as ABI encoding writes it: 12 zero bytes, then the address. */
const ADDRESS_WORD = /^0{24}([0-9a-f]{40})$/i;

/**
 * The holders a token transfer moves between: its sender and the addresses in ERC-20's
 * transfer(address,uint256) or transferFrom(address,address,uint256); none for any other call. The
 * input is the node's: an argument not shaped as an address is left out.
 */
function transferHolders(from: unknown, input: unknown): string[] {
  if (!isAddress(from) || typeof input !== 'string') return [];
  const selector = input.slice(0, 10).toLowerCase();
  const count = selector === '0xa9059cbb' ? 1 : selector === '0x23b872dd' ? 2 : 0;
  if (count === 0) return [];
  const args = Array.from({ length: count }, (_, i) => ADDRESS_WORD.exec(input.slice(10 + 64 * i, 74 + 64 * i))?.[1]).filter((a) => a !== undefined);
  return [...new Set([from, ...args.map((a) => `0x${a}`)].map((a) => a.toLowerCase()))];
}

/**
 * Asked together, before the EVM loads, and where the node may still serve a tracer, beside it (see
 * LocalRun.prepare: `speculative`, as no run may need them; a replay of a recording that lacks them
 * then tells the asker, not the user). The block's coinbase is not known yet: a run asks for it once
 * the header, asked beside the block, names it.
 */
export function askAhead(client: RpcClient, tx: Readonly<Record<string, unknown>>, receipt: Pick<RpcReceipt, 'logs'>, deadline: AbortSignal, speculative = false): AskedAhead {
  const blockNumber = BigInt(tx.blockNumber as string);
  const parent = `0x${(blockNumber - 1n).toString(16)}`;
  const logged = receipt.logs.map((l) => l.address);
  const addresses = [...new Set([tx.from, tx.to, ...logged].filter(isAddress).map((a) => a.toLowerCase()))];
  const to = isAddress(tx.to) ? tx.to.toLowerCase() : null;
  const guessed = to === null ? [] : holderEntries(to, transferHolders(tx.from, tx.input));
  const slots = to === null ? [] : [...[...LAYOUT_SLOTS].map((k) => `${to}:${k}`), ...guessed];
  const calls = readCalls(addresses, slots, parent);
  // The holders' entries are a guess at a layout: a run may read none of them.
  const first = calls.length - guessed.length;
  const asked: AskedAhead = {
    block: client.call('eth_getBlockByNumber', [`0x${blockNumber.toString(16)}`, true], deadline, speculative),
    header: client.call('eth_getBlockByNumber', [`0x${blockNumber.toString(16)}`, false], deadline, true),
    chainId: client.call('eth_chainId', [], deadline, speculative),
    accessList: client.call('eth_createAccessList', [{ from: tx.from, to: tx.to ?? undefined, data: tx.input, value: tx.value, gas: tx.gas }, parent], deadline, speculative),
    accounts: {
      addresses,
      slots,
      answers: client.batch(calls.map((c, i) => (i < first && !speculative ? c : { ...c, speculative: true })), deadline),
    },
  };
  // Each is awaited later, or not at all where the run ends first: none may go unhandled meanwhile.
  for (const p of [asked.block, asked.header, asked.chainId, asked.accessList, asked.accounts.answers]) p.catch(() => undefined);
  return asked;
}

/** Words below this are taken for numbers, not addresses (an address with four leading zero bytes is missed). */
const LOWEST_ADDRESS = 1n << 128n;

/** The address a storage word holds, where it is shaped as one: 12 zero bytes, then 20 not mostly zero. */
function addressIn(word: unknown): string | null {
  if (typeof word !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(word)) return null;
  const n = BigInt(word);
  return n >= LOWEST_ADDRESS && n < 1n << 160n ? `0x${n.toString(16).padStart(40, '0')}` : null;
}

/**
 * The accounts the recipient's first slots and its EIP-1967 slot name, once the first batch is in: a
 * proxy's implementation, a library, a token it keeps the address of. On a node without
 * eth_createAccessList (Hardhat) the run would otherwise ask for each where it reaches it, one round
 * trip at a time; an owner's account asked for nothing costs three reads more in a batch.
 */
export async function accountsNamed(accounts: AskedAhead['accounts']): Promise<string[]> {
  const answers = await accounts.answers;
  const named = accounts.slots.flatMap((id, i) => {
    const answer = answers[accounts.addresses.length * 3 + i];
    const address = LAYOUT_SLOTS.has(id.slice(43)) && answer !== undefined && 'result' in answer ? addressIn(answer.result) : null;
    return address === null || accounts.addresses.includes(address) ? [] : [address];
  });
  return [...new Set(named)];
}

/**
 * Which of token `tx.to`'s first slots holds its balances, by the transaction's access list (`listed`:
 * the `<address>:<slot>` entries it names, lower case): the first at which one of its transfer's holders'
 * entries is listed. Null where the transaction is no token transfer, or none is listed.
 */
export function balanceSlotOf(tx: Readonly<Record<string, unknown>>, listed: ReadonlySet<string>): number | null {
  if (!isAddress(tx.to)) return null;
  const to = tx.to.toLowerCase();
  const holders = transferHolders(tx.from, tx.input);
  for (let i = 0; i < MAPPING_SLOTS; i++) if (holders.some((h) => listed.has(holderEntry(to, h, i)))) return i;
  return null;
}

/**
 * The balance entries, at slot `slot` of token `to`, of every holder that the block's `earlier`
 * transactions that transfer that token move it between: a block of one sender's payouts reads each
 * payee's balance once, and asked together before the replay, none is waited for alone.
 */
export function earlierHolderEntries(to: string, earlier: readonly Readonly<Record<string, unknown>>[], slot: number): string[] {
  const holders = new Set(earlier.flatMap((t) => (typeof t.to === 'string' && t.to.toLowerCase() === to ? transferHolders(t.from, t.input) : [])));
  return [...holders].map((h) => holderEntry(to, h, slot));
}
