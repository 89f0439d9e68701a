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
import { isQuantity, isRecord } from '../raw/hex.js';
import type { SourceAnswers, StateAnswer } from '../raw/types.js';
import { isMethodNotFound, isTracerRefused, type RpcClient } from './createRpcClient.js';
import { loadLocalTrace } from './loadLocalTrace.js';
import { messageOf, type TracerState } from './types.js';

/** Which node method answered the simulation. */
export type SimulationMethod = 'debug_traceCall' | 'trace_call' | 'local' | 'eth_simulateV1' | 'eth_call';

export interface SimulationRequest {
  /** The call object as JSON-RPC takes it (from, to, value, input, gas, …). */
  readonly call: Readonly<Record<string, unknown>>;
  /** A block number (hex), a tag, or a block hash; 'default' asks for pending and falls back to latest. */
  readonly block: string;
  /** geth-style state overrides, by address; null without any. */
  readonly overrides: Readonly<Record<string, unknown>> | null;
  readonly tracer: TracerState;
  readonly state: boolean;
  /** Ask eth_estimateGas (no --gas-limit given). */
  readonly estimate: boolean;
  readonly deadline: AbortSignal;
}

export interface SimulationAnswers extends SourceAnswers {
  readonly method: SimulationMethod;
  /** The block tag or number the calls were made at (what the node was asked). */
  readonly blockParam: string;
  /** eth_estimateGas's answer verbatim; null when not asked or when it failed (estimateError says why). */
  readonly estimate: unknown;
  readonly estimateError: string | null;
  /** eth_call's outcome, when no tracer answered: its output, or its revert data. */
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

export async function fetchSimulation(client: RpcClient, req: SimulationRequest): Promise<SimulationAnswers> {
  const { header, param } = await fetchHeader(client, req.block, req.deadline);
  const warnings: string[] = [];
  const overrides = req.overrides;
  const traceCall = (config: Record<string, unknown>): Promise<unknown> =>
    client.call('debug_traceCall', [req.call, param, overrides === null ? config : { ...config, stateOverrides: overrides }], req.deadline);
  // trace_call, eth_call and eth_estimateGas take the overrides as their last parameter, where there are any.
  const withOverrides = (params: unknown[]): unknown[] => (overrides === null ? params : [...params, overrides]);
  const parityCall = (): Promise<unknown> => client.call('trace_call', withOverrides([req.call, req.state ? ['trace', 'stateDiff'] : ['trace'], param]), req.deadline);
  const ethCall = async (): Promise<SimulationAnswers['callOutcome']> => {
    try {
      const output = await client.call('eth_call', withOverrides([req.call, param]), req.deadline);
      return { output: typeof output === 'string' ? output : '0x' };
    } catch (err) {
      // A revert is an answer (code 3 with the revert data in geth and anvil; some nodes give only the text).
      if (err instanceof RpcFailure && err.kind === 'rpc-error' && (err.rpcCode === 3 || /revert/i.test(err.message))) return { revertData: err.data ?? null, message: err.message };
      throw err;
    }
  };
  /** eth_simulateV1's answer for the one call, or null where the node has none (or it fails: eth_call decides then). */
  const simulateV1 = async (): Promise<SimulationAnswers['callOutcome']> => {
    try {
      const blocks = await client.call('eth_simulateV1', [{ blockStateCalls: [{ calls: [req.call], ...(overrides === null ? {} : { stateOverrides: overrides }) }] }, param], req.deadline);
      const calls = Array.isArray(blocks) && isRecord(blocks[0]) && Array.isArray(blocks[0].calls) ? blocks[0].calls : [];
      const c = calls[0];
      if (!isRecord(c) || typeof c.returnData !== 'string') return null;
      const base = { logs: c.logs, gasUsed: c.gasUsed };
      return c.status === '0x1' ? { ...base, output: c.returnData } : { ...base, revertData: c.returnData, message: 'execution reverted' };
    } catch (err) {
      if (err instanceof Interrupted) throw err;
      return null;
    }
  };
  const estimate = req.estimate
    ? client.call('eth_estimateGas', withOverrides([req.call, param]), req.deadline).then(
        (v) => ({ value: v, error: null }),
        (err: unknown) => {
          if (err instanceof Interrupted) throw err;
          return { value: null, error: messageOf(err) };
        },
      )
    : Promise.resolve({ value: null, error: null });
  estimate.catch(() => undefined);

  // A call with data to an address without code runs nothing and "succeeds" (cast call refuses it):
  // its code is asked beside the trace and the outcome says so. Not for a precompile (0x01–0x100:
  // no code, but it runs) nor an address whose code the overrides set.
  const target = typeof req.call.to === 'string' && typeof req.call.data === 'string' && req.call.data !== '0x' ? req.call.to.toLowerCase() : null;
  const overridden = target === null ? undefined : overrides?.[target];
  const checked = target !== null && BigInt(target) > 0x100n && !(isRecord(overridden) && overridden.code !== undefined) ? target : null;
  const noCode =
    checked === null
      ? Promise.resolve(false)
      : client.call('eth_getCode', [checked, param], req.deadline).then(
          (code) => code === '0x',
          (err: unknown) => {
            if (err instanceof Interrupted) throw err;
            return false;
          },
        );
  noCode.catch(() => undefined);

  const mode = req.tracer.mode;
  const geth = mode === 'auto' || mode === 'geth';
  let refused = false;
  // The prestateTracer rides beside the callTracer; trace_call brings its own stateDiff.
  const prestate: Promise<StateAnswer | { readonly failed: string }> | null =
    req.state && geth
      ? traceCall(PRESTATE).then(
          (raw) => ({ raw, source: 'debug_traceCall' as const }),
          (err: unknown) => {
            if (err instanceof Interrupted) throw err;
            return { failed: messageOf(err) };
          },
        )
      : null;
  prestate?.catch(() => undefined);

  let method: SimulationMethod = 'eth_call';
  let callTrace: unknown = null;
  let trace: unknown = null;
  let traceNote: string | null = null;
  let state: StateAnswer | null = null;
  let callOutcome: SimulationAnswers['callOutcome'] = null;
  const missing: string[] = [];
  if (geth) {
    try {
      callTrace = await traceCall(CALL_TRACER);
      method = 'debug_traceCall';
    } catch (err) {
      // Hardhat has debug_traceCall but only its opcode tracer (-32602 for the callTracer).
      if (!isTracerRefused(err)) throw err;
      refused = !isMethodNotFound(err);
      missing.push(refused ? 'callTracer' : 'debug_traceCall');
    }
  }
  if (method === 'eth_call' && (mode === 'auto' || mode === 'parity')) {
    try {
      const answer = await parityCall();
      trace = isRecord(answer) ? answer.trace : null;
      if (req.state) state = { raw: answer, source: 'trace_call' };
      method = 'trace_call';
      if (mode === 'auto') traceNote = `from trace_call: ${client.where} does not serve debug_traceCall`;
    } catch (err) {
      if (!isMethodNotFound(err)) throw err;
      missing.push('trace_call');
    }
  }
  // No call tracer on the node (Hardhat, public endpoints), or --tracer local: run it here.
  if (method === 'eth_call' && (mode === 'local' || (mode === 'auto' && missing.length > 0))) {
    try {
      const { simulateLocally } = await loadLocalTrace();
      const local = await simulateLocally(client, req.call, param, overrides, { state: req.state, deadline: req.deadline });
      callTrace = local.callTrace;
      if (local.stateDiff !== null) state = { raw: local.stateDiff, source: 'local' };
      method = 'local';
      traceNote = `simulated locally on the node's state (${mode === 'local' ? 'as --tracer local asked' : `${client.where} serves ${missing.map((m) => `no ${m}`).join(' and ')}`})`;
    } catch (err) {
      if (err instanceof Interrupted) throw err;
      // The node's state could not be had (a pruned node): eth_call still tells the outcome.
      warnings.push(`the call could not be simulated here (${escapeShort(messageOf(err), 240)}).`);
      missing.push('state for a local run');
    }
  }
  if (method === 'eth_call') {
    // eth_simulateV1 (where the node has it) also tells the events and the gas used; else eth_call.
    const simulated = await simulateV1();
    if (simulated !== null) {
      callOutcome = simulated;
      method = 'eth_simulateV1';
    } else callOutcome = await ethCall();
    const why = mode === 'none' ? 'as --tracer none asked' : `${client.where} serves ${missing.map((m) => `no ${m}`).join(' and ')}`;
    warnings.push(`simulated with ${method} (${why}): the outcome${method === 'eth_simulateV1' ? ' and its events' : ''} only, no call tree${req.state ? ' and no state changes' : ''}.`);
  }
  if (prestate !== null && method === 'debug_traceCall' && state === null) {
    const answer = await prestate;
    if ('failed' in answer) warnings.push(`${answer.failed}; state changes are not shown.`);
    else state = answer;
  }
  const gas = await estimate;
  if (await noCode) warnings.push(`${checked} has no code at block ${isRecord(header) && typeof header.number === 'string' ? BigInt(header.number) : param}: the call ran nothing and returned no data (cast call refuses such a call).`);
  return {
    transaction: req.call,
    receipt: null,
    trace,
    callTrace,
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
