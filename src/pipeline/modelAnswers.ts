/**
 * The seam after every source: a source's answers (SourceAnswers, not yet checked) → checked → the
 * model. A mined transaction's answers, whichever source fetched them (a lookup by hash, one of a
 * block's transactions), become a model here and nowhere else.
 */
import { type BuildSettings, buildModel } from '../model/buildModel.js';
import type { InspectModel } from '../model/types.js';
import { type FrameLog, parseCallTrace } from '../raw/parseCallTrace.js';
import { parseReceipt, parseTrace, parseTransaction, type Warn } from '../raw/parseRaw.js';
import type { Hex, RpcReceipt, RpcTraceEntry, RpcTransaction, SourceAnswers } from '../raw/types.js';
import { stateOf } from './stateOf.js';

/** The call tree's entries from whichever tracer answered: Parity's trace as it is, a callTracer frame converted (with where each log was emitted). */
export function treeOf(answers: Pick<SourceAnswers, 'trace' | 'callTrace' | 'traceSource'>, hash: Hex | null, warn: Warn): { readonly entries: RpcTraceEntry[] | null; readonly frameLogs: readonly FrameLog[] | null } {
  switch (answers.traceSource) {
    case 'debug_traceTransaction':
    case 'debug_traceCall':
    case 'local': {
      const converted = parseCallTrace(answers.callTrace, warn);
      return { entries: converted?.entries ?? null, frameLogs: converted?.logs ?? null };
    }
    case 'trace_transaction':
    case 'trace_call':
      return { entries: parseTrace(answers.trace, hash, warn), frameLogs: null };
    case null:
      return { entries: null, frameLogs: null };
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
export async function modelAnswers(hash: Hex, answers: SourceAnswers, s: ModelSettings): Promise<InspectModel> {
  const warnings = answers.warnings;
  const warn: Warn = (m) => void warnings.push(m);
  const tx = reuse(s.early?.transaction, answers.transaction, warnings) ?? { value: parseTransaction(answers.transaction, hash, warn) };
  const receipt = reuse(s.early?.receipt, answers.receipt, warnings) ?? { value: parseReceipt(answers.receipt, hash, warn) };
  const tree = treeOf(answers, hash, warn);
  const model = buildModel(hash, answers, { tx: tx.value, receipt: receipt.value, trace: tree.entries, frameLogs: tree.frameLogs }, warnings, s);
  return answers.state === null ? model : { ...model, state: await stateOf(answers.state, answers.block, model.tx, model.receipt, warn) };
}

/** The early check's result when it checked this very answer (undefined: check it now), its warnings kept. */
function reuse<T>(early: CheckedEarly<T> | undefined, raw: unknown, warnings: string[]): { readonly value: T | null } | undefined {
  if (early === undefined || early.raw !== raw) return undefined;
  warnings.push(...early.warnings);
  if (early.error !== undefined) throw early.error;
  return { value: early.parsed ?? null };
}
