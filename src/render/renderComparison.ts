/** The text view's `Compared with the mined transaction` section (`txray call --tx`). */
import type { ChalkInstance } from 'chalk';
import { groupDigits, shortAddress, shortHash } from '../format/format.js';
import type { InspectModel } from '../model/types.js';
import type { OutcomeFacts } from '../model/types.js';
import { comparisonOf, type NetChangeDifference, netChangeDifferences, revertWords } from './comparisonOf.js';
import { changeText } from './describeNetChanges.js';
import { escapeText } from '../raw/escape.js';
import { type AddressStyle, showAddress } from '../words/formatDecoded.js';

const statusWords = (o: OutcomeFacts, c: ChalkInstance): string => (o.status === 'success' ? c.green('✔ success') : c.red('✘ reverted'));

/** `mined → now`, dimmed where both are the same. */
function pair(label: string, mined: string, now: string, c: ChalkInstance): string {
  const same = mined === now;
  return `  ${label.padEnd(13)}${mined} → ${now}${same ? c.dim(' (same)') : ''}\n`;
}

/** The holder as the new run names it, or, where the mined lookup names it otherwise, its address and each side's name. */
function holderWords(n: NetChangeDifference, s: AddressStyle): string {
  if (n.names === undefined) return showAddress(n.holder, s);
  const sides = [n.names.mined === null ? null : `mined: ${escapeText(n.names.mined)}`, n.names.now === null ? null : `now: ${escapeText(n.names.now)}`].filter((x) => x !== null);
  return `${shortAddress(s.decoded?.checksums.get(n.holder.toLowerCase()) ?? n.holder)} (${sides.join(', ')})`;
}

export function* renderComparison(m: InspectModel, c: ChalkInstance): Generator<string> {
  const cmp = comparisonOf(m);
  const replay = m.simulation?.replay;
  if (cmp === null || replay === undefined) return;
  const s: AddressStyle = { decoded: m.decoded, short: true };
  const where = replay.blockNumber === null ? '' : ` (block ${groupDigits(replay.blockNumber)}, index ${replay.transactionIndex})`;
  yield `\n${c.bold('Compared with the mined transaction')} ${shortHash(replay.hash)}${where}\n`;
  const { mined, now } = cmp;
  yield pair('Status', statusWords(mined, c), statusWords(now, c), c);
  yield pair('Gas used', mined.gasUsed === null ? '?' : groupDigits(mined.gasUsed), now.gasUsed === null ? '?' : groupDigits(now.gasUsed), c);
  yield pair('Revert', revertWords(mined, s), revertWords(now, s), c);
  yield pair('Logs', String(mined.logs), String(now.logs), c);
  const names = { address: (a: string) => showAddress(a, s), symbol: escapeText };
  const shown = (n: NetChangeDifference, change: bigint): string => (change === 0n ? 'none' : changeText({ ...n, change }, names));
  // Where they differ only: the full section of the new run follows below.
  for (const [i, n] of netChangeDifferences(cmp).entries()) yield `  ${(i === 0 ? 'Net changes' : '').padEnd(13)}${holderWords(n, s)}: ${shown(n, n.mined)} → ${shown(n, n.now)}\n`;
  if (replay.mismatch === null) return;
  yield replay.mismatch.length === 0
    ? `  ${c.green('Reproduces the receipt')}: the same status, gas used and logs (address, topics, data, order)${replay.replayed > 0 ? `, after the block's ${replay.replayed === 1 ? 'earlier transaction' : `${replay.replayed} earlier transactions`}` : ''}\n`
    : `  ${c.yellow('Differs from the receipt')}: ${replay.mismatch.join('; ')}\n`;
}
