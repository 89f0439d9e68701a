import { expect, test } from 'vitest';
import { ExitCode, worstExitCode } from '../../src/exitCodes.js';

test.each([
  ['none', [], 0],
  ['all successes', [0, 0], 0],
  ['a partial among successes', [0, 6, 0], 6],
  ['a partial beside a reverted transaction: reverted', [6, 1], 1],
  ['a reverted transaction beside a partial: reverted', [1, 6], 1],
  ['a partial beside a node failure: the node failure', [6, 5, 0], 5],
  ['a partial beside one not found', [3, 6], 3],
  ['an internal error beats all', [6, 5, 70, 1], 70],
])('several hashes, one code: %s', (_what, codes, expected) => {
  expect(worstExitCode(codes)).toBe(expected);
});

test('partial is its own documented code', () => {
  expect(ExitCode.partial).toBe(6);
});
