/**
 * `txray call --tx` at the transaction's own position: the simulation's answers made from a run in
 * txray's EVM (the local-run service's re-run: the block's earlier transactions first, the state
 * overrides under the whole block), in the form fetchSimulation gives them, so the same stages follow.
 * No node tracer can start a call between two transactions of a block, so this always runs here.
 */
import type { LocalTrace } from '../evm/localTrace.js';
import type { LocalRun, LocalRuns } from '../localRun/localRuns.js';
import { isRecord, toQuantity } from '../raw/hex.js';
import type { StateOverride } from '../raw/types.js';
import type { RerunPlan } from './rerunPlan.js';
import type { SimulationAnswers } from './fetchSimulation.js';

/** The mined transaction with the call's changes: its sender, gas limit, value and input. */
function changedTransaction(tx: Readonly<Record<string, unknown>>, call: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return { ...tx, from: call.from, gas: call.gas ?? tx.gas, value: call.value ?? tx.value, input: call.data ?? tx.input, data: call.data ?? tx.input };
}

export interface PositionAnswers extends SimulationAnswers {
  readonly local: Pick<LocalTrace, 'mismatch' | 'earlier'>;
}

/** The re-run of `rerun` with `call`'s changes at its position (null where it has none: pending). */
export function rerunAt(runs: LocalRuns, call: Readonly<Record<string, unknown>>, overrides: StateOverride | null, rerun: RerunPlan, deadline: AbortSignal): LocalRun | null {
  const { receipt, blockNumber, transactionIndex } = rerun;
  if (receipt === null || blockNumber === null || transactionIndex === null) return null;
  const mined = { tx: changedTransaction(rerun.tx, call), receipt, at: { blockNumber, index: transactionIndex } };
  return runs.of({ kind: 'rerun', hash: rerun.hash, mined, overrides, rerun: { changed: rerun.changed, anotherSender: rerun.anotherSender } }, deadline);
}

export async function fetchAtPosition(runs: LocalRuns, call: Readonly<Record<string, unknown>>, overrides: StateOverride | null, rerun: RerunPlan, state: boolean, deadline: AbortSignal): Promise<PositionAnswers> {
  const run = rerunAt(runs, call, overrides, rerun, deadline);
  if (run === null) throw new Error(`transaction ${rerun.hash} has no position to run at`);
  const trace = await run.result({ stateDiff: state });
  const block = trace.block;
  const blockNumber = rerun.blockNumber ?? 0n;
  if (!isRecord(block)) throw new Error(`the node has no block ${blockNumber}`);
  return {
    transaction: call,
    receipt: null,
    trace: null,
    callTrace: null,
    recorded: trace.calls,
    traceSource: 'local',
    traceNote: `run in txray's own EVM at the transaction's position in block ${blockNumber} (no node tracer starts a call between a block's transactions)`,
    reexecution: null,
    state: trace.stateDiff === null ? null : { raw: trace.stateDiff, source: 'local' },
    block,
    warnings: [],
    method: 'local',
    blockParam: toQuantity(blockNumber),
    estimate: null,
    estimateError: null,
    callOutcome: null,
    local: { mismatch: trace.mismatch, earlier: trace.earlier },
  };
}
