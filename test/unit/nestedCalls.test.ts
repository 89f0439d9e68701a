import { readFileSync } from 'node:fs';
import type { Abi } from 'abitype';
import { encodeFunctionData, encodePacked, parseAbi, size } from 'viem';
import { Chalk } from 'chalk';
import { describe, expect, test } from 'vitest';
import { AbiIndex } from '../../src/decode/abiIndex.js';
import { decodeCallData } from '../../src/decode/callData.js';
import { NESTED_DEPTH, withNestedCalls } from '../../src/decode/nestedCalls.js';
import { unpackMultiSend } from '../../src/decode/unpackMultiSend.js';
import type { Decoded } from '../../src/model/types.js';
import type { Hex } from '../../src/raw/types.js';
import { MAX_NESTED_LINES, nestedRows } from '../../src/render/renderNested.js';

const DB = new URL('../../dist/sigdb/', import.meta.url);
const A = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const T = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const artifact = (name: string): Abi => JSON.parse(readFileSync(new URL(`../../node_modules/@account-abstraction/contracts/artifacts/${name}.json`, import.meta.url), 'utf8')).abi as Abi;

const erc20 = parseAbi(['function transfer(address to, uint256 amount)']);
const account = parseAbi(['function execute(address dest, uint256 value, bytes func)', 'function executeBatch(address[] dest, bytes[] func)']);
const multiSend = parseAbi(['function multiSend(bytes transactions)']);
const safe = parseAbi(['function execTransaction(address to, uint256 value, bytes data, uint8 operation, uint256 safeTxGas, uint256 baseGas, uint256 gasPrice, address gasToken, address refundReceiver, bytes signatures) payable returns (bool success)']);
const transfer = (amount: bigint): Hex => encodeFunctionData({ abi: erc20, args: [A, amount] });

function index(): AbiIndex {
  const i = new AbiIndex(DB);
  i.addBuiltins();
  return i;
}

/** The input decoded as the decode stage does, then with its nested calls. */
function nested(input: Hex, labels: ReadonlyMap<string, string> = new Map(), i = index()): Decoded {
  const top = decodeCallData(i, input);
  expect(top).not.toBeNull();
  return withNestedCalls(top!.decoded, input, T, i, labels);
}

/** One packed MultiSend entry. */
const packed = (operation: number, to: Hex, value: bigint, data: Hex): Hex => encodePacked(['uint8', 'address', 'uint256', 'uint256', 'bytes'], [operation, to, value, BigInt(size(data)), data]);

describe('unpackMultiSend', () => {
  test('two entries, a call with data and a delegatecall without, read back in order', () => {
    const data = `0x${packed(0, T, 0n, transfer(5n)).slice(2)}${packed(1, A, 2n, '0x').slice(2)}` as Hex;
    expect(unpackMultiSend(data)).toEqual([
      { operation: 0, to: T.toLowerCase(), value: 0n, data: transfer(5n) },
      { operation: 1, to: A.toLowerCase(), value: 2n, data: '0x' },
    ]);
    expect(unpackMultiSend('0x')).toEqual([]);
  });

  test.each([
    ['an entry cut short', packed(0, T, 0n, transfer(5n)).slice(0, -2)],
    ['a head cut short', packed(0, T, 0n, '0x').slice(0, 100)],
    ['an operation other than call or delegatecall', `0x02${packed(0, T, 0n, '0x').slice(4)}`],
    ['a data length past the end (2^255)', `0x00${T.slice(2)}${'00'.repeat(32)}80${'00'.repeat(31)}`],
    ['an odd number of digits', `${packed(0, T, 0n, '0x')}0`],
    ['not hex', `0x${'zz'.repeat(85)}`],
  ])('malformed: %s → null', (_, data) => {
    expect(unpackMultiSend(data as Hex)).toBeNull();
  });
});

describe('nested call data', () => {
  test('execute(dest, value, func): func decoded as the call it is', () => {
    const d = nested(encodeFunctionData({ abi: account, functionName: 'execute', args: [T, 0n, transfer(5n)] }));
    expect(d.args[2]!.call).toMatchObject({ name: 'transfer', signature: 'transfer(address,uint256)', args: [{ name: 'to', value: A }, { name: 'amount', value: '5' }] });
  });

  test('executeBatch(address[], bytes[]): each func by its own index', () => {
    const d = nested(encodeFunctionData({ abi: account, functionName: 'executeBatch', args: [[T, T], [transfer(1n), transfer(2n)]] }));
    expect(d.args[1]!.calls?.map((c) => [c.path, c.call.name, c.call.args[1]!.value])).toEqual([
      ['[0]', 'transfer', '1'],
      ['[1]', 'transfer', '2'],
    ]);
  });

  test('handleOps (EntryPoint v0.8 ABI): the op\'s callData as Simple7702Account.executeBatch, and its calls in turn', () => {
    const batch = encodeFunctionData({ abi: artifact('Simple7702Account'), functionName: 'executeBatch', args: [[{ target: T, value: 0n, data: transfer(7n) }]] });
    const op = { sender: A, nonce: 0n, initCode: '0x', callData: batch, accountGasLimits: `0x${'00'.repeat(32)}`, preVerificationGas: 1n, gasFees: `0x${'00'.repeat(32)}`, paymasterAndData: '0x', signature: '0x' } as const;
    const d = nested(encodeFunctionData({ abi: artifact('EntryPoint'), functionName: 'handleOps', args: [[op], A] }));
    const inner = d.args[0]!.calls![0]!;
    expect(inner.path).toBe('[0].callData');
    expect(inner.call.name).toBe('executeBatch');
    expect(inner.call.args[0]!.calls).toMatchObject([{ path: '[0].data', call: { name: 'transfer', args: [{ value: A }, { value: '7' }] } }]);
  });

  test('execTransaction → multiSend: the packed transactions, each call decoded by its target', () => {
    const batch = `0x${packed(0, T, 0n, transfer(5n)).slice(2)}${packed(1, A, 2n, '0x').slice(2)}` as Hex;
    const data = encodeFunctionData({ abi: multiSend, args: [batch] });
    const zero = '0x0000000000000000000000000000000000000000';
    const d = nested(encodeFunctionData({ abi: safe, args: [T, 0n, data, 1, 0n, 0n, 0n, zero, zero, '0x'] }));
    const ms = d.args[2]!.call!;
    expect(ms.signature).toBe('multiSend(bytes)');
    expect(ms.args[0]!.transactions).toEqual([
      { operation: 0, to: T, value: '0', data: transfer(5n), call: expect.objectContaining({ name: 'transfer' }) },
      { operation: 1, to: A, value: '2', data: '0x' },
    ]);
  });

  test('hostile: bytes that begin with a known selector but do not decode exactly stay hex', () => {
    const d = nested(encodeFunctionData({ abi: account, functionName: 'executeBatch', args: [[T, T, T], [`${transfer(1n)}00`, transfer(2n).slice(0, 40) as Hex, '0xa9059cbb']] }));
    expect(d.args[1]!.calls).toBeUndefined();
    // A multiSend whose packed bytes do not hold together keeps its bytes.
    const broken = nested(encodeFunctionData({ abi: multiSend, args: [packed(0, T, 0n, transfer(5n)).slice(0, -2) as Hex] }));
    expect(broken.args[0]!.transactions).toBeUndefined();
  });

  test(`depth: calls nested deeper than ${NESTED_DEPTH} levels stay hex`, () => {
    let data = transfer(9n);
    for (let i = 0; i < NESTED_DEPTH + 2; i++) data = encodeFunctionData({ abi: account, functionName: 'execute', args: [T, 0n, data] });
    let d: Decoded | undefined = nested(data);
    let levels = 0;
    while (d?.args[2]?.call !== undefined) {
      d = d.args[2].call;
      levels++;
    }
    expect(levels).toBe(NESTED_DEPTH);
    expect(d?.name).toBe('execute');
  });

  test(`depth: the cut at ${NESTED_DEPTH} levels is marked where bytes are left undecoded (JSON nestedCut, a text line), not where there are none`, () => {
    const wrap = (inner: Hex, times: number): Hex => {
      let data = inner;
      for (let i = 0; i < times; i++) data = encodeFunctionData({ abi: account, functionName: 'execute', args: [T, 0n, data] });
      return data;
    };
    const chain = (d: Decoded): Decoded[] => (d.args[2]?.call === undefined ? [d] : [d, ...chain(d.args[2].call)]);
    const cut = chain(nested(wrap(transfer(9n), NESTED_DEPTH + 2)));
    expect(cut).toHaveLength(NESTED_DEPTH + 1);
    expect(cut.map((d) => d.nestedCut ?? null)).toEqual([...Array(NESTED_DEPTH).fill(null), 'depth']);
    const lines = [...nestedRows(cut[0]!, new Chalk({ level: 0 }), { decoded: undefined, short: true }, 200, 17)];
    expect(lines.at(-1)).toBe(`${' '.repeat(17 + 2 * NESTED_DEPTH)}… the calls inside it are not decoded (more than ${NESTED_DEPTH} levels down)\n`);
    // At the bound with nothing inside (execute with empty data): nothing was cut, nothing is said.
    const empty = chain(nested(wrap('0x', NESTED_DEPTH + 1)));
    expect(empty).toHaveLength(NESTED_DEPTH + 1);
    expect(empty.at(-1)!.nestedCut).toBeUndefined();
  });

  test('the target\'s contract is tried first: a selector two ABIs share is named by the one the target is labelled with', () => {
    const i = new AbiIndex(DB);
    i.add(parseAbi(['function transfer(address to, uint256 amount)']), 'abi', 'First');
    i.add(parseAbi(['function transfer(address recipient, uint256 wad)']), 'abi', 'Second');
    i.addBuiltins();
    const input = encodeFunctionData({ abi: account, functionName: 'execute', args: [T, 0n, transfer(5n)] });
    expect(nested(input, new Map(), i).args[2]!.call).toMatchObject({ contract: 'First', args: [{ name: 'to' }, { name: 'amount' }] });
    expect(nested(input, new Map([[T.toLowerCase(), 'Second']]), i).args[2]!.call).toMatchObject({ contract: 'Second', args: [{ name: 'recipient' }, { name: 'wad' }] });
  });
});

describe('nested calls in the text view', () => {
  const chalk = new Chalk({ level: 0 });
  const style = { decoded: undefined, short: true };

  test('indented by level under the Input row, cut to the width', () => {
    const d = nested(encodeFunctionData({ abi: account, functionName: 'execute', args: [T, 0n, encodeFunctionData({ abi: account, functionName: 'execute', args: [T, 0n, transfer(5n)] })] }));
    const wide = [...nestedRows(d, chalk, style, 200, 17)];
    expect(wide).toEqual([
      `${' '.repeat(17)}func → execute(dest: 0x5FbD…0aa3, value: 0, func: 0xa9059cbb…00000005 (68 bytes)) (builtin ERC-4337)\n`,
      `${' '.repeat(19)}func → transfer(to: 0x7099…79C8, amount: 5) (builtin ERC-20)\n`,
    ]);
    for (const line of nestedRows(d, chalk, style, 60, 17)) expect(line.trimEnd().length).toBeLessThanOrEqual(60);
  });

  test(`a batch of thousands: at most ${MAX_NESTED_LINES} lines, then how many more`, () => {
    const batch = `0x${Array.from({ length: 300 }, () => packed(0, T, 0n, transfer(1n)).slice(2)).join('')}` as Hex;
    const d = nested(encodeFunctionData({ abi: multiSend, args: [batch] }));
    expect(d.args[0]!.transactions).toHaveLength(300);
    const lines = [...nestedRows(d, chalk, style, 200, 17)];
    // One line for the batch, one per transaction (their transfers carry no calls of their own).
    expect(lines).toHaveLength(MAX_NESTED_LINES + 1);
    expect(lines.at(-1)).toBe(`${' '.repeat(17)}… ${1 + 300 - MAX_NESTED_LINES} more lines of nested calls (--json has them all)\n`);
  });
});
