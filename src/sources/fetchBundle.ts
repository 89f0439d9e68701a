/**
 * The only network stage: the three reads, in parallel, as single requests (not a JSON-RPC batch:
 * several providers refuse trace/debug methods inside batches and geth caps batch sizes).
 */
import type { RecordedCalls } from '../evm/callTreeOf.js';
import { Interrupted } from '../errors.js';
import { escapeShort } from '../raw/escape.js';
import { isHash, isQuantity, isRecord } from '../raw/hex.js';
import type { Hex, SourceAnswers, StateAnswer } from '../raw/types.js';
import { isMethodNotFound, isTracerRefused, type RpcClient } from '../rpc/createRpcClient.js';
import { messageOf, type TracerState } from '../rpc/types.js';
import { checkedMined } from '../localRun/checkedMined.js';
import type { LocalRuns } from '../localRun/localRuns.js';
import type { MinedInput } from '../localRun/runMined.js';
import { type Rung, walkLadder } from './tracerLadder.js';

/**
 * The answers of a lookup by hash: the node's, and where txray ran the transaction itself (traceSource
 * local), the call tree it recorded, already the model's (no node's answer to check).
 */
export type Bundle = SourceAnswers & { readonly recorded: RecordedCalls | null };

const CALL_TRACER = { tracer: 'callTracer', tracerConfig: { withLog: true } };

export interface FetchOptions {
  readonly tracer: TracerState;
  /** --state: also the state diff and the block header. */
  readonly state?: boolean;
  /** Bounds this lookup, retries included. */
  readonly deadline: AbortSignal;
  /** Called with the receipt's result as soon as it arrives (the trace is usually still on its way). */
  readonly onReceipt?: (receipt: unknown) => void;
  /** Likewise with the transaction. */
  readonly onTransaction?: (tx: unknown) => void;
  /** Where a run in txray's EVM is made, shared with the later stages (the source locations, --internal). */
  readonly runs: LocalRuns;
}

const blockHashOf = (v: unknown): string | undefined => {
  const h = isRecord(v) ? v.blockHash : undefined;
  return typeof h === 'string' ? h.toLowerCase() : undefined;
};

export type TraceResult = Pick<Bundle, 'trace' | 'callTrace' | 'recorded' | 'traceSource' | 'traceNote' | 'reexecution'> & {
  /** No tracer on the node (or --tracer local): re-execute the transaction here once it and its receipt are in. */
  readonly local?: true;
};
export const NO_TRACE: TraceResult = { trace: null, callTrace: null, recorded: null, traceSource: null, traceNote: null, reexecution: null };

const LOCAL: TraceResult = { ...NO_TRACE, local: true };

/**
 * The rungs --tracer asks for, from the top: auto takes trace_transaction (Erigon, Reth, Nethermind,
 * Besu), else the callTracer (geth, anvil), else re-executes here; the others take only their own.
 */
function traceLadder(client: RpcClient, hash: Hex, opts: FetchOptions, beforeLocal: () => void): Rung<TraceResult>[] {
  const mode = opts.tracer.mode;
  const parity: Rung<TraceResult> = {
    method: 'trace_transaction',
    ask: async () => ({ ...NO_TRACE, trace: await client.call('trace_transaction', [hash], opts.deadline), traceSource: 'trace_transaction' }),
  };
  const geth = (note: string, asked: () => void = () => undefined): Rung<TraceResult> => ({
    method: 'debug_traceTransaction',
    ask: async () => {
      const callTrace = client.call('debug_traceTransaction', [hash, CALL_TRACER], opts.deadline);
      asked();
      return { ...NO_TRACE, callTrace: await callTrace, traceSource: 'debug_traceTransaction', traceNote: note };
    },
  });
  const local: Rung<TraceResult> = {
    method: 'local',
    ask: async () => {
      beforeLocal();
      return LOCAL;
    },
  };
  if (mode === 'none') return [];
  if (mode === 'local') return [local];
  if (mode === 'parity') return [parity];
  if (mode === 'geth') return [geth('from debug_traceTransaction (callTracer), as --tracer geth asked')];
  return [
    { ...parity, flag: 'traceMissing', down: (err) => (isMethodNotFound(err) ? { lacks: 'trace_transaction' } : null) },
    // No callTracer on this node (Hardhat refuses it; public endpoints refuse debug_*): re-execute here.
    // Below it only the local run is left: what it needs first is asked beside it (beforeLocal).
    { ...geth(`from debug_traceTransaction (callTracer): ${client.where} does not serve trace_transaction`, beforeLocal), flag: 'callTracerMissing', down: (err) => (isTracerRefused(err) ? {} : null) },
    local,
  ];
}

/** A failed rung's warning: the tree is not shown, the transaction and receipt still are. */
function traceFailure(client: RpcClient, method: string, err: unknown): string {
  if (method === 'trace_transaction') {
    if (isMethodNotFound(err)) return `trace_transaction is not available on ${client.where} (method not found); the call tree is not shown.`;
    return `${messageOf(err).replace(/^trace_transaction: /, 'trace_transaction failed: ')}; the call tree is not shown.`;
  }
  const why = isMethodNotFound(err) ? `debug_traceTransaction is not available on ${client.where} either (method not found)` : messageOf(err);
  return `${why}; the call tree is not shown.`;
}

/**
 * Ask for the trace the mode wants. Failures that concern only the trace become warnings (the
 * transaction and receipt are still worth showing); an interrupt is passed on.
 */
async function fetchTrace(client: RpcClient, hash: Hex, opts: FetchOptions, warnings: string[], beforeLocal: () => void): Promise<TraceResult> {
  const climb = await walkLadder(traceLadder(client, hash, opts, beforeLocal), opts.tracer, warnings);
  if (climb.kind === 'answered') return climb.answer;
  if (climb.kind === 'failed') {
    // Where a rung above was missing, that is said first.
    for (const m of climb.lacking) warnings.push(`${m} is not available on ${client.where} (method not found).`);
    warnings.push(traceFailure(client, climb.method, climb.error));
  }
  return NO_TRACE;
}

async function fetchOnce(client: RpcClient, hash: Hex, opts: FetchOptions): Promise<Bundle> {
  const warnings: string[] = [];
  const txAnswer = client.call('eth_getTransactionByHash', [hash], opts.deadline).then((tx) => {
    opts.onTransaction?.(tx);
    return tx;
  });
  const receiptAnswer = client.call('eth_getTransactionReceipt', [hash], opts.deadline).then((receipt) => {
    opts.onReceipt?.(receipt);
    return receipt;
  });
  // --state: the diff in parallel with the rest; the block once the receipt names it.
  const stateWarnings: string[] = [];
  // Its code is loaded only when asked for (a lookup without --state loads none of it).
  const stateModule = opts.state ? import('../rpc/fetchState.js') : null;
  const stateAnswer = stateModule ? stateModule.then((m) => m.fetchState(client, hash, opts.tracer, opts.deadline, stateWarnings)) : Promise.resolve(null);
  const blockAnswer = stateModule
    ? Promise.all([stateModule, receiptAnswer]).then(([m, r]) => m.fetchBlockHeader(client, isRecord(r) ? r.blockHash : undefined, opts.deadline, stateWarnings))
    : Promise.resolve(null);
  // Where only the local run is left below the tracer about to be asked (or is all that is left), what
  // that run reads first is asked beside it, once the transaction and its receipt are in: a node without
  // traces then costs no round trip more than one with them. A node whose callTracer answers was sent
  // those asks for nothing (the block with its transactions, the chain id, an access list, a few reads).
  const beforeLocal = (): void => {
    void Promise.all([txAnswer, receiptAnswer])
      .then(([tx, receipt]) => {
        const mined = runnableMined(hash, tx, receipt);
        if (mined !== null) opts.runs.of({ kind: 'mined', hash, mined }, opts.deadline).prepare();
      })
      .catch(() => undefined);
  };
  const [tx, receipt, trace, state, block] = await Promise.allSettled([txAnswer, receiptAnswer, fetchTrace(client, hash, opts, warnings, beforeLocal), stateAnswer, blockAnswer]);
  for (const r of [tx, receipt, trace, state, block]) if (r.status === 'rejected' && r.reason instanceof Interrupted) throw r.reason;
  if (tx.status === 'rejected') throw tx.reason;
  if (receipt.status === 'rejected') throw receipt.reason;
  let traced: TraceResult = trace.status === 'fulfilled' ? trace.value : NO_TRACE;
  let stateDiff = state.status === 'fulfilled' ? state.value : null;
  if (traced.local === true) {
    const local = await reexecute(client, hash, tx.value, receipt.value, opts, warnings);
    traced = local.trace;
    // The diff from the same run, where the node gave none.
    if (local.state !== null && (stateDiff === null || stateDiff.source === null)) {
      stateDiff = local.state;
      stateWarnings.length = 0;
    }
  }
  // A transaction with no receipt (pending, unknown) has no state to show: nothing to warn about.
  if (receipt.value !== null) warnings.push(...stateWarnings);
  return {
    transaction: tx.value,
    receipt: receipt.value,
    trace: traced.trace,
    callTrace: traced.callTrace,
    recorded: traced.recorded,
    traceSource: traced.traceSource,
    traceNote: traced.traceNote,
    reexecution: traced.reexecution,
    state: stateDiff,
    block: block.status === 'fulfilled' ? block.value : null,
    warnings,
  };
}

/**
 * An L2 transaction that an L1 EVM would run differently (OP Stack deposits and L1 data fees, Arbitrum's
 * ArbOS), by what the answers carry; null for anything else. Only fields of the right form count, as in
 * model/chain.ts's familyOf after validation: a number where a quantity belongs is not a deposit's mark
 * (validation warns about it; the transaction is re-executed as the L1 one it otherwise is).
 */
function l2Kind(tx: unknown, receipt: unknown): string | null {
  const t = isRecord(tx) ? tx : {};
  const r = isRecord(receipt) ? receipt : {};
  const type = isQuantity(t.type) ? BigInt(t.type) : isQuantity(r.type) ? BigInt(r.type) : null;
  if (type === 0x7en || isQuantity(r.depositNonce) || isHash(t.sourceHash)) return 'an OP Stack deposit';
  if (isQuantity(r.l1Fee) || isQuantity(r.l1GasUsed)) return 'an OP Stack transaction (it pays an L1 data fee)';
  if (isQuantity(r.gasUsedForL1) || (type !== null && type >= 0x64n && type <= 0x6an)) return 'an Arbitrum transaction';
  return null;
}

/** What reexecute would run of these answers (null: nothing, or what it warns about; checked again there). */
function runnableMined(hash: Hex, tx: unknown, receipt: unknown): MinedInput | null {
  if (!isRecord(receipt) || !isRecord(tx) || l2Kind(tx, receipt) !== null) return null;
  try {
    const checked = checkedMined(tx, receipt, hash);
    return 'pending' in checked ? null : checked.mined;
  } catch {
    return null;
  }
}

/**
 * The third source: the transaction run here on the node's state at its parent block (evm/localTrace.ts,
 * loaded only now): its call tree as it recorded it, and its state diff as the prestateTracer would. A pending or unknown
 * transaction has nothing to run; a failure is one warning, and the receipt's view stays.
 */
export async function reexecute(client: RpcClient, hash: Hex, tx: unknown, receipt: unknown, opts: FetchOptions, warnings: string[]): Promise<{ trace: TraceResult; state: StateAnswer | null }> {
  const none = { trace: NO_TRACE, state: null };
  const forced = opts.tracer.mode === 'local';
  // Pending or unknown: nothing ran yet, so there is nothing to re-execute and nothing to warn about.
  if (receipt === null || typeof receipt !== 'object') return none;
  const l2 = l2Kind(tx, receipt);
  if (l2 !== null) {
    warnings.push(`this is ${l2}, whose execution differs from L1's: it is not re-executed here${forced ? '' : `, and ${client.where} serves no call tracer`}; the call tree is not shown.`);
    return none;
  }
  if (tx === null || typeof tx !== 'object') {
    warnings.push(`${forced ? '' : `${client.where} serves no call tracer, and `}without the transaction object the transaction cannot be re-executed here; the call tree is not shown.`);
    return none;
  }
  try {
    const checked = checkedMined(tx, receipt, hash);
    // A receipt without a position (a malformed answer, which the model stage says): nothing to run.
    if ('pending' in checked) return none;
    const local = await opts.runs.of({ kind: 'mined', hash, mined: checked.mined }, opts.deadline).result({ stateDiff: opts.state === true });
    const block = checked.mined.at.blockNumber - 1n;
    const earlier = local.earlier > 0 ? `, after the block's ${local.earlier} earlier transaction${local.earlier === 1 ? '' : 's'}` : '';
    const verdict = local.mismatch.length === 0 ? 'matched the receipt' : 'differs from the receipt';
    if (local.mismatch.length > 0) warnings.push(`re-execution differs from the receipt: ${local.mismatch.join('; ')}. The call tree shows the re-execution.`);
    const why = forced ? 'as --tracer local asked' : `${client.where} serves no call tracer`;
    return {
      trace: {
        trace: null,
        callTrace: null,
        recorded: local.calls,
        traceSource: 'local',
        traceNote: `re-executed locally on the node's state at block ${block}${earlier} (${why}); it ${verdict}`,
        reexecution: { stateBlock: Number(block), replayed: local.earlier, matchedReceipt: local.mismatch.length === 0, differences: local.mismatch },
      },
      state: local.stateDiff === null ? null : { raw: local.stateDiff, source: 'local' },
    };
  } catch (err) {
    if (err instanceof Interrupted) throw err;
    warnings.push(`${forced ? '' : `${client.where} serves no call tracer, and `}the transaction could not be re-executed here (${escapeShort(messageOf(err), 240)}); the call tree is not shown.`);
    return none;
  }
}

export async function fetchBundle(client: RpcClient, hash: Hex, opts: FetchOptions): Promise<Bundle> {
  const first = await fetchOnce(client, hash, opts);
  const txBlock = blockHashOf(first.transaction);
  const receiptBlock = blockHashOf(first.receipt);
  if (txBlock === undefined || receiptBlock === undefined || txBlock === receiptBlock) return first;
  // A reorg between the calls: the transaction and its receipt come from different blocks. Ask once more.
  const second = await fetchOnce(client, hash, opts);
  const a = blockHashOf(second.transaction);
  const b = blockHashOf(second.receipt);
  if (a !== undefined && b !== undefined && a !== b) {
    second.warnings.push('the transaction and its receipt name different blocks (a reorg while asking?), twice; the answers may disagree.');
  }
  return second;
}
