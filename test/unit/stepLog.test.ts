import { beforeAll, expect, test } from 'vitest';
import { receipt, send } from '../../scripts/lib/scenarios.mjs';
import { MAX_STEPS } from '../../src/evm/stepLog.js';
import { checkedMined } from '../../src/localRun/checkedMined.js';
import { runMined } from '../../src/localRun/runMined.js';
import { anvilClient } from '../support/anvilClient.js';

// Hand-assembled contracts on a real anvil (started with --steps-tracing, so that its debug_traceTransaction
// answers with struct logs), run again by txray's EVM with steps recorded.
const OUTER = '0x00000000000000000000000000000000000c0de7';
const INNER = '0x00000000000000000000000000000000000c0de8';
// OUTER: MSTORE 42 at 0, SSTORE 7 at slot 1, CALL INNER with memory [0, 32) as input, POP, SLOAD slot 0, POP, STOP
const OUTER_CODE = `0x602a60005260076001556000600060206000600073${INNER.slice(2)}5af150600054500000`;
// INNER: its input's first word written at 32, RETURN memory [0, 64)
const INNER_CODE = '0x60003560205260406000f3';
/** The opcodes those run, by the names the struct logger gives them. */
const OPCODES: Record<string, number> = { PUSH1: 0x60, MSTORE: 0x52, SSTORE: 0x55, PUSH20: 0x73, GAS: 0x5a, CALL: 0xf1, POP: 0x50, SLOAD: 0x54, STOP: 0x00, CALLDATALOAD: 0x35, RETURN: 0xf3 };

interface StructLog {
  pc: number;
  op: string;
  gas: number;
  depth: number;
  stack: string[];
  memory?: string[];
  storage?: Record<string, string>;
}

let hash: string;
const node = anvilClient(['--steps-tracing']);

beforeAll(async () => {
  await node.anvil.rpc('anvil_setCode', [OUTER, OUTER_CODE]);
  await node.anvil.rpc('anvil_setCode', [INNER, INNER_CODE]);
  hash = await send(node.anvil.rpc, { to: OUTER, data: '0x', gas: '0x30000' });
  await receipt(node.anvil.rpc, hash);
});

const hexWords = (memory: Uint8Array): string => Buffer.from(memory).toString('hex');
const word = (v: string | bigint): string => (typeof v === 'bigint' ? v.toString(16) : v.replace(/^0x/, '')).padStart(64, '0');

/** The transaction and its receipt as the local run takes them (through raw/'s checks). */
function minedOf(tx: Record<string, unknown>, r: Record<string, unknown>) {
  const checked = checkedMined(tx, r, hash as `0x${string}`);
  if ('pending' in checked) throw new Error(`${hash} is not mined`);
  return checked.mined;
}

/** The transaction's steps as txray's EVM records them, and anvil's struct logs of it. */
async function recordedAndTraced(): Promise<{ readonly steps: NonNullable<Awaited<ReturnType<typeof runMined>>['steps']>; readonly logs: StructLog[] }> {
  const tx = (await node.anvil.rpc('eth_getTransactionByHash', [hash])) as Record<string, unknown>;
  const r = (await node.anvil.rpc('eth_getTransactionReceipt', [hash])) as Record<string, unknown>;
  const local = await runMined(node.client, minedOf(tx, r), AbortSignal.timeout(20_000), { steps: true }, null, null);
  const traced = (await node.anvil.rpc('debug_traceTransaction', [hash, { enableMemory: true }])) as { structLogs: StructLog[] };
  return { steps: local.steps!, logs: traced.structLogs };
}

test('steps recorded by txray\'s EVM are anvil\'s struct logs: pc, opcode, depth, gas, stack, memory and the storage written', async () => {
  const { steps, logs } = await recordedAndTraced();
  expect(logs.length).toBeGreaterThan(20);
  expect(steps.truncated).toBe(false);
  expect(steps.count).toBe(logs.length);
  // Both frames ran: depth 1 and 2.
  expect(new Set(logs.map((l) => l.depth))).toEqual(new Set([1, 2]));
  logs.forEach((l, i) => {
    expect({ i, pc: steps.pc[i], op: steps.op[i], depth: steps.depth[i], gas: steps.gas[i] }).toEqual({ i, pc: l.pc, op: OPCODES[l.op], depth: l.depth, gas: l.gas });
    expect(steps.stackAt(i).map((v) => v.toString(16))).toEqual(l.stack.map((v) => BigInt(v).toString(16)));
    expect(hexWords(steps.memoryAt(i))).toBe((l.memory ?? []).map(word).join(''));
  });
  // The SSTORE's word, as the struct logger shows it at that step.
  const stored = logs.findIndex((l) => l.op === 'SSTORE');
  expect(steps.storage.map((s) => ({ step: s.step, address: s.address, slot: word(s.slot), value: word(s.value) }))).toEqual([
    { step: stored, address: OUTER, ...Object.entries(logs[stored]!.storage!).map(([slot, value]) => ({ slot: word(slot), value: word(value) }))[0]! },
  ]);
});

test('each step knows its frame (by traceAddress), and each SLOAD the word it read, as the struct logger shows it', async () => {
  const { steps, logs } = await recordedAndTraced();
  expect(steps.frames.map((f) => f.traceAddress)).toEqual([[], [0]]);
  const inner = logs.findIndex((l) => l.depth === 2);
  expect(steps.frames[1]!.first).toBe(inner);
  for (const [i, l] of logs.entries()) expect({ i, frame: steps.frame[i] }).toEqual({ i, frame: l.depth - 1 });
  const loaded = logs.findIndex((l) => l.op === 'SLOAD');
  const [slot, value] = Object.entries(logs[loaded]!.storage!).find(([k]) => BigInt(k) === 0n)!;
  expect(steps.reads.map((s) => ({ step: s.step, address: s.address, slot: word(s.slot), value: word(s.value) }))).toEqual([{ step: loaded, address: OUTER, slot: word(slot), value: word(value) }]);
});

test('steps are off unless asked for, and the cap is documented', async () => {
  const tx = (await node.anvil.rpc('eth_getTransactionByHash', [hash])) as Record<string, unknown>;
  const r = (await node.anvil.rpc('eth_getTransactionReceipt', [hash])) as Record<string, unknown>;
  const local = await runMined(node.client, minedOf(tx, r), AbortSignal.timeout(20_000), {}, null, null);
  expect(local.steps).toBeNull();
  expect(local.mismatch).toEqual([]);
  expect(MAX_STEPS).toBeGreaterThan(0);
});
