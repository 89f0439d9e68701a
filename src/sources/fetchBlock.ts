/**
 * The fourth source: a block. Its transactions, receipts and call traces in a few requests, split into
 * the per-transaction answers (SourceAnswers) a lookup by hash hands on, so that from the model on each
 * transaction runs the stages a lookup runs.
 *
 * 1. The block with its transactions: by hash, else by number or tag. Everything after asks by the hash
 *    it answered with, so a reorg between the requests cannot mix two blocks.
 * 2. The receipts: eth_getBlockReceipts (geth, Erigon, Reth, Nethermind, Besu, anvil), else every
 *    eth_getTransactionReceipt in one batch (Hardhat has no block method).
 * 3. The traces, beside the receipts: trace_block (everything but geth and Hardhat), else
 *    debug_traceBlockByHash with the callTracer, else each transaction's trace in batches, else none with
 *    one warning. geth gives each transaction 5 s and fails the whole block call on one error: a
 *    block-level call that fails is followed by the transactions one by one, not by the run's failure.
 */
import { Interrupted, NotFound, RpcFailure } from '../errors.js';
import { escapeShort } from '../raw/escape.js';
import { isHash, isRecord, toQuantity } from '../raw/hex.js';
import type { Hex } from '../raw/types.js';
import { askInBatches } from '../rpc/askInBatches.js';
import { isMethodNotFound, isTracerRefused, type RpcClient } from '../rpc/createRpcClient.js';
import { deadlineSignal } from '../rpc/deadline.js';
import { runInOrder } from '../rpc/runInOrder.js';
import { messageOf, type TracerState } from '../rpc/types.js';
import { type Bundle, NO_TRACE, reexecute, type TraceResult } from './fetchBundle.js';
import { createLocalRuns } from '../localRun/localRuns.js';
import { type Rung, walkLadder } from './tracerLadder.js';

export type BlockTag = 'latest' | 'earliest' | 'pending' | 'safe' | 'finalized';

/** What `txray block` was given, checked: a number, a hash or a tag. */
export type BlockId = { readonly kind: 'number'; readonly number: bigint } | { readonly kind: 'hash'; readonly hash: Hex } | { readonly kind: 'tag'; readonly tag: BlockTag };

export interface BlockFetchSettings {
  readonly tracer: TracerState;
  /** --timeout, for each request (a block-level trace that runs out of it is followed per transaction). */
  readonly timeoutMs: number;
  /** --debug: a line per run of the EVM. */
  readonly debug?: (line: string) => void;
}

export interface BlockAnswers {
  /** The block as the node sent it, without its transactions (they travel in `transactions`). */
  readonly header: Readonly<Record<string, unknown>>;
  /** One per transaction, in block order. */
  readonly transactions: Bundle[];
  /** The pending block: nothing ran yet, so there are no receipts and no traces. */
  readonly pending: boolean;
  readonly warnings: string[];
}

const CALL_TRACER = { tracer: 'callTracer', tracerConfig: { withLog: true } };


/** How the block was asked for, as a sentence's subject. */
function describeBlockId(id: BlockId): string {
  if (id.kind === 'number') return `block ${id.number}`;
  if (id.kind === 'hash') return `block ${id.hash}`;
  return `the ${id.tag} block`;
}

function malformed(method: string, what: string): RpcFailure {
  return new RpcFailure('malformed', `${method}: the node's answer is malformed (${what}); the block cannot be shown.`, { method });
}

/** The block with its transactions as objects; NotFound (exit 3) when the node does not know it. */
async function fetchHeader(client: RpcClient, id: BlockId, timeoutMs: number): Promise<{ header: Record<string, unknown>; transactions: Record<string, unknown>[] }> {
  const method = id.kind === 'hash' ? 'eth_getBlockByHash' : 'eth_getBlockByNumber';
  const at = id.kind === 'hash' ? id.hash : id.kind === 'number' ? toQuantity(id.number) : id.tag;
  const raw = await client.call(method, [at, true], deadlineSignal(timeoutMs));
  if (raw === null) throw new NotFound(`${describeBlockId(id)} is not known to ${client.where}.`);
  if (!isRecord(raw)) throw malformed(method, 'not an object');
  const { transactions, ...header } = raw;
  if (!Array.isArray(transactions)) throw malformed(method, 'no transactions list');
  // Asked with full transactions: a node that sent hashes only did not do what was asked.
  if (!transactions.every(isRecord)) throw malformed(method, 'its transactions are not objects');
  if (id.kind !== 'tag' || id.tag !== 'pending') {
    if (!isHash(header.hash)) throw malformed(method, 'no valid "hash"');
    if (id.kind === 'hash' && header.hash.toLowerCase() !== id.hash) throw malformed(method, `it is about another block, ${escapeShort(header.hash, 70)}`);
  }
  return { header, transactions };
}

const hashOf = (tx: Record<string, unknown>): string => (typeof tx.hash === 'string' ? tx.hash.toLowerCase() : '');

/** Receipts by transaction hash. */
async function fetchReceipts(client: RpcClient, block: Hex, hashes: readonly string[], timeoutMs: number, warnings: string[]): Promise<Map<string, unknown>> {
  const out = new Map<string, unknown>();
  if (hashes.length === 0) return out;
  try {
    const all = await client.call('eth_getBlockReceipts', [block], deadlineSignal(timeoutMs));
    if (!Array.isArray(all)) throw malformed('eth_getBlockReceipts', 'not a list');
    for (const r of all) if (isRecord(r) && typeof r.transactionHash === 'string') out.set(r.transactionHash.toLowerCase(), r);
    return out;
  } catch (err) {
    if (!isMethodNotFound(err)) throw err;
  }
  const answers = await askInBatches(client, hashes.map((h) => ({ method: 'eth_getTransactionReceipt', params: [h] })), timeoutMs);
  const failed = answers.flatMap((a, i) => ('error' in a ? [`${hashes[i]}: ${a.error}`] : []));
  answers.forEach((a, i) => {
    if ('result' in a) out.set(hashes[i]!, a.result);
  });
  if (failed.length > 0) warnings.push(`${failed.length} receipt${failed.length === 1 ? '' : 's'} could not be read (${escapeShort(failed[0]!, 160)}${failed.length > 1 ? ', …' : ''}); ${failed.length === 1 ? 'its row shows' : 'their rows show'} no status.`);
  return out;
}

type Traces = Map<string, TraceResult>;

/** trace_block's entries, by transaction (the block reward's entries, with no transaction, left out). */
async function traceBlock(client: RpcClient, number: Hex, block: Hex, timeoutMs: number): Promise<Traces> {
  // Asked by number (anvil and Erigon take no hash here): each entry says its block, which must be ours.
  const raw = await client.call('trace_block', [number], deadlineSignal(timeoutMs));
  if (!Array.isArray(raw)) throw malformed('trace_block', 'not a list');
  const entries = new Map<string, unknown[]>();
  for (const e of raw) {
    if (!isRecord(e) || typeof e.transactionHash !== 'string') continue;
    if (typeof e.blockHash === 'string' && e.blockHash.toLowerCase() !== block) throw new RpcFailure('protocol', `trace_block: the answer is about another block (${escapeShort(e.blockHash, 70)}): a reorg while asking?`, { method: 'trace_block' });
    const hash = e.transactionHash.toLowerCase();
    let list = entries.get(hash);
    if (list === undefined) entries.set(hash, (list = []));
    list.push(e);
  }
  return new Map([...entries].map(([hash, trace]) => [hash, { ...NO_TRACE, trace, traceSource: 'trace_transaction' }]));
}

/** debug_traceBlockByHash's frames, by transaction (older geth leaves txHash out: then by position). */
async function debugTraceBlock(client: RpcClient, block: Hex, hashes: readonly string[], timeoutMs: number): Promise<Traces> {
  const raw = await client.call('debug_traceBlockByHash', [block, CALL_TRACER], deadlineSignal(timeoutMs));
  if (!Array.isArray(raw)) throw malformed('debug_traceBlockByHash', 'not a list');
  const out: Traces = new Map();
  raw.forEach((e, i) => {
    if (!isRecord(e) || !isRecord(e.result)) return; // a transaction whose trace failed: traced on its own below
    const hash = typeof e.txHash === 'string' ? e.txHash.toLowerCase() : hashes[i];
    if (hash !== undefined) out.set(hash, { ...NO_TRACE, callTrace: e.result, traceSource: 'debug_traceTransaction', traceNote: 'from debug_traceBlockByHash (callTracer)' });
  });
  return out;
}

type Family = 'parity' | 'geth';

/**
 * Each transaction's own trace, in batches. The first is asked alone: its error says whether the node
 * has the method at all (a batch's errors lose their codes), and the walk goes down a rung if not.
 */
async function tracePerTransaction(client: RpcClient, family: Family, hashes: readonly string[], timeoutMs: number, warnings: string[]): Promise<Traces> {
  const method = family === 'parity' ? 'trace_transaction' : 'debug_traceTransaction';
  const params = (h: string): unknown[] => (family === 'parity' ? [h] : [h, CALL_TRACER]);
  const of = (answer: unknown): TraceResult =>
    family === 'parity' ? { ...NO_TRACE, trace: answer, traceSource: 'trace_transaction' } : { ...NO_TRACE, callTrace: answer, traceSource: 'debug_traceTransaction', traceNote: 'from debug_traceTransaction (callTracer)' };
  const out: Traces = new Map();
  if (hashes.length === 0) return out;
  out.set(hashes[0]!, of(await client.call(method, params(hashes[0]!), deadlineSignal(timeoutMs))));
  const rest = hashes.slice(1);
  const answers = await askInBatches(client, rest.map((h) => ({ method, params: params(h) })), timeoutMs);
  const failed: string[] = [];
  answers.forEach((a, i) => {
    if ('result' in a) out.set(rest[i]!, of(a.result));
    else failed.push(a.error);
  });
  if (failed.length > 0) warnings.push(`${method} failed for ${failed.length} transaction${failed.length === 1 ? '' : 's'} (${escapeShort(failed[0]!, 160)}); ${failed.length === 1 ? 'its' : 'their'} failure reasons are not shown.`);
  return out;
}

const familyOf = (method: string): Family => (method === 'trace_block' || method === 'trace_transaction' ? 'parity' : 'geth');

/** The rungs --tracer asks for: the block-level methods first, then each transaction's own. */
function traceRungs(client: RpcClient, mode: TracerState['mode'], number: Hex, block: Hex, hashes: readonly string[], s: BlockFetchSettings, warnings: string[]): Rung<Traces>[] {
  const missing = (lacks: string) => (err: unknown) => (isTracerRefused(err) ? { lacks } : null);
  const parityBlock: Rung<Traces> = { method: 'trace_block', ask: () => traceBlock(client, number, block, s.timeoutMs), down: missing('trace_block') };
  const gethBlock: Rung<Traces> = { method: 'debug_traceBlockByHash', ask: () => debugTraceBlock(client, block, hashes, s.timeoutMs), down: missing('debug_traceBlockByHash') };
  const perTx = (family: Family): Rung<Traces> => {
    const method = family === 'parity' ? 'trace_transaction' : 'debug_traceTransaction';
    return { method, ask: () => tracePerTransaction(client, family, hashes, s.timeoutMs, warnings), down: missing(method) };
  };
  if (mode === 'parity') return [parityBlock, perTx('parity')];
  if (mode === 'geth') return [gethBlock, perTx('geth')];
  return [parityBlock, gethBlock, perTx('parity'), perTx('geth')];
}

/**
 * The block's traces by transaction. A block-level call that fails (not one the node lacks) is followed
 * by each transaction's own trace of the same kind; transactions a block-level answer left out are
 * traced on their own too. No tracer at all: one warning, and the rows keep the receipts' statuses.
 */
async function fetchTraces(client: RpcClient, number: Hex, block: Hex, hashes: readonly string[], s: BlockFetchSettings, warnings: string[]): Promise<Traces> {
  const mode = s.tracer.mode;
  if (mode === 'none' || mode === 'local' || hashes.length === 0) return new Map();
  const rungs = traceRungs(client, mode, number, block, hashes, s, warnings);
  const climb = await walkLadder(rungs, { ...s.tracer }, warnings);
  if (climb.kind === 'exhausted') {
    const tried = rungs.map((r) => r.method).join(', ');
    warnings.push(`${client.where} serves no call tracer (${tried}): every status comes from the receipts, and no failure reason is shown; --tracer local re-executes each transaction here for its reasons.`);
    return new Map();
  }
  const perTx = climb.method === 'trace_transaction' || climb.method === 'debug_traceTransaction';
  if (climb.kind === 'failed' && perTx) {
    warnings.push(`${climb.method} failed (${escapeShort(messageOf(climb.error), 200)}); no failure reason is shown.`);
    return new Map();
  }
  const family = familyOf(climb.method);
  let traces: Traces = new Map();
  if (climb.kind === 'answered') traces = climb.answer;
  else warnings.push(`${climb.method} failed (${escapeShort(messageOf(climb.error), 200)}); each transaction is traced on its own instead.`);
  const left = hashes.filter((h) => !traces.has(h));
  if (left.length > 0 && !perTx) {
    try {
      for (const [h, t] of await tracePerTransaction(client, family, left, s.timeoutMs, warnings)) traces.set(h, t);
    } catch (err) {
      if (err instanceof Interrupted) throw err;
      warnings.push(`${left.length} transaction${left.length === 1 ? '' : 's'} could not be traced (${escapeShort(messageOf(err), 200)}); ${left.length === 1 ? 'its' : 'their'} failure reasons are not shown.`);
    }
  }
  return traces;
}

/** --tracer local: each transaction re-executed here, one after another (each runs the block's earlier ones first). */
async function traceBlockLocally(client: RpcClient, transactions: readonly Record<string, unknown>[], receipts: ReadonlyMap<string, unknown>, s: BlockFetchSettings, warnings: string[]): Promise<Traces> {
  const out: Traces = new Map();
  // The block's stages read no run of their own: each transaction's run keeps its tree and logs only.
  const runs = createLocalRuns(client, { config: () => Promise.resolve({}), timeoutMs: s.timeoutMs, debug: s.debug });
  await runInOrder(transactions.length, 1, async (i) => {
    const tx = transactions[i]!;
    const local = await reexecute(client, hashOf(tx) as Hex, tx, receipts.get(hashOf(tx)) ?? null, { tracer: s.tracer, deadline: deadlineSignal(s.timeoutMs), runs }, warnings);
    out.set(hashOf(tx), local.trace);
  });
  return out;
}

export async function fetchBlock(client: RpcClient, id: BlockId, s: BlockFetchSettings): Promise<BlockAnswers> {
  const warnings: string[] = [];
  const { header, transactions } = await fetchHeader(client, id, s.timeoutMs);
  const hashes = transactions.map(hashOf);
  const pending = id.kind === 'tag' && id.tag === 'pending';
  let receipts = new Map<string, unknown>();
  let traces: Traces = new Map();
  if (pending) {
    if (transactions.length > 0) warnings.push('the pending block has not run yet: it has no receipts, so no status, gas used or fee is known, and nothing is traced.');
  } else {
    const block = (header.hash as string).toLowerCase() as Hex;
    const number = typeof header.number === 'string' ? (header.number as Hex) : toQuantity(BigInt(Number(header.number)));
    const [r, t] = await Promise.allSettled([fetchReceipts(client, block, hashes, s.timeoutMs, warnings), fetchTraces(client, number, block, hashes, s, warnings)]);
    for (const x of [r, t]) if (x.status === 'rejected' && x.reason instanceof Interrupted) throw x.reason;
    if (r.status === 'rejected') throw r.reason;
    if (t.status === 'rejected') throw t.reason;
    receipts = r.value;
    traces = s.tracer.mode === 'local' ? await traceBlockLocally(client, transactions, receipts, s, warnings) : t.value;
  }
  return {
    header,
    transactions: transactions.map((transaction) => {
      const hash = hashOf(transaction);
      const receipt = receipts.get(hash) ?? null;
      const trace = traces.get(hash) ?? NO_TRACE;
      traces.delete(hash);
      receipts.delete(hash);
      return { transaction, receipt, trace: trace.trace, callTrace: trace.callTrace, recorded: trace.recorded, traceSource: trace.traceSource, traceNote: trace.traceNote, reexecution: trace.reexecution, state: null, block: null, warnings: [] };
    }),
    pending,
    warnings,
  };
}
