/**
 * Why it failed, in one line: the one spelling the lookup's "Why it failed", the action's sentence, a
 * block's failed rows, the summary table of several hashes and --json's `failure.reason` all use.
 * Escaped for the terminal.
 */
import { isOutOfGas } from '../model/buildModel.js';
import { describeRevert } from '../model/decodeRevert.js';
import type { CallNode, InspectModel } from '../model/types.js';
import { escapeText } from '../raw/escape.js';
import { causeWords, envelopeWords } from './causeWords.js';
import { frameName, notPayableText } from './describe.js';
import { type AddressStyle, formatDecoded } from './formatDecoded.js';

/**
 * The origin's cause first: a call that ran out of gas leaves its caller an empty revert, so the
 * root's "reverted without data" would hide it. Then the custom error an ABI names, ether sent to a
 * function that is not payable, the decoded revert,
 * the client's error word; where the node gave no trace, that the reason is not known.
 */
export function failureLine(m: InspectModel, s: AddressStyle): string {
  const f = m.failure;
  if (f === null || f.error === null) return m.tree === null ? 'reason not known (no trace)' : 'the trace does not say (its root entry has no error)';
  const origin = f.origin;
  if (origin !== null && origin !== m.tree?.root && isOutOfGas(origin.error)) return `out of gas in ${frameName(origin, s)}`;
  // An envelope's own words ("Multicall3: call failed", GS013) after the cause they hide.
  const inner = f.cause === undefined ? null : causeWords(m, f.cause.traceAddress, s);
  if (inner !== null && f.cause !== undefined) return `${inner} — ${envelopeWords(m, f.cause, s)}`;
  if (m.decoded?.error) return formatDecoded(m.decoded.error, s);
  // Ether sent to a function its matched artifact says takes none: what the empty revert means.
  if (m.decoded?.notPayable !== undefined) return notPayableText(m.decoded.notPayable);
  if (f.revert !== null) return escapeText(describeRevert(f.revert));
  return escapeText(f.error);
}

/** The frames on the way from the root to `node`, outermost first (the node last). */
export function pathTo(root: CallNode, node: CallNode): CallNode[] {
  const out = [root];
  let at = root;
  for (const i of node.traceAddress) {
    const next = at.children[i];
    if (next === undefined) return [node];
    out.push((at = next));
  }
  return out;
}

/**
 * Where the failure was raised, in words, for a failure below the root: its frame by contract and
 * function, and the frame that called it (`Ledger.debit`, `Teller.withdraw`); the trace path is JSON's.
 */
export function raisedIn(m: InspectModel, s: AddressStyle): { readonly origin: string; readonly caller: string | null } | null {
  const origin = m.failure?.origin;
  if (origin == null || origin.traceAddress.length === 0) return null;
  const caller = m.tree === null ? undefined : pathTo(m.tree.root, origin).at(-2);
  return { origin: frameName(origin, s), caller: caller === undefined ? null : frameName(caller, s) };
}
