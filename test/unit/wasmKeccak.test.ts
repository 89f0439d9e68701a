import fc from 'fast-check';
import { keccak_256 as noble } from '@noble/hashes/sha3.js';
import { describe, expect, test } from 'vitest';
import { KECCAK_WASM, keccak_256 } from '../../src/hash/wasmKeccak.js';
import { keccakWasmBytes } from '../../scripts/lib/keccakWasm.mjs';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

describe('wasmKeccak', () => {
  test('the module it carries is the one scripts/lib/keccakWasm.mjs writes', () => {
    expect(KECCAK_WASM).toBe(Buffer.from(keccakWasmBytes()).toString('base64'));
  });

  test('the empty input gives the known empty hash', () => {
    expect(hex(keccak_256(new Uint8Array(0)))).toBe(hex(noble(new Uint8Array(0))));
    expect(hex(keccak_256(new Uint8Array(0)))).toBe('c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
  });

  test('every length from 0 to 700 bytes (block edges at 135, 136, 137, 271, 272…) agrees with @noble/hashes', () => {
    for (let n = 0; n <= 700; n++) {
      const data = Uint8Array.from({ length: n }, (_, i) => (i * 131 + n * 7) & 0xff);
      expect(hex(keccak_256(data)), `length ${n}`).toBe(hex(noble(data)));
    }
  });

  test('property: random inputs agree with @noble/hashes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), (data) => {
        expect(hex(keccak_256(data))).toBe(hex(noble(data)));
      }),
      { numRuns: 500 },
    );
  });

  test('an input larger than the memory it began with (64 KiB) grows it, and later short inputs still hash right', () => {
    const big = Uint8Array.from({ length: 200_000 }, (_, i) => (i * 7) & 0xff);
    expect(hex(keccak_256(big))).toBe(hex(noble(big)));
    const small = new Uint8Array([1, 2, 3]);
    expect(hex(keccak_256(small))).toBe(hex(noble(small)));
  });

  test('a digest is its own copy: a later hash does not change it, nor does the input change', () => {
    const input = new Uint8Array([1, 2, 3]);
    const first = keccak_256(input);
    const copy = hex(first);
    keccak_256(new Uint8Array([4, 5, 6]));
    expect(hex(first)).toBe(copy);
    expect([...input]).toEqual([1, 2, 3]);
  });
});
