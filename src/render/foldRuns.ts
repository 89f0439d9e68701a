/**
 * Runs of alike siblings in the call tree's text view, folded into one line each: calls to the same
 * function of the same contract that all succeeded and made no call of their own, and events of the
 * same signature from the same contract. A failed call is never part of a run, so it keeps its line.
 */
import type { CallNode, PlacedEvent } from '../model/types.js';

/**
 * Runs shorter than this stay line by line: a few alike calls (three transfers to three holders) are read
 * one by one; folding is for the runs nobody reads line by line (a batch of thousands).
 */
export const FOLD_AT = 10;

/** Calls folded into one line. */
export interface CallRun {
  readonly calls: readonly CallNode[];
}

/** Events folded into one line. */
export interface EventRun {
  readonly events: readonly PlacedEvent[];
}

export type TreeItem = CallNode | PlacedEvent | CallRun | EventRun;

/**
 * The items in the same order, each run of FOLD_AT or more consecutive items with the same key (null:
 * never folds) replaced by one CallRun or EventRun. Runs of calls and runs of events have distinct keys.
 */
export function foldRuns(items: ReadonlyArray<CallNode | PlacedEvent>, keyOf: (item: CallNode | PlacedEvent) => string | null): TreeItem[] {
  const out: TreeItem[] = [];
  let run: Array<CallNode | PlacedEvent> = [];
  let runKey: string | null = null;
  const flush = (): void => {
    if (runKey === null || run.length < FOLD_AT) {
      for (const item of run) out.push(item);
      return;
    }
    const calls = run.filter((x): x is CallNode => 'children' in x);
    out.push(calls.length === run.length ? { calls } : { events: run.filter((x): x is PlacedEvent => !('children' in x)) });
  };
  for (const item of items) {
    const key = keyOf(item);
    if (key !== null && key === runKey) {
      run.push(item);
      continue;
    }
    flush();
    run = [item];
    runKey = key;
  }
  flush();
  return out;
}

/** The first and the last item of a folded run (foldRuns and groupRunEvents make none empty). */
export function runEnds<T>(run: readonly T[]): { readonly first: T; readonly last: T } {
  const first = run[0];
  const last = run[run.length - 1];
  if (first === undefined || last === undefined) throw new Error('internal error: an empty run of calls or events');
  return { first, last };
}
