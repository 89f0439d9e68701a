/**
 * The hand-written signatures (scripts/lib/handWrittenAbis.mjs): each hashes to the selector it names,
 * names its public source and every parameter, and is in the shipped protocol set, so the decoder names
 * a call with it (parameter names included) where no other source does.
 */
import { parseAbiItem, toEventSelector, toFunctionSelector, type AbiEvent, type AbiFunction } from 'viem';
import { expect, test } from 'vitest';
import { AbiIndex } from '../../src/decode/abiIndex.js';
import { decodeCallData } from '../../src/decode/callData.js';
import { decodeLog } from '../../src/decode/decodeLogs.js';
import type { Hex } from '../../src/raw/types.js';

interface Entry {
  contract: string;
  source: string;
  selector: string;
  signature: string;
}

const load = async (): Promise<readonly Entry[]> => (await import('../../scripts/lib/handWrittenAbis.mjs')).HAND_WRITTEN as readonly Entry[];

test('every hand-written signature hashes to its selector, names its source and every parameter', async () => {
  const list = await load();
  expect(list.length).toBeGreaterThan(10);
  for (const e of list) {
    const item = parseAbiItem(e.signature) as AbiFunction | AbiEvent;
    expect(item.type === 'event' ? toEventSelector(item) : toFunctionSelector(item), e.signature).toBe(e.selector);
    expect(e.source).toMatch(/^github\.com\/[\w.-]+\/[\w.-]+ \(.+\)$/);
    expect(e.contract).toMatch(/^[A-Za-z0-9_.-]+$/);
    const names = (ps: readonly { name?: string; components?: readonly unknown[] }[]): string[] =>
      ps.flatMap((p) => [p.name ?? '', ...names((p.components ?? []) as typeof ps)]);
    expect(names(item.inputs).filter((n) => n === ''), e.signature).toEqual([]);
  }
  expect(new Set(list.map((e) => e.selector)).size).toBe(list.length);
});

test('the shipped protocol set names calls by the hand-written signatures, with parameter names', async () => {
  const index = new AbiIndex(new URL('../../dist/sigdb/', import.meta.url));
  // A Maple loan manager's assetsUnderManagement(), as the recorded blocks call it 48 times, unnamed
  // by every other shipped source; then an AllowanceHolder.exec encoded here.
  const maple = decodeCallData(index, '0xf6de0bd2');
  expect(maple?.decoded).toMatchObject({ name: 'assetsUnderManagement', source: 'protocol', contract: 'LoanManager' });
  for (const e of await load()) {
    const item = parseAbiItem(e.signature) as AbiFunction | AbiEvent;
    const candidates =
      item.type === 'event' ? index.eventCandidates(e.selector as Hex, item.inputs.filter((p) => p.indexed).length) : index.functionCandidates(e.selector as Hex);
    expect(candidates.find((c) => c.item.name === item.name && c.source === 'protocol'), e.signature).toBeDefined();
  }
  // An event: Taiko's BlockVerified, with its two indexed parameters from the topics.
  const verified = decodeLog(index, {
    address: '0x06a9ab27c7e2255df1815e6cc0168d7755feb19a',
    topics: ['0xdecbd2c61cbda254917d6fd4c980a470701e8f9f1b744f6ad163ca70ca5db289', `0x${(7n).toString(16).padStart(64, '0')}`, `0x${'00'.repeat(12)}${'44'.repeat(20)}`],
    data: `0x${'aa'.repeat(32)}${'bb'.repeat(32)}${(3n).toString(16).padStart(64, '0')}`,
  });
  expect(verified).toMatchObject({ name: 'BlockVerified', source: 'protocol', contract: 'TaikoL1' });
  expect(verified?.args.map((a) => [a.name, a.value])).toEqual([['blockId', '7'], ['prover', `0x${'44'.repeat(20)}`], ['blockHash', `0x${'aa'.repeat(32)}`], ['stateRoot', `0x${'bb'.repeat(32)}`], ['tier', '3']]);
  const exec = `0x2213bc0b${'00'.repeat(12)}${'11'.repeat(20)}${'00'.repeat(12)}${'22'.repeat(20)}${(5n).toString(16).padStart(64, '0')}${'00'.repeat(12)}${'33'.repeat(20)}${(0xa0).toString(16).padStart(64, '0')}${(4).toString(16).padStart(64, '0')}${'ab'.repeat(4)}${'00'.repeat(28)}` as Hex;
  const decoded = decodeCallData(index, exec)?.decoded;
  expect(decoded?.name).toBe('exec');
  expect(decoded?.args.map((a) => a.name)).toEqual(['operator', 'token', 'amount', 'target', 'data']);
  expect(decoded?.args[2]?.value).toBe('5');
  expect(decoded?.args[4]?.value).toBe('0xabababab');
});
