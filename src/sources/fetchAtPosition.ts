/**
 * `txray call --tx` at the transaction's own position: the simulation's answers made from a run in
 * txray's EVM (runAtPosition.ts), in the form fetchSimulation gives them, so the same stages follow.
 * No node tracer can start a call between two transactions of a block, so this always runs here.
 */
import type { LocalTrace } from '../evm/localTrace.js';
import { isRecord } from '../raw/hex.js';
import type { RpcClient } from '../rpc/createRpcClient.js';
import type { ReplayPlan } from './replayPlan.js';
import type { SimulationAnswers } from './fetchSimulation.js';
import { runAtPosition } from './runAtPosition.js';

/** The mined transaction with the call's changes: its sender, gas limit, value and input. */
export function changedTransaction(tx: Readonly<Record<string, unknown>>, call: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return { ...tx, from: call.from, gas: call.gas ?? tx.gas, value: call.value ?? tx.value, input: call.data ?? tx.input, data: call.data ?? tx.input };
}

export interface PositionAnswers extends SimulationAnswers {
  readonly local: Pick<LocalTrace, 'mismatch' | 'replayed'>;
}

export async function fetchAtPosition(client: RpcClient, call: Readonly<Record<string, unknown>>, overrides: Readonly<Record<string, unknown>> | null, replay: ReplayPlan, state: boolean, deadline: AbortSignal): Promise<PositionAnswers> {
  const tx = changedTransaction(replay.tx, call);
  const { trace, block } = await runAtPosition(client, tx, replay.receipt!, overrides, deadline, { storage: state }, { changed: replay.changed, anotherSender: replay.anotherSender });
  if (!isRecord(block)) throw new Error(`the node has no block ${replay.blockNumber}`);
  return {
    transaction: call,
    receipt: null,
    trace: null,
    callTrace: null,
    recorded: trace.calls,
    traceSource: 'local',
    traceNote: `run in txray's own EVM at the transaction's position in block ${replay.blockNumber} (no node tracer starts a call between a block's transactions)`,
    reexecution: null,
    state: trace.stateDiff === null ? null : { raw: trace.stateDiff, source: 'local' },
    block,
    warnings: [],
    method: 'local',
    blockParam: `0x${replay.blockNumber!.toString(16)}`,
    estimate: null,
    estimateError: null,
    callOutcome: null,
    local: { mismatch: trace.mismatch, replayed: trace.replayed },
  };
}
