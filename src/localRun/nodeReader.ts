/**
 * The embedded EVM's reads (evm/stateReader.ts) answered by the node at one block, through txray's own
 * client (its deadline, size caps, headers and retries). Every account, code and slot is asked for once;
 * what is surely touched, and what eth_createAccessList names, is asked for in batches that the run waits
 * on only where it needs them.
 */
import { Interrupted } from '../errors.js';
import type { AccountRead, StateReader } from '../evm/stateReader.js';
import { NoState } from '../evm/stateReader.js';
import { escapeShort } from '../raw/escape.js';
import { isData, isQuantity, isRecord, toQuantity } from '../raw/hex.js';
import type { Hex } from '../raw/types.js';
import { accountCalls, readCalls } from '../rpc/askAhead.js';
import type { BatchAnswer, BatchRequest, RpcClient } from '../rpc/createRpcClient.js';

/** Reads in one batch request at most (a multiple of 3: an account is three reads). */
const BATCH_ITEMS = 480;

type Fetched = AccountRead & { readonly code: Hex };

const quantity = (v: unknown, what: string): bigint => {
  if (!isQuantity(v)) throw new Error(`the node's ${what} is not a quantity`);
  return BigInt(v);
};

/** One account from its three answers (nonce, balance, code); throws when they are not what was asked. */
function fetchedOf([nonce, balance, code]: readonly unknown[]): Fetched {
  return { nonce: quantity(nonce, 'nonce'), balance: quantity(balance, 'balance'), code: isData(code) ? code : '0x' };
}

const wordOf = (v: unknown): Hex => (isData(v) ? v : '0x');

/** Calls asked ahead of a need that may not come (see BatchRequest.speculative). */
const asSpeculative = (calls: readonly BatchRequest[]): BatchRequest[] => calls.map((c) => ({ ...c, speculative: true }));

export interface NodeReader extends StateReader {
  /**
   * Reads already asked for in one batch (readCalls(accounts, slots): accounts, then slots), adopted while
   * the answer is on its way: the run waits on it where it needs one of them. Where the batch fails, or one
   * of its items, the run asks for that item on its own, and says why if it still cannot.
   */
  adopt(accounts: readonly string[], slots: readonly string[], answers: Promise<readonly BatchAnswer[]>): void;
}

/** The answer to `id` from a batch adopted earlier, else (or where the batch failed) from `fetch`. */
function fromAsked<T>(from: Map<string, Promise<T>>, id: string, fetch: () => Promise<T>): Promise<T> {
  const p = from.get(id);
  if (p === undefined) return fetch();
  from.delete(id);
  return p.catch((err: unknown) => (err instanceof Interrupted ? Promise.reject(err) : fetch()));
}

class NodeReads implements NodeReader {
  private readonly accounts = new Map<string, Promise<Fetched>>();
  private readonly slots = new Map<string, Promise<Hex>>();
  /** Reads asked for in a batch that the run has not needed yet. */
  private readonly ahead = { accounts: new Map<string, Promise<Fetched>>(), slots: new Map<string, Promise<Hex>>() };
  /** The slots among those whose answers are in. */
  private readonly slotsIn = new Set<string>();

  constructor(
    private readonly client: RpcClient,
    private readonly block: string,
    private readonly deadline: AbortSignal,
  ) {}

  /** Why a read failed: the node has no state at this block (pruned), in the words a user can act on. */
  private noState(err: unknown): never {
    if (err instanceof Interrupted) throw err;
    const why = escapeShort(err instanceof Error ? err.message : String(err), 120).replace(/\.$/, '');
    throw new NoState(`the node has no state at block ${isQuantity(this.block) ? BigInt(this.block) : this.block} (${why}): an archive node, or a node with traces, is needed`);
  }

  private fetched(a: string): Promise<Fetched> {
    let p = this.accounts.get(a);
    if (p === undefined) {
      const fetch = (): Promise<Fetched> =>
        this.client
          .batch(accountCalls(a, this.block), this.deadline)
          .then((answers) => {
            const failed = answers.find((x) => 'error' in x);
            if (failed !== undefined && 'error' in failed) throw new Error(failed.error);
            return fetchedOf(answers.map((x) => ('result' in x ? x.result : undefined)));
          })
          .catch((err: unknown) => this.noState(err));
      this.accounts.set(a, (p = fromAsked(this.ahead.accounts, a, fetch)));
    }
    return p;
  }

  account(address: string): Promise<AccountRead> {
    return this.fetched(address.toLowerCase());
  }

  async code(address: string): Promise<Hex> {
    return (await this.fetched(address.toLowerCase())).code;
  }

  storage(address: string, slot: Hex): Promise<Hex> {
    const a = address.toLowerCase();
    const id = `${a}:${slot.toLowerCase()}`;
    let p = this.slots.get(id);
    if (p === undefined) {
      const fetch = (): Promise<Hex> => this.client.call('eth_getStorageAt', [a, slot, this.block], this.deadline).then(wordOf).catch((err: unknown) => this.noState(err));
      this.slots.set(id, (p = fromAsked(this.ahead.slots, id, fetch)));
    }
    return p;
  }

  asked(address: string, slot?: string): boolean {
    if (slot === undefined) return this.ahead.accounts.has(address);
    const id = `${address}:${slot}`;
    return this.ahead.slots.has(id) && this.slotsIn.has(id);
  }

  async blockHash(n: bigint): Promise<Hex | null> {
    const b = await this.client.call('eth_getBlockByNumber', [toQuantity(n), false], this.deadline);
    return isRecord(b) && isData(b.hash) ? b.hash : null;
  }

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
      if (!this.accounts.has(a) && !this.ahead.accounts.has(a)) hold(this.ahead.accounts, a, Promise.all([item(3 * i), item(3 * i + 1), item(3 * i + 2)]).then(fetchedOf));
    });
    slots.forEach((id, i) => {
      if (this.slots.has(id) || this.ahead.slots.has(id)) return;
      const word = item(3 * accounts.length + i).then(wordOf);
      hold(this.ahead.slots, id, word);
      word.then(
        () => this.slotsIn.add(id),
        () => undefined,
      );
    });
  }

  prefetch(accounts: readonly string[], slots: readonly string[]): void {
    const newAccounts = [...new Set(accounts)].filter((a) => !this.accounts.has(a) && !this.ahead.accounts.has(a));
    const newSlots = [...new Set(slots)].filter((id) => !this.slots.has(id) && !this.ahead.slots.has(id));
    // Providers cap a batch (geth 1,000 items by default, some hosted ones 100s): no batch holds more than
    // BATCH_ITEMS; the batches go out together. Each item is asked ahead of a need that may not come: a
    // replay whose recording lacks one asks it again alone, where the run needs it (see adopt).
    for (let i = 0; i < newAccounts.length; i += BATCH_ITEMS / 3) {
      const some = newAccounts.slice(i, i + BATCH_ITEMS / 3);
      this.adopt(some, [], this.client.batch(asSpeculative(readCalls(some, [], this.block)), this.deadline));
    }
    for (let i = 0; i < newSlots.length; i += BATCH_ITEMS) {
      const some = newSlots.slice(i, i + BATCH_ITEMS);
      this.adopt([], some, this.client.batch(asSpeculative(readCalls([], some, this.block)), this.deadline));
    }
  }
}

/** The node's state at `block` (a quantity or a tag), as the EVM reads it. */
export function nodeReader(client: RpcClient, block: string, deadline: AbortSignal): NodeReader {
  return new NodeReads(client, block, deadline);
}
