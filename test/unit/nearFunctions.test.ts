/** Suggestions for a function name no loaded ABI has (decode/nearFunctions.ts), from real loaded ABIs. */
import type { AbiFunction } from 'abitype';
import { parseAbi } from 'viem';
import { describe, expect, test } from 'vitest';
import type { Candidate } from '../../src/decode/abiIndex.js';
import { nearFunctions } from '../../src/decode/nearFunctions.js';

const loaded = (lines: string[], source: Candidate<AbiFunction>['source']): Array<Candidate<AbiFunction>> =>
  (parseAbi(lines) as readonly AbiFunction[]).map((item) => ({ item, source, contract: 'Vault' }));

const vault = loaded(['function withdraw(uint256 amount)', 'function deposit(uint256 amount)', 'function setFee(uint16 newFee)', 'function owner() view returns (address)'], 'project');
const weth = loaded(['function withdraw(uint256 wad)', 'function withdraw(address to, uint256 amount)'], 'builtin');

describe('nearFunctions', () => {
  test.each([
    ['an extra letter', 'widthdraw', 1, ['withdraw(uint256)', 'withdraw(address,uint256)']],
    ['two letters swapped', 'depsoit', 1, ['deposit(uint256)']],
    ['another case', 'SetFee', 1, ['setFee(uint16)']],
    ['a missing letter', 'ownr', 0, ['owner()']],
  ])('%s: %s', (_why, name, args, expected) => {
    expect(nearFunctions(name, [...vault, ...weth], args)).toEqual(expected);
  });

  test('those taking as many arguments as given come first; one signature once, whichever ABI has it', () => {
    expect(nearFunctions('withdrw', [...weth, ...vault], 2)).toEqual(['withdraw(address,uint256)', 'withdraw(uint256)']);
  });

  test('nothing near: nothing suggested (never a made-up signature); the exact name is not a suggestion', () => {
    expect(nearFunctions('frobnicate', [...vault, ...weth], 1)).toEqual([]);
    expect(nearFunctions('fee', vault, 0)).toEqual([]);
  });
});
