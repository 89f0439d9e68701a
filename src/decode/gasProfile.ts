/**
 * Where the gas went: per (contract, function), the calls made, the gas they used including their
 * subcalls, and their self gas (gas used minus that of their direct subcalls). Self gas telescopes: it
 * adds up to the root call's gas used. Parity omits `gasUsed` on failed entries; such a call's gas, and
 * its parent's self gas, are unknown, never 0.
 */
import type { CallNode, Decoded, GasProfile, Receipt, StackFrame } from '../model/types.js';
import { internalGas } from './internalGas.js';
import type { Hex } from '../raw/types.js';

const gasOf = (n: CallNode): bigint | null => n.gasUsed;
const functionOf = (n: CallNode): Decoded | undefined => n.decoded?.function;

/** The key a call is grouped under: its code's address and its selector (or the kind of call). */
function keyOf(n: CallNode): { address: Hex | null; selector: Hex | null; name: string | null } {
  const fn = functionOf(n);
  if (n.type === 'create') return { address: n.to, selector: null, name: fn?.name ?? 'constructor' };
  // A precompile's input has no selector: its calls are one row, under its name.
  if (fn?.contract === 'precompile') return { address: n.to, selector: null, name: fn.name };
  const selector = n.input !== null && n.input.length >= 10 ? (`0x${n.input.slice(2, 10).toLowerCase()}` as const) : null;
  // No data: receive()/fallback() when the decode stage named it so, else value sent to an account with no code.
  return { address: n.to, selector, name: fn?.name ?? (selector === null ? (n.input === null || n.input === '0x' ? '(no data)' : null) : null) };
}

export function gasProfile(root: CallNode): GasProfile {
  const rows = new Map<string, { address: Hex | null; function: string | null; selector: Hex | null; calls: number; gasUsed: bigint | null; selfGas: bigint | null }>();
  const folded: Array<{ stack: StackFrame[]; selfGas: bigint }> = [];
  let unknown = 0;
  const rowOf = new Map<StackFrame, string>();
  // Iterative walk with the path to each node (trees can be 1,000s deep and 20,000 wide).
  const stack: Array<{ node: CallNode; path: StackFrame[] }> = [{ node: root, path: [root] }];
  while (stack.length > 0) {
    const { node, path } = stack.pop()!;
    const internal = node.decoded?.internal;
    const split = internal === undefined || node.gasUsed === null ? null : internalGas(node, node.gasUsed, internal);
    for (let i = node.children.length - 1; i >= 0; i--) stack.push({ node: node.children[i]!, path: [...path, ...(split?.via.get(i) ?? []), node.children[i]!] });
    if (node.type === 'suicide' || node.type === 'reward') continue; // no gas of their own
    const used = gasOf(node);
    if (used === null) unknown++;
    let self = used;
    for (const c of node.children) {
      if (c.type === 'suicide' || c.type === 'reward') continue;
      const g = gasOf(c);
      self = self === null || g === null ? null : self - g;
    }
    const k = keyOf(node);
    const id = `${k.address ?? ''}:${k.selector ?? k.name ?? ''}:${node.type}`;
    rowOf.set(node, id);
    const row = rows.get(id) ?? { address: k.address, function: k.name, selector: k.selector, calls: 0, gasUsed: 0n, selfGas: 0n };
    row.calls++;
    // A recursive call's gas is inside its caller's: count each row's inclusive gas once per outermost
    // call. Callers come first in this pre-order walk, so their rows are known.
    const nestedInSameRow = path.some((p) => p !== node && rowOf.get(p) === id);
    if (!nestedInSameRow) row.gasUsed = row.gasUsed === null || used === null ? null : row.gasUsed + used;
    row.selfGas = row.selfGas === null || self === null ? null : row.selfGas + self;
    rows.set(id, row);
    if (self !== null && split !== null) {
      // --internal: the frame's self gas split over its internal calls (the same sum).
      folded.push({ stack: path, selfGas: split.self });
      for (const s of split.stacks) folded.push({ stack: [...path, ...s.stack], selfGas: s.selfGas });
    } else if (self !== null) folded.push({ stack: path, selfGas: self });
  }
  const sorted = [...rows.values()].sort((a, b) => {
    if (a.selfGas === null || b.selfGas === null) return a.selfGas === null ? (b.selfGas === null ? 0 : 1) : -1;
    return a.selfGas > b.selfGas ? -1 : a.selfGas < b.selfGas ? 1 : 0;
  });
  return { rows: sorted, rootGas: gasOf(root), unknown, folded };
}

/**
 * The gas no call accounts for: the receipt's gas used minus the root call's (null when either is
 * unknown). Under Parity traces that is the intrinsic gas less refunds; geth's callTracer counts the
 * intrinsic gas in its root call, so there it is mostly the refund, negative.
 */
export function gasOutsideCalls(receipt: Receipt | null, profile: GasProfile): bigint | null {
  const used = receipt?.gasUsed;
  return used === undefined || profile.rootGas === null ? null : used - profile.rootGas;
}

