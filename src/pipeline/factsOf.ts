/**
 * What the source-location stage and --internal read of the command's local run: each frame's facts by
 * frameKey, or why there are none (a run that failed, or that differs from the receipt), and how long
 * the wait for them took (the run itself, where it was not made before).
 */
import { Interrupted } from '../errors.js';
import type { FrameFacts } from '../evm/tracer.js';
import type { LocalRun, RunAsk } from '../localRun/localRuns.js';
import { escapeShort } from '../raw/escape.js';

export async function factsOf(run: LocalRun, ask: RunAsk): Promise<{ readonly facts: ReadonlyMap<string, FrameFacts> | string; readonly ms: number }> {
  const started = performance.now();
  let facts: ReadonlyMap<string, FrameFacts> | string;
  try {
    const r = await run.result(ask);
    // A mined transaction's frames are placed only where the run is the chain's (a changed re-run has no receipt to match).
    facts = run.kind === 'mined' && r.mismatch.length > 0 ? `the run differs from the receipt (${r.mismatch.join('; ')})` : (r.facts ?? 'no facts');
  } catch (err) {
    if (err instanceof Interrupted) throw err;
    facts = escapeShort(err instanceof Error ? err.message : String(err), 200);
  }
  return { facts, ms: Math.round(performance.now() - started) };
}
