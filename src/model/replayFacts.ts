/** `txray call --tx`: what the model says of the mined transaction a simulation ran again. */
import type { DecodedRevert, NetChange, Status } from './types.js';
import type { Hex } from '../raw/types.js';

/** An outcome as the comparison reads it: the mined one from its receipt, the new one from the run. */
export interface OutcomeFacts {
  readonly status: Extract<Status, 'success' | 'reverted'>;
  /** After refunds, as the receipt counts it. */
  readonly gasUsed: bigint | null;
  readonly logs: number;
  /** Its revert data decoded; null for a success, or where it could not be had (`revertUnknown`). */
  readonly revert: { readonly data: Hex; readonly decoded: DecodedRevert } | null;
  /** Reverted, and no tracer nor local run gave its revert data. */
  readonly revertUnknown?: true;
  /** Every holder's net movement per asset (the action stage's); null where not known. */
  readonly netChanges: readonly NetChange[] | null;
}

export interface ReplayFacts {
  readonly hash: Hex;
  /** Null for a pending transaction (run at --block). */
  readonly blockNumber: bigint | null;
  readonly transactionIndex: number | null;
  /** 'position': where it was mined; else the block asked for, as --block gave it. */
  readonly at: string;
  /** Anything differs from the mined transaction (a field, the input, an override). */
  readonly changed: boolean;
  /** At its position: where the run differs from the receipt (empty: it reproduced it); null elsewhere, or when changed. */
  readonly mismatch: readonly string[] | null;
  /** The block's earlier transactions replayed before it (at its position). */
  readonly replayed: number;
  /** The mined outcome; null while it is pending (no receipt). Set by the comparison stage (compareMined.ts). */
  readonly mined: OutcomeFacts | null;
}
