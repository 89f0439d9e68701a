/**
 * Each input's overlay of the ABI index: it reads the shared index, what is added to it only it sees,
 * and the shared index cannot change under the inputs reading it.
 */
import { parseAbi, toEventSelector, toFunctionSelector } from 'viem';
import { describe, expect, test } from 'vitest';
import { AbiIndex } from '../../src/decode/abiIndex.js';

const DB = new URL('../../dist/sigdb/', import.meta.url);
const OFFLINE = parseAbi(['function transfer(address to, uint256 amount)']);
const VERIFIED = parseAbi(['function transfer(address recipient, uint256 value)', 'function bump(uint256 by)', 'event Counted(uint256 counter)']);
const TRANSFER = toFunctionSelector('transfer(address,uint256)');
const BUMP = toFunctionSelector('bump(uint256)');
const COUNTED = toEventSelector('Counted(uint256)');
const NOWHERE = toFunctionSelector('txrayNowhere(uint256,bytes32,address)');

function shared(): AbiIndex {
  const index = new AbiIndex(DB);
  index.add(OFFLINE, 'abi', 'Token');
  return index;
}

describe('an input\'s overlay of the index', () => {
  test('reads the shared candidates, then its own after the offline ABIs (before the database)', () => {
    const base = shared();
    const before = base.functionCandidates(TRANSFER);
    const mine = base.overlay();
    expect(mine.functionCandidates(TRANSFER)).toEqual(before);
    mine.add(VERIFIED, 'sourcify', 'Logic');
    const named = mine.functionCandidates(TRANSFER).map((c) => [c.source, c.item.inputs.map((p) => p.name).join(',')]);
    expect(named[0]).toEqual(['abi', 'to,amount']);
    expect(named[1]).toEqual(['sourcify', 'recipient,value']);
    expect(named.slice(2).every(([source]) => source !== 'abi' && source !== 'sourcify')).toBe(true);
    expect(mine.functionCandidates(BUMP)[0]).toMatchObject({ source: 'sourcify', contract: 'Logic' });
    expect(mine.eventCandidates(COUNTED, 0)[0]).toMatchObject({ source: 'sourcify', contract: 'Logic' });
  });

  test('what one input adds, neither the shared index nor another input sees, whenever they ask', () => {
    const base = shared();
    const [a, b] = [base.overlay(), base.overlay()];
    const bumpBefore = b.functionCandidates(BUMP);
    const countedBefore = b.eventCandidates(COUNTED, 0);
    a.add(VERIFIED, 'sourcify', 'Logic');
    a.addSignatures('functions', NOWHERE, ['txrayNowhere(uint256,bytes32,address)']);
    expect(a.functionCandidates(NOWHERE)).toHaveLength(1);
    for (const index of [b, base, base.overlay()]) {
      expect(index.functionCandidates(BUMP)).toEqual(bumpBefore);
      expect(index.functionCandidates(BUMP).some((c) => c.source === 'sourcify')).toBe(false);
      expect(index.eventCandidates(COUNTED, 0)).toEqual(countedBefore);
      expect(index.functionCandidates(NOWHERE)).toEqual([]);
      expect(index.functionsNamed('bump').some((c) => c.source === 'sourcify')).toBe(false);
    }
  });

  test('the shared index is read-only once an input reads it', () => {
    const base = shared();
    base.overlay();
    expect(() => base.add(VERIFIED, 'sourcify')).toThrow(/overlay/);
    expect(() => base.addSignatures('functions', NOWHERE, ['txrayNowhere(uint256,bytes32,address)'])).toThrow(/overlay/);
  });
});
