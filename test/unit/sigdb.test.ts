import { readdirSync, readFileSync } from 'node:fs';
import { keccak256, toHex } from 'viem';
import { expect, test } from 'vitest';

// The decoder trusts the shipped signature database: a signature filed under a selector (or topic0) is
// taken to hash to it, so no selector is computed at run time. Every entry is checked here.
const DB = new URL('../../dist/sigdb/', import.meta.url);

function entries(kind: 'functions' | 'events'): Array<[string, string]> {
  const dir = new URL(`${kind}/`, DB);
  return readdirSync(dir).flatMap((file) => {
    const lines = readFileSync(new URL(file, dir), 'utf8').split('\n').filter((l) => l !== '');
    return lines.map((line): [string, string] => {
      const [key, sig, ...rest] = line.split(' ');
      expect(rest).toEqual([]);
      expect(key!.startsWith(file.slice(0, 2))).toBe(true);
      return [key!, sig!];
    });
  });
}

test('every function signature in the database hashes to the selector it is filed under', () => {
  const all = entries('functions');
  expect(all.length).toBeGreaterThan(100_000);
  const wrong = all.filter(([key, sig]) => keccak256(toHex(sig)).slice(2, 10) !== key);
  expect(wrong).toEqual([]);
}, 60_000);

test('every event signature in the database hashes to the topic0 it is filed under', () => {
  const all = entries('events');
  expect(all.length).toBeGreaterThan(10_000);
  const wrong = all.filter(([key, sig]) => keccak256(toHex(sig)).slice(2) !== key);
  expect(wrong).toEqual([]);
}, 60_000);
