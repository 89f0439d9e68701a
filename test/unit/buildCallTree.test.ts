import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { buildCallTree } from '../../src/model/buildCallTree.js';
import type { CallNode } from '../../src/model/types.js';
import { parseTrace } from '../../src/raw/parseRaw.js';
import type { RpcTraceEntry } from '../../src/raw/types.js';
import { renderCallTree } from '../../src/render/renderCallTree.js';
import { makeChalk } from '../../src/render/style.js';

const HASH = `0x${'11'.repeat(32)}` as const;
const A = `0x${'aa'.repeat(20)}`;

function entry(path: number[], subtraces: number, extra: Partial<RpcTraceEntry> = {}): RpcTraceEntry {
  return {
    type: 'call',
    traceAddress: path,
    subtraces,
    action: { callType: 'call', from: A, to: A, gas: '0x10', input: `0x${path.length.toString(16).padStart(8, '0')}`, value: '0x0' },
    result: { gasUsed: '0x1', output: '0x' },
    error: null,
    ...extra,
  };
}

/** A valid trace: [] with children [0], [1]; [0] has [0,0], [0,1]; [0,1] has [0,1,0]. */
const VALID = [entry([], 2), entry([0], 2), entry([0, 0], 0), entry([0, 1], 1), entry([0, 1, 0], 0), entry([1], 0)];

/** The tree as nested traceAddress lists, for comparisons. */
function shape(n: CallNode): unknown {
  return [n.traceAddress.join('.'), n.children.map(shape)];
}

function build(entries: RpcTraceEntry[]) {
  const warnings: string[] = [];
  const tree = buildCallTree(entries, (w) => warnings.push(w));
  return { tree, warnings };
}

describe('buildCallTree', () => {
  test('ordered entries build the tree, no warnings', () => {
    const { tree, warnings } = build(VALID);
    expect(warnings).toEqual([]);
    expect(tree!.count).toBe(6);
    expect(tree!.maxDepth).toBe(3);
    expect(shape(tree!.root)).toEqual(['', [['0', [['0.0', []], ['0.1', [['0.1.0', []]]]]], ['1', []]]]);
  });

  test('any permutation of a valid trace builds the same tree', () => {
    const expected = shape(build(VALID).tree!.root);
    fc.assert(
      fc.property(fc.shuffledSubarray(VALID, { minLength: VALID.length, maxLength: VALID.length }), (perm) => {
        const { tree, warnings } = build(perm);
        expect(warnings).toEqual([]);
        expect(shape(tree!.root)).toEqual(expected);
      }),
    );
  });

  test('error: orphan traceAddress [0,3,0] hangs under its nearest ancestor, with a warning', () => {
    const { tree, warnings } = build([entry([], 1), entry([0], 0), entry([0, 3, 0], 0)]);
    expect(shape(tree!.root)).toEqual(['', [['0', [['0.3.0', []]]]]]);
    expect(warnings.join('\n')).toMatch(/parent is missing.*\[0,3\]/);
    expect(warnings.join('\n')).toMatch(/subtraces differ.*\[0\] says 0, has 1/);
  });

  test('error: duplicate path keeps the first entry', () => {
    const first = entry([0], 0, { error: 'first' });
    const { tree, warnings } = build([entry([], 1), first, entry([0], 0, { error: 'second' })]);
    expect(tree!.root.children).toHaveLength(1);
    expect(tree!.root.children[0]!.error).toBe('first');
    expect(warnings.join('\n')).toMatch(/duplicate traceAddress.*\[0\]/);
  });

  test('error: subtraces mismatch is reported, the tree kept', () => {
    const { tree, warnings } = build([entry([], 5), entry([0], 0)]);
    expect(tree!.count).toBe(2);
    expect(warnings).toEqual(['trace: subtraces differ from the children found: [] says 5, has 1.']);
  });

  test('error: no root entry: a placeholder stands in', () => {
    const { tree, warnings } = build([entry([0], 0), entry([1], 0)]);
    expect(tree!.root.missing).toBe(true);
    expect(tree!.root.children.map((c) => c.traceAddress)).toEqual([[0], [1]]);
    expect(warnings.join('\n')).toMatch(/no root entry/);
  });

  test('error: invalid hex fields are shown as missing, unknown types kept', () => {
    const bad = entry([0], 0, { type: 'weird\u001b[2J', action: { from: 'nothex', to: A, value: '0xzz' } });
    const { tree, warnings } = build([entry([], 1), bad]);
    const node = tree!.root.children[0]!;
    expect(node.type).toBe('weird\u001b[2J');
    expect(node.from).toBeNull();
    expect(node.value).toBeNull();
    expect(warnings.join('\n')).toContain('weird\\x1b[2J');
    expect(warnings.join('\n')).toMatch(/not valid hex.*\[0\]/);
  });

  test('error: a successful call with result null is reported', () => {
    const { warnings } = build([entry([], 0, { result: null })]);
    expect(warnings.join('\n')).toMatch(/successful entries without a result: \[\]/);
  });

  test('creates, suicides and rewards use Parity vocabulary', () => {
    const create = { type: 'create', traceAddress: [0], subtraces: 0, action: { from: A, gas: '0x1', init: '0x6000', value: '0x0', creationMethod: 'create2' }, result: { address: `0x${'bb'.repeat(20)}`, code: '0x00', gasUsed: '0x2' }, error: null };
    const suicide = { type: 'suicide', traceAddress: [1], subtraces: 0, action: { address: `0x${'cc'.repeat(20)}`, refundAddress: `0x${'dd'.repeat(20)}`, balance: '0x5' }, result: null, error: null };
    const { tree, warnings } = build([entry([], 2), create, suicide]);
    expect(warnings).toEqual([]);
    expect(tree!.root.children[0]).toMatchObject({ type: 'create', creationMethod: 'create2', to: `0x${'bb'.repeat(20)}`, input: '0x6000', output: '0x00' });
    expect(tree!.root.children[1]).toMatchObject({ type: 'suicide', from: `0x${'cc'.repeat(20)}`, to: `0x${'dd'.repeat(20)}`, value: 5n });
  });

  test('a 10,000-deep chain builds and renders without recursion', async () => {
    const depth = 10_000;
    const entries: RpcTraceEntry[] = [];
    for (let d = 0; d <= depth; d++) entries.push(entry(new Array(d).fill(0), d < depth ? 1 : 0));
    const { tree, warnings } = build(entries.reverse());
    expect(warnings).toEqual([]);
    expect(tree!.maxDepth).toBe(depth);
    let longest = 0;
    let lines = 0;
    const chalk = await makeChalk(0);
    for (const chunk of renderCallTree(tree!, { chalk, width: 120 })) {
      lines++;
      longest = Math.max(longest, chunk.length);
    }
    expect(lines).toBe(depth + 2); // header line (after a blank) + one line per entry
    expect(longest).toBeLessThanOrEqual(121);
  });

  test('garbage never throws: parseTrace + buildCallTree take anything', () => {
    const pathArb = fc.array(fc.nat({ max: 4 }), { maxLength: 4 });
    const entryArb = fc.oneof(
      fc.anything(),
      fc.record({ type: fc.constantFrom('call', 'create', 'suicide', 'reward', 'x'), traceAddress: pathArb, subtraces: fc.anything(), action: fc.dictionary(fc.string(), fc.anything()), result: fc.anything(), error: fc.anything() }),
    );
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.array(entryArb)), (raw) => {
        const warnings: string[] = [];
        const entries = parseTrace(raw, HASH, (w) => warnings.push(w));
        if (entries) buildCallTree(entries, (w) => warnings.push(w));
        expect(warnings.every((w) => typeof w === 'string')).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
