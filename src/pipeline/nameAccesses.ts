/**
 * Names for --storage's accesses, from the storage layout of the artifact whose code ran on each
 * account's storage (its own code, else the code it delegatecalled in this transaction; see
 * decode/nameStorage.ts); where no artifact names that code, a verified contract's layouts (--online:
 * Sourcify's, checked), by the same addresses. Mapping keys from the run's own KECCAK256 inputs. A
 * transient slot is named only from a transient layout, never from the persistent one; a slot no layout reaches keeps no name.
 */
import type { Artifact } from '../decode/abiIndex.js';
import { EIP1967_SLOTS, firstOf, type HashedKeys, nameSlots, type StorageLayout, type VerifiedLayout, type VerifiedLayouts } from '../decode/nameStorage.js';
import type { StorageAccess } from '../evm/storageTrace.js';
import { matchArtifact } from '../locate/matchCode.js';
import type { InspectModel, JsonValue, NamedSlotPart, StorageItem } from '../model/types.js';
import { walkCalls } from '../model/walk.js';
import type { Hex } from '../raw/types.js';

type Layouts = Pick<VerifiedLayout, 'storage' | 'transient'>;

/** A layout with variables (a proxy's own has none: its storage is its implementation's). */
const hasVars = (l: Layouts): boolean => (l.storage?.storage.length ?? 0) > 0 || (l.transient?.storage.length ?? 0) > 0;

/** The layouts that name each account's storage, by the code that ran on it: a project artifact's, else a verified contract's. */
function layoutsOf(model: InspectModel, artifacts: readonly Artifact[], codes: ReadonlyMap<string, Hex>, verified: VerifiedLayouts): (address: string) => Layouts | undefined {
  const withLayout = artifacts.filter((a) => a.deployedBytecode !== undefined && ((a.storageLayout?.storage.length ?? 0) > 0 || (a.transientStorageLayout?.storage.length ?? 0) > 0));
  const ran = new Map<string, Set<string>>();
  if (model.tree !== null && (withLayout.length > 0 || verified.size > 0)) {
    walkCalls(model.tree.root, (n) => {
      if (n.type !== 'call' || n.to === null) return;
      const to = n.to.toLowerCase();
      const context = n.callType === 'delegatecall' || n.callType === 'callcode' ? n.from?.toLowerCase() : to;
      if (context === undefined) return;
      const set = ran.get(context) ?? new Set([context]);
      ran.set(context, set.add(to));
    });
  }
  const found = new Map<string, Layouts | undefined>();
  const ofArtifact = (code: string): Layouts | undefined => {
    const bytecode = codes.get(code);
    const a = bytecode === undefined ? undefined : matchArtifact(bytecode, withLayout);
    return a === undefined ? undefined : { storage: a.storageLayout, transient: a.transientStorageLayout };
  };
  const ofVerified = (code: string): Layouts | undefined => {
    const v = verified.get(code);
    return v !== undefined && hasVars(v) ? v : undefined;
  };
  return (address) => {
    if (found.has(address)) return found.get(address);
    const candidates = [address, ...(ran.get(address) ?? [])];
    // The project's artifacts win, as they do for ABIs.
    const layouts = firstOf(candidates, ofArtifact) ?? firstOf(candidates, ofVerified);
    found.set(address, layouts);
    return layouts;
  };
}

/** The parts of one slot an access touched: a write's changed parts (all where it changed none), a read's all. */
function partsOf(layout: StorageLayout, a: StorageAccess, hashed: HashedKeys): NamedSlotPart[] {
  const keys = { addresses: [], numbers: [], hashed };
  const values = new Map([[a.slot, { before: a.before ?? a.value, after: a.value }]]);
  const changed = a.op === 'write' ? (nameSlots(layout, values, keys).get(a.slot) ?? []) : [];
  return changed.length > 0 ? changed : (nameSlots(layout, values, keys, true).get(a.slot) ?? []);
}

function named(item: StorageItem, a: StorageAccess, parts: readonly NamedSlotPart[]): StorageItem {
  const one = (p: NamedSlotPart): JsonValue => (a.op === 'read' ? p.after : { before: p.before, after: p.after });
  const [first] = parts;
  if (first === undefined) return item;
  if (parts.length === 1) return { ...item, name: first.path, decoded: one(first) };
  return { ...item, name: parts.map((p) => p.path).join(', '), decoded: Object.fromEntries(parts.map((p) => [p.path, one(p)])) };
}

export function nameAccesses(model: InspectModel, hashed: HashedKeys, artifacts: readonly Artifact[], codes: ReadonlyMap<string, Hex>, verified: VerifiedLayouts): (a: StorageAccess, item: StorageItem) => StorageItem {
  const layoutOf = layoutsOf(model, artifacts, codes, verified);
  return (a, item) => {
    const proxy = a.transient ? undefined : EIP1967_SLOTS[item.slot];
    if (proxy !== undefined) return { ...item, name: proxy };
    const layouts = layoutOf(a.address);
    const layout = a.transient ? layouts?.transient : layouts?.storage;
    return layout === undefined ? item : named(item, a, partsOf(layout, a, hashed));
  };
}
