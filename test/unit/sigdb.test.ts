import { readdirSync, readFileSync } from 'node:fs';
import { type AbiError, type AbiEvent, type AbiFunction, formatAbiItem } from 'abitype';
import { keccak256, toEventSelector, toFunctionSelector, toHex } from 'viem';
import { expect, test } from 'vitest';

// The decoder trusts the shipped signature database: a signature filed under a selector (or topic0) is
// taken to hash to it, so no selector is computed at run time. Every entry is checked here.
const DB = new URL('../../dist/sigdb/', import.meta.url);

function entries(kind: 'functions' | 'events'): Array<[string, string]> {
  const dir = new URL(`${kind}/`, DB);
  // Every line is `<key> <signature>`, filed in the shard its key starts with. Checked line by line, the
  // lines that are not are listed and the list must be empty (one expect per line costs more than the hashing).
  const misfiled: string[] = [];
  const all = readdirSync(dir).flatMap((file) => {
    const lines = readFileSync(new URL(file, dir), 'utf8').split('\n').filter((l) => l !== '');
    return lines.map((line): [string, string] => {
      const [key, sig, ...rest] = line.split(' ');
      if (rest.length > 0 || sig === undefined || !key!.startsWith(file.slice(0, 2))) misfiled.push(`${file}: ${line}`);
      return [key!, sig!];
    });
  });
  expect(misfiled).toEqual([]);
  return all;
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

// The protocol set (dist/sigdb/protocols/): `<key>\t<contract>\t<item JSON>` lines, written by the build from
// the ABIs that protocol packages publish (scripts/lib/protocolAbis.mjs). Checked the same way.
function protocolRows(kind: 'functions' | 'errors' | 'events'): Array<{ key: string; contract: string; item: AbiFunction | AbiEvent | AbiError }> {
  const dir = new URL(`protocols/${kind}/`, DB);
  return readdirSync(dir).flatMap((file) =>
    readFileSync(new URL(file, dir), 'utf8').split('\n').filter((l) => l !== '').map((line) => {
      const [key, contract, json, ...rest] = line.split('\t');
      expect(rest).toEqual([]);
      expect(key!.startsWith(file.slice(0, 2))).toBe(true);
      return { key: key!, contract: contract!, item: JSON.parse(json!) };
    }),
  );
}

test('every protocol-set item hashes to the key it is filed under, and keeps parameter names', () => {
  const functions = protocolRows('functions');
  const errors = protocolRows('errors');
  const events = protocolRows('events');
  expect(functions.length).toBeGreaterThan(3000);
  expect(events.length).toBeGreaterThan(500);
  expect(errors.length).toBeGreaterThan(300);
  const wrong = [
    ...[...functions, ...errors].filter(({ key, item }) => toFunctionSelector({ ...(item as AbiFunction), type: 'function' }).slice(2) !== key),
    ...events.filter(({ key, item }) => {
      const e = item as AbiEvent;
      return `${toEventSelector(e).slice(2)}:${e.inputs.filter((p) => p.indexed).length}` !== key;
    }),
  ];
  expect(wrong).toEqual([]);
  // Deduplicated: one row per signature (and indexed layout, for events).
  const ids = [...functions, ...errors, ...events].map(({ key, item }) => `${item.type} ${key} ${formatAbiItem(item as AbiFunction)} ${JSON.stringify(item.inputs.map((p) => (p as { indexed?: boolean }).indexed ?? false))}`);
  expect(new Set(ids).size).toBe(ids.length);
  const withNames = functions.filter(({ item }) => item.inputs.length > 0 && item.inputs.every((p) => p.name !== ''));
  expect(withNames.length / functions.filter(({ item }) => item.inputs.length > 0).length).toBeGreaterThan(0.9);
  for (const { contract } of [...functions, ...events]) expect(contract).toMatch(/^[A-Za-z0-9_.-]+$/);
}, 60_000);

test('the protocol set ships the licence of every package it was extracted from, and no BUSL package', async () => {
  const { PACKAGES } = await import('../../scripts/lib/protocolAbis.mjs');
  const notice = readFileSync(new URL('LICENSE-protocol-abis.txt', DB), 'utf8');
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { devDependencies: Record<string, string> };
  for (const { pkg: name, vendored } of PACKAGES as Array<{ pkg: string; vendored?: string }>) {
    // A package whose ABIs are copied into scripts/lib/ (ENS's) is not installed: the copy names its version.
    const copy = vendored === undefined ? null : (JSON.parse(readFileSync(new URL(`../../scripts/lib/${vendored}`, import.meta.url), 'utf8')) as { package: string; version: string; licence: string });
    const version = copy?.version ?? pkg.devDependencies[name];
    expect(version, `${name} is a pinned devDependency or a copy of one version`).toMatch(/^\d+\.\d+\.\d+/);
    if (copy !== null) {
      expect(copy.package).toBe(name);
      expect(pkg.devDependencies[name], `${name} is copied, not installed`).toBeUndefined();
      expect(notice).toContain(copy.licence);
    }
    expect(notice).toContain(`${name}@${version} (`);
  }
  expect(notice).not.toMatch(/\(BUSL/);
});
