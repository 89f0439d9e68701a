/**
 * The tracer's storage record (evm/storageTrace.ts) and the exact mapping keys it gives (nameStorage's
 * hashedKeys): a failing frame marks its writes and its children's, a run keeps at most its cap and says
 * so; a nested mapping's slot is named from the run's KECCAK256 inputs alone, with no key to guess from.
 */
import { readFileSync } from 'node:fs';
import { encodeAbiParameters, getAddress, hexToBigInt, hexToBytes, keccak256 } from 'viem';
import { describe, expect, test } from 'vitest';
import { hashedKeys, nameSlots, parseStorageLayout } from '../../src/decode/nameStorage.js';
import { type StorageAccess, StorageRecording } from '../../src/evm/storageTrace.js';

const write = (slot: bigint): StorageAccess => ({ op: 'write', transient: false, address: '0x00000000000000000000000000000000000000aa', slot, value: 1n, before: 0n, reverted: false });

describe('StorageRecording', () => {
  test('a failing frame marks its own writes and its children\'s, not its caller\'s', () => {
    const r = new StorageRecording();
    r.enter('');
    r.add(write(1n));
    r.enter('0');
    r.add(write(2n));
    r.enter('0,0');
    r.add(write(3n));
    r.leave(false);
    r.leave(true);
    r.add(write(4n));
    r.leave(false);
    const done = r.done();
    const marks = (k: string) => done.byFrame.get(k)!.map((a) => a.reverted);
    expect(marks('')).toEqual([false, false]);
    expect(marks('0')).toEqual([true]);
    expect(marks('0,0')).toEqual([true]);
    expect(done.capped).toBeNull();
  });

  test('past its cap a run keeps the first accesses and says how many', () => {
    const r = new StorageRecording();
    r.enter('');
    for (let i = 0; i < 100_001; i++) r.add(write(BigInt(i)));
    r.leave(false);
    const done = r.done();
    expect(done.capped).toBe(100_000);
    expect(done.byFrame.get('')).toHaveLength(100_000);
  });
});

describe('hashedKeys', () => {
  const layout = parseStorageLayout(JSON.parse(readFileSync(new URL('../../contracts/out/Scenarios.json', import.meta.url), 'utf8')).contracts.Vault.storageLayout)!;
  const owner = '0x00000000000000000000000000000000000a11ce';
  const spender = '0x0000000000000000000000000000000000000b0b';

  test('allowance[owner][spender] from the run\'s two hashes, with no candidate key at all', () => {
    const inner = encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [owner, 4n]);
    const innerSlot = hexToBigInt(keccak256(inner));
    const outer = encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [spender, innerSlot]);
    const slot = hexToBigInt(keccak256(outer));
    const preimages = new Map([[innerSlot, hexToBytes(inner)], [slot, hexToBytes(outer)]]);
    const named = nameSlots(layout, new Map([[slot, { before: 0n, after: 5n }]]), { addresses: [], numbers: [], hashed: hashedKeys(preimages) });
    expect(named.get(slot)?.map((p) => p.path)).toEqual([`allowance[${getAddress(owner)}][${getAddress(spender)}]`]);
  });
});
