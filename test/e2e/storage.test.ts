/**
 * --storage: every storage read and write of each call, from txray's own run, against anvil's own
 * opcode trace (an anvil started with --steps-tracing; the expected lists from an independent walk of its
 * struct logs, test/support/storageProject.ts), on a project compiled with solc from npm with its storage
 * layouts (test/fixtures/storage).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { StructLog } from '../support/debugProject.js';
import { jsonOf, runTxray } from '../support/runTxray.js';
import { schemaErrors } from '../support/schema.js';
import { withReport } from '../support/withReport.js';
import { type StorageScene, storageScene, type WalkedAccess, walkStructLogs } from '../support/storageProject.js';

const dir = mkdtempSync(join(tmpdir(), 'txray-storage-'));
let scene: StorageScene;

beforeAll(async () => {
  scene = await storageScene(dir, false);
}, 120_000);
afterAll(async () => {
  await scene?.anvil.stop();
});

/** The node's struct logs of `hash`, walked: each frame's accesses by frameKey. */
async function expected(hash: string, on: StorageScene = scene): Promise<Map<string, WalkedAccess[]>> {
  const scene = on;
  const trace = await scene.anvil.rpc('debug_traceTransaction', [hash, { disableStack: false, disableStorage: true }]);
  const tx = await scene.anvil.rpc('eth_getTransactionByHash', [hash]);
  const r = await scene.anvil.rpc('eth_getTransactionReceipt', [hash]);
  const parent = `0x${(BigInt(tx.blockNumber) - 1n).toString(16)}`;
  return walkStructLogs(trace.structLogs as StructLog[], tx.to, r.status === '0x0', (address, slot) => scene.anvil.rpc('eth_getStorageAt', [address, slot, parent]));
}

/** Each call node's `storage`, names left out, by frameKey. */
function actual(doc: Record<string, any>): Map<string, WalkedAccess[]> {
  const out = new Map<string, WalkedAccess[]>();
  const walk = (n: Record<string, any>): void => {
    out.set(n.traceAddress.join(','), n.storage.map(({ name: _n, decoded: _d, ...a }: Record<string, unknown>) => a));
    for (const c of n.children) walk(c);
  };
  walk(doc.calls);
  return out;
}

const run = (args: string[]) => runTxray([...args, '--rpc-url', scene.anvil.url], {}, undefined, dir);

describe('--storage against the node\'s struct logs', () => {
  test('every frame\'s accesses, in order, equal the walk of anvil\'s struct logs (deposit: delegatecall, token, caught revert, transient, same value)', async () => {
    const r = await run([scene.deposit, '--storage', '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const doc = jsonOf(r);
    expect(schemaErrors(doc)).toBe('');
    const want = await expected(scene.deposit);
    expect(actual(doc)).toEqual(want);
    const all = [...want.values()].flat();
    // What the fixture is there to show: each kind at least once.
    expect(all.some((a) => a.transient === true && a.op === 'write')).toBe(true);
    expect(all.some((a) => a.reverted === true)).toBe(true);
    expect(all.some((a) => a.op === 'write' && a.before === a.after && a.transient === undefined)).toBe(true);
    const vault = scene.vault.toLowerCase();
    const delegated = (doc.calls.children as Array<Record<string, any>>).find((c) => c.callType === 'delegatecall')!;
    expect(delegated.storage.length).toBeGreaterThan(0);
    expect(delegated.storage.every((a: { address: string }) => a.address === vault)).toBe(true);
  });

  test('a transaction that reverts at the top: its writes are marked reverted', async () => {
    const r = await run([scene.fail, '--storage', '--json']);
    expect(r.code).toBe(1);
    const doc = jsonOf(r);
    const want = await expected(scene.fail);
    expect(actual(doc)).toEqual(want);
    const writes = doc.calls.storage.filter((a: { op: string }) => a.op === 'write');
    expect(writes.length).toBeGreaterThan(0);
    expect(writes.every((a: { reverted?: boolean }) => a.reverted === true)).toBe(true);
  });

  test('--with-state-changes is --storage; without either there is no storage field', async () => {
    const alias = jsonOf(await run([scene.deposit, '--with-state-changes', '--json']));
    expect(actual(alias)).toEqual(await expected(scene.deposit));
    const plain = jsonOf(await run([scene.deposit, '--json']));
    expect(JSON.stringify(plain)).not.toContain('"storage"');
  });

  test('names from the storage layouts, mapping keys exact from the run\'s hashes (a key read from storage too); transient slots from the transient layout', async () => {
    const doc = jsonOf(await run([scene.deposit, '--storage', '--json']));
    const sender = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
    const [mint, bump, failing] = doc.calls.children as Array<Record<string, any>>;
    const brief = (n: Record<string, any>) => n.storage.map((a: Record<string, any>) => [a.op, a.name ?? null, a.decoded ?? null]);
    expect(brief(doc.calls)).toEqual([
      // The lock, named from the transient layout: read by the require, read again and written by the assignment.
      ['read', 'locked', false],
      ['read', 'locked', false],
      ['write', 'locked', { before: false, after: true }],
      // Slot 3 is `counter` in the persistent layout only: a transient read of it has no name.
      ['read', null, null],
      ['read', `balances[${sender}]`, '0'],
      ['write', `balances[${sender}]`, { before: '0', after: '100' }],
      ['read', 'total', '0'],
      ['write', 'total', { before: '0', after: '100' }],
      ['read', 'total', '100'],
      ['write', 'total', { before: '100', after: '100' }],
      ['read', 'counter', '0'],
      // byId's key is the counter read from storage: in no argument, no event.
      ['write', 'byId[0]', { before: '0', after: '100' }],
      ['read', 'token', getAddress(scene.token)],
      ['read', 'logic', getAddress(scene.logic)],
      ['read', 'locked', true],
      ['write', 'locked', { before: true, after: false }],
    ]);
    expect(brief(mint!)).toEqual([['read', `balanceOf[${sender}]`, '0'], ['write', `balanceOf[${sender}]`, { before: '0', after: '100' }]]);
    // The logic's writes land in the vault's storage, named by the vault's layout: a packed struct member.
    expect(brief(bump!)).toContainEqual(['write', 'cfg.fee', { before: '0', after: '1' }]);
    expect(brief(failing!)).toEqual([['read', 'total', '100'], ['write', 'total', { before: '100', after: '200' }]]);
  });

  test('consistency with --state: per slot, the first kept write\'s before and the last one\'s after are its storage change; --state names byId[0] by the run\'s key', async () => {
    const doc = jsonOf(await run([scene.deposit, '--storage', '--state', '--json']));
    const writes = new Map<string, { before: string; after: string }>();
    const walk = (n: Record<string, any>): void => {
      for (const a of n.storage) {
        if (a.op !== 'write' || a.reverted || a.transient) continue;
        const k = `${a.address}:${a.slot}`;
        writes.set(k, { before: writes.get(k)?.before ?? a.before, after: a.after });
      }
      for (const c of n.children) walk(c);
    };
    walk(doc.calls);
    const changed = new Map<string, { before: string; after: string }>();
    for (const c of doc.storageChanges) changed.set(`${c.address}:${c.slot}`, { before: c.before, after: c.after });
    for (const [k, w] of writes) if (w.before !== w.after) expect(changed.get(k)).toEqual(w);
    expect([...changed.keys()].every((k) => writes.has(k))).toBe(true);
    // And the node's own storage before and after the block.
    const block = BigInt((await scene.anvil.rpc('eth_getTransactionByHash', [scene.deposit])).blockNumber);
    const at = (n: bigint) => `0x${n.toString(16)}`;
    for (const [k, w] of writes) {
      const [address, slot] = k.split(':');
      const word = async (n: bigint) => `0x${BigInt(await scene.anvil.rpc('eth_getStorageAt', [address, slot, at(n)])).toString(16).padStart(64, '0')}`;
      expect([await word(block - 1n), await word(block)]).toEqual([w.before, w.after]);
    }
    expect(doc.storageChanges.flatMap((c: Record<string, any>) => (c.variables ?? []).map((v: { path: string }) => v.path))).toContain('byId[0]');
  });

  test('txray call and txray call --tx: the same accesses as the lookup', async () => {
    const lookup = actual(jsonOf(await run([scene.deposit, '--storage', '--json'])));
    const rerun = jsonOf(await run(['call', '--tx', scene.deposit, '--storage', '--json']));
    expect(actual(rerun)).toEqual(lookup);
    const call = jsonOf(await run(['call', scene.vault, 'deposit(uint256)', '100', '--from', '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', '--storage', '--json']));
    const top = call.calls.storage as Array<Record<string, any>>;
    expect(top.map((a) => a.op)).toEqual(lookup.get('')!.map((a) => a.op));
    expect(top.find((a) => a.name === 'byId[1]')).toBeDefined();
  });

  test('text: one line per access under its call, in order, named; transient and undone writes said', async () => {
    const r = await run([scene.deposit, '--storage']);
    expect(r.code).toBe(0);
    const tree = r.stdout.slice(r.stdout.indexOf('Call tree'));
    const lines = tree.split('\n').map((l) => l.replace(/^\s+[│├└─ ]*/, ''));
    const at = (text: string): number => lines.findIndex((l) => l.startsWith(text));
    // Identical reads in a row: one line with a count.
    expect(lines).toContain('read transient locked = false (2 ×)');
    expect(lines).toContain('write transient locked: false → true');
    expect(lines).toContain('write balances[0xf39F…2266]: 0 → 100');
    expect(lines).toContain('write total: 100 → 100');
    expect(lines).toContain('write byId[0]: 0 → 100');
    expect(lines).toContain('write cfg.fee: 0 → 1');
    expect(lines).toContain('write total: 100 → 200 (undone by the revert)');
    // Under their calls: the token's write after the token's call line, the caught write after the failing call's.
    expect(at('write balanceOf[0xf39F…2266]: 0 → 100')).toBeGreaterThan(at('call Token::mint'));
    expect(at('write total: 100 → 200')).toBeGreaterThan(at('call Vault::failing'));
    const plain = await run([scene.deposit]);
    expect(plain.stdout).not.toContain('read ');
  });

  test('--record with --storage: txray replay, in an empty folder, shows the same accesses and names', async () => {
    const file = join(dir, 'storage.rec.json');
    const live = await run([scene.deposit, '--storage', '--json', '--record', file]);
    expect(live.code).toBe(0);
    const replayed = await runTxray(['replay', file, '--json'], {}, undefined, mkdtempSync(join(tmpdir(), 'txray-storage-empty-')));
    expect(replayed.code).toBe(0);
    expect(jsonOf(replayed).calls).toEqual(jsonOf(live).calls);
    expect(JSON.stringify(jsonOf(replayed).calls)).toContain('byId[0]');
  });

  test('--html: a call\'s details list its accesses in the text view\'s words', async () => {
    const file = join(dir, 'storage.html');
    const r = await run([scene.deposit, '--storage', '--html', file]);
    expect(r.code).toBe(0);
    const text = await withReport(file, async (page, problems) => {
      await page.click('button[data-action="expand-all"]');
      await page.locator('.tree [data-trace-address="2"] > .line').click();
      expect(problems).toEqual([]);
      return page.locator('#details').textContent();
    });
    expect(text).toContain('read total = 100');
    expect(text).toContain('write total: 100 → 200 (undone by the revert)');
  });

  test('--debug: exactly one local run, which keeps storage', async () => {
    const r = await run([scene.deposit, '--storage', '--state', '--debug']);
    const lines = r.stderr.split('\n').filter((l) => l.includes('local run:'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('storage');
    // A lookup whose tree the EVM makes (--tracer local): the same one run keeps the accesses.
    const local = await run([scene.deposit, '--storage', '--tracer', 'local', '--debug', '--json']);
    expect(local.stderr.split('\n').filter((l) => l.includes('local run:'))).toHaveLength(1);
    expect(actual(jsonOf(local))).toEqual(await expected(scene.deposit));
  });
});

/** Each call node's accesses as names: [op, name, decoded], by frameKey. */
function namesOf(doc: Record<string, any>): Map<string, unknown[]> {
  const out = new Map<string, unknown[]>();
  const walk = (n: Record<string, any>): void => {
    out.set(n.traceAddress.join(','), n.storage.map((a: Record<string, any>) => [a.op, a.name ?? null, a.decoded ?? null]));
    for (const c of n.children) walk(c);
  };
  walk(doc.calls);
  return out;
}

describe('--storage --online: names from a verified contract\'s storage layout (a loopback Sourcify stand-in serving the compiled fixture\'s own layouts)', () => {
  /** The stand-in's answer for each contract: its artifact's ABI, name and layouts, as `edit` leaves them. */
  async function standIn(edit: (name: string, doc: Record<string, any>) => void): Promise<{ where: string; asked: string[]; close: () => Promise<void> }> {
    const byAddress = new Map<string, Record<string, any>>();
    for (const [name, file, address] of [['Vault', 'Vault.sol', scene.vault], ['Logic', 'Vault.sol', scene.logic], ['Token', 'Token.sol', scene.token]] as const) {
      const artifact = JSON.parse(readFileSync(join(dir, 'out', file, `${name}.json`), 'utf8'));
      const doc = { match: 'exact_match', chainId: '31337', address, abi: artifact.abi, compilation: { name, compilerSettings: {} }, proxyResolution: { isProxy: false, implementations: [] }, storageLayout: artifact.storageLayout, transientStorageLayout: artifact.transientStorageLayout };
      edit(name, doc);
      byAddress.set(address.toLowerCase(), doc);
    }
    const asked: string[] = [];
    const server = createServer((req, res) => {
      asked.push(req.url ?? '');
      const url = new URL(req.url ?? '/', 'http://x');
      res.setHeader('content-type', 'application/json');
      const doc = byAddress.get(url.pathname.toLowerCase().replace('/v2/contract/31337/', ''));
      if (doc !== undefined) res.end(JSON.stringify(doc));
      else if (url.pathname.startsWith('/signature-database')) res.end(JSON.stringify({ ok: true, result: { function: {}, event: {} } }));
      else {
        res.statusCode = 404;
        res.end('{}');
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return { where: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, asked, close: () => new Promise<void>((r) => server.close(() => r())) };
  }

  const fromNothing = (where: string, cache: string, view: string[] = ['--json']) =>
    runTxray([scene.deposit, '--storage', '--state', ...view, '--online', '--sourcify-url', where, '--signatures-url', where, '--rpc-url', scene.anvil.url], { TXRAY_CACHE_DIR: cache }, undefined, mkdtempSync(join(tmpdir(), 'txray-storage-nothing-')));

  test('from an empty folder: every access named as the project names it (name and decoded), --state\'s changes too; cached with the other fields', async () => {
    const project = jsonOf(await run([scene.deposit, '--storage', '--state', '--json']));
    const s = await standIn(() => undefined);
    const cache = mkdtempSync(join(tmpdir(), 'txray-storage-cache-'));
    try {
      const r = await fromNothing(s.where, cache);
      expect(r.stderr).toBe('');
      const doc = jsonOf(r);
      expect(schemaErrors(doc)).toBe('');
      expect(namesOf(doc)).toEqual(namesOf(project));
      expect([...namesOf(doc).values()].flat().filter((a) => (a as unknown[])[1] !== null).length).toBeGreaterThan(10);
      expect(doc.storageChanges).toEqual(project.storageChanges);
      const contracts = s.asked.filter((u) => u.startsWith('/v2/contract/'));
      expect(contracts.length).toBeGreaterThan(0);
      expect(contracts.every((u) => decodeURIComponent(u).includes(',storageLayout,transientStorageLayout'))).toBe(true);
      // The services gone: the cache names them the same.
      const cached = jsonOf(await fromNothing('http://127.0.0.1:1', cache));
      expect(namesOf(cached)).toEqual(namesOf(project));
      // The text says whose layout named --state's slots, and that it is a verified one.
      const text = await fromNothing(s.where, cache, ['--no-color']);
      expect(text.stdout).toContain("names from Vault's verified storage layout");
      expect(text.stdout).toContain('write byId[0]: 0 → 100');
    } finally {
      await s.close();
    }
  });

  test('a malformed layout names nothing (overlapping variables, a missing type, an offset past the slot, a prototype key): no name, no decoded value, no variables', async () => {
    const s = await standIn((name, doc) => {
      const l = doc.storageLayout;
      const t = doc.transientStorageLayout;
      if (name === 'Vault') {
        // `balances` claimed at `total`'s slot.
        l.storage[1].slot = '0';
        t.storage[0].offset = 40;
      } else if (name === 'Token') delete l.types[l.storage[0].type];
      else l.storage[0].type = 'constructor';
    });
    const cache = mkdtempSync(join(tmpdir(), 'txray-storage-cache-'));
    try {
      const r = await fromNothing(s.where, cache);
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      const doc = jsonOf(r);
      expect(schemaErrors(doc)).toBe('');
      const all = [...namesOf(doc).values()].flat() as unknown[][];
      expect(all.length).toBeGreaterThan(10);
      expect(all.filter((a) => a[1] !== null || a[2] !== null)).toEqual([]);
      expect(doc.storageChanges.length).toBeGreaterThan(0);
      expect(doc.storageChanges.filter((c: Record<string, unknown>) => c.variables !== undefined)).toEqual([]);
      // The ABIs still name the calls: only the layouts were left out.
      expect(doc.calls.function.name).toBe('deposit');
    } finally {
      await s.close();
    }
  });
});

describe('--storage against the node\'s struct logs, the optimizer on', () => {
  const optimized = mkdtempSync(join(tmpdir(), 'txray-storage-opt-'));
  let opt: StorageScene;
  beforeAll(async () => {
    opt = await storageScene(optimized, true);
  }, 120_000);
  afterAll(async () => {
    await opt?.anvil.stop();
  });

  test('every frame\'s accesses of the deposit and of the top-level revert equal the walk of anvil\'s struct logs; names as without the optimizer', async () => {
    for (const hash of [opt.deposit, opt.fail]) {
      const r = await runTxray([hash, '--storage', '--json', '--rpc-url', opt.anvil.url], {}, undefined, optimized);
      expect(actual(jsonOf(r))).toEqual(await expected(hash, opt));
    }
    const doc = jsonOf(await runTxray([opt.deposit, '--storage', '--json', '--rpc-url', opt.anvil.url], {}, undefined, optimized));
    const names = (doc.calls.storage as Array<{ name?: string }>).map((a) => a.name);
    expect(names).toContain('byId[0]');
    expect(names).toContain('balances[0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266]');
  });
});
