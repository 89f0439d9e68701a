/** What the network stage shares between its files: the tracer choice and what a run learnt of the node. */

/** auto: the Parity method, else the callTracer, else local re-execution; parity / geth / local: only that one; none: no trace. */
export type TracerMode = 'auto' | 'parity' | 'geth' | 'local' | 'none';

/** What a run has learnt about the node's tracers, shared by all its lookups (detection happens once). */
export interface TracerState {
  readonly mode: TracerMode;
  /** Set when the node said trace_transaction does not exist: later lookups go straight to the callTracer. */
  traceMissing: boolean;
  /** Likewise for trace_replayTransaction (--state): later lookups ask the prestateTracer. */
  replayMissing: boolean;
  /** Set when the node has no callTracer either (Hardhat refuses it with -32602): later lookups re-execute locally at once. */
  callTracerMissing?: boolean;
}

/** An error's message as the first part of a warning sentence (without its own full stop). */
export const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err)).replace(/\.$/, '');
