import { encodeAbiParameters, encodeFunctionData, keccak256, parseAbiItem, parseEther, parseGwei } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, test } from 'vitest';
import { encodeCall, encodeCreate, parseAmount, parseSignature, splitTopLevel } from '../../src/decode/encodeCall.js';
import { parseSignedTransaction } from '../../src/decode/parseSignedTransaction.js';
import { parseBlock, parseCall, parseOverrides } from '../../src/cli/parseCall.js';
import { UsageError } from '../../src/errors.js';
import { buildCallTree } from '../../src/model/buildCallTree.js';
import { simulatedReceipt } from '../../src/model/simulatedReceipt.js';
import type { RpcTraceEntry, RpcTransaction } from '../../src/raw/types.js';

const A = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';

describe('amounts as cast reads them', () => {
  test.each([
    ['42', 42n],
    ['0x2a', 42n],
    ['1ether', parseEther('1')],
    ['1.5ether', parseEther('1.5')],
    ['10gwei', parseGwei('10')],
    ['0.000000001ether', 10n ** 9n],
    ['7wei', 7n],
    ['1e18', 10n ** 18n],
    ['1_000', 1000n],
    ['-5', -5n],
  ])('%s is %s', (text, value) => {
    expect(parseAmount(text)).toBe(value);
  });
  test.each(['1.5', '1.5 pounds', '0.0000000001gwei', '', 'ten', '0x'])('%s is not an amount', (text) => {
    expect(parseAmount(text)).toBeNull();
  });
});

describe('arguments encoded exactly as viem encodes the same values', () => {
  const cases: Array<[string, string[], unknown[]]> = [
    ['transfer(address,uint256)', [A, '1.5ether'], [A, parseEther('1.5')]],
    ['f(int8,bool,bytes4,bytes)', ['-128', 'true', '0xdeadbeef', '0x'], [-128, true, '0xdeadbeef', '0x']],
    ['f(bytes32)', ['0x01'], [`0x01${'0'.repeat(62)}`]],
    ['f(string)', ['"hello, world"'], ['hello, world']],
    ['f(uint256[])', ['[1,2,0x3]'], [[1n, 2n, 3n]]],
    ['f((address,uint256)[2])', [`[(${A},1),(${A},2gwei)]`], [[{ 0: A, 1: 1n }, { 0: A, 1: parseGwei('2') }].map((o) => [o[0], o[1]])]],
    ['f((uint256,(bool,string)))', ['(7,(false,"a,b"))'], [[7n, [false, 'a,b']]]],
  ];
  test.each(cases)('%s %j', (sig, words, values) => {
    const item = parseAbiItem(`function ${sig}`);
    const expected = encodeFunctionData({ abi: [item], functionName: (item as { name: string }).name, args: values as never });
    expect(encodeCall(sig, words, null)).toBe(expected);
  });
  test('cast-style return types are read and ignored for the calldata', () => {
    expect(parseSignature('balanceOf(address)(uint256)').outputs).toEqual([{ type: 'uint256' }]);
  });
  test('a creation: the init code with the constructor arguments appended', () => {
    expect(encodeCreate('0x6000', 'constructor(uint256,address)', ['5', A])).toBe(`0x6000${encodeAbiParameters([{ type: 'uint256' }, { type: 'address' }], [5n, A]).slice(2)}`);
    expect(encodeCreate('0x6000', undefined, [])).toBe('0x6000');
    expect(() => encodeCreate('0x6000', undefined, ['1'])).toThrow(UsageError);
  });
  test('brackets and quotes nest when splitting', () => {
    expect(splitTopLevel('a,(b,c),[d,(e,f)],"g,h"')).toEqual(['a', '(b,c)', '[d,(e,f)]', '"g,h"']);
    expect(() => splitTopLevel('(a,b')).toThrow();
  });
});

describe('the call\'s options', () => {
  test('blocks: tags, numbers, hashes; --raw defaults to pending-or-latest', () => {
    expect(parseBlock(undefined, false)).toBe('latest');
    expect(parseBlock(undefined, true)).toBe('default');
    expect(parseBlock('Finalized', false)).toBe('finalized');
    expect(parseBlock('100', false)).toBe('0x64');
    expect(parseBlock('0x64', false)).toBe('0x64');
    expect(parseBlock(`0x${'ab'.repeat(32)}`, false)).toBe(`0x${'ab'.repeat(32)}`);
    expect(() => parseBlock('-1', false)).toThrow(UsageError);
  });
  test('overrides in geth\'s form, several for one address merged', () => {
    expect(parseOverrides({ overrideBalance: [`${A}:1ether`], overrideNonce: [`${A}:5`], overrideCode: [`${A}:0x6000`], overrideStateDiff: [`${A}:1:0x2`] })).toEqual({
      [A]: { balance: '0xde0b6b3a7640000', nonce: '0x5', code: '0x6000', stateDiff: { [`0x${'0'.repeat(63)}1`]: `0x${'0'.repeat(63)}2` } },
    });
    expect(parseOverrides({})).toBeNull();
    expect(() => parseOverrides({ overrideNonce: [`${A}:18446744073709551616`] })).toThrow(/--override-nonce/);
  });
  test('the sender defaults to the zero address, the value to 0', () => {
    expect(parseCall([A, 'f()'], {})).toMatchObject({ to: A, sig: 'f()', args: [], from: `0x${'0'.repeat(40)}`, value: 0n, block: 'latest', overrides: null });
  });
});

describe('the receipt a simulation stands on', () => {
  const tx = { hash: null, from: A, to: A, blockHash: null, blockNumber: null, transactionIndex: null, gasPrice: '0x3' } as RpcTransaction;
  const entry = (at: number[], error: string | null): RpcTraceEntry => ({ type: 'call', traceAddress: at, subtraces: 0, action: {}, result: null, error });
  const log = (at: number[], n: number) => ({ traceAddress: at, position: 0, address: A as `0x${string}`, topics: [], data: `0x0${n}` as `0x${string}` });
  test('events of a failed frame, and of frames under it, never happened; the rest keep their order', () => {
    const r = simulatedReceipt(tx, {
      tree: buildCallTree([entry([], null), entry([0], 'execution reverted'), entry([0, 0], null), entry([1], null)], () => undefined),
      frameLogs: [log([], 1), log([0], 2), log([0, 0], 3), log([1], 4)],
      gasUsed: '0x5208',
      reverted: false,
      header: { number: '0x10', baseFeePerGas: '0x1' },
    });
    expect(r.status).toBe('0x1');
    expect(r.logs.map((l) => [l.data, l.logIndex])).toEqual([['0x01', '0x0'], ['0x04', '0x1']]);
    expect(r).toMatchObject({ gasUsed: '0x5208', effectiveGasPrice: '0x3', blockNumber: '0x10' });
  });
  test('a reverted root leaves no events; eth_call\'s verdict stands where there is no trace', () => {
    expect(simulatedReceipt(tx, { tree: buildCallTree([entry([], 'Reverted')], () => undefined), frameLogs: [log([], 1)], gasUsed: null, reverted: false, header: {} })).toMatchObject({ status: '0x0', logs: [] });
    expect(simulatedReceipt(tx, { tree: null, frameLogs: null, gasUsed: null, reverted: true, header: {} }).status).toBe('0x0');
  });
});

describe('--raw: signed transactions of every type read back with their sender', () => {
  const key = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
  const account = privateKeyToAccount(key);
  const base = { chainId: 31337, nonce: 3, to: A as `0x${string}`, value: 5n, data: '0xabcdef' as `0x${string}`, gas: 60_000n };
  test.each([
    ['legacy', { ...base, type: 'legacy' as const, gasPrice: parseGwei('2') }, '0x0'],
    ['eip2930', { ...base, type: 'eip2930' as const, gasPrice: parseGwei('2'), accessList: [{ address: A as `0x${string}`, storageKeys: [`0x${'0'.repeat(64)}` as `0x${string}`] }] }, '0x1'],
    ['eip1559', { ...base, type: 'eip1559' as const, maxFeePerGas: parseGwei('3'), maxPriorityFeePerGas: parseGwei('1') }, '0x2'],
  ])('%s', async (_name, tx, type) => {
    const raw = await account.signTransaction(tx as never);
    const signed = await parseSignedTransaction(raw);
    expect(signed.hash).toBe(keccak256(raw));
    expect(signed.call).toMatchObject({ type, from: account.address.toLowerCase(), to: A, nonce: '0x3', gas: '0xea60', value: '0x5', data: '0xabcdef', chainId: '0x7a69' });
  });
  test('eip7702: the authorization list comes along, signed', async () => {
    const authorization = await account.signAuthorization({ chainId: 31337, nonce: 4, contractAddress: A as `0x${string}` });
    const raw = await account.signTransaction({ ...base, type: 'eip7702', maxFeePerGas: parseGwei('3'), maxPriorityFeePerGas: parseGwei('1'), authorizationList: [authorization] });
    const signed = await parseSignedTransaction(raw);
    expect(signed.call).toMatchObject({ type: '0x4', from: account.address.toLowerCase(), authorizationList: [{ chainId: '0x7a69', address: A, nonce: '0x4', r: authorization.r, s: authorization.s }] });
  });
  test('an unsigned serialization and garbage are usage errors', async () => {
    const { serializeTransaction } = await import('viem');
    await expect(parseSignedTransaction(serializeTransaction({ ...base, type: 'eip1559', maxFeePerGas: 1n }))).rejects.toThrow(/--raw: not a signed transaction/);
    await expect(parseSignedTransaction('0x02c0')).rejects.toThrow(UsageError);
    await expect(parseSignedTransaction('hello')).rejects.toThrow(/--raw takes a signed transaction as 0x and hex bytes/);
  });
});
