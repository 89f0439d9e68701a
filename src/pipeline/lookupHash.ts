/**
 * The hash lookup, one of the pipeline's sources: its answers fetched (modelAnswers checks and models them), and --wait's polling.
 * Network through the shared client; no output (main writes).
 */
import { blockHashWords } from '../words/notFound.js';
import { Interrupted } from '../errors.js';
import type { InspectModel } from '../model/types.js';
import { isQuantity } from '../raw/hex.js';
import { parseReceipt, parseTransaction } from '../raw/parseRaw.js';
import { toReceipt, toTransaction } from '../model/convert.js';
import type { Hex, RpcLog, RpcReceipt, RpcTransaction } from '../raw/types.js';
import { type RpcClient, sleep } from '../rpc/createRpcClient.js';
import { deadlineSignal } from '../rpc/deadline.js';
import type { TracerState } from '../rpc/types.js';
import { fetchBundle } from '../sources/fetchBundle.js';
import { createLocalRuns, type LocalRuns } from '../localRun/localRuns.js';
import { type CheckedEarly, modelAnswers } from './modelAnswers.js';

export interface InspectSettings {
  readonly timeoutMs: number;
  readonly waitMs: number | null;
  readonly confirmations: number;
  readonly tracer: TracerState;
  readonly interrupt?: AbortSignal;
  /** Keep the node's answers verbatim in the model (--json needs them; text does not). */
  readonly keepAnswers: boolean;
  /** --state: also read the state diff and the block header. */
  readonly state?: boolean;
  /** Given the receipt's checked logs as soon as they arrive (before the trace). */
  readonly onLogs?: (logs: readonly RpcLog[]) => void;
  /** Given the checked transaction and receipt as soon as both are in (mined or not; before the trace). */
  readonly onHead?: (head: Pick<InspectModel, 'tx' | 'receipt'>) => void;
  /** Given the transaction and its receipt as the node sent them (the source-location stage runs those again). */
  readonly onAnswers?: (answers: { readonly transaction: unknown; readonly receipt: unknown }) => void;
  /** --wait: told after each poll what the wait is for (null once it is over), for a progress line. */
  readonly onWait?: (waiting: Waiting | null) => void;
  /** Where a run in txray's EVM is made, shared with the later stages (else one for this lookup alone). */
  readonly runs?: LocalRuns;
}

/** What --wait is waiting for at its last poll: the receipt, or (mined) more blocks on top. */
export interface Waiting {
  readonly hash: Hex;
  /** Blocks on top of the transaction's block, its own counted (null: no receipt yet). */
  readonly confirmations: number | null;
  /** No receipt yet: whether the node knows the transaction (pending) or not (not seen yet). */
  readonly known: boolean;
  readonly wanted: number;
  readonly waitMs: number;
}

/** An answer checked as it arrives (see modelAnswers' CheckedEarly): what it parsed to, or what checking it threw. */
function checkEarly<T>(raw: unknown, parse: (raw: unknown, warn: (m: string) => void) => T | null): CheckedEarly<T> {
  const warnings: string[] = [];
  try {
    return { raw, parsed: parse(raw, (m) => warnings.push(m)), warnings };
  } catch (error) {
    return { raw, error, warnings };
  }
}

async function inspectOnce(client: RpcClient, hash: Hex, s: InspectSettings): Promise<InspectModel> {
  // The transaction and receipt are checked the moment they arrive, the receipt's logs handed to s.onLogs
  // and the two to s.onHead, so that work on them overlaps the wait for the trace, usually the slowest answer.
  let receipt: CheckedEarly<RpcReceipt> | undefined;
  let transaction: CheckedEarly<RpcTransaction> | undefined;
  const head = (): void => {
    const [tx, r] = [transaction?.parsed, receipt?.parsed];
    if (tx != null && r != null) s.onHead?.({ tx: toTransaction(tx), receipt: toReceipt(r) });
  };
  const onReceipt = (raw: unknown): void => {
    receipt = checkEarly(raw, (x, warn) => parseReceipt(x, hash, warn));
    if (receipt.parsed != null) s.onLogs?.(receipt.parsed.logs);
    head();
  };
  const onTransaction = (raw: unknown): void => {
    transaction = checkEarly(raw, (x, warn) => parseTransaction(x, hash, warn));
    head();
  };
  const runs = s.runs ?? createLocalRuns(client, { config: () => Promise.resolve({ stateDiff: s.state === true }), timeoutMs: s.timeoutMs });
  const answers = await fetchBundle(client, hash, { tracer: s.tracer, state: s.state, deadline: deadlineSignal(s.timeoutMs), onReceipt, onTransaction, runs });
  // Only these two: the whole bundle would keep the trace's parse, the largest answer, alive to the end.
  s.onAnswers?.({ transaction: answers.transaction, receipt: answers.receipt });
  const model = await modelAnswers(hash, answers, { keepAnswers: s.keepAnswers, early: { receipt, transaction } });
  if (model.status !== 'not_found') return model;
  const block = await blockWithHash(client, hash, s.timeoutMs);
  return block === null ? model : { ...model, blockOfHash: block, warnings: [...model.warnings, blockHashWords(block, hash)] };
}

/**
 * A hash the node knows no transaction by may be a block's (copied from the wrong column): the block's
 * number, or null. Asked only after the lookup found nothing, so a found transaction costs no request.
 */
async function blockWithHash(client: RpcClient, hash: Hex, timeoutMs: number): Promise<bigint | null> {
  try {
    const block = (await client.call('eth_getBlockByHash', [hash, false], deadlineSignal(timeoutMs))) as { hash?: unknown; number?: unknown } | null;
    // Only a block that is the one asked for: a node that answered with another block says nothing of this hash.
    if (block === null || typeof block !== 'object' || typeof block.hash !== 'string' || block.hash.toLowerCase() !== hash || !isQuantity(block.number)) return null;
    return BigInt(block.number);
  } catch (err) {
    if (err instanceof Interrupted) throw err;
    return null;
  }
}

/** A wait that Ctrl-C ends (as Interrupted). */
function pause(ms: number, interrupt: AbortSignal | undefined): Promise<void> {
  if (interrupt === undefined) return new Promise((resolve) => setTimeout(resolve, ms));
  return sleep(ms, interrupt).catch(() => {
    throw new Interrupted('interrupted');
  });
}

/** Confirmations as cast and the explorers count them: the transaction's own block is the first. */
const confirmationsAt = (head: Hex, block: bigint): number => Math.max(0, Number(BigInt(head) - block) + 1);

const FIRST_POLL_MS = 250;
const MAX_POLL_MS = 5_000;

/**
 * --wait: poll the receipt (one cheap call; rate limits are handled by the client's shared backoff)
 * until the transaction is mined with enough blocks on top, starting fast and backing off; then one
 * full lookup. When time runs out the full lookup still runs and says pending or not found.
 */
export async function inspect(client: RpcClient, hash: Hex, s: InspectSettings): Promise<InspectModel> {
  if (s.waitMs === null) return inspectOnce(client, hash, s);
  let reached: number | null;
  try {
    reached = await waitUntilMined(client, hash, s, s.waitMs);
  } finally {
    s.onWait?.(null);
  }
  return afterWait(client, hash, s, s.waitMs, reached);
}

/**
 * The polls, until the transaction is mined with `s.confirmations` blocks on top or the wait runs out.
 * Returns the blocks on top of its block at the last poll (null: not mined yet, or not asked).
 */
async function waitUntilMined(client: RpcClient, hash: Hex, s: InspectSettings, waitMs: number): Promise<number | null> {
  const until = Date.now() + waitMs;
  let delay = FIRST_POLL_MS;
  let reached: number | null = null;
  for (;;) {
    const deadline = deadlineSignal(s.timeoutMs);
    const receipt = (await client.call('eth_getTransactionReceipt', [hash], deadline)) as { blockNumber?: unknown } | null;
    const mined = receipt !== null && typeof receipt === 'object';
    if (mined) {
      if (s.confirmations === 0 || !isQuantity(receipt.blockNumber)) break;
      const head = await client.call('eth_blockNumber', [], deadline);
      if (isQuantity(head)) reached = confirmationsAt(head, BigInt(receipt.blockNumber));
      if (reached !== null && reached >= s.confirmations) break;
    }
    const left = until - Date.now();
    if (left <= 0) break;
    if (s.onWait !== undefined) s.onWait({ hash, confirmations: mined ? (reached ?? 0) : null, known: mined || (await knownToNode(client, hash, deadline)), wanted: s.confirmations, waitMs });
    await pause(Math.min(delay, left), s.interrupt);
    delay = Math.min(MAX_POLL_MS, Math.round(delay * 1.6));
  }
  return reached;
}

/** Whether the node has the transaction (in its pool, or mined): asked only for --wait's progress line. */
async function knownToNode(client: RpcClient, hash: Hex, deadline: AbortSignal): Promise<boolean> {
  const tx = await client.call('eth_getTransactionByHash', [hash], deadline);
  return tx !== null && typeof tx === 'object';
}

/** The full lookup after the wait, with what the wait came to: still pending or unknown, or how many confirmations. */
async function afterWait(client: RpcClient, hash: Hex, s: InspectSettings, waitMs: number, polled: number | null): Promise<InspectModel> {
  let reached = polled;
  const model = await inspectOnce(client, hash, s);
  // (--confirmations implies --wait, so the user may not have typed --wait: said as a wait.)
  const waited = `waited ${Math.round(waitMs / 100) / 10} s`;
  if (model.status === 'pending' || model.status === 'not_found') {
    // Said on stderr too: the exit code alone (4, 3) does not say the wait ran out.
    return { ...model, warnings: [...model.warnings, `${waited}: the transaction is ${model.status === 'pending' ? 'still pending' : 'still unknown to the node'}.`] };
  }
  if (s.confirmations === 0) return model;
  // Not counted while polling (the receipt came with the full lookup): counted now, from a fresh head.
  if (reached === null && model.receipt !== null) {
    const head = await client.call('eth_blockNumber', [], deadlineSignal(s.timeoutMs)).catch((err: unknown) => {
      if (err instanceof Interrupted) throw err;
      return null;
    });
    if (isQuantity(head) && model.receipt.blockNumber !== undefined) reached = confirmationsAt(head, model.receipt.blockNumber);
  }
  if (reached === null) return { ...model, warnings: [...model.warnings, `${waited}: how many confirmations there are could not be told (the node did not say its head).`] };
  const confirmations = { wanted: s.confirmations, reached };
  if (confirmations.reached >= confirmations.wanted) return { ...model, confirmations };
  // Mined, but not as deep as asked: not final for a script that asked for it (exit 4, see main).
  const line = `${waited}: ${confirmations.reached} of ${confirmations.wanted} confirmation${confirmations.wanted === 1 ? '' : 's'} (its block counts as the first).`;
  return { ...model, confirmations, warnings: [...model.warnings, line] };
}
