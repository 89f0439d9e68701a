/**
 * The package as a user gets it: `npm pack` of this checkout, installed offline into an empty prefix,
 * and the installed `txray` run against a real anvil from an empty folder. The tarball holds only what
 * runs (bin/, dist/, schema/, README, licences), installs no other package, and its code cache fits.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Anvil, withScenarioNode } from '../support/scenarioNode.js';
import { jsonOf, runTxray } from '../support/runTxray.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
const UNKNOWN = `0x${'ab'.repeat(32)}`;

let anvil: Anvil;
let showcase: string;
withScenarioNode((s) => {
  anvil = s.anvil;
  showcase = (s.hashes as Record<string, string>)['showcase']!;
});

let work: string;
let tarball: string;
let packed: { size: number; unpackedSize: number; files: { path: string; size: number }[] };
let prefix: string;
let installed: string;

/**
 * npm as a user runs it: none of the npm_* variables that `npm test` hands its children (they would
 * point npm at this checkout's configuration), and a cache of its own, empty, so nothing is found there.
 */
function npm(args: string[], cwd: string): { stdout: string; stderr: string } {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  const r = spawnSync('npm', args, { cwd, env: { ...env, npm_config_cache: join(work, 'npm-cache') }, encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) throw new Error(`npm ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return { stdout: r.stdout, stderr: r.stderr };
}

/** Bytes of every file under `dir` (symbolic links not followed). */
function treeSize(dir: string): number {
  return readdirSync(dir).reduce((sum, name) => {
    const s = lstatSync(join(dir, name));
    return sum + (s.isDirectory() ? treeSize(join(dir, name)) : s.size);
  }, 0);
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'txray-install-'));
  // `npm test` has just built dist/; --ignore-scripts packs that build instead of building it again
  // while the other test files run from it (a publish runs `prepare`, which builds first).
  const [info] = JSON.parse(npm(['pack', '--ignore-scripts', '--json', '--pack-destination', work], ROOT).stdout);
  packed = info;
  tarball = join(work, info.filename);
  prefix = join(work, 'prefix');
  mkdirSync(prefix);
  npm(['install', '--global', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', tarball], work);
  installed = join(prefix, 'lib', 'node_modules', PKG.name);
  const mb = (n: number) => `${(n / 1e6).toFixed(2)} MB`;
  console.log(`install: tarball ${mb(packed.size)}, ${packed.files.length} files; installed ${mb(treeSize(installed))}`);
}, 180_000);

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

describe('the packed tarball', () => {
  test('holds only what runs: bin/, dist/, schema/, the README, package.json and licence notices', () => {
    const paths = packed.files.map((f) => f.path);
    for (const p of paths) expect(p).toMatch(/^(bin\/[\w.]+\.cjs|dist\/.+|schema\/[\w.]+\.json|README\.md|LICENSE|package\.json)$/);
    for (const p of ['bin/txray.cjs', 'bin/loadBundle.cjs', 'dist/txray.cjs', 'dist/txray.v8cache', 'dist/evm.cjs', 'dist/evm.v8cache', 'dist/llhttp_simd.wasm', 'dist/llhttp.wasm', 'dist/sigdb/builtin.json', 'schema/txray.schema.json', 'LICENSE', 'dist/THIRD-PARTY-LICENSES.txt', 'dist/sigdb/LICENSE-sevm-4bytedb']) {
      expect(paths).toContain(p);
    }
  });

  test('names every package whose code the bundle carries, with its licence text', () => {
    const notices = readFileSync(join(installed, 'dist', 'THIRD-PARTY-LICENSES.txt'), 'utf8');
    for (const name of ['viem', 'commander', 'chalk', 'cli-table3', 'abitype', '@noble/hashes']) {
      expect(notices).toMatch(new RegExp(`^${name.replace('/', '\\/')}@\\d+\\.\\d+\\.\\d+ \\(MIT\\)$`, 'm'));
    }
    expect(notices).toContain('Permission is hereby granted, free of charge');
    expect(notices).toMatch(/^smol-toml@\d+\.\d+\.\d+ \(BSD-3-Clause\)$/m);
    // dist/evm.cjs: EthereumJS (MPL-2.0, with where its source is), one copy of the noble hashes it uses.
    expect(notices).toMatch(/^@ethereumjs\/vm@\d+\.\d+\.\d+ \(MPL-2\.0\)\n\nSource: the npm package @ethereumjs\/vm@/m);
    expect(notices.match(/^@noble\/hashes@2\./gm)).toHaveLength(1);
    // cli-table3's colour library is left out: txray's tables never ask it for colour.
    expect(notices).not.toContain('@colors/colors');
  });
});

describe('installed offline into an empty prefix', () => {
  test('is exactly one package with no dependencies', () => {
    expect(readdirSync(join(prefix, 'lib', 'node_modules'))).toEqual([PKG.name]);
    expect(existsSync(join(installed, 'node_modules'))).toBe(false);
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
    expect(manifest.dependencies ?? {}).toEqual({});
    // A budget, raised from 12 MB with issues 43-45 (operations, nested call data, the EIP-7702 signer's curve): docs/install.md has the figures.
    expect(treeSize(installed)).toBeLessThan(12.5e6);
  });

  const txray = (...args: string[]) => runTxray(args, {}, undefined, emptyDir(), join(prefix, 'bin', 'txray'));
  const emptyDir = () => mkdtempSync(join(work, 'cwd-'));

  test('--version', async () => {
    const r = await txray('--version');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${PKG.version}\n`);
  });

  test('a lookup in text starts from the shipped code cache and names the calls', async () => {
    const r = await txray(showcase, '--rpc-url', anvil.url, '--debug');
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/code cache used/);
    expect(r.stdout).toContain(`Transaction ${showcase}`);
    expect(r.stdout).toContain('✔ success');
    expect(r.stdout).toMatch(/Call tree \(14 entries, depth 4\)/);
  });

  test('a lookup in --json', async () => {
    const r = await txray(showcase, '--rpc-url', anvil.url, '--json');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const doc = jsonOf(r);
    expect(doc.hash).toBe(showcase);
    expect(doc.status).toBe('success');
  });

  test('--tracer local re-executes with the EVM the package ships (dist/evm.cjs), and it matches the receipt', async () => {
    const r = await txray(showcase, '--rpc-url', anvil.url, '--tracer', 'local', '--json');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const doc = jsonOf(r);
    expect(doc.traceSource).toBe('local');
    expect(doc.traceNote).toMatch(/matched the receipt$/);
    expect(doc.reexecution).toMatchObject({ replayed: 0, matchedReceipt: true });
    const geth = jsonOf(await txray(showcase, '--rpc-url', anvil.url, '--tracer', 'geth', '--json'));
    const shape = (n: { type: string; to: string | null; children: unknown[] }): unknown => [n.type, n.to, n.children.map((c) => shape(c as typeof n))];
    expect(shape(doc.calls)).toEqual(shape(geth.calls));
  });

  test('a lookup on a node with traces never reads the EVM: it works with dist/evm.cjs gone', async () => {
    const evm = join(installed, 'dist', 'evm.cjs');
    renameSync(evm, `${evm}.away`);
    try {
      const r = await txray(showcase, '--rpc-url', anvil.url);
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      expect(r.stdout).toMatch(/Call tree \(14 entries, depth 4\)/);
      // Where it is needed, its absence is one warning; the receipt's view stays.
      const local = await txray(showcase, '--rpc-url', anvil.url, '--tracer', 'local');
      expect(local.code).toBe(0);
      expect(local.stderr.trim().split('\n')).toHaveLength(1);
      expect(local.stderr).toMatch(/^txray: warning: the transaction could not be re-executed here \(.*evm\.cjs.*\); the call tree is not shown\.$/m);
    } finally {
      renameSync(`${evm}.away`, evm);
    }
  });

  test('an unknown hash: exit 3', async () => {
    const r = await txray(UNKNOWN, '--rpc-url', anvil.url);
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('? not found');
    expect(r.stdout).toContain('does not know this transaction');
  });
});
