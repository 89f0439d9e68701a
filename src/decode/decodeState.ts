/**
 * --state's share of the decode stage: token balance changes (net, per holder, from the transfer
 * events, with the symbol and decimals the token itself reports), and names for changed storage slots
 * (EIP-1967 proxy slots always; other slots from a matching artifact's storageLayout, a proxy's through
 * its implementation's).
 */
import type { Decoded, DecodedState, InspectModel, JsonValue, NamedSlotPart, StateModel, TokenBalance, Transfer } from '../model/types.js';
import { walkCalls } from '../model/walk.js';
import { abiString, isAddress, lowerHex, wordToAddress } from '../raw/hex.js';
import type { Hex } from '../raw/types.js';
import type { Artifact } from './abiIndex.js';

import { matchArtifact } from '../locate/matchCode.js';
import { delegateOf, EIP1967_IMPLEMENTATION } from '../model/accountCode.js';
import { checksumAddress } from './keccak.js';
import { EIP1967_SLOTS, firstOf, type KeyCandidates, nameSlots, type StorageLayout, type VerifiedLayouts } from './nameStorage.js';

/** What a token says of itself (eth_call of symbol() and decimals() at the transaction's block). */
export interface TokenMeta {
  readonly symbol: string | null;
  readonly decimals: number | null;
}

const ZERO = `0x${'0'.repeat(40)}`;
const abs = (n: bigint): bigint => (n < 0n ? -n : n);

/** symbol() as its ABI-encoded string or, as early tokens return it, a bytes32; null when neither. */
export function decodeSymbol(result: unknown): string | null {
  if (typeof result !== 'string' || !/^0x[0-9a-fA-F]*$/.test(result)) return null;
  const bytes = Buffer.from(result.slice(2), 'hex');
  if (bytes.length === 32) {
    const end = bytes.indexOf(0);
    const text = bytes.subarray(0, end < 0 ? 32 : end).toString('utf8');
    return text === '' ? null : text;
  }
  const text = abiString(result, 256);
  return text === undefined || text === '' ? null : text;
}

/** decimals() as a uint8 (one word); null otherwise. */
export function decodeDecimals(result: unknown): number | null {
  if (typeof result !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(result)) return null;
  const n = BigInt(result);
  return n <= 255n ? Number(n) : null;
}

/** Net token changes per holder (and id, for ERC-1155); mints and burns leave the zero address out. */
export function tokenBalances(transfers: readonly Transfer[], meta: ReadonlyMap<string, TokenMeta>, sender: string | undefined): TokenBalance[] {
  const net = new Map<string, { holder: Hex; token: Hex; kind: TokenBalance['kind']; tokenId?: string; change: bigint; order: number }>();
  const tokenOrder = new Map<string, number>();
  for (const t of transfers) {
    if (t.kind === 'ETH' || t.token === undefined) continue;
    const token = lowerHex(t.token);
    if (!tokenOrder.has(token)) tokenOrder.set(token, tokenOrder.size);
    const amount = t.kind === 'ERC-721' ? 1n : t.amount;
    for (const [holder, sign] of [[t.from, -1n], [t.to, 1n]] as const) {
      const h = lowerHex(holder);
      if (h === ZERO) continue;
      const id = t.kind === 'ERC-1155' ? t.tokenId : undefined;
      const key = `${h}:${token}:${id ?? ''}`;
      const entry = net.get(key) ?? { holder: h, token, kind: t.kind, ...(id !== undefined ? { tokenId: id } : {}), change: 0n, order: tokenOrder.get(token)! };
      entry.change += sign * amount;
      net.set(key, entry);
    }
  }
  return [...net.values()]
    .filter((e) => e.change !== 0n)
    .sort((a, b) => Number(b.holder === sender) - Number(a.holder === sender) || a.order - b.order || (abs(b.change) > abs(a.change) ? 1 : abs(b.change) < abs(a.change) ? -1 : 0))
    .map(({ order: _order, change, ...e }) => ({ ...e, change, symbol: meta.get(e.token)?.symbol ?? null, decimals: meta.get(e.token)?.decimals ?? null }));
}

/** Every address and number the transaction shows: the keys a mapping of its storage may have used. */
export function keyCandidates(model: InspectModel, decodedArgs: ReadonlyArray<Decoded | null | undefined>): KeyCandidates {
  const addresses = new Set<bigint>();
  const numbers = new Set<bigint>();
  const addWord = (v: string | null | undefined): void => {
    if (v === null || v === undefined) return;
    let n: bigint;
    try {
      n = /^0x[0-9a-fA-F]{1,64}$/.test(v) || /^-?\d{1,78}$/.test(v) ? BigInt(v) : -1n;
    } catch {
      return;
    }
    if (n < 0n) return;
    numbers.add(n);
    if (n < 1n << 160n && isAddress(`0x${n.toString(16).padStart(40, '0')}`) && n > 0xffffffffn) addresses.add(n);
  };
  const addAddress = (a: string | null | undefined): void => {
    if (a) addresses.add(BigInt(a));
  };
  const walk = (v: JsonValue): void => {
    if (typeof v === 'string') addWord(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === 'object' && v !== null) Object.values(v).forEach(walk);
  };
  // A value typed address is an address whatever its size (0x…beef, a precompile, a vanity address);
  // an untyped word counts as one only above 2^32, where small numbers no longer pass for addresses.
  const walkTyped = (v: JsonValue, type: string): void => {
    const inner = /^(.*)\[\d*\]$/.exec(type)?.[1];
    if (inner !== undefined && Array.isArray(v)) {
      for (const x of v) walkTyped(x, inner);
      return;
    }
    if (type === 'address' && isAddress(v)) addAddress(v);
    walk(v);
  };
  addAddress(model.tx?.from);
  addAddress(model.tx?.to);
  addAddress(model.receipt?.contractAddress);
  for (const log of model.receipt?.logs ?? []) {
    addAddress(log.address);
    for (const t of log.topics.slice(1)) addWord(t);
  }
  for (const d of decodedArgs) for (const a of d?.args ?? []) walkTyped(a.value, a.type);
  if (model.tree) {
    walkCalls(model.tree.root, (n) => {
      addAddress(n.from);
      addAddress(n.to);
      for (const a of n.decoded?.function?.args ?? []) walkTyped(a.value, a.type);
    });
  }
  for (const a of model.state?.accounts ?? []) addAddress(a.address);
  // Small numbers (ids, indices) first: they are the likeliest keys when the cap on hashes is reached.
  return { addresses: [...addresses], numbers: [...numbers].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)) };
}

/** Delegatecall targets of `address` in the tree: the code that ran on its storage. */
function delegateTargets(model: InspectModel, address: string): Hex[] {
  const out: Hex[] = [];
  if (model.tree) {
    walkCalls(model.tree.root, (n) => {
      if (n.callType === 'delegatecall' && n.from?.toLowerCase() === address && n.to !== null) out.push(lowerHex(n.to));
    });
  }
  return out;
}

/** The code that may have run on an account's storage besides its own: the implementation its EIP-1967 slot names, its EIP-7702 delegate, what it delegatecalled. */
function implementationsOf(model: InspectModel, account: StateModel['accounts'][number]): Hex[] {
  const slot = account.storage.find((s) => s.slot === EIP1967_IMPLEMENTATION);
  const fromSlot = slot !== undefined ? [slot.after, slot.before] : [];
  // An EIP-7702 account runs its delegate's code on its own storage, as a proxy does.
  const delegate = account.delegation?.after ?? delegateOf(account.knownCode);
  return [...fromSlot.filter((w) => BigInt(w) !== 0n).map(wordToAddress), ...(delegate ? [delegate] : []), ...delegateTargets(model, account.address)];
}

/**
 * Names for the changed slots of every account. A contract's layout is its own artifact's (matched by
 * code); failing that, a proxy's: the artifact of the implementation its EIP-1967 slot names, or of
 * the code it delegatecalled in this transaction; failing those (the project's artifacts win), a
 * verified contract's (--online), by the same addresses.
 */
export function nameStorage(
  model: InspectModel,
  state: StateModel,
  artifacts: readonly Artifact[],
  codes: ReadonlyMap<string, Hex>,
  keys: KeyCandidates,
  verified: VerifiedLayouts = new Map(),
): Pick<DecodedState, 'storage' | 'layouts'> {
  // A layout without variables (a proxy's own) names nothing: its storage is its implementation's.
  const withLayout = artifacts.filter((a) => a.storageLayout !== undefined && a.storageLayout.storage.length > 0 && a.deployedBytecode !== undefined);
  const storage = new Map<string, Map<string, NamedSlotPart[]>>();
  const layouts = new Map<string, { contract: string; via?: Hex; verified?: true }>();
  const codeOf = (a: string): Hex | undefined => state.accounts.find((x) => x.address === a)?.knownCode ?? codes.get(a);
  const ofArtifact = (a: string): { contract: string; layout: StorageLayout } | undefined => {
    const code = codeOf(a);
    const artifact = code === undefined || withLayout.length === 0 ? undefined : matchArtifact(code, withLayout);
    return artifact?.storageLayout === undefined ? undefined : { contract: artifact.name, layout: artifact.storageLayout };
  };
  const ofVerified = (a: string): { contract: string; layout: StorageLayout; verified: true } | undefined => {
    const v = verified.get(a.toLowerCase());
    return v?.storage === undefined || v.storage.storage.length === 0 ? undefined : { contract: v.contract, layout: v.storage, verified: true };
  };
  for (const account of state.accounts) {
    if (account.storage.length === 0) continue;
    const named = new Map<string, NamedSlotPart[]>();
    for (const s of account.storage) {
      const proxySlot = EIP1967_SLOTS[s.slot];
      if (proxySlot !== undefined) {
        const addr = (w: Hex): string => checksumAddress(wordToAddress(w));
        named.set(s.slot, [{ name: proxySlot, path: proxySlot, keys: [], type: 'address', before: addr(s.before), after: addr(s.after) }]);
      }
    }
    const candidates: Hex[] = [account.address, ...implementationsOf(model, account)];
    const found = foundAt(candidates, ofArtifact) ?? foundAt(candidates, ofVerified);
    if (found !== undefined) {
      const via = found.at === account.address ? undefined : found.at;
      layouts.set(account.address, { contract: found.contract, ...(via !== undefined ? { via } : {}), ...('verified' in found ? { verified: true as const } : {}) });
      const values = new Map(account.storage.filter((s) => !named.has(s.slot)).map((s) => [BigInt(s.slot), { before: BigInt(s.before), after: BigInt(s.after) }]));
      for (const [slot, parts] of nameSlots(found.layout, values, keys)) named.set(`0x${slot.toString(16).padStart(64, '0')}`, parts);
    }
    if (named.size > 0) storage.set(account.address, named);
  }
  return { storage, layouts };
}

/** The first of `list` that `f` finds something for, with the address it was found at. */
const foundAt = <T extends object>(list: readonly Hex[], f: (x: Hex) => T | undefined): (T & { at: Hex }) | undefined =>
  firstOf(list, (x) => {
    const found = f(x);
    return found === undefined ? undefined : { ...found, at: x };
  });

/** Addresses the state sections show beyond the model's: delegates, implementations, address values. */
export function* stateAddresses(state: StateModel, decoded: DecodedState): Generator<string> {
  for (const a of state.accounts) {
    if (a.delegation?.before) yield a.delegation.before;
    if (a.delegation?.after) yield a.delegation.after;
  }
  for (const t of decoded.tokens) yield t.holder;
  for (const l of decoded.layouts.values()) if (l.via !== undefined) yield l.via;
  for (const slots of decoded.storage.values()) {
    for (const parts of slots.values()) {
      for (const p of parts) {
        for (const v of [p.before, p.after]) if (typeof v === 'string' && (p.type === 'address' || p.type.startsWith('contract '))) yield v.toLowerCase();
        for (const k of p.keys) if (isAddress(k)) yield k.toLowerCase();
      }
    }
  }
}
