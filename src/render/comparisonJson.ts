/** --json's `replayOf` and `comparison` (`txray call --tx`), absent from every other document. */
import { decodedRevertJson, type RevertJson } from '../model/decodeRevert.js';
import type { InspectModel, NetChange, OutcomeFacts } from '../model/types.js';
import type { Hex } from '../raw/types.js';
import { comparisonOf, netChangeDifferences } from './comparisonOf.js';

export interface JsonOutcome {
  readonly status: 'success' | 'reverted';
  /** Decimal, after refunds, as the receipt counts it. */
  readonly gasUsed: string | null;
  readonly revert: RevertJson | null;
  readonly logs: number;
  /** Failed without a revert: the error word, as failure.error says it ("out of gas"); absent otherwise. */
  readonly error?: string;
}

export interface JsonReplay {
  readonly replayOf: {
    readonly hash: Hex;
    readonly blockNumber: string | null;
    readonly transactionIndex: number | null;
    /** "position", or the block it ran on (decimal). */
    readonly at: string;
    readonly changed: boolean;
    /** Unchanged at its position: whether the run reproduced the receipt (status, gas used, logs); else null. */
    readonly reproduced: boolean | null;
    readonly differences: readonly string[];
    readonly replayedBefore: number;
  };
  readonly comparison: { readonly mined: JsonOutcome; readonly now: JsonOutcome; readonly netChanges: readonly JsonNetChangeDifference[] } | null;
}

/** A holder's net change of one asset where the two runs differ: signed, base units, decimal (0 where a run has none). */
export type JsonNetChangeDifference = Omit<NetChange, 'change'> & {
  readonly mined: string;
  readonly now: string;
  /** Where the mined lookup and the new run name the holder differently: each one's name (null: none). */
  readonly names?: { readonly mined: string | null; readonly now: string | null };
};

const outcomeJson = (o: OutcomeFacts): JsonOutcome => ({
  status: o.status,
  gasUsed: o.gasUsed === null ? null : o.gasUsed.toString(),
  revert: o.revert === null ? null : decodedRevertJson(o.revert.decoded),
  logs: o.logs,
  ...(o.error !== undefined ? { error: o.error } : {}),
});

/** The two fields, or nothing for a document that is no re-run. */
export function comparisonJson(m: InspectModel): Partial<JsonReplay> {
  const sim = m.simulation;
  const r = sim?.replay;
  if (sim === undefined || r === undefined) return {};
  const cmp = comparisonOf(m);
  return {
    replayOf: {
      hash: r.hash,
      blockNumber: r.blockNumber === null ? null : r.blockNumber.toString(),
      transactionIndex: r.transactionIndex,
      at: r.at === 'position' ? 'position' : sim.block.number.toString(),
      changed: r.changed,
      reproduced: r.mismatch === null ? null : r.mismatch.length === 0,
      differences: r.mismatch ?? [],
      replayedBefore: r.replayed,
    },
    comparison: cmp === null ? null : { mined: outcomeJson(cmp.mined), now: outcomeJson(cmp.now), netChanges: netChangeDifferences(cmp).map((n) => ({ ...n, mined: n.mined.toString(), now: n.now.toString() })) },
  };
}
