/**
 * The decode pass decodes each distinct call input once: nodes with the same input share one decoded
 * result. Where inputs do not repeat, it stops keeping them (the map would cost more than it saves),
 * and every call is still decoded, each with its own arguments.
 */
import { encodeFunctionData, parseAbi } from 'viem';
import { expect, test } from 'vitest';
import { AbiIndex } from '../../src/decode/abiIndex.js';
import { decodeModel } from '../../src/decode/decodeModel.js';
import type { CallNode, InspectModel } from '../../src/model/types.js';
import type { Hex } from '../../src/raw/types.js';

const TOKEN = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
const HOLDER = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const abi = parseAbi(['function transfer(address to, uint256 amount) returns (bool)']);
const transfer = (amount: bigint): Hex => encodeFunctionData({ abi, functionName: 'transfer', args: [HOLDER, amount] });

function node(input: Hex | null, traceAddress: number[], children: CallNode[] = []): CallNode {
  return { type: 'call', callType: 'call', from: TOKEN, to: TOKEN, value: 0n, input, output: null, gas: 1n, gasUsed: 1n, error: null, traceAddress, children };
}

function modelOf(inputs: readonly Hex[]): { model: InspectModel; calls: CallNode[] } {
  const calls = inputs.map((input, i) => node(input, [i]));
  const root = node(null, [], calls);
  const model = { hash: null, status: 'success', tx: null, receipt: null, tree: { root, count: calls.length + 1, maxDepth: 1 }, traceSource: 'trace_transaction', traceNote: null, events: null, failure: null, fee: null, warnings: [], raw: null } as InspectModel;
  return { model, calls };
}

const index = (): AbiIndex => {
  const i = new AbiIndex(new URL('../../dist/sigdb/', import.meta.url));
  i.addBuiltins();
  return i;
};

test('3,000 calls with one input: decoded once, every node shares the result', () => {
  const { model, calls } = modelOf(Array.from({ length: 3000 }, () => transfer(5n)));
  decodeModel(model, index(), new Map());
  expect(calls[0]!.decoded?.function?.name).toBe('transfer');
  expect(calls.every((c) => c.decoded?.function === calls[0]!.decoded?.function)).toBe(true);
});

test('3,000 distinct inputs, then repeats: each call decoded with its own arguments', () => {
  const amounts = [...Array.from({ length: 3000 }, (_, i) => BigInt(i)), 7n, 7n, 7n];
  const { model, calls } = modelOf(amounts.map(transfer));
  decodeModel(model, index(), new Map());
  calls.forEach((c, i) => {
    expect(c.decoded?.function?.name).toBe('transfer');
    expect(c.decoded?.function?.args[1]?.value).toBe(amounts[i]!.toString());
  });
});
