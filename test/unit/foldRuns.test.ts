/**
 * Which sibling calls the text view folds: never a failed call, never a run whose outcomes differ into
 * one "all ←", never a call with calls of its own. The tree is built from trace entries the way a
 * node's trace_transaction answer is.
 */
import { describe, expect, test } from 'vitest';
import { buildCallTree } from '../../src/model/buildCallTree.js';
import type { CallNode } from '../../src/model/types.js';
import type { RpcTraceEntry } from '../../src/raw/types.js';
import { FOLD_AT } from '../../src/render/foldRuns.js';
import { renderCallTree } from '../../src/render/renderCallTree.js';
import { makeChalk } from '../../src/render/style.js';

const A = `0x${'aa'.repeat(20)}`;
const B = `0x${'bb'.repeat(20)}`;
const SELECTOR = '0x12345678';

/** A child of the root: gas used 10, returning `output`, failing with `error` when given. */
function child(i: number, o: { output?: string; error?: string; to?: string; subtraces?: number } = {}): RpcTraceEntry {
  return {
    type: 'call',
    traceAddress: [i],
    subtraces: o.subtraces ?? 0,
    action: { callType: 'call', from: A, to: o.to ?? B, gas: '0x100', input: `${SELECTOR}${i.toString(16).padStart(64, '0')}`, value: '0x0' },
    result: o.error === undefined ? { gasUsed: '0xa', output: o.output ?? '0x' } : undefined,
    error: o.error ?? null,
  } as RpcTraceEntry;
}

async function lines(children: RpcTraceEntry[], full = false, internal?: (root: CallNode) => void): Promise<string[]> {
  const root: RpcTraceEntry = { ...child(0), traceAddress: [], subtraces: children.filter((c) => c.traceAddress.length === 1).length, action: { callType: 'call', from: A, to: A, gas: '0x1000', input: '0xabcdef01', value: '0x0' } };
  const tree = buildCallTree([root, ...children], () => undefined)!;
  internal?.(tree.root);
  const out: string[] = [];
  for (const chunk of renderCallTree(tree, { chalk: await makeChalk(0), width: Number.POSITIVE_INFINITY, full })) out.push(...chunk.split('\n').filter((l) => l.trim() !== ''));
  return out.slice(1);
}

/** `n` alike children from index `from` on. */
const alike = (from: number, n: number, o: { output?: (i: number) => string } = {}): RpcTraceEntry[] =>
  Array.from({ length: n }, (_, k) => child(from + k, o.output ? { output: o.output(k) } : {}));

describe('folding sibling calls', () => {
  test(`a failed call in the middle of a run keeps its line; the calls on each side fold only where ${FOLD_AT} or more remain`, async () => {
    const n = FOLD_AT;
    const tree = await lines([...alike(0, n), child(n, { error: 'Reverted' }), ...alike(n + 1, n - 1), child(2 * n, { to: A }), child(2 * n + 1)]);
    expect(tree[1]).toMatch(new RegExp(`^ {2}├─ ${n} × call 0x[0-9a-fA-F]{40} · 0x12345678 · ${n * 10} gas in all · all ← no data$`));
    expect(tree[2]).toMatch(/^ {2}├─ call 0x[0-9a-fA-F]{40} · 0x12345678 \+32 bytes ✗ Reverted$/);
    // One alike call too few, then one to another contract, then one more: none of these fold.
    expect(tree.slice(3).every((l) => !l.includes(' × '))).toBe(true);
    // The root, the folded run, the failed call, the rest one by one, and the note that --full shows every line.
    expect(tree).toHaveLength(3 + (n - 1) + 2 + 1);
  });

  test('calls that returned different data are not "all" alike: the first and last return are shown', async () => {
    const word = (n: number): string => `0x${n.toString(16).padStart(64, '0')}`;
    const tree = await lines(alike(0, FOLD_AT, { output: (k) => word(k === FOLD_AT - 1 ? 2 : 1) }));
    expect(tree[1]).toMatch(new RegExp(`└─ ${FOLD_AT} × call .* · ${FOLD_AT * 10} gas in all · first ← 32 bytes, last ← 32 bytes$`));
    expect(tree[1]).not.toContain('all ←');
  });

  test('--internal: a matched frame\'s alike calls fold as any frame\'s do (its internal items list them)', async () => {
    const n = FOLD_AT + 2;
    const tree = await lines(alike(0, n), false, (root) => {
      root.decoded = { ...root.decoded, internal: Array.from({ length: n }, (_, i) => i) };
    });
    expect(tree[1]).toMatch(new RegExp(`^ {2}└─ ${n} × call 0x[0-9a-fA-F]{40} · 0x12345678 · ${n * 10} gas in all · all ← no data$`));
    expect(tree.filter((l) => l.includes(' × '))).toHaveLength(1);
  });

  test(`fewer than ${FOLD_AT} alike calls are each drawn: a few are read one by one`, async () => {
    const tree = await lines(alike(0, FOLD_AT - 1));
    expect(tree.some((l) => l.includes(' × '))).toBe(false);
    expect(tree).toHaveLength(FOLD_AT);
  });

  test('a call with calls of its own is never folded (what happened inside it stays visible)', async () => {
    const inner: RpcTraceEntry = { ...child(0), traceAddress: [1, 0] };
    const tree = await lines([child(0), child(1, { subtraces: 1 }), inner, ...alike(2, FOLD_AT - 2)]);
    expect(tree.some((l) => l.includes(' × '))).toBe(false);
    expect(tree).toHaveLength(FOLD_AT + 2);
  });

  test('--full draws every call', async () => {
    const tree = await lines(alike(0, FOLD_AT + 1), true);
    expect(tree).toHaveLength(FOLD_AT + 2);
    expect(tree.some((l) => l.includes(' × '))).toBe(false);
  });
});
