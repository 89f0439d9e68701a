/**
 * How much of real mainnet data the built-in ABIs and the signature database name on their own
 * (README figure): every call entry with a selector and every log in test/fixtures.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { AbiIndex } from '../../src/decode/abiIndex.js';
import { decodeCallData, decodeLog } from '../../src/decode/decodeModel.js';
import type { Hex, RpcLog } from '../../src/raw/types.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/real/', import.meta.url));

test('built-in data names most calls and logs of the recorded mainnet transactions', () => {
  const index = new AbiIndex(new URL('../../dist/sigdb/', import.meta.url));
  index.addBuiltins();
  const calls = { total: 0, named: 0, bySource: {} as Record<string, number> };
  const logs = { total: 0, named: 0 };
  for (const name of readdirSync(FIXTURES)) {
    const dir = join(FIXTURES, name);
    if (existsSync(join(dir, 'trace.json'))) {
      for (const e of JSON.parse(readFileSync(join(dir, 'trace.json'), 'utf8'))) {
        const input: string | undefined = e.type === 'call' ? e.action.input : undefined;
        if (input === undefined || input.length < 10) continue;
        calls.total++;
        const d = decodeCallData(index, input as Hex);
        if (d) {
          calls.named++;
          calls.bySource[d.decoded.source] = (calls.bySource[d.decoded.source] ?? 0) + 1;
        }
      }
    }
    if (existsSync(join(dir, 'receipt.json'))) {
      for (const l of JSON.parse(readFileSync(join(dir, 'receipt.json'), 'utf8')).logs as RpcLog[]) {
        logs.total++;
        if (decodeLog(index, l)) logs.named++;
      }
    }
  }
  const share = (a: number, b: number) => `${((100 * a) / b).toFixed(1)}% (${a}/${b})`;
  console.log(`decode coverage: calls with a selector ${share(calls.named, calls.total)} ${JSON.stringify(calls.bySource)}; logs ${share(logs.named, logs.total)}`);
  // A regression guard at the level measured when this was written (README: 79.9% of calls, 72.9% of
  // logs); every call not named has a selector that none of the shipped sources knows.
  expect(calls.total).toBeGreaterThan(800);
  expect(calls.named / calls.total).toBeGreaterThanOrEqual(0.79);
  expect(logs.named / logs.total).toBeGreaterThanOrEqual(0.72);
});
