import fc from 'fast-check';
import { getAddress, keccak256 as viemKeccak, toHex } from 'viem';
import { expect, test } from 'vitest';
import { checksumAddress, keccak256, keccakHex } from '../../src/decode/keccak.js';
import * as js from '../../src/hash/jsKeccak.js';
import * as wasm from '../../src/hash/wasmKeccak.js';

test('property: equals viem (noble) keccak256 for any bytes, across block boundaries', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 600 }), (bytes) => {
      expect(toHex(keccak256(bytes))).toBe(viemKeccak(bytes));
    }),
    { numRuns: 2000 },
  );
  // Lengths around the 136-byte rate, where padding shares or needs a block.
  for (const n of [0, 1, 134, 135, 136, 137, 271, 272, 273]) {
    const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 31 + 7) & 0xff);
    expect(toHex(keccak256(bytes))).toBe(viemKeccak(bytes));
  }
});

test('known answers: empty input and a selector', () => {
  expect(keccakHex('')).toBe('c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
  expect(keccakHex('transfer(address,uint256)').slice(0, 8)).toBe('a9059cbb');
  expect(keccakHex('héllo')).toBe(viemKeccak(toHex('héllo')).slice(2));
});

test('property: checksumAddress equals viem getAddress, whatever the input case', () => {
  fc.assert(
    fc.property(fc.uint8Array({ minLength: 20, maxLength: 20 }), fc.boolean(), (bytes, upper) => {
      const hex = `0x${Buffer.from(bytes).toString('hex')}`;
      expect(checksumAddress(upper ? `0x${hex.slice(2).toUpperCase()}` : hex)).toBe(getAddress(hex));
    }),
    { numRuns: 2000 },
  );
});

test("property: both permutations (Node's WebAssembly one, the report page's JavaScript one) equal viem's, bytes and Latin-1 text", () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 600 }), fc.nat({ max: 5 }), (bytes, start) => {
      const text = String.fromCharCode(...bytes);
      const want = viemKeccak(bytes);
      expect(toHex(wasm.keccak_256(bytes))).toBe(want);
      expect(toHex(js.keccak_256(bytes))).toBe(want);
      const tail = viemKeccak(bytes.subarray(Math.min(start, bytes.length)));
      expect(toHex(wasm.keccakOfLatin1(text, Math.min(start, bytes.length)))).toBe(tail);
      expect(toHex(js.keccakOfLatin1(text, Math.min(start, bytes.length)))).toBe(tail);
    }),
    { numRuns: 1000 },
  );
  for (const n of [0, 1, 134, 135, 136, 137, 271, 272, 273]) {
    const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 31 + 7) & 0xff);
    expect(toHex(js.keccak_256(bytes))).toBe(viemKeccak(bytes));
    expect(toHex(js.keccakOfLatin1(String.fromCharCode(...bytes)))).toBe(viemKeccak(bytes));
  }
});

test('keccakOfLatin1 from past the end of the text hashes nothing, in both permutations, and leaves the next hash right', () => {
  for (const impl of [wasm, js]) {
    expect(toHex(impl.keccakOfLatin1('abc', 5))).toBe(viemKeccak(new Uint8Array(0)));
    expect(toHex(impl.keccakOfLatin1('', 100))).toBe(viemKeccak(new Uint8Array(0)));
    expect(toHex(impl.keccak_256(new Uint8Array(0)))).toBe(viemKeccak(new Uint8Array(0)));
    expect(toHex(impl.keccak_256(new Uint8Array([1, 2, 3])))).toBe(viemKeccak(new Uint8Array([1, 2, 3])));
  }
});
