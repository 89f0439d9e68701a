import { expect, test } from 'vitest';
import { buildCallTree } from '../../src/model/buildCallTree.js';
import { buildModel } from '../../src/model/buildModel.js';
import type { CallNode } from '../../src/model/types.js';
import { withCallDecodings } from '../../src/model/withCallDecodings.js';
import type { RpcTraceEntry } from '../../src/raw/types.js';

const A = '0x00000000000000000000000000000000000000aa';
const B = '0x00000000000000000000000000000000000000bb';

/** A reverted transaction whose root's one call to B reverted first. */
function reverted() {
  const trace: RpcTraceEntry[] = [
    { type: 'call', traceAddress: [], subtraces: 1, action: { callType: 'call', from: A, to: A, gas: '0x10000', input: '0x12345678', value: '0x0' }, result: { gasUsed: '0x5000', output: '0x' }, error: 'Reverted' },
    { type: 'call', traceAddress: [0], subtraces: 0, action: { callType: 'call', from: A, to: B, gas: '0x8000', input: '0x87654321', value: '0x0' }, result: { gasUsed: '0x100', output: '0x' }, error: 'Reverted' },
  ];
  const tx = { hash: `0x${'11'.repeat(32)}`, from: A, to: A, gas: '0x20000', input: '0x12345678', value: '0x0', blockHash: `0x${'22'.repeat(32)}`, blockNumber: '0x1', transactionIndex: '0x0', nonce: '0x0' };
  const receipt = { status: '0x0', gasUsed: '0x9000', logs: [], blockHash: tx.blockHash, blockNumber: '0x1', transactionIndex: '0x0', from: A, to: A, contractAddress: null, cumulativeGasUsed: '0x9000', effectiveGasPrice: '0x1' };
  const bundle = { transaction: tx, receipt, trace, callTrace: null, traceSource: 'trace_transaction', traceNote: null, reexecution: null, state: null, block: null, warnings: [] };
  const warnings: string[] = [];
  return buildModel(tx.hash as never, bundle as never, { tx: tx as never, receipt: receipt as never, tree: buildCallTree(trace, (m) => void warnings.push(m)), frameLogs: null }, warnings);
}

test('a call gains its source location in a new model; the model it came from is left as it was', () => {
  const before = reverted();
  const child = before.tree!.root.children[0]!;
  const origin = before.failure!.origin!;
  const at = { file: 'src/B.sol', line: 7, column: 9, code: 'revert();' };
  const after = withCallDecodings(before, new Map<CallNode, NonNullable<CallNode['decoded']>>([[child, { sourceLocation: at as never }]]));
  expect(child.decoded?.sourceLocation).toBeUndefined();
  expect(before.tree!.root.children[0]).toBe(child);
  const placed = after.tree!.root.children[0]!;
  expect(placed).not.toBe(child);
  expect(placed.decoded?.sourceLocation).toEqual(at);
  // What points at a call points at its copy.
  expect(after.failure?.origin).toBe(origin === child ? placed : after.tree!.root);
  expect(after.failure?.origin).not.toBe(origin);
  expect({ ...placed, decoded: undefined }).toEqual({ ...child, decoded: undefined });
});

test('nothing placed: the same model', () => {
  const m = reverted();
  expect(withCallDecodings(m, new Map())).toBe(m);
});
