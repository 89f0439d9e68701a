/**
 * Storage names from solc's storageLayout (the Vault contract's, as compiled in contracts/out), on
 * slots computed independently with viem (keccak256 of the ABI-encoded key and slot), plus token
 * metadata decoding and the batch answer reader.
 */
import { readFileSync } from 'node:fs';
import { encodeAbiParameters, getAddress, hexToBigInt, keccak256, stringToHex, toHex } from 'viem';
import { describe, expect, test } from 'vitest';
import { decodeDecimals, decodeSymbol, keyCandidates, tokenBalances } from '../../src/decode/decodeState.js';
import { nameSlots, parseStorageLayout } from '../../src/decode/nameStorage.js';
import { parseBatch } from '../../src/rpc/createRpcClient.js';
import type { Decoded, InspectModel, Transfer } from '../../src/model/types.js';

const compiled = JSON.parse(readFileSync(new URL('../../contracts/out/Scenarios.json', import.meta.url), 'utf8')).contracts;
const layout = parseStorageLayout(compiled.Vault.storageLayout)!;
const ALICE = '0x00000000000000000000000000000000000a11ce';
const BOB = '0x0000000000000000000000000000000000000b0b';
const keys = { addresses: [BigInt(ALICE), BigInt(BOB)], numbers: [7n, 42n] };
const [Alice, Bob, Zero] = [getAddress(ALICE), getAddress(BOB), getAddress(`0x${'0'.repeat(40)}`)];
const q = (v: string) => JSON.stringify(v);

/** keccak256(pad32(key) ‖ pad32(slot)), as solc places a mapping's value. */
const mapSlot = (keyType: 'address' | 'uint256', key: string | bigint, slot: bigint): bigint =>
  hexToBigInt(keccak256(encodeAbiParameters([{ type: keyType }, { type: 'uint256' }], [key as never, slot])));
const arrayStart = (slot: bigint): bigint => hexToBigInt(keccak256(encodeAbiParameters([{ type: 'uint256' }], [slot])));

function names(values: Array<[bigint, bigint, bigint]>): Record<string, string> {
  const named = nameSlots(layout, new Map(values.map(([s, before, after]) => [s, { before, after }])), keys);
  const out: Record<string, string> = {};
  for (const parts of named.values()) for (const p of parts) out[p.path] = `${JSON.stringify(p.before)} -> ${JSON.stringify(p.after)}${p.change !== undefined ? ` (${p.change})` : ''}`;
  return out;
}

describe('nameSlots on the Vault layout', () => {
  test('the layout solc wrote is read whole', () => {
    expect(layout.storage.map((v) => v.label)).toEqual(['total', 'epoch', 'paused', 'admin', 'title', 'balanceOf', 'allowance', 'positions', 'history', 'items', 'last']);
  });

  test('packed variables: only the ones whose bytes changed, each decoded by its type', () => {
    // slot 0: total (uint128, offset 0), epoch (uint64, offset 16), paused (bool, offset 24)
    const before = 5n | (3n << 128n);
    const after = 9n | (3n << 128n) | (1n << 192n);
    expect(names([[0n, before, after]])).toEqual({ total: '"5" -> "9" (4)', paused: 'false -> true' });
  });

  test('an address and a short string', () => {
    const title = hexToBigInt(stringToHex('vault', { size: 32 })) | 10n; // 5 bytes: length × 2 in the lowest byte
    expect(names([[1n, 0n, BigInt(ALICE)], [2n, 0n, title]])).toEqual({ admin: `${q(Zero)} -> ${q(Alice)}`, title: '"" -> "vault"' });
  });

  test('a long string: its length word and its data words', () => {
    const start = arrayStart(2n);
    expect(names([[2n, 0n, 2n * 40n + 1n], [start + 1n, 0n, 0x41n]])).toEqual({
      title: '"" -> "(40 bytes)"',
      'title (data word 1)': `${q(`0x${'0'.repeat(64)}`)} -> ${q(`0x${'41'.padStart(64, '0')}`)}`,
    });
  });

  test('mappings by the keys the transaction shows: plain, nested, to a struct, to an array', () => {
    const positions = mapSlot('uint256', 42n, 5n);
    const history = mapSlot('address', BOB, 6n);
    expect(
      names([
        [mapSlot('address', ALICE, 3n), 100n, 90n],
        [mapSlot('address', BOB, mapSlot('address', ALICE, 4n)), 0n, 500n],
        [positions, 0n, 1000n | (9n << 128n)],
        [positions + 1n, 0n, BigInt(BOB)],
        [history, 0n, 1n],
        [arrayStart(history), 0n, 1001n],
      ]),
    ).toEqual({
      [`balanceOf[${Alice}]`]: '"100" -> "90" (-10)',
      [`allowance[${Alice}][${Bob}]`]: '"0" -> "500" (500)',
      'positions[42].amount': '"0" -> "1000" (1000)',
      'positions[42].since': '"0" -> "9" (9)',
      'positions[42].owner': `${q(Zero)} -> ${q(Bob)}`,
      [`history[${Bob}].length`]: '"0" -> "1" (1)',
      [`history[${Bob}][0]`]: '"0" -> "1001" (1001)',
    });
  });

  test('a variable part says its variable, its path and the mapping keys on the way', () => {
    const named = nameSlots(layout, new Map([[mapSlot('address', BOB, mapSlot('address', ALICE, 4n)), { before: 0n, after: 1n }]]), keys);
    expect([...named.values()].flat()).toEqual([{ name: 'allowance', path: `allowance[${Alice}][${Bob}]`, keys: [Alice, Bob], type: 'uint256', before: '0', after: '1', change: '1' }]);
  });

  test('a dynamic array: its length and the element at keccak256(slot) + index', () => {
    expect(names([[7n, 2n, 3n], [arrayStart(7n) + 2n, 0n, 77n]])).toEqual({ 'items.length': '"2" -> "3" (1)', 'items[2]': '"0" -> "77" (77)' });
  });

  test('a struct variable across its two slots', () => {
    expect(names([[8n, 0n, 1n | (2n << 128n)], [9n, 0n, BigInt(ALICE)]])).toEqual({ 'last.amount': '"0" -> "1" (1)', 'last.since': '"0" -> "2" (2)', 'last.owner': `${q(Zero)} -> ${q(Alice)}` });
  });

  test('a key the transaction does not show, and a slot no variable owns, stay unnamed', () => {
    expect(names([[mapSlot('address', '0x00000000000000000000000000000000000c0ffe', 3n), 0n, 1n], [123n, 0n, 1n]])).toEqual({});
  });

  test('a layout of another shape is not used', () => {
    expect(parseStorageLayout({ storage: [{ label: 'x', slot: 'one', offset: 0, type: 't' }], types: {} })).toBeUndefined();
    expect(parseStorageLayout({ storage: 'none' })).toBeUndefined();
  });

  test('a hostile layout (a verified contract\'s) is checked whole: any malformed slot, offset or type and it names nothing', () => {
    const good = compiled.Vault.storageLayout;
    const bad = (edit: (l: any) => void) => {
      const l = structuredClone(good);
      edit(l);
      return parseStorageLayout(l);
    };
    expect(bad(() => undefined)).toBeDefined();
    expect(bad((l) => Object.assign(l.storage[1], { slot: l.storage[0].slot, offset: l.storage[0].offset }))).toBeUndefined(); // two variables in one place
    expect(bad((l) => (l.storage[0].slot = (1n << 256n).toString()))).toBeUndefined();
    expect(bad((l) => (l.storage[0].offset = 1.5))).toBeUndefined();
    expect(bad((l) => (l.storage[0].type = 'constructor'))).toBeUndefined(); // a prototype key, not a type of the layout
    expect(bad((l) => (l.storage[0].type = 't_missing'))).toBeUndefined();
    expect(bad((l) => (l.storage[0].label = 'x\u001b[2J'))).toBeUndefined();
    expect(bad((l) => (l.types[l.storage[0].type].encoding = 'packed'))).toBeUndefined();
    expect(bad((l) => (l.types[l.storage[0].type].numberOfBytes = '0'))).toBeUndefined();
    // JSON's own __proto__ key: not a type id, refused.
    expect(parseStorageLayout(JSON.parse(`{"storage":[],"types":{"__proto__":{"encoding":"inplace","label":"x","numberOfBytes":"32"}}}`))).toBeUndefined();
    const mapping = Object.keys(good.types).find((k) => good.types[k].encoding === 'mapping')!;
    expect(bad((l) => delete l.types[l.types[mapping].value])).toBeUndefined();
    const value = good.storage.find((v: any) => good.types[v.type].encoding === 'inplace' && good.types[v.type].members === undefined && Number(good.types[v.type].numberOfBytes) < 32);
    if (value !== undefined) expect(bad((l) => (l.storage.find((v: any) => v.label === value.label).offset = 31))).toBeUndefined(); // past its slot
  });
});

describe('token metadata', () => {
  const abiString = (s: string) => encodeAbiParameters([{ type: 'string' }], [s]);
  test.each([
    ['an ABI string', abiString('USDC'), 'USDC'],
    ['a bytes32, zero-padded (MKR)', stringToHex('MKR', { size: 32 }), 'MKR'],
    ['hostile text, kept for the renderer to escape', abiString('\u001b[31mX'), '\u001b[31mX'],
    ['empty data', '0x', null],
    ['not hex', 'USDC', null],
    ['an offset past the end', `0x${'ff'.padStart(64, '0')}${'0'.repeat(64)}`, null],
  ])('symbol(): %s', (_what, data, expected) => {
    expect(decodeSymbol(data)).toBe(expected);
  });

  test.each([
    [toHex(6, { size: 32 }), 6],
    [toHex(18, { size: 32 }), 18],
    [toHex(256, { size: 32 }), null],
    ['0x12', null],
    [null, null],
  ])('decimals() %s → %s', (data, expected) => {
    expect(decodeDecimals(data)).toBe(expected);
  });

  test('net changes per holder: mints leave the zero address out, the sender comes first', () => {
    const token = '0x00000000000000000000000000000000000070cc' as const;
    const zero = `0x${'0'.repeat(40)}` as const;
    const t = (from: string, to: string, amount: bigint): Transfer => ({ kind: 'ERC-20', token, from: from as `0x${string}`, to: to as `0x${string}`, amount });
    const rows = tokenBalances([t(zero, BOB, 100n), t(BOB, ALICE, 30n), t(ALICE, BOB, 5n)], new Map([[token, { symbol: 'TK', decimals: 2 }]]), ALICE);
    expect(rows).toEqual([
      { holder: ALICE, token, kind: 'ERC-20', change: 25n, symbol: 'TK', decimals: 2 },
      { holder: BOB, token, kind: 'ERC-20', change: 75n, symbol: 'TK', decimals: 2 },
    ]);
  });
});

describe('parseBatch', () => {
  const where = 'http://127.0.0.1:1';
  test('answers matched by id, in any order, errors kept per call', () => {
    const text = JSON.stringify([{ jsonrpc: '2.0', id: 11, error: { code: 3, message: 'execution reverted' } }, { jsonrpc: '2.0', id: 10, result: '0x01' }]);
    expect(parseBatch(text, 'batch', 10, 2, where)).toEqual([{ result: '0x01' }, { error: 'execution reverted' }]);
  });
  test.each([
    ['a node that refuses batches (one error object)', JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'batch not allowed' } }), /did not answer the batch with a batch: batch not allowed/],
    ['a response missing', JSON.stringify([{ jsonrpc: '2.0', id: 10, result: '0x' }]), /misses responses/],
    ['foreign ids only', JSON.stringify([{ id: 1, result: 1 }, { id: 2, result: 2 }]), /misses responses/],
    ['not JSON', '<html>', /not valid JSON/],
  ])('%s: throws', (_what, text, message) => {
    expect(() => parseBatch(text, 'batch', 10, 2, where)).toThrow(message);
  });
});

describe('keyCandidates: the keys a mapping of the storage may have used', () => {
  const BEEF = '0x000000000000000000000000000000000000bEEF';
  const model = (args: Array<{ type: string; value: unknown }>, logs: unknown[] = []) =>
    [{ tx: null, receipt: { logs }, tree: null, state: null } as unknown as InspectModel, [{ name: 'f', signature: 'f()', source: 'abi', args }] as unknown as Decoded[]] as const;

  test('a value typed address is an address below 2^32 too (0x…bEEF), alone or in an array', () => {
    const [m, decoded] = model([{ type: 'address', value: BEEF }, { type: 'address[]', value: ['0x0000000000000000000000000000000000000001'] }]);
    const { addresses } = keyCandidates(m, decoded);
    expect(addresses).toContain(0xbeefn);
    expect(addresses).toContain(1n);
    // And the slot of balanceOf[0x…bEEF] is named by it.
    const slot = mapSlot('address', BEEF, 3n);
    const named = nameSlots(layout, new Map([[slot, { before: 0n, after: 9n }]]), keyCandidates(m, decoded));
    expect([...named.values()].flat().map((p) => p.path)).toEqual([`balanceOf[${BEEF}]`]);
  });

  test('an untyped word that small is a number, not an address (it would name slots wrongly)', () => {
    const [m, decoded] = model([{ type: 'uint256', value: '48879' }]);
    const { addresses, numbers } = keyCandidates(m, decoded);
    expect(addresses).not.toContain(0xbeefn);
    expect(numbers).toContain(0xbeefn);
  });
});
