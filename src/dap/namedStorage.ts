/**
 * The storage a frame's account read and wrote by a step (storageAt's), and where the artifact whose code
 * the frame runs carries a storage layout, the state variables its slots hold (nameSlots', as --storage
 * names them; mapping entries are not named here: the step log keeps no KECCAK256 inputs).
 */
import type { Artifact } from '../decode/abiIndex.js';
import { nameSlots } from '../decode/nameStorage.js';
import { storageAt } from '../debug/storageAt.js';
import { matchArtifact } from '../locate/matchCode.js';
import type { NamedSlotPart } from '../model/types.js';
import type { Hex } from '../raw/types.js';
import type { DebugTarget } from './types.js';

export interface NamedStorage {
  readonly seen: ReadonlyMap<bigint, bigint>;
  /** The layout's variables, where the frame's code has one. */
  readonly layout: NonNullable<Artifact['storageLayout']> | null;
  /** The named parts of each slot seen. */
  readonly named: ReadonlyMap<bigint, readonly NamedSlotPart[]>;
}

/** The storage layout of the artifact whose code frame `frame` runs, if one carries it. */
function layoutOf(t: DebugTarget, frame: number): Artifact['storageLayout'] {
  const code = t.rec.frames[frame]?.code;
  if (code == null) return undefined;
  const withLayout = t.artifacts.filter((a) => (a.storageLayout?.storage.length ?? 0) > 0);
  const hex: Hex = `0x${Buffer.from(code).toString('hex')}`;
  return withLayout.length === 0 ? undefined : matchArtifact(hex, withLayout)?.storageLayout;
}

export function namedStorage(t: DebugTarget, at: number, frame: number): NamedStorage {
  const seen = storageAt(t.rec, at, t.rec.frames[frame]?.storageAddress ?? null);
  const layout = layoutOf(t, frame) ?? null;
  if (layout === null || seen.size === 0) return { seen, layout, named: new Map() };
  const values = new Map([...seen].map(([slot, value]) => [slot, { before: value, after: value }] as const));
  return { seen, layout, named: nameSlots(layout, values, { addresses: [], numbers: [] }, true) };
}
