/**
 * The fallback between tracers, written once: a ladder of rungs, each a way to ask for the trace, tried
 * from the top. An error a rung names as "this node does not have it" sends the walk one rung down; any
 * other error is a real failure and ends it (what a failure means is the caller's: a warning for a
 * lookup, the run's error for a simulation). What the walk learns of the node goes into the run's
 * TracerState, so the next input of the run starts below the rungs known to be missing, as a node's
 * methods do not come and go between two lookups.
 */
import { Interrupted } from '../errors.js';
import type { TracerState } from '../rpc/types.js';

/** The TracerState flags that say the node lacks a rung. */
export type MissingFlag = 'traceMissing' | 'callTracerMissing';

/** What going down a rung says: what the node lacks (for notes), and a warning, if any. */
export interface Down {
  readonly lacks?: string;
  readonly warning?: string;
}

export interface Rung<T> {
  /** The node method (or 'local'), for tests and --debug. */
  readonly method: string;
  /** Where the run records that the node lacks this rung; later inputs start below it. */
  readonly flag?: MissingFlag;
  /** Ask; `lacking` is what the rungs above said the node lacks, in order. */
  readonly ask: (lacking: readonly string[]) => Promise<T>;
  /** Which errors mean "not on this node, go down" (and what to say then); null: a real failure. Without it every error is a failure. */
  readonly down?: (err: unknown) => Down | null;
}

export type Climb<T> =
  | { readonly kind: 'answered'; readonly method: string; readonly answer: T; readonly lacking: readonly string[] }
  | { readonly kind: 'failed'; readonly method: string; readonly error: unknown; readonly lacking: readonly string[] }
  | { readonly kind: 'exhausted'; readonly lacking: readonly string[] };

/**
 * Walk `rungs` from the first one the run does not know to be missing. The start is chosen once: a rung
 * learnt missing by another input while this walk is under way is still asked here. An interrupt is
 * passed on from any rung; warnings of the rungs gone down are added to `warnings` in order.
 */
export async function walkLadder<T>(rungs: readonly Rung<T>[], tracer: TracerState, warnings: string[]): Promise<Climb<T>> {
  const lacking: string[] = [];
  const known = (r: Rung<T>): boolean => r.flag !== undefined && tracer[r.flag] === true;
  for (const rung of rungs.filter((r) => !known(r))) {
    try {
      return { kind: 'answered', method: rung.method, answer: await rung.ask(lacking), lacking };
    } catch (err) {
      if (err instanceof Interrupted) throw err;
      const down = rung.down?.(err) ?? null;
      if (down === null) return { kind: 'failed', method: rung.method, error: err, lacking };
      if (rung.flag !== undefined) tracer[rung.flag] = true;
      if (down.lacks !== undefined) lacking.push(down.lacks);
      if (down.warning !== undefined) warnings.push(down.warning);
    }
  }
  return { kind: 'exhausted', lacking };
}
