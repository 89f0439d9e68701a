/**
 * --storage: every storage read and write of each call, from txray's own run, against anvil's own
 * opcode trace (an anvil started with --steps-tracing; the expected lists from an independent walk of its
 * struct logs, test/support/storageProject.ts), on a project compiled with solc from npm with its storage
 * layouts (test/fixtures/storage).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { StructLog } from '../support/debugProject.js';
import { jsonOf, runTxray } from '../support/runTxray.js';
import { schemaErrors } from '../support/schema.js';
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
async function expected(hash: string): Promise<Map<string, WalkedAccess[]>> {
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

  test('--debug: exactly one local run, which keeps storage', async () => {
    const r = await run([scene.deposit, '--storage', '--state', '--debug']);
    const lines = r.stderr.split('\n').filter((l) => l.includes('local run:'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('storage');
  });
});
