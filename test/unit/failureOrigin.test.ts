import { describe, expect, test } from 'vitest';
import { buildCallTree } from '../../src/model/buildCallTree.js';
import { buildModel } from '../../src/model/buildModel.js';
import type { RpcTraceEntry } from '../../src/raw/types.js';

const A = '0x00000000000000000000000000000000000000aa';
const B = '0x00000000000000000000000000000000000000bb';
const hex = (n: number): string => `0x${n.toString(16)}`;

/** A reverted transaction whose root called B last, and B ran out of gas; root and child gas as given. */
function reverted(root: { gas: number; used: number | null }, child: { gas: number }, txGas = root.gas + 21_000, receiptUsed = (root.used ?? root.gas) + 21_000) {
  const trace: RpcTraceEntry[] = [
    { type: 'call', traceAddress: [], subtraces: 1, action: { callType: 'call', from: A, to: A, gas: hex(root.gas), input: '0x12345678', value: '0x0' }, result: root.used === null ? null : { gasUsed: hex(root.used), output: '0x' }, error: 'Reverted' },
    { type: 'call', traceAddress: [0], subtraces: 0, action: { callType: 'call', from: A, to: B, gas: hex(child.gas), input: '0x87654321', value: '0x0' }, result: null, error: 'Out of gas' },
  ];
  const tx = { hash: `0x${'11'.repeat(32)}`, from: A, to: A, gas: hex(txGas), input: '0x12345678', value: '0x0', blockHash: `0x${'22'.repeat(32)}`, blockNumber: '0x1', transactionIndex: '0x0', nonce: '0x0' };
  const receipt = { status: '0x0', gasUsed: hex(receiptUsed), logs: [], blockHash: tx.blockHash, blockNumber: '0x1', transactionIndex: '0x0', from: A, to: A, contractAddress: null, cumulativeGasUsed: hex(receiptUsed), effectiveGasPrice: '0x1' };
  const bundle = { transaction: tx, receipt, trace, callTrace: null, traceSource: 'trace_transaction', traceNote: null, reexecution: null, state: null, block: null, warnings: [] };
  const warnings: string[] = [];
  return buildModel(tx.hash as never, bundle as never, { tx: tx as never, receipt: receipt as never, tree: buildCallTree(trace, (m) => void warnings.push(m)), frameLogs: null }, warnings);
}

describe('a revert without data after a call that ran out of gas', () => {
  test('the call ran out because the transaction did (its caller had used nearly all its gas): that call is the origin', () => {
    const m = reverted({ gas: 18_000, used: 17_950 }, { gas: 17_000 });
    expect(m.failure?.origin?.traceAddress).toEqual([0]);
  });

  test('the call ran out of a small stipend and its caller went on with plenty: not taken for the cause', () => {
    const m = reverted({ gas: 500_000, used: 30_000 }, { gas: 2_300 });
    expect(m.failure?.origin?.traceAddress).toEqual([]);
  });

  test('a root frame whose tracer gives no gas used: the transaction\'s own figures decide', () => {
    expect(reverted({ gas: 18_000, used: null }, { gas: 17_000 }, 40_000, 39_800).failure?.origin?.traceAddress).toEqual([0]);
    expect(reverted({ gas: 500_000, used: null }, { gas: 2_300 }, 600_000, 60_000).failure?.origin?.traceAddress).toEqual([]);
  });
});
