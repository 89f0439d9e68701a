import { expect, test } from 'vitest';
import { frameKey } from '../../src/model/frameKey.js';
import { runCall } from '../../src/localRun/runCall.js';
import { LAST_JUMPS } from '../../src/evm/tracer.js';
import type { Hex, StateOverride } from '../../src/raw/types.js';
import { anvilClient } from '../support/anvilClient.js';

// Hand-assembled contracts, run by txray's EVM on a real anvil's state (their code set by overrides).
const SENDER = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const JUMPER = '0x00000000000000000000000000000000000c0de1';
const OFF_END = '0x00000000000000000000000000000000000c0de2';
const BAD_JUMP = '0x00000000000000000000000000000000000c0de3';
const INVALID = '0x00000000000000000000000000000000000c0de4';
const CALLER = '0x00000000000000000000000000000000000c0de5';

const code: Record<string, Hex> = {
  // 0 PUSH1 4, 2 JUMP, 3 INVALID, 4 JUMPDEST, 5 PUSH1 1, 7 PUSH1 11, 9 JUMPI (taken), 10 INVALID, 11 JUMPDEST,
  // 12 PUSH1 0, 14 PUSH1 3, 16 JUMPI (not taken), 17 PUSH1 0, 19 PUSH1 0, 21 REVERT
  [JUMPER]: '0x600456fe5b6001600b57fe5b600060035760006000fd',
  // PUSH1 1, PUSH1 2, ADD: runs off the end at 5
  [OFF_END]: '0x6001600201',
  // 0 PUSH1 3, 2 JUMP to a byte that is no JUMPDEST
  [BAD_JUMP]: '0x600356',
  // 0 PUSH1 0, 2 INVALID
  [INVALID]: '0x6000fe',
  // CALL each of the three with all gas, POP the result, then STOP at 102
  [CALLER]: `0x${[OFF_END, BAD_JUMP, INVALID].map((a) => `6000600060006000600073${a.slice(2)}5af150`).join('')}00`,
};
const overrides = Object.fromEntries(Object.entries(code).map(([address, c]) => [address, { code: c }]));


const run = (to: string, facts?: boolean) =>
  runCall(node.client, { call: { from: SENDER, to, data: '0x' }, block: 'latest', overrides }, AbortSignal.timeout(20_000), { exits: facts, jumps: facts });

const node = anvilClient();

test('a frame that jumps and reverts: the REVERT\'s pc, and the taken jumps only', async () => {
  const local = await run(JUMPER, true);
  expect(local.facts?.get(frameKey([]))).toEqual({ exitPc: 21, lastJumps: [4, 11], lastJumpsFrom: [2, 9], codeAddress: JUMPER });
});

test('calls that end three ways: each frame by its traceAddress, where it stopped', async () => {
  const local = await run(CALLER, true);
  expect(Object.fromEntries(local.facts ?? [])).toEqual({
    '': { exitPc: 102, lastJumps: [], lastJumpsFrom: [], codeAddress: CALLER },
    '0': { exitPc: 5, lastJumps: [], lastJumpsFrom: [], codeAddress: OFF_END },
    '1': { exitPc: 2, lastJumps: [], lastJumpsFrom: [], codeAddress: BAD_JUMP },
    '2': { exitPc: 2, lastJumps: [], lastJumpsFrom: [], codeAddress: INVALID },
  });
});

test('facts are only recorded when asked, and never change the call tree', async () => {
  const plain = await run(CALLER);
  const withFacts = await run(CALLER, true);
  expect(plain.facts).toBeNull();
  expect(withFacts.calls).toEqual(plain.calls);
  expect(JSON.stringify(plain.calls, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))).not.toMatch(/static|exitPc|lastJumps/);
});

test('the last LAST_JUMPS jumps at least are kept (twice that at most), each with where it was made', async () => {
  const LOOP = '0x00000000000000000000000000000000000c0de6';
  const start: StateOverride = { [LOOP]: { code: '0x60c85b600190038060025700' } };
  // A countdown from 200, jumping back 199 times: 0 PUSH1 200, 2 JUMPDEST, 3 PUSH1 1, 5 SWAP1, 6 SUB, 7 DUP1, 8 PUSH1 2, 10 JUMPI, 11 STOP
  const local = await runCall(node.client, { call: { from: SENDER, to: LOOP, data: '0x' }, block: 'latest', overrides: start }, AbortSignal.timeout(20_000), { exits: true, jumps: true });
  const facts = local.facts?.get('');
  expect(facts).toMatchObject({ exitPc: 11, codeAddress: LOOP });
  const kept = facts!.lastJumps.length;
  expect(kept).toBeGreaterThanOrEqual(LAST_JUMPS);
  expect(kept).toBeLessThan(2 * LAST_JUMPS);
  expect(facts!.lastJumps).toEqual(Array(kept).fill(2));
  expect(facts!.lastJumpsFrom).toEqual(Array(kept).fill(10));
});
