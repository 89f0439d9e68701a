import type { AbiParameter } from 'abitype';
import fc from 'fast-check';
import { decodeAbiParameters, encodeAbiParameters } from 'viem';
import { expect, test } from 'vitest';
import { decodeStaticWords } from '../../src/decode/staticWords.js';

const sizes = Array.from({ length: 32 }, (_, i) => (i + 1) * 8);
const staticType = fc.oneof(
  fc.constant('address'),
  fc.constant('bool'),
  fc.constantFrom(...sizes.map((n) => `uint${n}`)),
  fc.constantFrom(...sizes.map((n) => `int${n}`)),
  fc.constantFrom(...Array.from({ length: 32 }, (_, i) => `bytes${i + 1}`)),
);
const params = fc.array(staticType, { maxLength: 5 }).map((types) => types.map((type): AbiParameter => ({ type })));

/** A word that is often canonical for some type: small numbers, sign-extended negatives, padded addresses, or noise. */
const word = fc.oneof(
  fc.bigInt({ min: 0n, max: 2n ** 16n }).map((v) => v.toString(16).padStart(64, '0')),
  fc.bigInt({ min: 1n, max: 2n ** 20n }).map((v) => BigInt.asUintN(256, -v).toString(16).padStart(64, '0')),
  fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => `${'0'.repeat(24)}${Buffer.from(b).toString('hex')}`),
  fc.uint8Array({ minLength: 4, maxLength: 4 }).map((b) => `${Buffer.from(b).toString('hex')}${'0'.repeat(56)}`),
  fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => Buffer.from(b).toString('hex')),
);
const data = fc.tuple(fc.array(word, { maxLength: 6 }), fc.constantFrom('', '00', 'ab')).map(([ws, tail]) => `0x${ws.join('')}${tail}` as `0x${string}`);

/** viem's answer, in the shape the fast path gives: bigints for integers, lower-case addresses. */
function viaViem(ps: readonly AbiParameter[], hex: `0x${string}`, exact: boolean): unknown[] | null {
  try {
    const values = decodeAbiParameters(ps, hex);
    if (exact && encodeAbiParameters(ps, values).toLowerCase() !== hex.toLowerCase()) return null;
    return values.map((v) => (typeof v === 'number' ? BigInt(v) : typeof v === 'string' ? v.toLowerCase() : v));
  } catch {
    return null;
  }
}

test('property: call data rule (exact) agrees with decode-then-re-encode by viem', () => {
  fc.assert(
    fc.property(params, data, (ps, hex) => {
      expect(decodeStaticWords(ps, hex, true)).toEqual(viaViem(ps, hex, true));
    }),
    { numRuns: 3000 },
  );
});

test('property: event data rule (not exact) agrees with viem decoding', () => {
  fc.assert(
    fc.property(params, data, (ps, hex) => {
      expect(decodeStaticWords(ps, hex, false)).toEqual(viaViem(ps, hex, false));
    }),
    { numRuns: 3000 },
  );
});

test('dynamic types, tuples and arrays are left to the general codec', () => {
  for (const type of ['string', 'bytes', 'uint256[]', 'address[2]', 'tuple', 'uint7', 'bytes33', 'function']) {
    expect(decodeStaticWords([{ type: 'uint256' }, { type }], `0x${'0'.repeat(128)}`, true)).toBeUndefined();
  }
});

test('upper-case hex decodes like lower-case', () => {
  const hex = `0x${'0'.repeat(24)}AbCdEf0123456789aBcDeF0123456789AbCdEf01` as const;
  expect(decodeStaticWords([{ type: 'address' }], hex, true)).toEqual(['0xabcdef0123456789abcdef0123456789abcdef01']);
});
