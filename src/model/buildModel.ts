/**
 * From validated answers to the model the renderers read: status, call tree and why it failed.
 */
import { decodeRevert } from './decodeRevert.js';
import { feeSplit } from './feeSplit.js';
import type { FrameLog } from '../raw/parseCallTrace.js';
import type { Warn } from '../raw/parseRaw.js';
import type { Hex, RpcReceipt, RpcTransaction, SourceAnswers } from '../raw/types.js';
import { placeLogs } from './placeLogs.js';
import { toReceipt, toTransaction } from './convert.js';
import type { CallNode, CallTree, Failure, InspectModel, Receipt, Status, Transaction } from './types.js';

/** Parity/Erigon say "Reverted"; geth's callTracer says "execution reverted". Both are reverts. */
export const isRevertError = (error: string): boolean => /revert/i.test(error);

/** How a model is built beyond its answers. */
export interface BuildSettings {
  /** Keep the node's answers verbatim (--json needs them; text does not). */
  readonly keepAnswers?: boolean;
  /**
   * One of the pending block's transactions: it carries that block's hash and, not having run, no
   * receipt, which the block says once for all of them (a lookup warns of a mined one without a receipt).
   */
  readonly inPendingBlock?: boolean;
}

function statusOf(tx: Transaction | null, receipt: Receipt | null, tree: CallTree | null, warn: Warn, s: BuildSettings): Status {
  if (receipt === null) {
    if (tx === null) return 'not_found';
    if (tx.blockHash !== null && s.inPendingBlock !== true) warn('the node knows the transaction as mined (it has a blockHash) but returned no receipt; treating it as pending.');
    return 'pending';
  }
  if (tx === null) warn('the node returned a receipt but no transaction object; the transaction details are missing.');
  if (receipt.status !== undefined) {
    const status = receipt.status;
    const rootError = tree?.root.missing ? null : (tree?.root.error ?? null);
    if (tree && !tree.root.missing && (rootError !== null) !== (status === 'reverted')) {
      warn(`the receipt says ${status} but the trace's root entry ${rootError === null ? 'succeeded' : `failed (${rootError})`}; the receipt decides the status.`);
    }
    return status;
  }
  // Pre-Byzantium receipts (before block 4,370,000) have `root` instead of `status`: the trace decides.
  if (tree && !tree.root.missing) return tree.root.error === null ? 'success' : 'reverted';
  warn('the receipt has no status field (pre-Byzantium) and there is no trace to tell; assuming success.');
  return 'success';
}

/**
 * Follow a revert down the tree: while a failed child returned exactly the parent's revert data,
 * the failure came from that child. Stops at the deepest such call.
 */
export function originOf(root: CallNode, txSpent: boolean | null): CallNode {
  let node = root;
  for (;;) {
    const output = node.output;
    if (output === null || output === '0x') return outOfGasBelow(node, txSpent) ?? node;
    const next = node.children.find((c) => c.error !== null && c.output !== null && c.output.toLowerCase() === output.toLowerCase());
    if (next === undefined) return node;
    node = next;
  }
}

/** Every client's words for running out of gas ("out of gas", "Out of gas", "out of gas: not enough gas for reentrancy sentry"). */
export const isOutOfGas = (error: string | null): boolean => error !== null && /out of gas/i.test(error);

/**
 * A revert without data right after a call that ran out of gas: Solidity re-raises a failed call's
 * return data, and running out of gas leaves none, so the empty revert is that call's. Followed down
 * through last calls that reverted without data (a proxy's delegatecall) to the deepest that ran out.
 * Only a frame's last call counts (one that failed earlier was caught), and only where the frame itself
 * had used nearly all its gas (9/10 or more; where its tracer does not say, the transaction): a call that
 * ran out of a small stipend leaves its caller plenty, and what the caller reverted for after it is not
 * known to have to do with it.
 */
function outOfGasBelow(node: CallNode, txSpent: boolean | null): CallNode | null {
  let found: CallNode | null = null;
  let at = node;
  for (;;) {
    const last = at.children.at(-1);
    if (last === undefined || last.error === null || (last.output !== null && last.output !== '0x') || !(spent(at) ?? txSpent === true)) return found;
    if (isOutOfGas(last.error)) found = last;
    else if (!isRevertError(last.error)) return found;
    at = last;
  }
}

/** The frame used 9/10 or more of the gas it was given; null where its tracer does not say. */
function spent(n: CallNode): boolean | null {
  return spentOf(n.gas ?? undefined, n.gasUsed ?? undefined);
}

/**
 * @param txSpent the transaction used 9/10 or more of its gas limit (null: not known): stands for a
 * frame's own figure where its tracer gives none (a failed root frame, say).
 */
function failureOf(tree: CallTree | null, txSpent: boolean | null): Failure {
  const root = tree?.root;
  const error = root?.error ?? null;
  if (root === undefined || root.missing || error === null) return { error: null, revert: null, origin: null };
  if (!isRevertError(error)) {
    return { error, revert: null, origin: root };
  }
  return { error, revert: decodeRevert(root.output), origin: originOf(root, txSpent) };
}

const spentOf = (gas: bigint | undefined, used: bigint | undefined): boolean | null => (gas === undefined || used === undefined || gas === 0n ? null : used * 10n >= gas * 9n);

export interface ParsedAnswers {
  readonly tx: RpcTransaction | null;
  readonly receipt: RpcReceipt | null;
  /** The call tree: built from a node's trace (model/buildCallTree.ts), or recorded by txray's EVM. */
  readonly tree: CallTree | null;
  /** Where each log was emitted, when the tracer says (callTracer with withLog). */
  readonly frameLogs: readonly FrameLog[] | null;
}

export function buildModel(hash: Hex | null, bundle: SourceAnswers, parsed: ParsedAnswers, warnings: string[], s: BuildSettings = { keepAnswers: true }): InspectModel {
  const warn: Warn = (m) => warnings.push(m);
  const tree = parsed.tree;
  const events = tree !== null && parsed.frameLogs !== null && parsed.receipt !== null ? placeLogs(tree, parsed.frameLogs, parsed.receipt.logs, warn) : null;
  if (parsed.tx === null && parsed.receipt === null && tree !== null) {
    warn('the node returned a trace but neither the transaction nor its receipt; showing the trace only.');
  }
  const tx = parsed.tx === null ? null : toTransaction(parsed.tx);
  const receipt = parsed.receipt === null ? null : toReceipt(parsed.receipt);
  const status = statusOf(tx, receipt, tree, warn, s);
  return {
    hash,
    status,
    tx,
    receipt,
    tree,
    traceSource: tree === null ? null : bundle.traceSource,
    traceNote: tree === null ? null : bundle.traceNote,
    reexecution: tree === null ? null : bundle.reexecution,
    events,
    failure: status === 'reverted' ? failureOf(tree, spentOf(tx?.gas, receipt?.gasUsed)) : null,
    fee: feeSplit(tx, receipt, null),
    warnings,
    raw: s.keepAnswers === true
      ? {
          transaction: bundle.transaction,
          receipt: bundle.receipt,
          trace: bundle.trace,
          callTrace: bundle.callTrace,
          ...(bundle.state === null ? {} : { stateDiff: bundle.state.raw }),
        }
      : null,
  };
}
