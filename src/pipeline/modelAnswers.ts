/**
 * The seam after every source: a source's answers (SourceAnswers, not yet checked) → checked → the
 * model. A mined transaction's answers, whichever source fetched them (a lookup by hash, one of a
 * block's transactions), become a model here and nowhere else.
 */
import { buildCallTree } from '../model/buildCallTree.js';
import { type BuildSettings, buildModel } from '../model/buildModel.js';
import type { CallTree, InspectModel } from '../model/types.js';
import { type FrameLog, parseCallTrace } from '../raw/parseCallTrace.js';
import { parseReceipt, parseTrace, parseTransaction, type Warn } from '../raw/parseRaw.js';
import type { Hex, RpcReceipt, RpcTransaction } from '../raw/types.js';
import type { Bundle } from '../sources/fetchBundle.js';
import { stateOf } from './stateOf.js';

/**
 * The call tree from whichever tracer answered: Parity's trace checked, a callTracer frame checked and
 * converted (with where each log was emitted), or what txray's own run recorded, as it is.
 */
export function treeOf(answers: Pick<Bundle, 'trace' | 'callTrace' | 'recorded' | 'traceSource'>, hash: Hex | null, warn: Warn): { readonly tree: CallTree | null; readonly frameLogs: readonly FrameLog[] | null } {
  switch (answers.traceSource) {
    case 'debug_traceTransaction':
    case 'debug_traceCall': {
      const converted = parseCallTrace(answers.callTrace, warn);
      return { tree: converted === null ? null : buildCallTree(converted.entries, warn), frameLogs: converted?.logs ?? null };
    }
    case 'local':
      return { tree: answers.recorded?.tree ?? null, frameLogs: answers.recorded?.logs ?? null };
    case 'trace_transaction':
    case 'trace_call': {
      const entries = parseTrace(answers.trace, hash, warn);
      return { tree: entries === null ? null : buildCallTree(entries, warn), frameLogs: null };
    }
    case null:
      return { tree: null, frameLogs: null };
  }
}

/** An answer checked before the rest arrived (see lookupHash's early head): used when it is the same answer. */
export interface CheckedEarly<T> {
  readonly raw: unknown;
  readonly parsed?: T | null;
  /** What checking it threw (a fatal problem with the answer), thrown again here. */
  readonly error?: unknown;
  readonly warnings: readonly string[];
}

export interface ModelSettings extends BuildSettings {
  readonly early?: { readonly transaction?: CheckedEarly<RpcTransaction>; readonly receipt?: CheckedEarly<RpcReceipt> };
}

/** The answers about one mined (or pending) transaction → its model, with --state's changes when they were asked for. */
export async function modelAnswers(hash: Hex, answers: Bundle, s: ModelSettings): Promise<InspectModel> {
  const warnings = answers.warnings;
  const warn: Warn = (m) => void warnings.push(m);
  const tx = reuse(s.early?.transaction, answers.transaction, warnings) ?? { value: parseTransaction(answers.transaction, hash, warn) };
  const receipt = reuse(s.early?.receipt, answers.receipt, warnings) ?? { value: parseReceipt(answers.receipt, hash, warn) };
  const tree = treeOf(answers, hash, warn);
  const model = buildModel(hash, answers, { tx: tx.value, receipt: receipt.value, tree: tree.tree, frameLogs: tree.frameLogs }, warnings, s);
  return answers.state === null ? model : { ...model, state: await stateOf(answers.state, answers.block, model.tx, model.receipt, warn) };
}

/** The early check's result when it checked this very answer (undefined: check it now), its warnings kept. */
function reuse<T>(early: CheckedEarly<T> | undefined, raw: unknown, warnings: string[]): { readonly value: T | null } | undefined {
  if (early === undefined || early.raw !== raw) return undefined;
  warnings.push(...early.warnings);
  if (early.error !== undefined) throw early.error;
  return { value: early.parsed ?? null };
}
