/**
 * Where in the source a failure happened, for the text view: "at file:line:column", the line's code,
 * and the places that called it. File names and code come from the developer's files or a service:
 * hostile text like any other, escaped before they reach the terminal.
 */
import type { ChalkInstance } from 'chalk';
import type { InspectModel, SourceLocation } from '../model/types.js';
import { cutToWidth, escapeText } from '../raw/escape.js';
import { calledFromChain } from './calledFromChain.js';

/** Source text as shown: tabs as spaces (an escape would be noise here), then escaped. */
const shownCode = (code: string): string => escapeText(code.replaceAll('\t', '    '));

/** "src/Bank.sol:58:9". */
const sourcePlace = (l: SourceLocation): string => `${escapeText(l.file)}:${l.line}:${l.column}`;

/** "src/Bank.sol:58", the call tree's short form. */
export const sourceLine = (l: SourceLocation): string => `${escapeText(l.file)}:${l.line}`;

import { pathTo } from '../words/failureLine.js';

/**
 * The failure's place: its origin frame's statement and line of code, the internal calls that led there,
 * then each failed frame around it that was placed too (where it called the one inside), with its function.
 */
export function* sourceRows(m: InspectModel, c: ChalkInstance, width: number): Generator<string> {
  const origin = m.failure?.origin;
  if (origin == null || m.tree === null) return;
  // An origin without a place (its file edited since the build, say) leaves its callers' places standing.
  const at = origin.decoded?.sourceLocation;
  if (at !== undefined) {
    yield `  ${c.dim('at')} ${sourcePlace(at)}${at.approximate ? c.dim(' (approximate: the function it lies in; a via-IR build)') : ''}\n`;
    const number = `${at.line} │ `;
    yield `  ${' '.repeat(3)}${c.dim(number)}${cutToWidth(shownCode(at.code).trimEnd(), Math.max(20, width - 5 - number.length))}\n`;
  }
  const frames = pathTo(m.tree.root, origin).map((n) => ({ failed: n.error !== null, place: n.decoded?.sourceLocation, calledFrom: n.decoded?.calledFrom, signature: n.decoded?.function?.signature }));
  for (const { place, signature } of calledFromChain(frames)) yield `  ${c.dim('called from')} ${sourcePlace(place)}${signature ? `  ${escapeText(signature)}` : ''}\n`;
}
