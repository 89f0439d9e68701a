import fc from 'fast-check';
import { expect, test } from 'vitest';
import { jsonDepthExceeds } from '../../src/rpc/readBody.js';

/** The depth of a parsed value, iteratively. */
function depthOf(v: unknown): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[v, 0]];
  while (stack.length) {
    const [x, d] = stack.pop()!;
    if (typeof x === 'object' && x !== null) {
      max = Math.max(max, d + 1);
      for (const y of Object.values(x)) stack.push([y, d + 1]);
    }
  }
  return max;
}

test('property: the scan agrees with the real depth, strings with brackets, quotes and backslashes included', () => {
  fc.assert(
    fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: 9 }), (v, limit) => {
      expect(jsonDepthExceeds(JSON.stringify(v), limit)).toBe(depthOf(v) > limit);
    }),
    { numRuns: 2000 },
  );
});

test.each([
  ['[[["]]]"]]]', 2, true],
  ['["\\\\"]', 1, false],
  ['["\\"[[["]', 1, false],
  [`${'['.repeat(5000)}${']'.repeat(5000)}`, 4096, true],
])('%s with limit %i → %s', (text, limit, exceeds) => expect(jsonDepthExceeds(text, limit)).toBe(exceeds));
