/**
 * The node's state as an EVM sees it, for local re-execution: EthereumJS's SimpleStateManager (the
 * journal: checkpoints, commits, reverts) over a layer fetched from the node at one block through
 * txray's own client (its deadline, size caps, headers and retries). Every account, code and slot is
 * fetched once; what eth_createAccessList names is fetched before the run, in one batch.
 */
import { SimpleStateManager } from '@ethereumjs/statemanager';
import { Account, type Address, bytesToHex, createAddressFromString, hexToBytes, unpadBytes } from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { Interrupted } from '../errors.js';
import { escapeShort } from '../raw/escape.js';
import type { RpcClient } from './createRpcClient.js';

type Fetched = { readonly nonce: bigint; readonly balance: bigint; readonly code: Uint8Array };

const EMPTY_CODE_HASH = keccak_256(new Uint8Array(0));
const isHexString = (v: unknown): v is string => typeof v === 'string' && /^0x[0-9a-fA-F]*$/.test(v);
const quantity = (v: unknown, what: string): bigint => {
  if (typeof v !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(v)) throw new Error(`the node's ${what} is not a quantity`);
  return BigInt(v);
};

/** One account from its three answers (nonce, balance, code); throws when they are not what was asked. */
function fetchedOf([nonce, balance, code]: readonly unknown[]): Fetched {
  return { nonce: quantity(nonce, 'nonce'), balance: quantity(balance, 'balance'), code: isHexString(code) ? hexToBytes(code as `0x${string}`) : new Uint8Array(0) };
}

/** A storage word as the EVM keeps it (leading zeros dropped). */
const slotOf = (v: unknown): Uint8Array => (isHexString(v) ? unpadBytes(hexToBytes(v as `0x${string}`)) : new Uint8Array(0));

export class NodeState extends SimpleStateManager {
  private readonly accounts = new Map<string, Promise<Fetched>>();
  private readonly slots = new Map<string, Promise<Uint8Array>>();
  /** Every account and slot the run read or wrote (lower-case address → slot keys), for the state diff. */
  readonly touched = new Map<string, Set<string>>();

  /** Why a read failed: the node has no state at this block (pruned), in the words a user can act on. */
  private noState(err: unknown): never {
    if (err instanceof Interrupted) throw err;
    const why = escapeShort(err instanceof Error ? err.message : String(err), 120).replace(/\.$/, '');
    throw new Error(`the node has no state at block ${BigInt(this.block)} (${why}): an archive node, or a node with traces, is needed`);
  }

  constructor(
    private readonly client: RpcClient,
    private readonly block: string,
    private readonly deadline: AbortSignal,
    common: ConstructorParameters<typeof SimpleStateManager>[0],
  ) {
    super(common);
  }

  private touch(address: string, slot?: string): void {
    let set = this.touched.get(address);
    if (set === undefined) this.touched.set(address, (set = new Set()));
    if (slot !== undefined) set.add(slot);
  }

  /** The three reads that make one account. */
  private accountCalls(a: string): Array<{ method: string; params: unknown[] }> {
    return [
      { method: 'eth_getTransactionCount', params: [a, this.block] },
      { method: 'eth_getBalance', params: [a, this.block] },
      { method: 'eth_getCode', params: [a, this.block] },
    ];
  }

  /**
   * Accounts and slots fetched in one batch request, before the run (from eth_createAccessList). Where
   * the node will not give them so (it refuses batches, or an item fails), the run asks item by item,
   * and says why if it still cannot.
   */
  async prefetch(entries: ReadonlyArray<{ readonly address: string; readonly storageKeys: readonly string[] }>): Promise<void> {
    const accounts = [...new Set(entries.map((e) => e.address.toLowerCase()))].filter((a) => !this.accounts.has(a));
    const slots = [...new Set(entries.flatMap((e) => e.storageKeys.map((k) => `${e.address.toLowerCase()}:${k.toLowerCase()}`)))].filter((id) => !this.slots.has(id));
    const calls = [...accounts.flatMap((a) => this.accountCalls(a)), ...slots.map((id) => ({ method: 'eth_getStorageAt', params: [...id.split(':'), this.block] }))];
    if (calls.length === 0) return;
    let answers: unknown[];
    try {
      const raw = await this.client.batch(calls, this.deadline);
      if (raw.some((x) => 'error' in x)) return;
      answers = raw.map((x) => ('result' in x ? x.result : undefined));
    } catch (err) {
      if (err instanceof Interrupted) throw err;
      return;
    }
    accounts.forEach((a, i) => {
      try {
        this.accounts.set(a, Promise.resolve(fetchedOf(answers.slice(3 * i, 3 * i + 3))));
      } catch {
        /* malformed: asked again when the run needs it */
      }
    });
    slots.forEach((id, i) => this.slots.set(id, Promise.resolve(slotOf(answers[3 * accounts.length + i]))));
  }

  private remote(address: Address): Promise<Fetched> {
    const a = address.toString().toLowerCase();
    let p = this.accounts.get(a);
    if (p === undefined) {
      p = this.client
        .batch(this.accountCalls(a), this.deadline)
        .then((answers) => {
          const failed = answers.find((x) => 'error' in x);
          if (failed !== undefined && 'error' in failed) throw new Error(failed.error);
          return fetchedOf(answers.map((x) => ('result' in x ? x.result : undefined)));
        })
        .catch((err: unknown) => this.noState(err));
      this.accounts.set(a, p);
    }
    return p;
  }

  /** The account as the node has it at the block (undefined when it does not exist). */
  async remoteAccount(address: Address): Promise<Account | undefined> {
    const f = await this.remote(address);
    if (f.nonce === 0n && f.balance === 0n && f.code.length === 0) return undefined;
    return new Account(f.nonce, f.balance, undefined, f.code.length === 0 ? EMPTY_CODE_HASH : keccak_256(f.code));
  }

  async remoteCode(address: Address): Promise<Uint8Array> {
    return (await this.remote(address)).code;
  }

  async remoteStorage(address: Address, key: Uint8Array): Promise<Uint8Array> {
    const a = address.toString().toLowerCase();
    const k = bytesToHex(key);
    const id = `${a}:${k}`;
    let p = this.slots.get(id);
    if (p === undefined) {
      p = this.client
        .call('eth_getStorageAt', [a, k, this.block], this.deadline)
        .then(slotOf)
        .catch((err: unknown) => this.noState(err));
      this.slots.set(id, p);
    }
    return p;
  }

  override async getAccount(address: Address): Promise<Account | undefined> {
    this.touch(address.toString().toLowerCase());
    const key = address.toString();
    const top = this.topAccountStack();
    if (top.has(key)) return top.get(key);
    // Into every level of the journal (it was there before any checkpoint), each level its own copy:
    // the EVM changes an account in place, and a revert must find the level below untouched.
    for (const level of this.accountStack) if (!level.has(key)) level.set(key, await this.remoteAccount(address));
    return top.get(key);
  }

  override async getCode(address: Address): Promise<Uint8Array> {
    const key = address.toString();
    const top = this.topCodeStack();
    if (top.has(key)) return top.get(key)!;
    const code = await this.remoteCode(address);
    for (const level of this.codeStack) if (!level.has(key)) level.set(key, code);
    return code;
  }

  override async getStorage(address: Address, key: Uint8Array): Promise<Uint8Array> {
    const id = `${address.toString()}_${bytesToHex(key)}`;
    this.touch(address.toString().toLowerCase(), bytesToHex(key));
    const top = this.topStorageStack();
    if (top.has(id)) return top.get(id)!;
    const value = await this.remoteStorage(address, key);
    for (const level of this.storageStack) if (!level.has(id)) level.set(id, value);
    return value;
  }

  override async putStorage(address: Address, key: Uint8Array, value: Uint8Array): Promise<void> {
    this.touch(address.toString().toLowerCase(), bytesToHex(key));
    await super.putStorage(address, key, value);
  }

  override async putAccount(address: Address, account: Account | undefined): Promise<void> {
    this.touch(address.toString().toLowerCase());
    await super.putAccount(address, account as Account);
  }

  /** The current (journaled) view of one account, for the state diff. */
  async view(address: string): Promise<{ nonce: bigint; balance: bigint; code: Uint8Array; exists: boolean }> {
    const a = createAddressFromString(address);
    const account = await this.getAccount(a);
    // A deleted account (a selfdestruct under EIP-6780 of one made in this transaction) has no code left either.
    return { nonce: account?.nonce ?? 0n, balance: account?.balance ?? 0n, code: account === undefined ? new Uint8Array(0) : await this.getCode(a), exists: account !== undefined };
  }
}
