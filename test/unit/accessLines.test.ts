import { describe, expect, test } from 'vitest';
import type { StorageItem } from '../../src/model/types.js';
import { accessLines, accessText, type AccessLine } from '../../src/render/accessLines.js';

const w = (n: number): `0x${string}` => `0x${n.toString(16).padStart(64, '0')}`;
const read = (slot: number, value: number, more: Partial<StorageItem> = {}): StorageItem => ({ op: 'read', address: '0x00000000000000000000000000000000000000aa', slot: w(slot), value: w(value), ...more });

describe('accessLines', () => {
  test('a run of identical reads folds into one line with a count; a different value or slot starts a new line', () => {
    const lines = accessLines([read(1, 5), read(1, 5), read(1, 5), read(1, 6), read(2, 6)], false) as AccessLine[];
    expect(lines.map((l) => l.count)).toEqual([3, 1, 1]);
    expect(accessText(lines[0]!)).toBe('read slot 1 = 5 (3 ×)');
  });

  test('past 20 lines one line says how many accesses are left; --full shows every one', () => {
    const many = Array.from({ length: 30 }, (_, i) => read(i, i));
    const lines = accessLines(many, false);
    expect(lines).toHaveLength(20);
    expect(lines.at(-1)).toEqual({ accessesLeft: 11 });
    expect(accessLines(many, true)).toHaveLength(30);
  });

  test('a write: named, before → after, transient and undone marked', () => {
    const named: StorageItem = { op: 'write', address: '0x00000000000000000000000000000000000000aa', slot: w(0), before: w(100), after: w(90), name: 'balances[0x70997970C51812dc3A010C7d01b50e0d17dc79C8]', decoded: { before: '100', after: '90' }, reverted: true };
    expect(accessText({ access: named, count: 1 })).toBe('write balances[0x7099…79C8]: 100 → 90 (undone by the revert)');
    const t: StorageItem = { op: 'write', address: '0x00000000000000000000000000000000000000aa', slot: w(0), before: w(0), after: w(1), transient: true };
    expect(accessText({ access: t, count: 1 })).toBe('write transient slot 0: 0 → 1');
    expect(accessText({ access: read(3, 1000, { name: 'total', decoded: '1000' }), count: 1 })).toBe('read total = 1,000');
  });
});
