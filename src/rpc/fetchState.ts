/**
 * --state's reads: the state diff (trace_replayTransaction's stateDiff, else the prestateTracer in
 * diff mode, detected once per run like the call trace's tracer), and the transaction's block header
 * (its base fee and coinbase split the fee). Failures become warnings: state changes add to the view.
 */
import { Interrupted } from '../errors.js';
import type { Hex, StateAnswer } from '../raw/types.js';
import { isMethodNotFound, type RpcClient } from './createRpcClient.js';
import { messageOf, type TracerState } from './types.js';

const PRESTATE = { tracer: 'prestateTracer', tracerConfig: { diffMode: true } };

/**
 * --tracer parity asks only trace_replayTransaction, geth only the prestateTracer; auto (and none,
 * which concerns the call trace) asks trace_replayTransaction and, where the node does not have it,
 * the prestateTracer from then on.
 */
export async function fetchState(client: RpcClient, hash: Hex, tracer: TracerState, deadline: AbortSignal, warnings: string[]): Promise<StateAnswer> {
  const none: StateAnswer = { raw: null, source: null };
  // Re-executed locally (forced, or the node has no callTracer): the diff comes from the same run.
  if (tracer.mode === 'local' || tracer.callTracerMissing === true) return none;
  const viaPrestate = async (): Promise<StateAnswer> => {
    try {
      return { raw: await client.call('debug_traceTransaction', [hash, PRESTATE], deadline), source: 'debug_traceTransaction' };
    } catch (err) {
      if (err instanceof Interrupted) throw err;
      const why = isMethodNotFound(err)
        ? tracer.mode === 'geth'
          ? `debug_traceTransaction (prestateTracer) is not available on ${client.where} (method not found)`
          : `neither trace_replayTransaction nor debug_traceTransaction (prestateTracer) is available on ${client.where} (method not found)`
        : messageOf(err);
      warnings.push(`${why}; state changes are not shown.`);
      return none;
    }
  };
  if (tracer.mode === 'geth' || (tracer.mode !== 'parity' && tracer.replayMissing)) return viaPrestate();
  try {
    return { raw: await client.call('trace_replayTransaction', [hash, ['stateDiff']], deadline), source: 'trace_replayTransaction' };
  } catch (err) {
    if (err instanceof Interrupted) throw err;
    if (!isMethodNotFound(err)) {
      warnings.push(`${messageOf(err)}; state changes are not shown.`);
      return none;
    }
    if (tracer.mode === 'parity') {
      warnings.push(`trace_replayTransaction is not available on ${client.where} (method not found); state changes are not shown.`);
      return none;
    }
    tracer.replayMissing = true;
    return viaPrestate();
  }
}

/** The header of the receipt's block (base fee, coinbase), or null: the fee split then goes without it. */
export async function fetchBlockHeader(client: RpcClient, blockHash: unknown, deadline: AbortSignal, warnings: string[]): Promise<unknown> {
  if (typeof blockHash !== 'string') return null;
  try {
    return await client.call('eth_getBlockByHash', [blockHash, false], deadline);
  } catch (err) {
    if (err instanceof Interrupted) throw err;
    warnings.push(`${messageOf(err)}; the fee is not split into burned and priority parts.`);
    return null;
  }
}
