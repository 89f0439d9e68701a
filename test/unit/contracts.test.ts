import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { compileBank, compileScenarios } from '../../scripts/compile-contracts.mjs';

test('the committed contract artifacts match a fresh compile of contracts/Scenarios.sol', () => {
  const committed = JSON.parse(readFileSync(new URL('../../contracts/out/Scenarios.json', import.meta.url), 'utf8'));
  expect(compileScenarios()).toEqual(committed);
});

test('the committed Bank project artifacts (immutables) match a fresh compile of contracts/Bank.sol', () => {
  const committed = JSON.parse(readFileSync(new URL('../../contracts/out/Bank.json', import.meta.url), 'utf8'));
  expect(compileBank()).toEqual(committed);
  expect(Object.keys(committed.contracts.Bank.deployedBytecode.immutableReferences).length).toBe(2);
});
