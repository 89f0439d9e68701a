/**
 * Names for changed storage slots, from Solidity's `storageLayout` (solc's output; Foundry writes it
 * into artifacts with `extra_output = ["storageLayout"]`).
 *
 * Where solc puts things (Solidity docs, "Layout of State Variables in Storage"):
 * - value types sit at (slot, offset) and take numberOfBytes, several packed into one slot from its
 *   low-order end; structs and static arrays start a new slot and lay out their members the same way;
 * - a mapping's value for key k sits at keccak256(pad32(k) ‖ pad32(slot));
 * - a dynamic array keeps its length at its slot and its elements from keccak256(pad32(slot));
 * - bytes and string of up to 31 bytes sit in their slot with length × 2 in the lowest byte; longer
 *   ones keep length × 2 + 1 there and the data from keccak256(pad32(slot)).
 * Mapping keys cannot be read back from a hash, so keys are tried: the addresses and numbers the
 * transaction itself shows (parties, call targets, arguments, event topics).
 */
import { EIP1967_IMPLEMENTATION } from '../model/accountCode.js';
import { isRecord } from '../raw/hex.js';
import { checksumAddress, keccak256 } from './keccak.js';
import type { NamedSlotPart } from '../model/types.js';

export interface StorageVar {
  readonly label: string;
  readonly slot: string;
  readonly offset: number;
  readonly type: string;
}

export interface StorageType {
  readonly encoding: string;
  readonly label: string;
  readonly numberOfBytes: string;
  readonly key?: string;
  readonly value?: string;
  readonly base?: string;
  readonly members?: readonly StorageVar[];
}

export interface StorageLayout {
  readonly storage: readonly StorageVar[];
  readonly types: Readonly<Record<string, StorageType>>;
}

/** A verified contract's storage layouts (--online: Sourcify's), each checked by parseStorageLayout; by lower-case address in VerifiedLayouts. */
export interface VerifiedLayout {
  readonly contract: string;
  readonly storage?: StorageLayout;
  readonly transient?: StorageLayout;
}
export type VerifiedLayouts = ReadonlyMap<string, VerifiedLayout>;

const MAX_ENTRIES = 5000;
const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]{0,255}$/;
const TYPE_ID = /^t_[\x21-\x7e]{1,500}$/;
const TYPE_LABEL = /^[\x20-\x7e]{1,500}$/;
const ENCODINGS = new Set(['inplace', 'mapping', 'dynamic_array', 'bytes']);

/** The variables of a layout or a struct, checked against `types` (own ids only), none overlapping another; undefined where one is malformed. */
function checkedVars(list: unknown, types: Readonly<Record<string, unknown>>): StorageVar[] | undefined {
  if (!Array.isArray(list) || list.length > MAX_ENTRIES) return undefined;
  const out: StorageVar[] = [];
  const spans: Array<[bigint, bigint]> = [];
  for (const v of list) {
    if (!isRecord(v) || typeof v.label !== 'string' || !IDENT.test(v.label) || typeof v.slot !== 'string' || !/^\d{1,78}$/.test(v.slot)) return undefined;
    if (typeof v.offset !== 'number' || !Number.isInteger(v.offset) || v.offset < 0 || v.offset > 31 || typeof v.type !== 'string' || !Object.hasOwn(types, v.type)) return undefined;
    const slot = BigInt(v.slot);
    const t = types[v.type];
    if (slot >= 1n << 256n || !isRecord(t) || typeof t.numberOfBytes !== 'string' || !/^\d{1,10}$/.test(t.numberOfBytes)) return undefined;
    const size = BigInt(t.numberOfBytes);
    // A value type fits its slot from its offset; everything else starts a slot of its own.
    const valueType = t.encoding === 'inplace' && t.members === undefined && t.base === undefined;
    if (valueType ? BigInt(v.offset) + size > 32n : v.offset !== 0) return undefined;
    const start = slot * 32n + BigInt(v.offset);
    spans.push([start, start + (valueType ? size : ((size + 31n) / 32n) * 32n)]);
    out.push({ label: v.label, slot: v.slot, offset: v.offset, type: v.type });
  }
  spans.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  for (let i = 1; i < spans.length; i++) if (spans[i]![0] < spans[i - 1]![1]) return undefined;
  return out;
}

/** One type of a layout, checked: its encoding, its size, the types it names (own ids of `types`). */
function checkedType(t: unknown, types: Readonly<Record<string, unknown>>): StorageType | undefined {
  if (!isRecord(t) || typeof t.encoding !== 'string' || !ENCODINGS.has(t.encoding) || typeof t.label !== 'string' || !TYPE_LABEL.test(t.label)) return undefined;
  if (typeof t.numberOfBytes !== 'string' || !/^[1-9]\d{0,9}$/.test(t.numberOfBytes)) return undefined;
  const ref = (x: unknown): x is string => typeof x === 'string' && Object.hasOwn(types, x);
  const base = { encoding: t.encoding, label: t.label, numberOfBytes: t.numberOfBytes };
  if (t.encoding === 'mapping') return ref(t.key) && ref(t.value) && t.numberOfBytes === '32' ? { ...base, key: t.key, value: t.value } : undefined;
  if (t.encoding === 'dynamic_array') return ref(t.base) && t.numberOfBytes === '32' ? { ...base, base: t.base } : undefined;
  if (t.encoding === 'bytes') return t.numberOfBytes === '32' ? base : undefined;
  if (t.members !== undefined) {
    const members = checkedVars(t.members, types);
    const slots = BigInt(t.numberOfBytes) / 32n;
    return members?.every((m) => BigInt(m.slot) < slots) ? { ...base, members } : undefined;
  }
  if (t.base !== undefined) return ref(t.base) && /\[\d+\]$/.test(t.label) ? { ...base, base: t.base } : undefined;
  return Number(t.numberOfBytes) <= 32 ? base : undefined;
}

/**
 * A `storageLayout` (an artifact's, a verified contract's), when it has the shape solc writes, every
 * slot, offset and type checked (no two variables overlap, no type is missing); undefined otherwise:
 * a malformed layout names nothing.
 */
export function parseStorageLayout(v: unknown): StorageLayout | undefined {
  if (!isRecord(v)) return undefined;
  const given = v.types ?? {};
  if (!isRecord(given) || Object.keys(given).length > MAX_ENTRIES) return undefined;
  const types: Record<string, StorageType> = Object.create(null);
  for (const [id, t] of Object.entries(given)) {
    const checked = TYPE_ID.test(id) ? checkedType(t, given) : undefined;
    if (checked === undefined) return undefined;
    types[id] = checked;
  }
  const storage = checkedVars(v.storage, given);
  return storage === undefined ? undefined : { storage, types };
}

/** The EIP-1967 proxy slots (keccak256 of the name, minus one), named wherever they change. */
export const EIP1967_SLOTS: Readonly<Record<string, string>> = {
  [EIP1967_IMPLEMENTATION]: 'EIP-1967 implementation',
  '0xb53127684a568b3173ae13b9f8a6016e243e63b6e8ee1178d6a717850b5d6103': 'EIP-1967 admin',
  '0xa3f0ad74e5423aebfd80d3ef4346578335a9a72aeaee59ff6cb3582b35133d50': 'EIP-1967 beacon',
};

/** A dynamic array's element this far past its start is taken for a hash collision, not an index. */
const MAX_INDEX = 1n << 40n;
/** Mapping keys hashed per lookup at most (nested mappings try keys × keys). */
const MAX_HASHES = 20_000;

const word = (n: bigint): Uint8Array => {
  const out = new Uint8Array(32);
  let v = n;
  for (let i = 31; i >= 0 && v > 0n; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
};

const toBigWord = (bytes: Uint8Array): bigint => {
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  return n;
};

const slotHash = (parts: Uint8Array[]): bigint => {
  const data = new Uint8Array(parts.length * 32);
  for (const [i, p] of parts.entries()) data.set(p, i * 32);
  return toBigWord(keccak256(data));
};

/** The values a changed slot held, by slot number. */
export type SlotValues = ReadonlyMap<bigint, { readonly before: bigint; readonly after: bigint }>;

/** Candidate mapping keys, as words. */
export interface KeyCandidates {
  readonly addresses: readonly bigint[];
  readonly numbers: readonly bigint[];
  /** The keys a run hashed with each base slot (its KECCAK256 inputs, see hashedKeys): exact, tried first. */
  readonly hashed?: HashedKeys;
}

/** base slot → each key the run hashed with it (the input's bytes before the base) and the slot it gave. */
export type HashedKeys = ReadonlyMap<bigint, ReadonlyArray<{ readonly key: Uint8Array; readonly slot: bigint }>>;

/** A run's KECCAK256 inputs (hash → input) by the base slot in their last 32 bytes: what a mapping at that base was read or written with. */
export function hashedKeys(preimages: ReadonlyMap<bigint, Uint8Array>): HashedKeys {
  const out = new Map<bigint, Array<{ key: Uint8Array; slot: bigint }>>();
  for (const [slot, input] of preimages) {
    if (input.length < 33) continue;
    const base = toBigWord(input.subarray(input.length - 32));
    const list = out.get(base) ?? [];
    if (list.length === 0) out.set(base, list);
    list.push({ key: input.subarray(0, input.length - 32), slot });
  }
  return out;
}

function bitsOf(label: string): number {
  const m = /(\d+)$/.exec(label);
  return m ? Number(m[1]) : 256;
}

/** A value type's bytes from a word, decoded: integers in decimal, addresses checksummed, bool, bytesN as hex. */
function decodeValue(typeLabel: string, raw: bigint, size: number): { value: string | boolean; int?: bigint } {
  if (typeLabel === 'bool') return { value: raw !== 0n };
  if (typeLabel === 'address' || typeLabel.startsWith('contract ') || typeLabel === 'address payable') {
    return { value: checksumAddress(`0x${raw.toString(16).padStart(40, '0')}`) };
  }
  if (/^bytes\d+$/.test(typeLabel)) return { value: `0x${raw.toString(16).padStart(size * 2, '0')}` };
  if (/^int\d*$/.test(typeLabel)) {
    const bits = bitsOf(typeLabel);
    const signed = raw >= 1n << BigInt(bits - 1) ? raw - (1n << BigInt(bits)) : raw;
    return { value: signed.toString(), int: signed };
  }
  // uintN, enums, and anything else of a value type: the unsigned number.
  return { value: raw.toString(), int: raw };
}

/** The short form of a bytes/string slot: its text (or hex), or, for the long form, its length. */
function shortBytes(value: bigint, isString: boolean): string {
  const low = Number(value & 0xffn);
  if (low % 2 === 1) return `(${(value - 1n) / 2n} bytes)`;
  const bytes = word(value).subarray(0, Math.min(low / 2, 31));
  return isString ? Buffer.from(bytes).toString('utf8') : `0x${Buffer.from(bytes).toString('hex')}`;
}

/** Where a part sits: the variable, the path to it, the mapping keys on the way. */
interface At {
  readonly name: string;
  readonly path: string;
  readonly keys: readonly string[];
}

const member = (at: At, suffix: string, key?: string): At => ({ name: at.name, path: `${at.path}${suffix}`, keys: key === undefined ? at.keys : [...at.keys, key] });

/**
 * Names the changed slots of one contract. `values` are its changed slots; every name found is
 * added to `out` under its slot. `keys` are the mapping keys to try.
 */
export function nameSlots(layout: StorageLayout, values: SlotValues, keys: KeyCandidates, unchanged = false): Map<bigint, NamedSlotPart[]> {
  const namer = new SlotNamer(layout, values, keys, unchanged);
  for (const v of layout.storage) namer.place(v.type, BigInt(v.slot), v.offset, { name: v.label, path: v.label, keys: [] }, 0);
  return namer.out;
}

/** One contract's walk through its layout, down to the changed slots only. */
class SlotNamer {
  readonly out = new Map<bigint, NamedSlotPart[]>();
  /** Sorted, for "is any changed slot in [lo, hi)" by binary search: a diff may change 100,000 slots. */
  private readonly changed: bigint[];
  private hashes = 0;

  constructor(
    private readonly layout: StorageLayout,
    private readonly values: SlotValues,
    private readonly keys: KeyCandidates,
    /** Name the parts of a packed slot whose bytes did not change too (a read, a write of what was there). */
    private readonly unchanged = false,
  ) {
    this.changed = [...values.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  private firstAtOrAbove(lo: bigint): number {
    const changed = this.changed;
    let a = 0;
    let b = changed.length;
    while (a < b) {
      const mid = (a + b) >> 1;
      if (changed[mid]! < lo) a = mid + 1;
      else b = mid;
    }
    return a;
  }

  private anyIn(lo: bigint, hi: bigint): boolean {
    const i = this.firstAtOrAbove(lo);
    return i < this.changed.length && this.changed[i]! < hi;
  }

  private add(slot: bigint, part: NamedSlotPart): void {
    const list = this.out.get(slot) ?? [];
    if (!list.some((p) => p.path === part.path)) list.push(part);
    this.out.set(slot, list);
  }

  private typeOf(id: string): StorageType | undefined {
    return this.layout.types[id];
  }

  private static slotsOf(t: StorageType): bigint {
    return (BigInt(t.numberOfBytes) + 31n) / 32n;
  }

  /** A value type at (slot, offset): named when its bytes changed. */
  private leaf(t: StorageType, slot: bigint, offset: number, at: At): void {
    const v = this.values.get(slot);
    if (v === undefined) return;
    const size = Number(t.numberOfBytes);
    const mask = (1n << BigInt(size * 8)) - 1n;
    const before = (v.before >> BigInt(offset * 8)) & mask;
    const after = (v.after >> BigInt(offset * 8)) & mask;
    if (before === after && size < 32 && !this.unchanged) return; // another variable packed in this slot changed
    const b = decodeValue(t.label, before, size);
    const a = decodeValue(t.label, after, size);
    this.add(slot, { ...at, type: t.label, before: b.value, after: a.value, ...(b.int !== undefined && a.int !== undefined ? { change: (a.int - b.int).toString() } : {}) });
  }

  /** Everything of type `id` placed at `base` (and `offset` within it) that touches a changed slot. */
  place(id: string, base: bigint, offset: number, at: At, depth: number): void {
    const t = this.typeOf(id);
    if (t === undefined || depth > 8) return;
    if (t.encoding === 'mapping') this.mapping(t, base, at, depth);
    else if (t.encoding === 'dynamic_array') this.dynamicArray(t, base, at, depth);
    else if (t.encoding === 'bytes') this.bytes(t, base, at);
    else this.placeInPlace(t, base, offset, at, depth);
  }

  /** A value held in its own slots (not a mapping's or a dynamic array's elsewhere): struct, static array or leaf. */
  private placeInPlace(t: StorageType, base: bigint, offset: number, at: At, depth: number): void {
    if (!this.anyIn(base, base + SlotNamer.slotsOf(t))) return;
    if (t.members !== undefined) {
      for (const m of t.members) this.place(m.type, base + BigInt(m.slot), m.offset, member(at, `.${m.label}`), depth + 1);
      return;
    }
    const array = t.base !== undefined ? /\[(\d+)\]$/.exec(t.label) : null;
    const length = array?.[1];
    if (length !== undefined && t.base !== undefined) this.elements(t.base, base, BigInt(length), at, depth);
    else this.leaf(t, base, offset, at);
  }

  private elementLayout(baseId: string): { size: number; perSlot: number; slots: bigint } | undefined {
    const b = this.typeOf(baseId);
    if (b === undefined) return undefined;
    const size = Number(b.numberOfBytes);
    return size <= 16 && b.encoding === 'inplace' && b.members === undefined ? { size, perSlot: Math.floor(32 / size), slots: 1n } : { size, perSlot: 1, slots: SlotNamer.slotsOf(b) };
  }

  /** Elements from `start` on, `length` of them at most (undefined: as many as the changed slots reach). */
  private elements(baseId: string, start: bigint, length: bigint | undefined, at: At, depth: number): void {
    const e = this.elementLayout(baseId);
    if (e === undefined) return;
    const changed = this.changed;
    const slotsSpanned = length === undefined ? MAX_INDEX : e.perSlot > 1 ? (length + BigInt(e.perSlot) - 1n) / BigInt(e.perSlot) : length * e.slots;
    const end = start + slotsSpanned;
    for (let i = this.firstAtOrAbove(start); i < changed.length && changed[i]! < end; i++) {
      const k = changed[i]! - start;
      const first = e.perSlot > 1 ? k * BigInt(e.perSlot) : k / e.slots;
      const count = Math.max(e.perSlot, 1);
      for (let j = 0; j < count; j++) {
        const index = first + BigInt(j);
        if (length !== undefined && index >= length) break;
        const slot = e.perSlot > 1 ? start + k : start + index * e.slots;
        this.place(baseId, slot, e.perSlot > 1 ? j * e.size : 0, member(at, `[${index}]`), depth + 1);
      }
    }
  }

  private dynamicArray(t: StorageType, base: bigint, at: At, depth: number): void {
    const v = this.values.get(base);
    if (v !== undefined) this.add(base, { ...member(at, '.length'), type: 'uint256', before: v.before.toString(), after: v.after.toString(), change: (v.after - v.before).toString() });
    if (t.base === undefined) return;
    this.hashes++;
    this.elements(t.base, slotHash([word(base)]), undefined, at, depth);
  }

  private bytes(t: StorageType, base: bigint, at: At): void {
    const isString = t.label === 'string';
    const v = this.values.get(base);
    if (v !== undefined) this.add(base, { ...at, type: t.label, before: shortBytes(v.before, isString), after: shortBytes(v.after, isString) });
    this.hashes++;
    const start = slotHash([word(base)]);
    const changed = this.changed;
    for (let i = this.firstAtOrAbove(start); i < changed.length && changed[i]! < start + MAX_INDEX; i++) {
      const s = changed[i]!;
      const x = this.values.get(s)!;
      this.add(s, { ...member(at, ` (data word ${s - start})`), type: 'bytes32', before: `0x${x.before.toString(16).padStart(64, '0')}`, after: `0x${x.after.toString(16).padStart(64, '0')}` });
    }
  }

  private mapping(t: StorageType, base: bigint, at: At, depth: number): void {
    if (t.key === undefined || t.value === undefined) return;
    const keyType = this.typeOf(t.key)?.label ?? '';
    const isAddressKey = keyType === 'address' || keyType.startsWith('contract ');
    // Keys hash as their padded 32-byte value; string and bytes keys (hashed unpadded) are not tried.
    const candidates = isAddressKey ? this.keys.addresses : /^(u?int\d*|bytes\d+|bool)$/.test(keyType) || keyType.startsWith('enum ') ? this.keys.numbers : [];
    const baseWord = word(base);
    const seen = new Set<bigint>();
    for (const { key, slot } of this.keys.hashed?.get(base) ?? []) {
      const shown = hashedKeyText(keyType, key);
      if (shown === null) continue;
      seen.add(slot);
      this.place(t.value, slot, 0, member(at, `[${shown}]`, shown), depth + 1);
    }
    for (const k of candidates) {
      if (++this.hashes > MAX_HASHES) return;
      const slot = slotHash([word(k), baseWord]);
      if (seen.has(slot)) continue;
      const shown = isAddressKey ? checksumAddress(`0x${k.toString(16).padStart(40, '0')}`) : /^bytes/.test(keyType) ? `0x${k.toString(16).padStart(64, '0')}` : k.toString();
      this.place(t.value, slot, 0, member(at, `[${shown}]`, shown), depth + 1);
    }
  }
}

/** A key the run hashed, as the key's type shows it (null where its bytes cannot be a key of that type). */
function hashedKeyText(keyType: string, key: Uint8Array): string | null {
  if (keyType === 'string') return JSON.stringify(Buffer.from(key).toString('utf8'));
  if (keyType === 'bytes') return `0x${Buffer.from(key).toString('hex')}`;
  if (key.length !== 32) return null;
  const k = toBigWord(key);
  if (keyType === 'address' || keyType.startsWith('contract ')) return k < 1n << 160n ? checksumAddress(`0x${k.toString(16).padStart(40, '0')}`) : null;
  if (keyType === 'bool') return k === 0n ? 'false' : k === 1n ? 'true' : null;
  if (/^bytes\d+$/.test(keyType)) return `0x${k.toString(16).padStart(64, '0')}`;
  if (/^int\d*$/.test(keyType)) return (k >= 1n << 255n ? k - (1n << 256n) : k).toString();
  return k.toString();
}

/** What `f` finds for the first of `list` it finds anything for (the layouts of a frame's candidate codes, in order of preference). */
export function firstOf<X, T>(list: readonly X[], f: (x: X) => T | undefined): T | undefined {
  for (const x of list) {
    const found = f(x);
    if (found !== undefined) return found;
  }
  return undefined;
}
