/**
 * `txray call --tx`: the mined outcome and the new one side by side, as every view tells them (text,
 * JSON, HTML): status, gas used (after refunds, as a receipt counts it), the revert and the number of logs.
 */
import type { OutcomeFacts } from '../model/replayFacts.js';
import type { InspectModel } from '../model/types.js';
import { describeRevert } from '../model/decodeRevert.js';
import { escapeText } from '../raw/escape.js';
import { type AddressStyle, formatDecoded } from '../words/formatDecoded.js';

export interface Comparison {
  readonly mined: OutcomeFacts;
  readonly now: OutcomeFacts;
}

/** The new outcome in the mined one's terms. */
function nowOf(m: InspectModel): OutcomeFacts {
  const reverted = m.status !== 'success';
  const f = m.failure;
  const data = m.tree?.root.output ?? null;
  return {
    status: reverted ? 'reverted' : 'success',
    gasUsed: m.receipt?.gasUsed ?? null,
    logs: m.receipt?.logs.length ?? 0,
    revert: !reverted || f === null || f.revert === null || data === null ? null : { data, decoded: { revert: f.revert, custom: m.decoded?.error ?? null } },
    ...(reverted && (f === null || f.revert === null) ? { revertUnknown: true as const } : {}),
  };
}

/** Null where the model is no re-run of a mined transaction (or that one is pending: it has no outcome yet). */
export function comparisonOf(m: InspectModel): Comparison | null {
  const mined = m.simulation?.replay?.mined;
  return mined == null ? null : { mined, now: nowOf(m) };
}

/** A revert in one line, as the failure line says it (escaped); "none" for a success. */
export function revertWords(o: OutcomeFacts, s: AddressStyle): string {
  if (o.revert === null) return o.status === 'success' ? 'none' : o.revertUnknown ? 'not known (no trace gave its data)' : 'reverted without data';
  const { custom, revert } = o.revert.decoded;
  return custom !== null ? formatDecoded(custom, s) : escapeText(describeRevert(revert));
}
