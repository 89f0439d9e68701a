import fc from 'fast-check';
import { expect, test } from 'vitest';
import { byteLength, isAddress, isData, isHash, isQuantity, toBig, toDecimal, toQuantity } from '../../src/raw/hex.js';
import type { Hex } from '../../src/raw/types.js';

test('property: every uint256 written as a hex quantity parses back to itself', () => {
  fc.assert(
    fc.property(fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }), (n) => {
      const q = `0x${n.toString(16)}`;
      expect(isQuantity(q)).toBe(true);
      expect(toBig(q as `0x${string}`)).toBe(n);
    }),
  );
});

test('property: anything that is not 0x + 1..64 hex digits is not a quantity', () => {
  fc.assert(
    fc.property(fc.anything(), (v) => {
      expect(isQuantity(v)).toBe(typeof v === 'string' && /^0x[0-9a-fA-F]{1,64}$/.test(v));
    }),
  );
});

test.each([
  ['0x', false],
  ['0x0', true],
  ['0x00', true],
  [`0x1${'0'.repeat(64)}`, false], // 257 bits
  ['0xg', false],
  ['10', false],
  [' 0x1', false],
])('isQuantity(%j) = %s', (v, ok) => expect(isQuantity(v)).toBe(ok));

test('data, addresses and hashes', () => {
  expect(isData('0x')).toBe(true);
  expect(byteLength('0xa9059cbb')).toBe(4);
  expect(isAddress(`0x${'ab'.repeat(20)}`)).toBe(true);
  expect(isAddress(`0x${'ab'.repeat(21)}`)).toBe(false);
  expect(isHash(`0x${'AB'.repeat(32)}`)).toBe(true);
});

test('property: toDecimal agrees with BigInt for any quantity, and toQuantity spells it back without leading zeros', () => {
  fc.assert(
    fc.property(fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }), fc.nat({ max: 3 }), (n, pad) => {
      const q = `0x${'0'.repeat(pad)}${n.toString(16)}` as Hex;
      expect(toDecimal(q)).toBe(n.toString());
      expect(toQuantity(n)).toMatch(/^0x(0|[1-9a-f][0-9a-f]*)$/);
      expect(toDecimal(toQuantity(n))).toBe(n.toString());
    }),
    { numRuns: 3000 },
  );
});
