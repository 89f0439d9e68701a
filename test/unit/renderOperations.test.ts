/** The Batch section's calls (render/renderOperations.ts): each with its arguments, cut to "(…)" past a line's worth, never "()" for a call that took some. */
import { describe, expect, test } from 'vitest';
import { makeChalk } from '../../src/render/style.js';
import { operationRows } from '../../src/render/renderOperations.js';
import type { BatchCall, InspectModel } from '../../src/model/types.js';

const TOKEN = '0xdc64a140aa3e981100a9beca4e685f962f0cf6c9';
const TO = '0x000000000000000000000000000000000000c0de';

async function batchText(calls: BatchCall[]): Promise<string> {
  const model = { operations: [{ kind: 'batchCall', account: TOKEN, success: true, traceAddress: null, action: null, via: 'aggregate3', calls }] } as unknown as InspectModel;
  return [...operationRows(model, await makeChalk(0))].join('');
}

describe('the Batch section', () => {
  test('a call with short arguments shows them; one without any shows "()"; one no ABI names shows no function', async () => {
    const text = await batchText([
      { to: TOKEN, value: 0n, function: 'transfer', args: [{ name: 'to', type: 'address', value: TO }, { name: 'amount', type: 'uint256', value: '5' }], success: true },
      { to: TOKEN, value: 0n, function: 'totalSupply', args: [], success: true },
      { to: TOKEN, value: 0n, function: null, success: true },
    ]);
    expect(text).toContain('.transfer(to: 0x0000…c0de, amount: 5)  ✔');
    expect(text).toContain('.totalSupply()  ✔');
    expect(text).toContain('3. 0xDc64…F6C9  ✔');
  });

  test('arguments past a line\'s worth are cut to "(…)", never dropped to "()"', async () => {
    const long = { name: 'memo', type: 'string', value: 'x'.repeat(200) };
    const text = await batchText([{ to: TOKEN, value: 0n, function: 'depositFor', args: [{ name: 'to', type: 'address', value: TO }, long], success: true }]);
    expect(text).toContain('.depositFor(…)  ✔');
    expect(text).not.toContain('x'.repeat(100));
  });
});
