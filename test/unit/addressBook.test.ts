/** The address book looked up in its file's text, row by row, against the whole file parsed. */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { AddressBook } from '../../src/decode/addressBook.js';

const DIR = new URL('../../dist/sigdb/addresses/', import.meta.url);

describe('AddressBook', () => {
  test("every shipped chain's every row is found by its address, as the whole file parsed says", () => {
    const files = readdirSync(DIR).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const text = readFileSync(new URL(file, DIR), 'utf8');
      const rows = JSON.parse(text) as Array<[string, string, string | null, number | null, string | null]>;
      const book = new AddressBook(text);
      expect([...book].length).toBe(rows.length);
      for (const [address, name, symbol, decimals, key] of rows) expect(book.get(address)).toEqual({ name, symbol, decimals, key: key ?? null });
    }
  });

  test('an address it does not hold, or not in lower case, is not found', () => {
    const book = new AddressBook(JSON.stringify([['0x00000000000000000000000000000000000a11ce', 'Alice', null, null, null]]));
    expect(book.get('0x00000000000000000000000000000000000b0b00')).toBeUndefined();
    expect(book.has('0x00000000000000000000000000000000000a11ce')).toBe(true);
    expect(book.get('0x00000000000000000000000000000000000A11CE')).toBeUndefined();
    expect(book.get('0xa11ce')).toBeUndefined();
    expect(new AddressBook('').get('0x00000000000000000000000000000000000a11ce')).toBeUndefined();
    expect([...new AddressBook('')]).toEqual([]);
  });

  test("a name holding brackets, quotes and another row's opening is read whole and opens no row", () => {
    const alice = '0x00000000000000000000000000000000000a11ce';
    const bob = '0x00000000000000000000000000000000000b0b00';
    const text = JSON.stringify([
      [alice, `odd ] name \\ ["${bob}",`, 'A]', 6, 'k'],
      [bob, 'Bob', null, null, null],
    ]);
    const book = new AddressBook(text);
    expect(book.get(alice)).toEqual({ name: `odd ] name \\ ["${bob}",`, symbol: 'A]', decimals: 6, key: 'k' });
    expect(book.get(bob)).toEqual({ name: 'Bob', symbol: null, decimals: null, key: null });
  });

  test('a damaged file: rows cut short or of the wrong shape are not found, the rest are', () => {
    const ok = '0x00000000000000000000000000000000000000a1';
    const rows = [
      ['0x00000000000000000000000000000000000000b1', 42, null, null, null],
      ['0x00000000000000000000000000000000000000b2', '', null, null, null],
      ['0x00000000000000000000000000000000000000b3', 'Bad decimals', 'X', 1e9, null],
      ['0x00000000000000000000000000000000000000b4', 'Bad symbol', 7, null, null],
      [ok, 'Fine', 'F', 18, null],
    ];
    const text = `${JSON.stringify(rows)},["0x00000000000000000000000000000000000000c1","cut short`;
    const book = new AddressBook(text);
    for (const [address] of rows.slice(0, 4)) expect(book.get(address as string)).toBeUndefined();
    expect(book.get(ok)).toEqual({ name: 'Fine', symbol: 'F', decimals: 18, key: null });
    expect(book.get('0x00000000000000000000000000000000000000c1')).toBeUndefined();
    // The whole file does not parse: iterating finds nothing, looking up still finds the good rows.
    expect([...book]).toEqual([]);
  });
});

describe('AddressBook, many lookups', () => {
  test('past the lookups worth a parse, the whole file is read into a map: the same answers, the first well-formed row of an address', () => {
    const dup = '0x00000000000000000000000000000000000000d1';
    const rows: unknown[] = [[dup, '', null, null, null], [dup, 'Second', null, null, null], [dup, 'Third', null, null, null]];
    for (let i = 0; i < 300; i++) rows.push([`0x${(0x1000 + i).toString(16).padStart(40, '0')}`, `N${i}`, null, null, null]);
    const text = JSON.stringify(rows);
    const early = new AddressBook(text);
    const late = new AddressBook(text);
    for (let i = 0; i < 200; i++) late.get(`0x${(0x5000 + i).toString(16).padStart(40, '0')}`); // misses: the map is made
    expect(early.get(dup)).toEqual({ name: 'Second', symbol: null, decimals: null, key: null });
    expect(late.get(dup)).toEqual(early.get(dup));
    for (let i = 0; i < 300; i += 37) expect(late.get(`0x${(0x1000 + i).toString(16).padStart(40, '0')}`)?.name).toBe(`N${i}`);
  });

  test('a file that does not parse keeps being read row by row, however many lookups', () => {
    const ok = '0x00000000000000000000000000000000000000a1';
    const book = new AddressBook(`${JSON.stringify([[ok, 'Fine', null, null, null]])},["0x00000000000000000000000000000000000000c1","cut`);
    for (let i = 0; i < 200; i++) book.get(`0x${(0x5000 + i).toString(16).padStart(40, '0')}`);
    expect(book.get(ok)?.name).toBe('Fine');
  });
});

test("Simple7702Account: the delegate viem's toSimple7702SmartAccount authorizes by default (EntryPoint v0.8 and v0.9) is named on mainnet and on another chain", async () => {
  const { toSimple7702SmartAccount } = await import('viem/account-abstraction');
  const { createPublicClient, http } = await import('viem');
  const { mainnet } = await import('viem/chains');
  const { privateKeyToAccount } = await import('viem/accounts');
  // Nothing is asked of this client: the account's authorization is built locally.
  const client = createPublicClient({ chain: mainnet, transport: http('http://127.0.0.1:9') });
  const owner = privateKeyToAccount(`0x${'11'.repeat(32)}`);
  const v08 = (await toSimple7702SmartAccount({ client, owner })).authorization.address.toLowerCase();
  const v09 = (await toSimple7702SmartAccount({ client, owner, entryPoint: '0.9' })).authorization.address.toLowerCase();
  for (const chain of ['1', '10']) {
    const book = new AddressBook(readFileSync(new URL(`${chain}.json`, DIR), 'utf8'));
    expect(book.get(v08)?.name).toBe('Simple7702Account');
    expect(book.get(v09)?.name).toBe('Simple7702Account (EntryPoint v0.9)');
  }
});
