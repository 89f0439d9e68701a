/**
 * `txray call`'s network stage: the block to simulate at, then in parallel the call tree, the state
 * diff (--state) and a gas estimate. Nothing is ever sent to the chain: every method here is read-only.
 *
 *   call tree   debug_traceCall with the callTracer (withLog: events where they were emitted) and
 *               stateOverrides (geth, anvil, Reth, Erigon, Nethermind, Besu); where a node has only
 *               Parity traces, trace_call with ["trace"] (+ "stateDiff"), the overrides as its fourth
 *               parameter (Erigon, Reth, Nethermind); with neither, eth_call: the outcome, no tree.
 *   state       the prestateTracer in diff mode through debug_traceCall, or trace_call's stateDiff.
 *   gas         eth_estimateGas when no gas limit was given (a revert there is no failure: the trace says why).
 */
import { Interrupted, RpcFailure } from '../errors.js';
import { escapeShort } from '../raw/escape.js';
import { isAddress, isQuantity, isRecord, lowerHex } from '../raw/hex.js';
import type { RecordedCalls } from '../evm/callTreeOf.js';
import type { StateAnswer, StateOverride } from '../raw/types.js';
import type { Bundle } from './fetchBundle.js';
import { isMethodNotFound, isTracerRefused, type RpcClient } from '../rpc/createRpcClient.js';
import { messageOf, type TracerState } from '../rpc/types.js';
import type { LocalRuns } from '../localRun/localRuns.js';
import { type Rung, walkLadder } from './tracerLadder.js';

/** Which node method answered the simulation. */
export type SimulationMethod = 'debug_traceCall' | 'trace_call' | 'local' | 'eth_simulateV1' | 'eth_call';

export interface SimulationRequest {
  /** The call object as JSON-RPC takes it (from, to, value, input, gas, …). */
  readonly call: Readonly<Record<string, unknown>>;
  /** A block number (hex), a tag, or a block hash; 'default' asks for pending and falls back to latest. */
  readonly block: string;
  /** geth-style state overrides, by address; null without any. */
  readonly overrides: StateOverride | null;
  readonly tracer: TracerState;
  readonly state: boolean;
  /** Ask eth_estimateGas (no --gas-limit given). */
  readonly estimate: boolean;
  readonly deadline: AbortSignal;
  /** Where a run in txray's EVM is made, shared with the later stages (the source locations, --internal). */
  readonly runs: LocalRuns;
}

export interface SimulationAnswers extends Bundle {
  readonly method: SimulationMethod;
  /** The block tag or number the calls were made at (what the node was asked). */
  readonly blockParam: string;
  /** eth_estimateGas's answer verbatim; null when not asked or when it failed (estimateError says why). */
  readonly estimate: unknown;
  readonly estimateError: string | null;
  /**
   * The outcome without a tracer: its output or its revert data; with eth_simulateV1 also the events
   * it emitted (verbatim, not yet checked) and its gas used.
   */
  readonly callOutcome: ({ readonly output: string } | { readonly revertData: string | null; readonly message: string }) & { readonly logs?: unknown; readonly gasUsed?: unknown } | null;
}

const CALL_TRACER = { tracer: 'callTracer', tracerConfig: { withLog: true } };
const PRESTATE = { tracer: 'prestateTracer', tracerConfig: { diffMode: true } };

const isBlockHash = (s: string): boolean => /^0x[0-9a-fA-F]{64}$/.test(s);

/** The block's header: by hash, by number or tag; 'default' is pending where the node has it, else latest. */
async function fetchHeader(client: RpcClient, block: string, deadline: AbortSignal): Promise<{ header: Record<string, unknown>; param: string }> {
  const ask = async (tag: string): Promise<unknown> =>
    isBlockHash(tag) ? client.call('eth_getBlockByHash', [tag, false], deadline) : client.call('eth_getBlockByNumber', [tag, false], deadline);
  if (block === 'default') {
    try {
      const pending = await ask('pending');
      if (isRecord(pending) && isQuantity(pending.number)) return { header: pending, param: 'pending' };
    } catch (err) {
      if (err instanceof Interrupted) throw err;
    }
    return fetchHeader(client, 'latest', deadline);
  }
  const header = await ask(block);
  if (!isRecord(header) || !isQuantity(header.number)) {
    // Said as the user wrote it: a number in decimal (--block 999, not 0x3e7), a tag or a hash as given.
    const shown = /^0x[0-9a-f]{1,16}$/i.test(block) ? BigInt(block).toString() : block;
    throw new RpcFailure('rpc-error', `${client.where} has no block ${shown}; nothing was simulated.`, { method: 'eth_getBlockByNumber' });
  }
  // A named block is pinned by its number, so every request below sees the same state; pending has none yet.
  return { header, param: block === 'pending' ? 'pending' : header.number };
}

/** What the simulation's requests share: the node, the request, and the block they are all made at. */
interface Asking {
  readonly client: RpcClient;
  readonly req: SimulationRequest;
  readonly param: string;
}

/** debug_traceCall with a tracer's config; the overrides go inside the config, as geth takes them. */
const traceCall = ({ client, req, param }: Asking, config: Record<string, unknown>): Promise<unknown> =>
  client.call('debug_traceCall', [req.call, param, req.overrides === null ? config : { ...config, stateOverrides: req.overrides }], req.deadline);

/** trace_call, eth_call and eth_estimateGas take the overrides as their last parameter, where there are any. */
const withOverrides = (req: SimulationRequest, params: unknown[]): unknown[] => (req.overrides === null ? params : [...params, req.overrides]);

/** A settled answer for later: an interrupt is passed on when awaited, any other failure becomes `fallback(err)`. */
function aside<T, U>(answer: Promise<T>, fallback: (err: unknown) => U): Promise<T | U> {
  const settled = answer.catch((err: unknown) => {
    if (err instanceof Interrupted) throw err;
    return fallback(err);
  });
  settled.catch(() => undefined);
  return settled;
}

/** What the rung that answered found. */
interface Simulated {
  readonly method: SimulationMethod;
  readonly callTrace: unknown;
  readonly recorded: RecordedCalls | null;
  readonly trace: unknown;
  readonly traceNote: string | null;
  readonly state: StateAnswer | null;
  readonly callOutcome: SimulationAnswers['callOutcome'];
}

const NOTHING = { callTrace: null, recorded: null, trace: null, traceNote: null, state: null, callOutcome: null } as const;

/** eth_call's outcome: its output, or its revert data. */
async function ethCall({ client, req, param }: Asking): Promise<Simulated> {
  try {
    const output = await client.call('eth_call', withOverrides(req, [req.call, param]), req.deadline);
    return { ...NOTHING, method: 'eth_call', callOutcome: { output: typeof output === 'string' ? output : '0x' } };
  } catch (err) {
    // A revert is an answer (code 3 with the revert data in geth and anvil; some nodes give only the text).
    if (err instanceof RpcFailure && err.kind === 'rpc-error' && (err.rpcCode === 3 || /revert/i.test(err.message))) return { ...NOTHING, method: 'eth_call', callOutcome: { revertData: err.data ?? null, message: err.message } };
    throw err;
  }
}

/** eth_simulateV1's answer for the one call; throws where the node has none (eth_call decides then). */
async function simulateV1({ client, req, param }: Asking): Promise<Simulated> {
  const blocks = await client.call('eth_simulateV1', [{ blockStateCalls: [{ calls: [req.call], ...(req.overrides === null ? {} : { stateOverrides: req.overrides }) }] }, param], req.deadline);
  const calls = Array.isArray(blocks) && isRecord(blocks[0]) && Array.isArray(blocks[0].calls) ? blocks[0].calls : [];
  const c = calls[0];
  if (!isRecord(c) || typeof c.returnData !== 'string') throw new Error('eth_simulateV1 gave no result for the call');
  const base = { logs: c.logs, gasUsed: c.gasUsed };
  return { ...NOTHING, method: 'eth_simulateV1', callOutcome: c.status === '0x1' ? { ...base, output: c.returnData } : { ...base, revertData: c.returnData, message: 'execution reverted' } };
}

/** The call run here on the node's state (evm/localTrace.ts, loaded only now). */
async function simulateHere(a: Asking, lacking: readonly string[]): Promise<Simulated> {
  const { client, req, param } = a;
  const local = await req.runs.of({ kind: 'call', call: req.call, block: param, overrides: req.overrides }, req.deadline).result({ stateDiff: req.state });
  const why = req.tracer.mode === 'local' ? 'as --tracer local asked' : `${client.where} serves ${lacking.map((m) => `no ${m}`).join(' and ')}`;
  return { ...NOTHING, method: 'local', recorded: local.calls, state: local.stateDiff === null ? null : { raw: local.stateDiff, source: 'local' }, traceNote: `simulated locally on the node's state (${why})` };
}

/**
 * The rungs --tracer asks for, from the top: the callTracer, Parity's trace_call, a run here (auto, or
 * --tracer local), and below them the outcome without a tree: eth_simulateV1 (where the node has it, also
 * the events and the gas used), else eth_call.
 */
function simulationLadder(a: Asking): Rung<Simulated>[] {
  const { client, req } = a;
  const mode = req.tracer.mode;
  const rungs: Rung<Simulated>[] = [];
  if (mode === 'auto' || mode === 'geth') {
    rungs.push({
      method: 'debug_traceCall',
      ask: async () => ({ ...NOTHING, method: 'debug_traceCall', callTrace: await traceCall(a, CALL_TRACER) }),
      // Hardhat has debug_traceCall but only its opcode tracer (-32602 for the callTracer).
      down: (err) => (isTracerRefused(err) ? { lacks: isMethodNotFound(err) ? 'debug_traceCall' : 'callTracer' } : null),
    });
  }
  if (mode === 'auto' || mode === 'parity') {
    rungs.push({
      method: 'trace_call',
      ask: async () => {
        const answer = await client.call('trace_call', withOverrides(req, [req.call, req.state ? ['trace', 'stateDiff'] : ['trace'], a.param]), req.deadline);
        const traceNote = mode === 'auto' ? `from trace_call: ${client.where} does not serve debug_traceCall` : null;
        return { ...NOTHING, method: 'trace_call', trace: isRecord(answer) ? answer.trace : null, state: req.state ? { raw: answer, source: 'trace_call' } : null, traceNote };
      },
      down: (err) => (isMethodNotFound(err) ? { lacks: 'trace_call' } : null),
    });
  }
  // No call tracer on the node (Hardhat, public endpoints), or --tracer local: run it here.
  if (mode === 'auto' || mode === 'local') {
    rungs.push({
      method: 'local',
      ask: (lacking) => simulateHere(a, lacking),
      // The node's state could not be had (a pruned node): eth_call still tells the outcome.
      down: (err) => ({ lacks: 'state for a local run', warning: `the call could not be simulated here (${escapeShort(messageOf(err), 240)}).` }),
    });
  }
  rungs.push({ method: 'eth_simulateV1', ask: () => simulateV1(a), down: () => ({}) }, { method: 'eth_call', ask: () => ethCall(a) });
  return rungs;
}

/**
 * A call with data to an address without code runs nothing and "succeeds" (cast call refuses it): its
 * code is asked beside the trace and the outcome says so. Not for a precompile (0x01–0x100: no code, but
 * it runs) nor an address whose code the overrides set. The address asked about, or null.
 */
function codeless({ client, req, param }: Asking): { readonly address: string | null; readonly noCode: Promise<boolean> } {
  const call = req.call;
  const target = isAddress(call.to) && typeof call.data === 'string' && call.data !== '0x' ? lowerHex(call.to) : null;
  const address = target !== null && BigInt(target) > 0x100n && req.overrides?.[target]?.code === undefined ? target : null;
  if (address === null) return { address, noCode: Promise.resolve(false) };
  return { address, noCode: aside(client.call('eth_getCode', [address, param], req.deadline).then((code) => code === '0x'), () => false) };
}

export async function fetchSimulation(client: RpcClient, req: SimulationRequest): Promise<SimulationAnswers> {
  const { header, param } = await fetchHeader(client, req.block, req.deadline);
  const a: Asking = { client, req, param };
  const warnings: string[] = [];
  const estimate = req.estimate
    ? aside(client.call('eth_estimateGas', withOverrides(req, [req.call, param]), req.deadline).then((v) => ({ value: v, error: null as string | null })), (err) => ({ value: null, error: messageOf(err) }))
    : Promise.resolve({ value: null, error: null });
  const target = codeless(a);
  const mode = req.tracer.mode;
  // The prestateTracer rides beside the callTracer; trace_call brings its own stateDiff.
  const prestate =
    req.state && (mode === 'auto' || mode === 'geth')
      ? aside(traceCall(a, PRESTATE).then((raw): StateAnswer => ({ raw, source: 'debug_traceCall' })), (err) => ({ failed: messageOf(err) }))
      : null;

  const climb = await walkLadder(simulationLadder(a), req.tracer, warnings);
  if (climb.kind !== 'answered') throw climb.kind === 'failed' ? climb.error : new Error('no method answered the simulation');
  const { method, callTrace, recorded, trace, traceNote, callOutcome } = climb.answer;
  let state = climb.answer.state;
  if (method === 'eth_call' || method === 'eth_simulateV1') {
    const why = mode === 'none' ? 'as --tracer none asked' : `${client.where} serves ${climb.lacking.map((m) => `no ${m}`).join(' and ')}`;
    warnings.push(`simulated with ${method} (${why}): the outcome${method === 'eth_simulateV1' ? ' and its events' : ''} only, no call tree${req.state ? ' and no state changes' : ''}.`);
  }
  if (prestate !== null && method === 'debug_traceCall') {
    const answer = await prestate;
    if ('failed' in answer) warnings.push(`${answer.failed}; state changes are not shown.`);
    else state = answer;
  }
  const gas = await estimate;
  if (await target.noCode) warnings.push(`${target.address} has no code at block ${isRecord(header) && typeof header.number === 'string' ? BigInt(header.number) : param}: the call ran nothing and returned no data (cast call refuses such a call).`);
  return {
    transaction: req.call,
    receipt: null,
    trace,
    callTrace,
    recorded,
    traceSource: method === 'eth_call' || method === 'eth_simulateV1' ? null : method,
    traceNote,
    reexecution: null,
    state,
    block: header,
    warnings,
    method,
    blockParam: param,
    estimate: gas.value,
    estimateError: gas.error,
    callOutcome,
  };
}
