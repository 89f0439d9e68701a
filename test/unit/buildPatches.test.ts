import { createHash } from 'node:crypto';
import { paramsBlock } from '@ethereumjs/block';
import { paramsEVM } from '@ethereumjs/evm';
import { paramsTx } from '@ethereumjs/tx';
import { paramsVM } from '@ethereumjs/vm';
import { describe, expect, test } from 'vitest';

// scripts/build.mjs (shallow-params) copies each entry of these tables as one object, where
// EthereumJS copies it through JSON: the same copy only while every value is a number, a string or null.
describe('the parameter tables the build copies shallowly', () => {
  test.each([
    ['paramsBlock', paramsBlock],
    ['paramsEVM', paramsEVM],
    ['paramsTx', paramsTx],
    ['paramsVM', paramsVM],
  ])('%s holds only numbers, strings and nulls, so a shallow copy equals the JSON copy', (_name, table) => {
    const entries = Object.values(table as Record<string, Record<string, unknown>>);
    expect(entries.length).toBeGreaterThan(0);
    for (const entry of entries) {
      for (const value of Object.values(entry)) expect(value === null || typeof value === 'number' || typeof value === 'string').toBe(true);
      expect({ ...entry }).toEqual(JSON.parse(JSON.stringify(entry)));
    }
  });
});

describe('the constants the build writes out', () => {
  test("known-sha256: SHA-256 of the empty input is the digest the build puts in @ethereumjs/util's place", () => {
    expect(createHash('sha256').update(new Uint8Array(0)).digest('hex')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });
});
