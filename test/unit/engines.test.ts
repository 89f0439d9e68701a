/**
 * The Node versions the project says it runs on (package.json `engines`, the README's "Node 20.18.1 or
 * newer") can install it: no package in the lock file declares an `engines.node` that leaves Node 20 out,
 * which `npm ci` would report as EBADENGINE (as @ensdomains/ensjs >= 4.1 did: its ABIs are now copied,
 * scripts/vendor-ensjs.mjs).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, test } from 'vitest';

const require = createRequire(import.meta.url);
const semver = require('semver') as { satisfies(v: string, range: string, loose?: boolean): boolean };

const read = (file: string): any => JSON.parse(readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8'));

test('every locked package admits a Node 20 the project supports', () => {
  const own: string = read('package.json').engines.node;
  expect(own).toMatch(/^>=20\./);
  // The Node 20 releases the project's range admits (and later minors Node 20 may still get).
  const node20 = Array.from({ length: 15 * 25 }, (_, i) => `20.${18 + Math.floor(i / 25)}.${i % 25}`).filter((v) => semver.satisfies(v, own));
  expect(node20).toContain('20.18.1');
  const packages: Record<string, { engines?: { node?: string } }> = read('package-lock.json').packages;
  const ranges = Object.entries(packages).filter(([path, p]) => path !== '' && typeof p.engines?.node === 'string');
  expect(ranges.length).toBeGreaterThan(50);
  const excluding = ranges.filter(([, p]) => !node20.some((v) => semver.satisfies(v, p.engines!.node!, true))).map(([path, p]) => `${path}: node ${p.engines!.node}`);
  expect(excluding).toEqual([]);
});

test('the ENS ABIs are a copy, not the package that requires Node 22', () => {
  expect(read('package.json').devDependencies['@ensdomains/ensjs']).toBeUndefined();
  expect(read('package-lock.json').packages['node_modules/@ensdomains/ensjs']).toBeUndefined();
  const copy = read('scripts/lib/ensjs-contracts.json');
  expect(copy).toMatchObject({ package: '@ensdomains/ensjs', version: '4.3.1', license: 'MIT' });
  expect(copy.licence).toMatch(/^MIT License\n\nCopyright \(c\) 2022 ENS Labs Limited/);
  // What the build reads from it: each module's ABI arrays, a string standing for the same export of another module.
  const modules: Record<string, Record<string, unknown>> = copy.modules;
  expect(Object.keys(modules)).toEqual(Object.keys(modules).sort());
  expect(Object.keys(modules)).toContain('ethRegistrarController');
  for (const [name, exported] of Object.entries(modules)) {
    for (const [key, value] of Object.entries(exported)) {
      if (typeof value === 'string') expect(Array.isArray(modules[value]?.[key]), `${name}.${key} → ${value}`).toBe(true);
      else expect(Array.isArray(value) && value.length > 0, `${name}.${key}`).toBe(true);
    }
  }
  // The 2025 ETHRegistrarController (register takes a Registration tuple), not 4.0.2's.
  const register = (modules['ethRegistrarController']!['ethRegistrarControllerRegisterSnippet'] as Array<{ name: string; type: string; inputs: Array<{ type: string }> }>).find((i) => i.type === 'function' && i.name === 'register');
  expect(register?.inputs.map((p) => p.type)).toEqual(['tuple']);
});
