/**
 * --internal in the gas profile's stacks: a frame's internal calls split its self gas. Each internal
 * call's self gas is its gas used less its internal calls' and the external calls made inside it; the
 * frame keeps what no internal call holds. The parts add up to the frame's self gas, so the stacks'
 * total is the same with or without --internal.
 */
import type { CallNode, InternalCall, InternalItem } from '../model/types.js';

export interface InternalGas {
  /** The frame's own self gas, what its internal calls do not hold. */
  readonly self: bigint;
  /** A stack per internal call, below the frame's path, with its self gas. */
  readonly stacks: ReadonlyArray<{ readonly stack: readonly InternalCall[]; readonly selfGas: bigint }>;
  /** The internal calls each of the frame's calls was made inside (by its index in `children`), outermost first. */
  readonly via: ReadonlyMap<number, readonly InternalCall[]>;
}

/** What `items` use of their caller's gas: the internal calls' gas and the external calls' (null where one is unknown). */
function spent(items: readonly InternalItem[], node: CallNode): bigint | null {
  let sum: bigint | null = 0n;
  for (const x of items) {
    if (typeof x === 'object' && 'event' in x) continue;
    const g = typeof x === 'number' ? node.children[x]?.gasUsed ?? null : x.gasUsed;
    sum = sum === null || g === null ? null : sum + g;
  }
  return sum;
}

/** The split of `node`'s self gas (`used`: its gas used) over its internal calls; null where some gas is unknown. */
export function internalGas(node: CallNode, used: bigint, internal: readonly InternalItem[]): InternalGas | null {
  const top = spent(internal, node);
  if (top === null) return null;
  const stacks: Array<{ stack: InternalCall[]; selfGas: bigint }> = [];
  const via = new Map<number, InternalCall[]>();
  const walk = (items: readonly InternalItem[], path: InternalCall[]): boolean => {
    for (const x of items) {
      if (typeof x === 'number') via.set(x, path);
      if (typeof x !== 'object' || 'event' in x) continue;
      const inner = spent(x.inside, node);
      if (inner === null) return false;
      const stack = [...path, x];
      stacks.push({ stack, selfGas: x.gasUsed - inner });
      if (!walk(x.inside, stack)) return false;
    }
    return true;
  };
  return walk(internal, []) ? { self: used - top, stacks, via } : null;
}
