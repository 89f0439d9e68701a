/**
 * `txray call --tx`: the mined outcome and the new one side by side, as every view tells them (text,
 * JSON, HTML): status, gas used (after refunds, as a receipt counts it), the revert and the number of logs.
 */
import type { OutcomeFacts } from '../model/types.js';
import type { InspectModel, NetChange } from '../model/types.js';
import { outcomeOf } from '../model/outcomeOf.js';
import { describeRevert } from '../model/decodeRevert.js';
import { escapeText } from '../raw/escape.js';
import { type AddressStyle, formatDecoded } from '../words/formatDecoded.js';

export interface Comparison {
  readonly mined: OutcomeFacts;
  readonly now: OutcomeFacts;
}

/** Null where the model is no re-run of a mined transaction (or that one is pending: it has no outcome yet). */
export function comparisonOf(m: InspectModel): Comparison | null {
  const mined = m.simulation?.replay?.mined;
  return mined == null ? null : { mined, now: outcomeOf(m) };
}

/** A revert in one line, as the failure line says it (escaped); "none" for a success. */
export function revertWords(o: OutcomeFacts, s: AddressStyle): string {
  if (o.error !== undefined) return escapeText(o.error);
  if (o.revert === null) return o.status === 'success' ? 'none' : o.revertUnknown ? 'not known (no trace gave its data)' : 'reverted without data';
  const { custom, revert } = o.revert.decoded;
  return custom !== null ? formatDecoded(custom, s) : escapeText(describeRevert(revert));
}

/** One holder's net change of one asset where the mined run and the new one differ (0 where one has none). */
export interface NetChangeDifference extends Omit<NetChange, 'change'> {
  readonly mined: bigint;
  readonly now: bigint;
  /** Where the two lookups name the holder differently (an override's code is another contract): each one's name, null for none. */
  readonly names?: { readonly mined: string | null; readonly now: string | null };
}

/** The holder's names where the mined lookup and the new run differ on it. */
function namesOf(c: Comparison, holder: string): Pick<NetChangeDifference, 'names'> {
  const mined = c.mined.labels?.get(holder.toLowerCase()) ?? null;
  const now = c.now.labels?.get(holder.toLowerCase()) ?? null;
  return mined === now ? {} : { names: { mined, now } };
}

/** The net changes that differ between the two outcomes, in the new run's order, then the mined one's; empty where either is not known. */
export function netChangeDifferences(c: Comparison): NetChangeDifference[] {
  if (c.mined.netChanges === null || c.now.netChanges === null) return [];
  const key = (n: NetChange): string => `${n.holder.toLowerCase()} ${n.asset.toLowerCase()} ${n.tokenId ?? ''}`;
  const mined = new Map(c.mined.netChanges.map((n) => [key(n), n]));
  const now = new Map(c.now.netChanges.map((n) => [key(n), n]));
  const out: NetChangeDifference[] = [];
  const seen = new Set<string>();
  for (const [k, n] of [...now, ...mined]) {
    if (seen.has(k)) continue;
    seen.add(k);
    const before = mined.get(k)?.change ?? 0n;
    const after = now.get(k)?.change ?? 0n;
    const { holder, asset, standard, tokenId, symbol, decimals } = n;
    if (before !== after) out.push({ holder, asset, standard, ...(tokenId !== undefined ? { tokenId } : {}), ...(symbol !== undefined ? { symbol } : {}), ...(decimals !== undefined ? { decimals } : {}), mined: before, now: after, ...namesOf(c, holder) });
  }
  return out;
}
