/**
 * The call tree of a local run is a view of the recording (evm/callTreeOf.ts), not a callTracer answer
 * made and checked again: for the same call on a real anvil it is, node for node and log for log, the
 * tree txray builds from anvil's own callTracer answer (raw/parseCallTrace.ts, model/buildCallTree.ts).
 */
import { expect, test } from 'vitest';
import { buildCallTree } from '../../src/model/buildCallTree.js';
import type { CallNode, CallTree } from '../../src/model/types.js';
import { parseCallTrace } from '../../src/raw/parseCallTrace.js';
import { runCall } from '../../src/localRun/runCall.js';
import type { Hex, StateOverride } from '../../src/raw/types.js';
import { anvilClient } from '../support/anvilClient.js';

const SENDER = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const LOGGER = '0x00000000000000000000000000000000000c0d01';
const OFF_END = '0x00000000000000000000000000000000000c0d02';
const INVALID = '0x00000000000000000000000000000000000c0d03';
const REVERTER = '0x00000000000000000000000000000000000c0d04';
const TOP = '0x00000000000000000000000000000000000c0d05';
const BENEFICIARY = '0x00000000000000000000000000000000000b0b0b';

const push20 = (a: string): string => `73${a.slice(2)}`;
const code: Record<string, Hex> = {
  // MSTORE 42 at 0, LOG1(0, 32, topic 0xaa), STOP
  [LOGGER]: '0x602a60005260aa60206000a100',
  // PUSH1 1, PUSH1 2, ADD: runs off the end
  [OFF_END]: '0x6001600201',
  // INVALID: fails without output
  [INVALID]: '0xfe',
  // MSTORE 7 at 0, REVERT(0, 32): fails with output
  [REVERTER]: '0x600760005260206000fd',
  [TOP]: `0x${[
    '60006000a0', // LOG0 before any call
    `6000600060006000600a${push20(LOGGER)}5af150`, // CALL LOGGER with 10 wei
    `60006000600060006000${push20(INVALID)}5af150`, // CALL INVALID
    `6000600060006000${push20(OFF_END)}5afa50`, // STATICCALL OFF_END
    `6000600060006000${push20(LOGGER)}5af450`, // DELEGATECALL LOGGER: its log is TOP's
    `60006000600060006000${push20(REVERTER)}5af150`, // CALL REVERTER
    '60006000a0', // LOG0 after five calls
    '600060006000f050', // CREATE of an empty contract
    `${push20(BENEFICIARY)}ff`, // SELFDESTRUCT to BENEFICIARY
  ].join('')}`,
};
const overrides: StateOverride = Object.fromEntries(Object.entries(code).map(([address, c]) => [address, { code: c, ...(address === TOP ? { balance: '0x64' } : {}) }]));
const call = { from: SENDER, to: TOP, data: '0x', gas: '0x1000000' };

/**
 * What two EVMs word differently is left out: the error's words (anvil "invalid opcode: INVALID",
 * EthereumJS "invalid opcode"; that a frame failed is kept) and the root's gas (anvil's counts what was
 * left after the intrinsic gas, txray's the call's gas limit, as geth's callTracer does).
 */
function comparable(tree: CallTree | null): unknown {
  const shown = (n: CallNode): unknown => ({ ...n, error: n.error !== null, children: n.children.map(shown), ...(n.traceAddress.length === 0 ? { gas: 'root' } : {}) });
  return tree === null ? null : { ...tree, root: shown(tree.root) };
}


const node = anvilClient();

test('a local run\'s tree and logs are the ones built from anvil\'s callTracer for the same call: calls, a staticcall, a delegatecall, a create, a selfdestruct, failures with and without output, logs between calls', async () => {
  const local = await runCall(node.client, { call, block: 'latest', overrides }, AbortSignal.timeout(20_000), {});
  const answer = await node.client.call('debug_traceCall', [call, 'latest', { tracer: 'callTracer', tracerConfig: { withLog: true }, stateOverrides: overrides }], AbortSignal.timeout(20_000));
  const warnings: string[] = [];
  const converted = parseCallTrace(answer, (m) => void warnings.push(m))!;
  const fromNode = buildCallTree(converted.entries, (m) => void warnings.push(m));
  expect(warnings).toEqual([]);
  expect(fromNode!.root.children.map((c) => c.callType ?? c.creationMethod ?? c.type)).toEqual(['call', 'call', 'staticcall', 'delegatecall', 'call', 'create', 'suicide']);
  expect(comparable(local.calls.tree)).toEqual(comparable(fromNode));
  expect(local.calls.tree.root.gas).toBe(BigInt(call.gas));
  expect(local.calls.logs).toEqual(converted.logs);
});
