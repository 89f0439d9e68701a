/**
 * The chain's state as an EVM sees it, for local re-execution: EthereumJS's SimpleStateManager (the
 * journal: checkpoints, commits, reverts) over a layer read through a StateReader at one block (the node
 * today, see localRun/nodeReader.ts). Every account, code and slot is read once and kept as the EVM's bytes.
 */
import type { Address } from '@ethereumjs/util';
import { Account, bytesToHex, createAddressFromString, hexToBytes, keccak_256, SimpleStateManager, unpadBytes } from './evmEngine.js';
import type { StateReader } from './stateReader.js';

type Fetched = { readonly nonce: bigint; readonly balance: bigint; readonly code: Uint8Array };

const EMPTY_CODE_HASH = keccak_256(new Uint8Array(0));
/** A guess (see NodeState.guess): no such account. */
const NOTHING: Fetched = { nonce: 0n, balance: 0n, code: new Uint8Array(0) };

/** One account from the reader: its nonce, balance and code, the code as bytes once. */
async function fetchedFrom(reader: StateReader, a: string): Promise<Fetched> {
  const [account, code] = await Promise.all([reader.account(a), reader.code(a)]);
  return { nonce: account.nonce, balance: account.balance, code: code.length <= 2 ? new Uint8Array(0) : hexToBytes(code) };
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
const slotOf = (v: string): Uint8Array => (v.length <= 2 ? new Uint8Array(0) : unpadBytes(hexToBytes(v as `0x${string}`)));

export class NodeState extends SimpleStateManager {
  private readonly accounts = new Map<string, Promise<Fetched>>();
  private readonly slots = new Map<string, Promise<Uint8Array>>();
  /** Every account and slot the run read or wrote (lower-case address → slot keys), for the state diff. */
  readonly touched = new Map<string, Set<string>>();
  /** While guessing (see guess): the reads not fetched yet, answered as empty. */
  private guessing: { readonly accounts: Set<string>; readonly slots: Set<string> } | null = null;

  constructor(
    private readonly reader: StateReader,
    common: ConstructorParameters<typeof SimpleStateManager>[0],
  ) {
    super(common);
  }

  private touch(address: string, slot?: string): void {
    let set = this.touched.get(address);
    if (set === undefined) this.touched.set(address, (set = new Set()));
    if (slot !== undefined) set.add(slot);
  }

  /** Accounts and slots (from eth_createAccessList) asked for together, not awaited (see StateReader.prefetch). */
  prefetch(entries: ReadonlyArray<{ readonly address: string; readonly storageKeys: readonly string[] }>): void {
    const accounts = entries.map((e) => e.address.toLowerCase());
    this.fetchAhead(accounts, entries.flatMap((e) => e.storageKeys.map((k) => `${e.address.toLowerCase()}:${k.toLowerCase()}`)));
  }

  /** Accounts and slots (`<address>:<slot>`, lower case) not read yet, asked for together, not awaited. */
  fetchAhead(accounts: readonly string[], slots: readonly string[]): void {
    this.reader.prefetch(
      accounts.filter((a) => !this.accounts.has(a)),
      slots.filter((id) => !this.slots.has(id)),
    );
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

  /**
   * While guessing: the reads guessed so far asked for now, not awaited, so that their answers travel
   * while the guessing goes on (a later read of one waits for it instead of guessing it).
   */
  askGuessed(): void {
    if (this.guessing !== null) this.fetchAhead([...this.guessing.accounts], [...this.guessing.slots]);
  }

  /** While guessing: how many reads have been guessed so far (0: the run is on real state until now). */
  guessedSoFar(): number {
    return this.guessing === null ? 0 : this.guessing.accounts.size + this.guessing.slots.size;
  }

  /**
   * Whether the guesses `notes` (as guess returned them) were the node's values after all: each read
   * now (fetchAhead first, to ask for them together), and compared with the empty answer it was given.
   */
  async guessedRight(notes: { readonly accounts: readonly string[]; readonly slots: readonly string[] }): Promise<boolean> {
    const accounts = await Promise.all(notes.accounts.map((a) => this.remote(createAddressFromString(a))));
    const slots = await Promise.all(notes.slots.map((id) => this.remoteStorage(createAddressFromString(id.slice(0, 42)), hexToBytes(id.slice(43) as `0x${string}`))));
    return accounts.every((f) => f.nonce === 0n && f.balance === 0n && f.code.length === 0) && slots.every((v) => v.length === 0);
  }

  private remote(address: Address): Promise<Fetched> {
    const a = address.toString().toLowerCase();
    let p = this.accounts.get(a);
    if (p === undefined && this.guessing !== null && !this.reader.asked(a)) {
      this.guessing.accounts.add(a);
      return Promise.resolve(NOTHING);
    }
    if (p === undefined) this.accounts.set(a, (p = fetchedFrom(this.reader, a)));
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
    if (p === undefined && this.guessing !== null && !this.reader.asked(a, k)) {
      this.guessing.slots.add(id);
      return Promise.resolve(new Uint8Array(0));
    }
    if (p === undefined) this.slots.set(id, (p = this.reader.storage(a, k).then(slotOf)));
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
