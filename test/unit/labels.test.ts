/** A transaction's labels: given names, then system contracts, then the address book read through (not copied). */
import { describe, expect, test } from 'vitest';
import { AbiIndex } from '../../src/decode/abiIndex.js';
import { copyLabels, withSystemLabels } from '../../src/decode/labels.js';
import { toTransaction } from '../../src/model/convert.js';
import type { RpcTransaction } from '../../src/raw/types.js';

const DB = new URL('../../dist/sigdb/', import.meta.url);
const USDT = '0xdac17f958d2ee523a2206206994597c13d831ec7';
const AAVE_V3 = '0x87870bca3f3fd6335c3f4ce8392d69350b4fa4e2';
const mainnetTx = toTransaction({ hash: null, blockHash: null, blockNumber: null, transactionIndex: null, from: '0x01', to: null, chainId: '0x1' } as RpcTransaction);

describe('labels on mainnet', () => {
  const index = new AbiIndex(DB);
  const book = index.addressBook(1);

  test("every name of the chain's address book reads as a label, and a given name wins over the book's", () => {
    const labels = withSystemLabels({ tx: mainnetTx, receipt: null }, new Map([[USDT, 'My tether']]), index);
    expect([...book].length).toBeGreaterThan(100);
    for (const [address, entry] of book) {
      expect(labels.has(address)).toBe(true);
      if (address !== USDT) expect(labels.get(address)).toBe(entry.name);
    }
    expect(labels.get(USDT)).toBe('My tether');
    expect(labels.has('0x00000000000000000000000000000000000a11ce')).toBe(false);
    expect(labels.get('0x00000000000000000000000000000000000a11ce')).toBeUndefined();
  });

  test('a name set later (an artifact matched by code) is read back; a copy keeps the book and its own additions apart', () => {
    const labels = withSystemLabels({ tx: mainnetTx, receipt: null }, new Map(), index);
    labels.set('0x00000000000000000000000000000000000a11ce', 'Alice');
    const copy = copyLabels(labels);
    copy.set('0x00000000000000000000000000000000000b0b00', 'Bob');
    expect(copy.get('0x00000000000000000000000000000000000a11ce')).toBe('Alice');
    expect(copy.get(AAVE_V3)).toBe(book.get(AAVE_V3)?.name);
    expect(labels.has('0x00000000000000000000000000000000000b0b00')).toBe(false);
  });
});
