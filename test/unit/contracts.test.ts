import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { compileScenarios } from '../../scripts/compile-contracts.mjs';

test('the committed contract artifacts match a fresh compile of contracts/Scenarios.sol', () => {
  const committed = JSON.parse(readFileSync(new URL('../../contracts/out/Scenarios.json', import.meta.url), 'utf8'));
  expect(compileScenarios()).toEqual(committed);
});
