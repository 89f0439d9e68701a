import { fileURLToPath } from 'node:url';
import { type AbiError, type AbiEvent, type AbiFunction, formatAbiItem } from 'abitype';
import { encodeAbiParameters, encodeErrorResult, encodeEventTopics, encodeFunctionData, parseAbi, toEventSelector, toFunctionSelector } from 'viem';
import { describe, expect, test } from 'vitest';
import { AbiIndex, builtinRows } from '../../src/decode/abiIndex.js';
import { decodeCallData, decodeErrorData, decodeReturn } from '../../src/decode/callData.js';
import { decodeLog } from '../../src/decode/decodeLogs.js';
import { parseAbiFile } from '../../src/decode/loadAbis.js';
import { tokenTransfers } from '../../src/decode/transfers.js';
import { withoutMetadata } from '../../src/locate/matchCode.js';
import type { Hex } from '../../src/raw/types.js';
import { formatDecoded, sciHint } from '../../src/words/formatDecoded.js';

const DB = new URL('../../dist/sigdb/', import.meta.url);
const A = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

function builtinIndex(): AbiIndex {
  const index = new AbiIndex(DB);
  index.addBuiltins();
  return index;
}

describe('calls', () => {
  const index = builtinIndex();
  const erc20 = parseAbi(['function transfer(address to, uint256 amount)']);
  const multicall = parseAbi(['function aggregate3((address target, bool allowFailure, bytes callData)[] calls)']);
  const v3 = parseAbi(['function exactInputSingle((address tokenIn, address tokenOut, uint24 fee, address recipient, uint256 deadline, uint256 amountIn, uint256 amountOutMinimum, uint160 sqrtPriceLimitX96) params)']);

  test.each([
    ['ERC-20 transfer', encodeFunctionData({ abi: erc20, args: [A, 5n] }), 'transfer(to: 0x7099…79C8, amount: 5)', 'ERC-20'],
    [
      'Multicall3 aggregate3: a dynamic array of tuples with bytes',
      encodeFunctionData({ abi: multicall, args: [[{ target: A, allowFailure: true, callData: '0xdeadbeef' }, { target: A, allowFailure: false, callData: '0x' }]] }),
      'aggregate3(calls: [(target: 0x7099…79C8, allowFailure: true, callData: 0xdeadbeef), (target: 0x7099…79C8, allowFailure: false, callData: 0x)])',
      'Multicall3',
    ],
    [
      'Uniswap V3 exactInputSingle: a struct',
      encodeFunctionData({ abi: v3, args: [{ tokenIn: A, tokenOut: A, fee: 3000, recipient: A, deadline: 1n, amountIn: 10n ** 18n, amountOutMinimum: 0n, sqrtPriceLimitX96: 0n }] }),
      'exactInputSingle(params: (tokenIn: 0x7099…79C8, tokenOut: 0x7099…79C8, fee: 3000, recipient: 0x7099…79C8, deadline: 1, amountIn: 1000000000000000000 [1e18], amountOutMinimum: 0, sqrtPriceLimitX96: 0))',
      'Uniswap V3',
    ],
  ])('%s', (_name, data, text, contract) => {
    const call = decodeCallData(index, data as Hex);
    expect(call?.decoded.contract).toBe(contract);
    expect(formatDecoded(call!.decoded, { decoded: undefined, short: true })).toBe(text);
  });

  test('malformed call data falls back to raw (null), never throws', () => {
    const good = encodeFunctionData({ abi: erc20, args: [A, 5n] });
    for (const bad of [good.slice(0, 40), `${good.slice(0, -2)}`, '0xa9059cbb', '0xa9', '0x']) expect(decodeCallData(index, bad as Hex)).toBeNull();
  });

  test('bytes after a clean encoding: named, and counted as trailing', () => {
    const good = encodeFunctionData({ abi: erc20, args: [A, 5n] });
    expect(decodeCallData(index, good)?.decoded.trailingBytes).toBeUndefined();
    for (const [extra, n] of [['00', 1], ['deadbeef', 4], ['ff'.repeat(32), 32]] as const) {
      expect(decodeCallData(index, `${good}${extra}` as Hex)?.decoded).toMatchObject({ name: 'transfer', trailingBytes: n, args: [{ name: 'to' }, { name: 'amount', value: '5' }] });
    }
  });

  test('a database signature without parameters does not name data that follows it', () => {
    // ping() is only in the database; with a word after it, nothing is named (the guesser may type it).
    const db = new AbiIndex(DB);
    const selector = encodeFunctionData({ abi: parseAbi(['function ping()']) });
    expect(decodeCallData(db, selector)?.decoded).toMatchObject({ name: 'ping', source: 'database' });
    expect(decodeCallData(db, `${selector}${'00'.repeat(31)}01` as Hex)).toBeNull();
  });

  test('selector collision: the candidate that decodes and re-encodes the same bytes wins', () => {
    // burn(uint256) and collate_propagate_storage(bytes16) share selector 0x42966c68.
    const colliding = new AbiIndex(null);
    colliding.add(parseAbi(['function collate_propagate_storage(bytes16 x)']), 'abi', 'First');
    colliding.add(parseAbi(['function burn(uint256 amount)']), 'builtin', 'Second');
    const burn = encodeFunctionData({ abi: parseAbi(['function burn(uint256 amount)']), args: [5n] });
    expect(burn.slice(0, 10)).toBe('0x42966c68');
    expect(decodeCallData(colliding, burn)?.decoded).toMatchObject({ name: 'burn', source: 'builtin' });
    const bytes16 = encodeFunctionData({ abi: parseAbi(['function collate_propagate_storage(bytes16 x)']), args: ['0x0102030405060708090a0b0c0d0e0f10'] });
    expect(decodeCallData(colliding, bytes16)?.decoded).toMatchObject({ name: 'collate_propagate_storage', source: 'abi' });
  });

  test('the database names what no ABI knows, without parameter names', () => {
    const call = decodeCallData(new AbiIndex(DB), encodeFunctionData({ abi: parseAbi(['function ping(uint256)']), args: [7n] }));
    expect(call?.decoded).toMatchObject({ name: 'ping', signature: 'ping(uint256)', source: 'database', args: [{ name: '', value: '7' }] });
  });

  test('return data decodes when the ABI says what comes back', () => {
    const item = parseAbi(['function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)'])[0]!;
    const out = encodeAbiParameters(item.outputs, [1n, 2n, 3]);
    expect(decodeReturn(item, out)).toEqual([
      { name: 'reserve0', type: 'uint112', value: '1' },
      { name: 'reserve1', type: 'uint112', value: '2' },
      { name: 'blockTimestampLast', type: 'uint32', value: '3' },
    ]);
    expect(decodeReturn(item, '0x1234')).toBeNull();
  });
});

describe('events and errors', () => {
  const index = builtinIndex();
  const transfer20 = parseAbi(['event Transfer(address indexed from, address indexed to, uint256 value)']);
  const transfer721 = parseAbi(['event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)']);

  test('Transfer is told apart by its number of indexed topics (ERC-20 vs ERC-721)', () => {
    const t20 = encodeEventTopics({ abi: transfer20, eventName: 'Transfer', args: { from: A, to: A } }) as Hex[];
    const t721 = encodeEventTopics({ abi: transfer721, eventName: 'Transfer', args: { from: A, to: A, tokenId: 9n } }) as Hex[];
    expect(decodeLog(index, { address: A as Hex, topics: t20, data: encodeAbiParameters([{ type: 'uint256' }], [5n]) })).toMatchObject({ contract: 'ERC-20', args: [{}, {}, { name: 'value', value: '5', indexed: false }] });
    expect(decodeLog(index, { address: A as Hex, topics: t721, data: '0x' })).toMatchObject({ contract: 'ERC-721', args: [{}, {}, { name: 'tokenId', value: '9', indexed: true }] });
    // Data of the wrong size: not decoded, the raw log stays.
    expect(decodeLog(index, { address: A as Hex, topics: t20, data: '0x1234' })).toBeNull();
    // Anonymous (no topics) stays raw.
    expect(decodeLog(index, { address: A as Hex, topics: [], data: '0x' })).toBeNull();
  });

  test('database events: which parameters are indexed is found by trying placements', () => {
    // The database says only "WithdrawToken(address,address,uint256)" (no ABI or protocol package has it);
    // the log's topics say how many are indexed.
    const db = new AbiIndex(DB);
    const two = parseAbi(['event WithdrawToken(address indexed a, address indexed b, uint256 c)']);
    const three = parseAbi(['event WithdrawToken(address indexed a, address indexed b, uint256 indexed c)']);
    const t2 = encodeEventTopics({ abi: two, eventName: 'WithdrawToken', args: { a: A, b: A } }) as Hex[];
    const t3 = encodeEventTopics({ abi: three, eventName: 'WithdrawToken', args: { a: A, b: A, c: 9n } }) as Hex[];
    const e2 = decodeLog(db, { address: A as Hex, topics: t2, data: encodeAbiParameters([{ type: 'uint256' }], [5n]) });
    expect(e2).toMatchObject({ name: 'WithdrawToken', source: 'database' });
    expect(e2!.args.map((a) => a.indexed)).toEqual([true, true, false]);
    const e3 = decodeLog(db, { address: A as Hex, topics: t3, data: '0x' });
    expect(e3!.args.map((a) => [a.indexed, a.value])).toEqual([[true, A], [true, A], [true, '9']]);
  });

  test('the protocol set names events with their own parameter names, both Transfer shapes', () => {
    const db = new AbiIndex(DB);
    const t20 = encodeEventTopics({ abi: transfer20, eventName: 'Transfer', args: { from: A, to: A } }) as Hex[];
    const t721 = encodeEventTopics({ abi: transfer721, eventName: 'Transfer', args: { from: A, to: A, tokenId: 9n } }) as Hex[];
    const e20 = decodeLog(db, { address: A as Hex, topics: t20, data: encodeAbiParameters([{ type: 'uint256' }], [5n]) });
    expect(e20).toMatchObject({ name: 'Transfer', source: 'protocol', args: [{ name: 'from', indexed: true }, { name: 'to', indexed: true }, { name: 'value', value: '5', indexed: false }] });
    const e721 = decodeLog(db, { address: A as Hex, topics: t721, data: '0x' });
    expect(e721).toMatchObject({ name: 'Transfer', source: 'protocol', args: [{ name: 'from' }, { name: 'to' }, { name: 'tokenId', value: '9', indexed: true }] });
  });

  test('custom errors: built-in ERC-6093 errors by name', () => {
    const abi = parseAbi(['error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)']);
    const data = encodeErrorResult({ abi, errorName: 'ERC20InsufficientBalance', args: [A, 1n, 2n] });
    expect(decodeErrorData(index, data)).toMatchObject({ name: 'ERC20InsufficientBalance', contract: 'ERC-20', args: [{ name: 'sender' }, { name: 'balance', value: '1' }, { name: 'needed', value: '2' }] });
    expect(decodeErrorData(index, `${data}ff` as Hex)).toBeNull();
  });
});

describe('ABI files and helpers', () => {
  test.each([
    ['a JSON ABI array', '[{"type":"function","name":"f","inputs":[],"outputs":[],"stateMutability":"view"}]', 'Thing', 1],
    ['a Foundry artifact', '{"abi":[{"type":"event","name":"E","inputs":[],"anonymous":false}],"bytecode":{"object":"0x6000"},"deployedBytecode":{"object":"0x6001"}}', 'Thing', 1],
    ['a Hardhat artifact', '{"_format":"hh-sol-artifact-1","contractName":"Named","abi":[],"bytecode":"0x6000","deployedBytecode":"0x"}', 'Named', 0],
    ['human-readable lines', '# comment\nfunction f(uint256 a)\nevent E(address indexed who)\ng(bytes) // no keyword: a function\n', 'Thing', 3],
  ])('parses %s', (_name, text, name, items) => {
    const a = parseAbiFile(text, '/x/Thing.json', 'abi');
    expect(a.name).toBe(name);
    expect(a.abi).toHaveLength(items);
  });

  test.each([
    ['broken JSON', '[{"type":'],
    ['JSON of another shape', '{"a":1}'],
    ['lines that are not signatures', 'function ((('],
    ['nothing', '\n# only a comment\n'],
  ])('rejects %s', (_name, text) => {
    expect(() => parseAbiFile(text, 'x.json', 'abi')).toThrow();
  });

  test.each([
    ['0', ''],
    ['999999', ''],
    ['1000000', ' [1e6]'],
    ['40000000000000000000', ' [4e19]'],
    ['123456789', ' [1.234e8]'],
    ['-5000000', ' [-5e6]'],
  ])('sciHint(%s) = %j', (n, hint) => expect(sciHint(n)).toBe(hint));

  test('solc metadata is ignored when matching runtime code', () => {
    const body = '6080604052';
    const meta = 'a264697066735822' + 'ab'.repeat(34) + '64736f6c6343000825' + '0033';
    expect(withoutMetadata(`0x${body}${meta}`)).toBe(body);
  });

  test('the database shards exist after the build', () => {
    expect(fileURLToPath(new URL('functions/a9.txt', DB))).toMatch(/sigdb\/functions\/a9\.txt$/);
    const call = decodeCallData(new AbiIndex(DB), `0xa9059cbb${'0'.repeat(128)}`);
    expect(call?.decoded.name).toBe('transfer');
  });
});

describe('transfers from logs', () => {
  const addr = (n: number) => `0x${n.toString(16).padStart(40, '0')}` as Hex;
  const topic = (a: Hex) => `0x${a.slice(2).padStart(64, '0')}` as Hex;
  const word = (n: bigint) => n.toString(16).padStart(64, '0');

  test('ERC-20, ERC-721, ERC-1155 single and batch, in log order; anything else is not a transfer', () => {
    const T: Hex = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
    const TS: Hex = '0xc3d58168c5ae7397731d063d5bbf3d657854427343f4c083240f7aacaa2d0f62';
    const TB: Hex = '0x4a39dc06d4c0dbc64b70af90fd698a233a518aa5d07e595d983b8c0526c8f7fb';
    const batch = encodeAbiParameters([{ type: 'uint256[]' }, { type: 'uint256[]' }], [[1n, 2n], [10n, 20n]]);
    const transfers = tokenTransfers([
      { address: addr(100), topics: [T, topic(addr(1)), topic(addr(2))], data: `0x${word(5n)}` },
      { address: addr(101), topics: [T, topic(addr(1)), topic(addr(2)), `0x${word(77n)}`], data: '0x' },
      { address: addr(102), topics: [TS, topic(addr(9)), topic(addr(1)), topic(addr(2))], data: `0x${word(3n)}${word(4n)}` },
      { address: addr(103), topics: [TB, topic(addr(9)), topic(addr(1)), topic(addr(2))], data: batch },
      { address: addr(104), topics: [T, topic(addr(1))], data: `0x${word(5n)}` }, // wrong shape: not a transfer
    ]);
    expect(transfers).toEqual([
      { kind: 'ERC-20', token: addr(100), from: addr(1), to: addr(2), amount: 5n },
      { kind: 'ERC-721', token: addr(101), from: addr(1), to: addr(2), amount: 1n, tokenId: '77' },
      { kind: 'ERC-1155', token: addr(102), from: addr(1), to: addr(2), tokenId: '3', amount: 4n },
      { kind: 'ERC-1155', token: addr(103), from: addr(1), to: addr(2), tokenId: '1', amount: 10n },
      { kind: 'ERC-1155', token: addr(103), from: addr(1), to: addr(2), tokenId: '2', amount: 20n },
    ]);
  });
});

describe('decoded text is escaped', () => {
  test('string arguments, names from ABIs or the database, and labels never reach the terminal raw', () => {
    const d = {
      name: 'Note\u202e',
      signature: 'Note(string)',
      args: [{ name: 'text\u001b', type: 'string', value: '\u001b]0;pwned\u0007\r' }],
      source: 'database' as const,
    };
    expect(formatDecoded(d, { decoded: undefined, short: true })).toBe('Note\\u{202e}(text\\x1b: "\\x1b]0;pwned\\x07\\r")');
  });
});

test('index keys computed with txray\'s keccak equal viem\'s selectors and topics for every built-in item', () => {
  const rows = builtinRows();
  expect(rows.length).toBeGreaterThan(100);
  for (const [kind, key, , item] of rows) {
    if (kind === 'function') expect(key).toBe(toFunctionSelector(item as AbiFunction));
    else if (kind === 'error') expect(key).toBe(toFunctionSelector(formatAbiItem(item as AbiError).replace(/^error /, 'function ')));
    else expect(key).toBe(`${toEventSelector(item as AbiEvent)}:${(item as AbiEvent).inputs.filter((i) => i.indexed).length}`);
  }
});
