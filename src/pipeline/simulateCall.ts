/**
 * The simulation, the pipeline's second source: what a call would do at a block, asked of the node's
 * tracers and checked into the same raw forms and model as a mined transaction's answers. From the
 * model on, no stage knows which source it was, except by `simulation`, which says what was run.
 */
import { Interrupted, RpcFailure } from '../errors.js';
import { buildModel } from '../model/buildModel.js';
import { decodeRevert } from '../model/decodeRevert.js';
import { simulatedReceipt } from '../model/simulatedReceipt.js';
import type { InspectModel, Simulation } from '../model/types.js';
import { isAddress, isData, isHash, isQuantity, isRecord, lowerHex, toQuantity } from '../raw/hex.js';
import type { FrameLog } from '../raw/parseCallTrace.js';
import { isLog } from '../raw/parseRaw.js';
import type { Hex, RpcTransaction, StateOverride } from '../raw/types.js';
import type { RpcClient } from '../rpc/createRpcClient.js';
import { deadlineSignal } from '../rpc/deadline.js';
import type { TracerState } from '../rpc/types.js';
import { fetchSimulation, type SimulationAnswers } from '../sources/fetchSimulation.js';
import { fetchAtPosition, type PositionAnswers } from '../sources/fetchAtPosition.js';
import type { LocalRuns } from '../localRun/localRuns.js';
import type { ReplayFacts } from '../model/types.js';
import { treeOf } from './modelAnswers.js';
import type { RerunPlan } from '../sources/rerunPlan.js';
import { stateOf } from './stateOf.js';

/** A call ready to simulate: its JSON-RPC call object and where and how to run it. */
export interface CallPlan {
  readonly call: Readonly<Record<string, unknown>>;
  /** Set when the call came signed (--raw): the hash it would have once sent. */
  readonly hash: Hex | null;
  /** A number (hex), a tag, a block hash, or 'default' (pending where the node has it, else latest). */
  readonly block: string;
  readonly overrides: StateOverride | null;
  /** --tx: the mined transaction run again, and where. */
  readonly replay?: RerunPlan;
}

export interface SimulateSettings {
  readonly timeoutMs: number;
  readonly tracer: TracerState;
  readonly state: boolean;
  readonly keepAnswers: boolean;
  /** Where a run in txray's EVM is made, shared with the later stages. */
  readonly runs: LocalRuns;
}

const opt = (v: unknown): Hex | undefined => (isQuantity(v) ? v : undefined);

/** eth_simulateV1's events, checked as a receipt's logs are; a malformed one is left out with a warning. */
function outcomeLogs(logs: readonly unknown[], warn: (m: string) => void): FrameLog[] {
  const out: FrameLog[] = [];
  for (const l of logs) {
    if (isLog(l)) out.push({ traceAddress: [], position: 0, address: l.address, topics: l.topics, data: l.data });
    else warn('eth_simulateV1: a malformed event is left out.');
  }
  return out;
}

/** The call as a transaction object: what the views show as the transaction (the plan is checked input). */
function transactionOf(plan: CallPlan): RpcTransaction {
  const c = plan.call;
  if (!isAddress(c.from)) throw new Error('the call has no sender');
  return {
    hash: plan.hash,
    blockHash: null,
    blockNumber: null,
    transactionIndex: null,
    from: c.from,
    to: isAddress(c.to) ? c.to : null,
    value: opt(c.value) ?? '0x0',
    gas: opt(c.gas),
    gasPrice: opt(c.gasPrice),
    maxFeePerGas: opt(c.maxFeePerGas),
    maxPriorityFeePerGas: opt(c.maxPriorityFeePerGas),
    maxFeePerBlobGas: opt(c.maxFeePerBlobGas),
    input: isData(c.data) ? c.data : '0x',
    nonce: opt(c.nonce),
    type: opt(c.type),
    chainId: opt(c.chainId),
    accessList: c.accessList as RpcTransaction['accessList'],
    blobVersionedHashes: c.blobVersionedHashes as RpcTransaction['blobVersionedHashes'],
    authorizationList: c.authorizationList as RpcTransaction['authorizationList'],
  };
}

/**
 * --raw: a signed transaction runs only on its chain and at its sender's nonce, which a node's call
 * tracers do not check (they run it as a call). Both are asked first, in one batch, so that a stale
 * transaction is never said to succeed: a wrong chain or a nonce already used is exit 5 in the node's
 * terms; a nonce ahead is a warning (the transactions before it must land first).
 */
async function checkSigned(client: RpcClient, plan: CallPlan, timeoutMs: number): Promise<string[]> {
  const c = plan.call;
  if (!isQuantity(c.nonce) || !isAddress(c.from)) return [];
  const at = plan.block === 'default' ? 'pending' : plan.block;
  let answers: Awaited<ReturnType<RpcClient['batch']>>;
  try {
    answers = await client.batch([{ method: 'eth_getTransactionCount', params: [c.from, at] }, { method: 'eth_chainId', params: [] }], deadlineSignal(timeoutMs));
  } catch (err) {
    if (err instanceof Interrupted) throw err;
    return ["--raw: the node did not say the sender's nonce or its chain, so neither was checked."];
  }
  const [count, chain] = answers.map((a) => ('result' in a && isQuantity(a.result) ? BigInt(a.result) : null));
  const warnings: string[] = [];
  if (isQuantity(c.chainId) && chain != null && BigInt(c.chainId) !== chain) {
    throw new RpcFailure('rpc-error', `--raw: the transaction is signed for chain ${BigInt(c.chainId)}, and ${client.where} is chain ${chain}; nothing was simulated.`);
  }
  if (isQuantity(c.chainId) && chain == null) warnings.push("--raw: the node did not say its chain id, so the transaction's chain was not checked.");
  // An --override-nonce of the sender is the nonce the simulation runs with.
  const overridden = plan.overrides?.[lowerHex(c.from)]?.nonce;
  const current = overridden !== undefined ? BigInt(overridden) : count;
  if (current == null) return [...warnings, "--raw: the node did not say the sender's nonce, so it was not checked."];
  const nonce = BigInt(c.nonce);
  // Where the account's nonce comes from, in the user's terms (a block number in decimal, as --block takes it).
  const where = overridden !== undefined ? ' (--override-nonce)' : at === 'pending' ? ' (pending)' : ` at block ${isQuantity(at) ? BigInt(at).toString() : at}`;
  if (nonce < current) {
    throw new RpcFailure('rpc-error', `--raw: nonce ${nonce} is too low: the account is at ${current}${where}; the node would refuse it as sent, so nothing was simulated.`);
  }
  if (nonce > current) {
    const gap = nonce - current;
    warnings.push(`--raw: nonce ${nonce} is ahead of the account's ${current}${where}: the ${gap === 1n ? 'transaction' : `${gap} transactions`} before it must land first; simulated on today's state as if they had changed nothing.`);
  }
  return warnings;
}

/** What the model says of the re-run, before the comparison stage adds the mined outcome. */
function replayFactsOf(replay: RerunPlan, local: PositionAnswers['local'] | null): ReplayFacts {
  return {
    hash: replay.hash,
    blockNumber: replay.blockNumber,
    transactionIndex: replay.transactionIndex,
    at: replay.at,
    changed: replay.changed,
    mismatch: local === null || replay.changed ? null : local.mismatch,
    replayed: local?.earlier ?? 0,
    mined: null,
  };
}

export async function simulateCall(client: RpcClient, plan: CallPlan, s: SimulateSettings): Promise<InspectModel> {
  const checked = plan.hash !== null ? await checkSigned(client, plan, s.timeoutMs) : [];
  // --tx at its position: no node tracer starts there, so it runs here.
  const position = plan.replay?.at === 'position' ? await fetchAtPosition(s.runs, plan.call, plan.overrides, plan.replay, s.state, deadlineSignal(s.timeoutMs)) : null;
  const answers: SimulationAnswers =
    position ??
    (await fetchSimulation(client, {
      call: plan.call,
      block: plan.block,
      overrides: plan.overrides,
      tracer: s.tracer,
      state: s.state,
      estimate: plan.call.gas === undefined,
      deadline: deadlineSignal(s.timeoutMs),
      runs: s.runs,
    }));
  const warnings = [...checked, ...answers.warnings];
  const warn = (m: string): void => void warnings.push(m);
  const tx = transactionOf(plan);
  if (answers.method === 'trace_call') warn('trace_call does not report events, so none are listed, and its gas used leaves out the intrinsic gas.');
  const { tree, frameLogs } = treeOf(answers, null, warn);
  const outcome = answers.callOutcome;
  const header = answers.block;
  if (!isRecord(header) || typeof header.number !== 'string') throw new Error('the node gave no header for the block the call ran in');
  // eth_simulateV1's events belong to the call as a whole (there is no tree to place them in).
  const simulatedLogs = outcome !== null && Array.isArray(outcome.logs) ? outcomeLogs(outcome.logs, warn) : null;
  const receipt = simulatedReceipt(tx, {
    tree,
    frameLogs: frameLogs ?? simulatedLogs,
    // Read from the frame itself: a failed frame has no result in Parity's vocabulary, but the callTracer still says its gas.
    gasUsed:
      answers.method === 'debug_traceCall' && isRecord(answers.callTrace) && isQuantity(answers.callTrace.gasUsed)
        ? answers.callTrace.gasUsed
        : answers.method === 'local' && answers.recorded !== null && answers.recorded.gasUsed !== null
          ? toQuantity(answers.recorded.gasUsed)
        : outcome !== null && isQuantity(outcome.gasUsed)
          ? outcome.gasUsed
          : null,
    reverted: outcome !== null && 'revertData' in outcome,
    header,
  });
  const base = buildModel(plan.hash, answers, { tx, receipt, tree, frameLogs }, warnings, { keepAnswers: s.keepAnswers });
  const simulation: Simulation = {
    method: answers.method,
    block: { number: BigInt(header.number), hash: isHash(header.hash) ? header.hash : null, asked: plan.block === 'default' ? answers.blockParam : plan.block },
    overrides: plan.overrides,
    gasEstimate: isQuantity(answers.estimate) ? BigInt(answers.estimate) : null,
    gasEstimateError: answers.estimateError,
    signed: plan.hash !== null,
    output: outcome !== null && 'output' in outcome && isData(outcome.output) ? outcome.output : null,
    ...(plan.replay !== undefined ? { replay: replayFactsOf(plan.replay, position?.local ?? null) } : {}),
  };
  // eth_call alone: no tree to take the failure from, so it comes from the revert data eth_call returned.
  const failure =
    base.tree === null && outcome !== null && 'revertData' in outcome
      ? { error: 'execution reverted', revert: decodeRevert(isData(outcome.revertData) ? outcome.revertData : null), origin: null }
      : base.failure;
  const model: InspectModel = {
    ...base,
    simulation,
    failure,
    raw: base.raw === null ? null : { ...base.raw, receipt: null, logs: receipt.logs },
  };
  if (answers.state === null) return model;
  return { ...model, state: await stateOf(answers.state, header, model.tx, model.receipt, warn) };
}
