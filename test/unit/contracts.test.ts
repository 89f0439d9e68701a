import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { compileBank, compileScenarios, compileSearcher } from '../../scripts/compile-contracts.mjs';

test('the committed contract artifacts match a fresh compile of contracts/Scenarios.sol', () => {
  const committed = JSON.parse(readFileSync(new URL('../../contracts/out/Scenarios.json', import.meta.url), 'utf8'));
  expect(compileScenarios()).toEqual(committed);
});

test('the committed Searcher artifacts (the Uniswap v2 scenarios\' Hopper) match a fresh compile of contracts/Searcher.sol', () => {
  const committed = JSON.parse(readFileSync(new URL('../../contracts/out/Searcher.json', import.meta.url), 'utf8'));
  expect(compileSearcher()).toEqual(committed);
});

test('the committed Bank project artifacts (immutables) match a fresh compile of contracts/Bank.sol', () => {
  const committed = JSON.parse(readFileSync(new URL('../../contracts/out/Bank.json', import.meta.url), 'utf8'));
  expect(compileBank()).toEqual(committed);
  expect(Object.keys(committed.contracts.Bank.deployedBytecode.immutableReferences).length).toBe(2);
});
