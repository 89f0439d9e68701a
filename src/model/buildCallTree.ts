/**
 * Build the call tree from Parity-style trace entries by their traceAddress.
 *
 * Iterative throughout (a 10,000-deep chain must not overflow the stack) and tolerant: entries may
 * come in any order; a duplicate path keeps its first entry; an entry whose parent is missing hangs
 * under its nearest present ancestor; a missing root is replaced by a placeholder; a `subtraces`
 * count that disagrees with the children found is reported. Each oddity becomes a warning.
 */
import { isAddress, isData, isQuantity } from '../raw/hex.js';
import type { Warn } from '../raw/parseRaw.js';
import type { Hex, RpcTraceEntry } from '../raw/types.js';
import { escapeShort } from '../raw/escape.js';
import type { CallNode, CallTree } from './types.js';

interface Slot {
  node?: CallNode;
  subtraces?: number | null;
  readonly kids: Map<number, Slot>;
}

const MAX_LISTED = 5;

const path = (p: readonly number[]): string => `[${p.join(',')}]`;

/** Collects per-kind oddities and turns each kind into one warning line. */
class Oddities {
  private readonly lists = new Map<string, string[]>();
  add(kind: string, item: string): void {
    const list = this.lists.get(kind) ?? [];
    list.push(item);
    this.lists.set(kind, list);
  }
  flush(warn: Warn): void {
    for (const [kind, items] of this.lists) {
      const shown = items.slice(0, MAX_LISTED).join(' ');
      const more = items.length > MAX_LISTED ? ` and ${items.length - MAX_LISTED} more` : '';
      warn(`trace: ${kind}: ${shown}${more}.`);
    }
  }
}

function normalise(e: RpcTraceEntry, odd: Oddities): CallNode {
  const a = e.action;
  const r = e.result;
  let bad = false;
  // A value present but of the wrong shape: the entry is odd, and the field reads as absent.
  const wrong = (): null => {
    bad = true;
    return null;
  };
  const addr = (v: unknown): Hex | null => (v === undefined || v === null ? null : isAddress(v) ? v : wrong());
  const qty = (v: unknown): bigint | null => (v === undefined || v === null ? null : isQuantity(v) ? BigInt(v) : wrong());
  const data = (v: unknown): Hex | null => (v === undefined || v === null ? null : isData(v) ? v : wrong());
  const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
  const gas = qty(a.gas);
  const gasUsed = qty(r?.gasUsed);
  const error = e.error;
  const traceAddress = e.traceAddress;
  let node: CallNode;
  switch (e.type) {
    case 'call':
      node = { type: 'call', callType: text(a.callType), from: addr(a.from), to: addr(a.to), value: qty(a.value), input: data(a.input), output: data(r?.output), gas, gasUsed, error, traceAddress, children: [] };
      break;
    case 'create':
      node = {
        type: 'create',
        creationMethod: text(a.creationMethod),
        from: addr(a.from),
        to: addr(r?.address),
        value: qty(a.value),
        input: data(a.init),
        output: data(r?.code ?? r?.output),
        gas,
        gasUsed,
        error,
        traceAddress,
        children: [],
      };
      break;
    case 'suicide':
      node = { type: 'suicide', from: addr(a.address), to: addr(a.refundAddress), value: qty(a.balance), input: null, output: null, gas, gasUsed, error, traceAddress, children: [] };
      break;
    case 'reward':
      node = { type: 'reward', rewardType: text(a.rewardType), from: null, to: addr(a.author), value: qty(a.value), input: null, output: null, gas, gasUsed, error, traceAddress, children: [] };
      break;
    default:
      odd.add('unknown entry types, shown as they are', `${escapeShort(e.type, 30)} at ${path(e.traceAddress)}`);
      node = { type: e.type, from: addr(a.from), to: addr(a.to), value: qty(a.value), input: data(a.input), output: data(r?.output), gas, gasUsed, error, traceAddress, children: [] };
  }
  if (bad) odd.add('fields that are not valid hex, shown as missing', path(e.traceAddress));
  // Erigon writes result: null on failed entries and Parity omits result: both mean "no output".
  // A successful call or create without a result is malformed (a suicide and a reward never have one).
  if (r === null && e.error === null && (e.type === 'call' || e.type === 'create')) odd.add('successful entries without a result', path(e.traceAddress));
  return node;
}

function placeholderRoot(): CallNode {
  return { type: 'missing', missing: true, from: null, to: null, value: null, gas: null, gasUsed: null, input: null, output: null, error: null, traceAddress: [], children: [] };
}

/** Deeper than this, the pre-order fast path leaves the entries to the general builder (its prefix checks grow with depth). */
const FAST_PATH_MAX_DEPTH = 64;

/**
 * The common case, in one pass: entries in pre-order (as Parity, Erigon and anvil list them), the root
 * first, every entry the next child of an entry on the current path. Returns each entry's parent
 * index (-1 for the root), or null as soon as anything differs, and the general builder takes over.
 */
function preorderParents(entries: readonly RpcTraceEntry[]): Int32Array | null {
  const parents = new Int32Array(entries.length);
  const stack: number[] = [];
  const kids: number[] = [];
  for (let k = 0; k < entries.length; k++) {
    const p = entries[k]?.traceAddress;
    if (p === undefined) return null;
    const depth = p.length;
    if (k === 0) {
      if (depth !== 0) return null;
      parents[0] = -1;
      stack.push(0);
      kids.push(0);
      continue;
    }
    if (depth === 0 || depth > stack.length || depth > FAST_PATH_MAX_DEPTH) return null;
    stack.length = depth;
    kids.length = depth;
    const parent = stack[depth - 1];
    const kid = kids[depth - 1];
    const q = parent === undefined ? undefined : entries[parent]?.traceAddress;
    if (parent === undefined || q === undefined || kid === undefined || p[depth - 1] !== kid) return null;
    for (let i = 0; i < depth - 1; i++) if (p[i] !== q[i]) return null;
    kids[depth - 1] = kid + 1;
    parents[k] = parent;
    stack.push(k);
    kids.push(0);
  }
  return parents;
}

export function buildCallTree(entries: readonly RpcTraceEntry[], warn: Warn): CallTree | null {
  if (entries.length === 0) return null;
  const parents = preorderParents(entries);
  if (parents !== null) return linkPreorder(entries, parents, warn);
  return buildFromTrie(entries, warn);
}

function linkPreorder(entries: readonly RpcTraceEntry[], parents: Int32Array, warn: Warn): CallTree {
  const odd = new Oddities();
  const nodes: CallNode[] = [];
  const depths = new Int32Array(entries.length);
  let maxDepth = 0;
  for (const [k, entry] of entries.entries()) {
    const node = normalise(entry, odd);
    nodes.push(node);
    // preorderParents gave every entry but the root an earlier one as its parent.
    const parent = parents[k] ?? -1;
    const up = nodes[parent];
    if (up === undefined) continue;
    up.children.push(node);
    const depth = (depths[parent] ?? 0) + 1;
    depths[k] = depth;
    if (depth > maxDepth) maxDepth = depth;
  }
  for (const [k, node] of nodes.entries()) checkSubtraces(entries[k]?.subtraces, node, odd);
  odd.flush(warn);
  const [root] = nodes;
  if (root === undefined) throw new Error('internal error: a call tree without its root entry');
  return { root, count: entries.length, maxDepth };
}

function checkSubtraces(declared: number | null | undefined, node: CallNode, odd: Oddities): void {
  if (declared !== null && declared !== undefined && declared !== node.children.length) {
    odd.add('subtraces differ from the children found', `${path(node.traceAddress)} says ${declared}, has ${node.children.length}`);
  }
}

/** Any order, gaps and duplicates: a trie over traceAddress, walked in pre-order. */
function buildFromTrie(entries: readonly RpcTraceEntry[], warn: Warn): CallTree | null {
  const odd = new Oddities();
  const top: Slot = { kids: new Map() };
  for (const e of entries) {
    let slot = top;
    for (const i of e.traceAddress) {
      let next = slot.kids.get(i);
      if (next === undefined) {
        next = { kids: new Map() };
        slot.kids.set(i, next);
      }
      slot = next;
    }
    if (slot.node !== undefined) {
      odd.add('duplicate traceAddress, the first entry kept', path(e.traceAddress));
      continue;
    }
    slot.node = normalise(e, odd);
    slot.subtraces = e.subtraces;
  }

  // Pre-order walk over the trie; `owner` is the nearest slot above that holds an entry.
  let root: CallNode | undefined = top.node;
  const subtraceChecks: Array<{ readonly node: CallNode; readonly subtraces: number | null | undefined }> = [];
  let count = 0;
  let maxDepth = 0;
  const stack: Array<{ slot: Slot; owner: CallNode | undefined; depth: number; at: readonly number[] }> = [
    { slot: top, owner: undefined, depth: 0, at: [] },
  ];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const { slot, owner, depth, at } = next;
    let nextOwner = owner;
    let nextDepth = depth;
    if (slot.node !== undefined) {
      count++;
      if (slot !== top) {
        let parent = owner;
        if (parent === undefined) {
          root ??= placeholderRoot();
          parent = root;
        }
        parent.children.push(slot.node);
        nextDepth = depth + 1;
      }
      maxDepth = Math.max(maxDepth, nextDepth);
      nextOwner = slot.node;
      subtraceChecks.push({ node: slot.node, subtraces: slot.subtraces });
    } else if (slot !== top && slot.kids.size > 0) {
      odd.add('entries whose parent is missing, shown under the nearest ancestor', `${path(at)} (children of it)`);
    }
    const kids = [...slot.kids.entries()].sort(([x], [y]) => y - x); // reversed: the stack pops the smallest first
    for (const [k, kid] of kids) {
      // A slot's path is its entry's traceAddress (shared, not copied); only gaps build one, for the warning.
      stack.push({ slot: kid, owner: nextOwner, depth: nextDepth, at: kid.node?.traceAddress ?? [...at, k] });
    }
  }
  if (root === undefined) return null;
  if (root.missing) odd.add('no root entry (traceAddress [])', 'a placeholder stands in for it');

  for (const { subtraces, node } of subtraceChecks) checkSubtraces(subtraces, node, odd);
  odd.flush(warn);
  return { root, count, maxDepth };
}
