/** Names and checksummed forms for the addresses a view shows: given labels, system contracts, the address book. */
import { chainIdOf, type FeeRules, familyOf, systemLabels } from '../model/chain.js';
import type { InspectModel, Transfer } from '../model/types.js';
import { walkCalls } from '../model/walk.js';
import { isAddress } from '../raw/hex.js';
import type { AbiIndex } from './abiIndex.js';
import type { AddressBook } from './addressBook.js';
import { checksumAddress } from './keccak.js';
import { BUILTIN_KEYS } from './wellKnown.js';

/** What the address book's choice of chain reads of a model: a transaction's head is enough (lookupHash asks for token names before the trace is in). */
export type TxHead = Pick<InspectModel, 'tx' | 'receipt'> & Partial<Pick<InspectModel, 'state'>>;

/** `known` plus the checksummed forms of `more` (lower-case addresses). */
export function withChecksums(known: ReadonlyMap<string, string>, more: Iterable<string>): Map<string, string> {
  const out = new Map(known);
  for (const a of more) if (!out.has(a) && isAddress(a)) out.set(a, checksumAddress(a));
  return out;
}

/** Checksummed forms of the addresses the views show: parties, call targets, emitters, transfer ends. */
export function checksumsOf(model: InspectModel, transfers: readonly Transfer[]): Map<string, string> {
  const seen = new Set<string>();
  // Calls repeat their addresses: one the same as the last added is skipped before it is lower-cased.
  let last: string | null | undefined;
  const add = (a: string | null | undefined): void => {
    if (a && a !== last) seen.add((last = a).toLowerCase());
  };
  add(model.tx?.from);
  add(model.tx?.to);
  add(model.receipt?.contractAddress);
  for (const l of model.receipt?.logs ?? []) add(l.address);
  for (const t of transfers) [t.from, t.to, t.token].forEach(add);
  for (const a of model.state?.accounts ?? []) add(a.address);
  if (model.state?.fee?.coinbase) add(model.state.fee.coinbase);
  for (const a of model.tx?.authorizationList ?? []) add(a.address);
  for (const f of model.authorizations ?? []) add(f.authority);
  if (model.tree) {
    walkCalls(model.tree.root, (n) => {
      add(n.from);
      add(n.to);
    });
  }
  const out = new Map<string, string>();
  for (const a of seen) if (isAddress(a)) out.set(a, checksumAddress(a));
  return out;
}

/**
 * The labels given, then the names of the chain's system contracts, then (on mainnet, or a chain that
 * does not say which it is, or a local one that may fork mainnet) the address book's: the given ones win.
 */
export function withSystemLabels(model: TxHead, given: ReadonlyMap<string, string>, index: AbiIndex): Map<string, string> {
  const labels = new Map(given);
  for (const [address, name] of Object.entries(systemLabels(familyOfModel(model)))) if (!labels.has(address)) labels.set(address, name);
  const book = bookOf(model, index);
  return book === undefined ? labels : new BookLabels(labels, book);
}

/**
 * Labels that read through to the address book where they have no name of their own, instead of a copy
 * of all the book's names in every run's labels. Read them with get and has:
 * their size and iteration are their own entries only, and a copy is made with copyLabels.
 */
class BookLabels extends Map<string, string> {
  constructor(
    own: Iterable<readonly [string, string]>,
    readonly book: Pick<AddressBook, 'get' | 'has'>,
  ) {
    super(own);
  }

  override get(address: string): string | undefined {
    return super.get(address) ?? this.book.get(address)?.name;
  }

  override has(address: string): boolean {
    return super.has(address) || this.book.has(address);
  }
}

/** A copy of labels to add to, reading through to the same address book. */
export function copyLabels(labels: ReadonlyMap<string, string>): Map<string, string> {
  return labels instanceof BookLabels ? new BookLabels(labels, labels.book) : new Map(labels);
}

/**
 * The address book's protocol keys for the contracts that emitted the logs (see BookEntry.key): the
 * action stage trusts a protocol's events by them, never by a name (--labels, an artifact) that reads alike.
 */
export function bookKeys(model: InspectModel, index: AbiIndex): Map<string, string> {
  const keys = new Map<string, string>();
  const book = bookOf(model, index);
  for (const l of model.receipt?.logs ?? []) {
    const address = l.address.toLowerCase();
    // The built-in names' keys hold wherever those names do (every chain), as the book's on its chain.
    const key = BUILTIN_KEYS[address] ?? book?.get(address)?.key;
    if (key != null) keys.set(address, key);
  }
  return keys;
}

/**
 * Which chain's part of the address book applies: the transaction's chain; mainnet's where it names
 * none (and nothing says it is an L2) or on a local chain (which may fork mainnet); none on an L2 that
 * does not say which it is.
 */
export function bookChain(model: TxHead): number | null {
  const chainId = chainIdOf(model.tx);
  if (chainId !== null && chainId !== 31337) return chainId;
  return familyOfModel(model) === null ? 1 : null;
}

/** The address book's part that applies to the model (see bookChain), if any. */
function bookOf(model: TxHead, index: AbiIndex): ReturnType<AbiIndex['addressBook']> | undefined {
  const chain = bookChain(model);
  return chain === null ? undefined : index.addressBook(chain);
}

/** The chain family the answers show, or (--state) the fee rules the diff showed. */
const familyOfModel = (model: TxHead): FeeRules | null => familyOf(model.tx, model.receipt) ?? (model.state?.fee?.rules === 'op-stack' ? 'op-stack' : null);

/** A token's symbol and decimals from the address book, where it applies and knows both. */
export function bookToken(model: TxHead, index: AbiIndex, token: string): { symbol: string; decimals: number } | null {
  const e = bookOf(model, index)?.get(token.toLowerCase());
  return e?.symbol != null && e.decimals !== null ? { symbol: e.symbol, decimals: e.decimals } : null;
}

