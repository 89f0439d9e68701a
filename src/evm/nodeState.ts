/**
 * The node's state as an EVM sees it, for local re-execution: EthereumJS's SimpleStateManager (the
 * journal: checkpoints, commits, reverts) over a layer fetched from the node at one block through
 * txray's own client (its deadline, size caps, headers and retries). Every account, code and slot is
 * fetched once; what is surely touched, and what eth_createAccessList names, is asked for in batches
 * that the run waits on only where it needs them.
 */
import type { Address } from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { Interrupted } from '../errors.js';
import { escapeShort } from '../raw/escape.js';
import { isData, isQuantity } from '../raw/hex.js';
import { accountCalls, readCalls } from '../rpc/askAhead.js';
import type { BatchAnswer, RpcClient } from '../rpc/createRpcClient.js';
import { Account, bytesToHex, createAddressFromString, hexToBytes, SimpleStateManager, unpadBytes } from './evmEngine.js';

/** Reads in one batch request at most (a multiple of 3: an account is three reads). */
const BATCH_ITEMS = 480;

/** A read the node could not answer: the run cannot go on (unlike a transaction the EVM refuses). */
export class NoState extends Error {
  override readonly name = 'NoState';
}

type Fetched = { readonly nonce: bigint; readonly balance: bigint; readonly code: Uint8Array };

const EMPTY_CODE_HASH = keccak_256(new Uint8Array(0));
/** A guess (see NodeState.guess): no such account. */
const NOTHING: Fetched = { nonce: 0n, balance: 0n, code: new Uint8Array(0) };
const quantity = (v: unknown, what: string): bigint => {
  if (!isQuantity(v)) throw new Error(`the node's ${what} is not a quantity`);
  return BigInt(v);
};

/** One account from its three answers (nonce, balance, code); throws when they are not what was asked. */
function fetchedOf([nonce, balance, code]: readonly unknown[]): Fetched {
  return { nonce: quantity(nonce, 'nonce'), balance: quantity(balance, 'balance'), code: isData(code) ? hexToBytes(code) : new Uint8Array(0) };
}

/** Code hashes computed so far, by the code's bytes (the same bytes for every copy of an account). */
const codeHashes = new WeakMap<Uint8Array, Uint8Array>();
/** The code hash of an account with code, before it is computed: 32 bytes, told apart by identity. */
const NOT_YET = new Uint8Array(32);

/**
 * An account read from the node, whose code hash is computed only when something reads it
 * (EXTCODEHASH, a collision check): the EVM tells a contract by the hash's presence, not its value,
 * and hashing every contract's code cost a small run ~10 ms (the hash's first calls run cold). Copies
 * the journal makes (Object.assign onto this prototype) keep the code and share the memo.
 */
class RemoteAccount extends Account {
  constructor(
    nonce: bigint,
    balance: bigint,
    private readonly code: Uint8Array,
  ) {
    super(nonce, balance, undefined, NOT_YET);
  }

  override get codeHash(): Uint8Array {
    if (this._codeHash === NOT_YET) {
      let hash = codeHashes.get(this.code);
      if (hash === undefined) codeHashes.set(this.code, (hash = keccak_256(this.code)));
      this._codeHash = hash;
    }
    return super.codeHash;
  }

  override set codeHash(value: Uint8Array) {
    super.codeHash = value;
  }
}

/** A storage word as the EVM keeps it (leading zeros dropped). */
const slotOf = (v: unknown): Uint8Array => (isData(v) ? unpadBytes(hexToBytes(v)) : new Uint8Array(0));

export class NodeState extends SimpleStateManager {
  private readonly accounts = new Map<string, Promise<Fetched>>();
  private readonly slots = new Map<string, Promise<Uint8Array>>();
  /** Reads asked for in a batch (see adopt) that the run has not needed yet. */
  private readonly asked = { accounts: new Map<string, Promise<Fetched>>(), slots: new Map<string, Promise<Uint8Array>>() };
  /** Every account and slot the run read or wrote (lower-case address → slot keys), for the state diff. */
  readonly touched = new Map<string, Set<string>>();
  /** While guessing (see guess): the reads not fetched yet, answered as empty. */
  private guessing: { readonly accounts: Set<string>; readonly slots: Set<string> } | null = null;

  /** Why a read failed: the node has no state at this block (pruned), in the words a user can act on. */
  private noState(err: unknown): never {
    if (err instanceof Interrupted) throw err;
    const why = escapeShort(err instanceof Error ? err.message : String(err), 120).replace(/\.$/, '');
    throw new NoState(`the node has no state at block ${BigInt(this.block)} (${why}): an archive node, or a node with traces, is needed`);
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

  /**
   * Reads already asked for in one batch (readCalls(accounts, slots): accounts, then slots), adopted while
   * the answer is on its way: the run waits on it where it needs one of them. Where the batch fails, or one of its items,
   * the run asks for that item on its own, and says why if it still cannot.
   */
  adopt(accounts: readonly string[], slots: readonly string[], answers: Promise<readonly BatchAnswer[]>): void {
    const item = (i: number): Promise<unknown> =>
      answers.then((all) => {
        const x = all[i];
        if (x === undefined || 'error' in x) throw new Error('not in the batch');
        return x.result;
      });
    // Held apart until the run asks: only then is a failed item asked for again, on its own.
    const hold = <T>(map: Map<string, Promise<T>>, id: string, p: Promise<T>): void => {
      p.catch(() => undefined);
      map.set(id, p);
    };
    accounts.forEach((a, i) => {
      if (!this.accounts.has(a) && !this.asked.accounts.has(a)) hold(this.asked.accounts, a, Promise.all([item(3 * i), item(3 * i + 1), item(3 * i + 2)]).then(fetchedOf));
    });
    slots.forEach((id, i) => {
      if (!this.slots.has(id) && !this.asked.slots.has(id)) hold(this.asked.slots, id, item(3 * accounts.length + i).then(slotOf));
    });
  }

  /** Accounts and slots (from eth_createAccessList) asked for in one batch, not awaited: see adopt. */
  prefetch(entries: ReadonlyArray<{ readonly address: string; readonly storageKeys: readonly string[] }>): void {
    const accounts = entries.map((e) => e.address.toLowerCase());
    this.fetchAhead(accounts, entries.flatMap((e) => e.storageKeys.map((k) => `${e.address.toLowerCase()}:${k.toLowerCase()}`)));
  }

  /** Accounts and slots (`<address>:<slot>`, lower case) not asked for yet, asked for in one batch, not awaited: see adopt. */
  fetchAhead(accounts: readonly string[], slots: readonly string[]): void {
    const newAccounts = [...new Set(accounts)].filter((a) => !this.accounts.has(a) && !this.asked.accounts.has(a));
    const newSlots = [...new Set(slots)].filter((id) => !this.slots.has(id) && !this.asked.slots.has(id));
    // Providers cap a batch (geth 1,000 items by default, some hosted ones 100s): no batch holds more than
    // BATCH_ITEMS; the batches go out together.
    for (let i = 0; i < newAccounts.length; i += BATCH_ITEMS / 3) {
      const accounts = newAccounts.slice(i, i + BATCH_ITEMS / 3);
      this.adopt(accounts, [], this.client.batch(readCalls(accounts, [], this.block), this.deadline));
    }
    for (let i = 0; i < newSlots.length; i += BATCH_ITEMS) {
      const slots = newSlots.slice(i, i + BATCH_ITEMS);
      this.adopt([], slots, this.client.batch(readCalls([], slots, this.block), this.deadline));
    }
  }

  /**
   * Run `go` on guesses, to learn what a run reads before it runs: every read neither fetched nor asked
   * for yet is noted and answered as empty (no account, a zero word), and kept in the journal's top
   * level only, which the caller reverts after. Returns the notes, in fetchAhead's terms. Guessed values
   * can steer a run elsewhere than the real one: what it reads there is fetched for nothing, and the
   * real run fetches what the guesses missed one by one.
   */
  async guess(go: () => Promise<void>): Promise<{ readonly accounts: string[]; readonly slots: string[] }> {
    const notes = { accounts: new Set<string>(), slots: new Set<string>() };
    this.guessing = notes;
    try {
      await go();
    } finally {
      this.guessing = null;
    }
    return { accounts: [...notes.accounts], slots: [...notes.slots] };
  }

  private fetchAccount(a: string): Promise<Fetched> {
    return this.client
      .batch(accountCalls(a, this.block), this.deadline)
      .then((answers) => {
        const failed = answers.find((x) => 'error' in x);
        if (failed !== undefined && 'error' in failed) throw new Error(failed.error);
        return fetchedOf(answers.map((x) => ('result' in x ? x.result : undefined)));
      })
      .catch((err: unknown) => this.noState(err));
  }

  private fetchSlot(a: string, k: string): Promise<Uint8Array> {
    return this.client
      .call('eth_getStorageAt', [a, k, this.block], this.deadline)
      .then(slotOf)
      .catch((err: unknown) => this.noState(err));
  }

  /** The answer to `id` from a batch adopted earlier, else (or where the batch failed) from `fetch`. */
  private fromAsked<T>(asked: Map<string, Promise<T>>, id: string, fetch: () => Promise<T>): Promise<T> {
    const p = asked.get(id);
    if (p === undefined) return fetch();
    asked.delete(id);
    return p.catch((err: unknown) => (err instanceof Interrupted ? Promise.reject(err) : fetch()));
  }

  private remote(address: Address): Promise<Fetched> {
    const a = address.toString().toLowerCase();
    let p = this.accounts.get(a);
    if (p === undefined && this.guessing !== null && !this.asked.accounts.has(a)) {
      this.guessing.accounts.add(a);
      return Promise.resolve(NOTHING);
    }
    if (p === undefined) this.accounts.set(a, (p = this.fromAsked(this.asked.accounts, a, () => this.fetchAccount(a))));
    return p;
  }

  /** The account as the node has it at the block (undefined when it does not exist). */
  async remoteAccount(address: Address): Promise<Account | undefined> {
    const f = await this.remote(address);
    if (f.nonce === 0n && f.balance === 0n && f.code.length === 0) return undefined;
    return f.code.length === 0 ? new Account(f.nonce, f.balance, undefined, EMPTY_CODE_HASH) : new RemoteAccount(f.nonce, f.balance, f.code);
  }

  async remoteCode(address: Address): Promise<Uint8Array> {
    return (await this.remote(address)).code;
  }

  async remoteStorage(address: Address, key: Uint8Array): Promise<Uint8Array> {
    const a = address.toString().toLowerCase();
    const k = bytesToHex(key);
    const id = `${a}:${k}`;
    let p = this.slots.get(id);
    if (p === undefined && this.guessing !== null && !this.asked.slots.has(id)) {
      this.guessing.slots.add(id);
      return Promise.resolve(new Uint8Array(0));
    }
    if (p === undefined) this.slots.set(id, (p = this.fromAsked(this.asked.slots, id, () => this.fetchSlot(a, k))));
    return p;
  }

  /** The journal levels a read goes into: every level, or while guessing only the top one (reverted after). */
  private levels<T>(stack: T[]): T[] {
    return this.guessing === null ? stack : stack.slice(-1);
  }

  override async getAccount(address: Address): Promise<Account | undefined> {
    this.touch(address.toString().toLowerCase());
    const key = address.toString();
    const top = this.topAccountStack();
    if (top.has(key)) return top.get(key);
    // Into every level of the journal (it was there before any checkpoint), each level its own copy:
    // the EVM changes an account in place, and a revert must find the level below untouched.
    for (const level of this.levels(this.accountStack)) if (!level.has(key)) level.set(key, await this.remoteAccount(address));
    return top.get(key);
  }

  override async getCode(address: Address): Promise<Uint8Array> {
    const key = address.toString();
    const top = this.topCodeStack();
    if (top.has(key)) return top.get(key)!;
    const code = await this.remoteCode(address);
    for (const level of this.levels(this.codeStack)) if (!level.has(key)) level.set(key, code);
    return code;
  }

  override async getStorage(address: Address, key: Uint8Array): Promise<Uint8Array> {
    const id = `${address.toString()}_${bytesToHex(key)}`;
    this.touch(address.toString().toLowerCase(), bytesToHex(key));
    const top = this.topStorageStack();
    if (top.has(id)) return top.get(id)!;
    const value = await this.remoteStorage(address, key);
    for (const level of this.levels(this.storageStack)) if (!level.has(id)) level.set(id, value);
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

  /** How many journal levels there are (see unwindTo). */
  depth(): number {
    return this.accountStack.length;
  }

  /**
   * Back to `depth` journal levels. EthereumJS reverts a frame's level only for the EVM's own errors: one
   * that is not (a read that failed, a precompile it cannot run) leaves the frame's and the
   * transaction's levels behind, with what they wrote.
   */
  async unwindTo(depth: number): Promise<void> {
    while (this.accountStack.length > depth) await this.revert();
  }

  /** The current (journaled) view of one account, for the state diff. */
  async view(address: string): Promise<{ nonce: bigint; balance: bigint; code: Uint8Array; exists: boolean }> {
    const a = createAddressFromString(address);
    const account = await this.getAccount(a);
    // A deleted account (a selfdestruct under EIP-6780 of one made in this transaction) has no code left either.
    return { nonce: account?.nonce ?? 0n, balance: account?.balance ?? 0n, code: account === undefined ? new Uint8Array(0) : await this.getCode(a), exists: account !== undefined };
  }
}
