/**
 * A failed frame's cause in words, for the reasons an envelope or an operation would otherwise hide:
 * from the frame down the calls that passed its revert data on, the innermost one's custom error (as an
 * ABI names it), else its revert's words, else the client's error word; and its `file:line` where the
 * source-location stage placed it. Escaped.
 */
import { originOf } from '../model/buildModel.js';
import { describeRevert } from '../model/decodeRevert.js';
import type { CallNode, EnvelopeCause, InspectModel, SourceLocation } from '../model/types.js';
import { escapeText } from '../raw/escape.js';
import { type AddressStyle, formatDecoded, showTarget } from './formatDecoded.js';

/** The frame at `path` in the tree, or null where the tree has none there. */
function nodeAt(root: CallNode, path: readonly number[]): CallNode | null {
  let at: CallNode | undefined = root;
  for (const i of path) if ((at = at?.children[i]) === undefined) return null;
  return at;
}

/** Where the failure below the frame at `path` began: that frame, and its place in the source where known. */
export function causeAt(m: Pick<InspectModel, 'tree'>, path: readonly number[] | null): { readonly node: CallNode; readonly at: SourceLocation | null } | null {
  const node = path === null || m.tree === null ? null : nodeAt(m.tree.root, path);
  if (node === null || node.error === null) return null;
  const origin = originOf(node, null);
  return { node: origin, at: origin.decoded?.sourceLocation ?? null };
}

/** `file:line` of a placed frame. */
export const placeWords = (at: SourceLocation): string => `${escapeText(at.file)}:${at.line}`;

/** "InsufficientBalance(…) at src/Token.sol:12"; null where the tree has no failed frame at `path`. */
export function causeWords(m: Pick<InspectModel, 'tree'>, path: readonly number[] | null, s: AddressStyle): string | null {
  const cause = causeAt(m, path);
  if (cause === null) return null;
  const r = cause.node.decoded?.revert;
  const what = r?.custom != null ? formatDecoded(r.custom, s) : r !== undefined ? escapeText(describeRevert(r.revert)) : escapeText(cause.node.error ?? '');
  return cause.at === null ? what : `${what} at ${placeWords(cause.at)}`;
}

/** What the envelope made of it: "made Multicall3's call 2 fail"; a Safe's GS013 said in words. */
export function envelopeWords(m: Pick<InspectModel, 'failure'>, cause: EnvelopeCause, s: AddressStyle): string {
  if (cause.kind === 'batch') return `made ${showTarget(cause.account, s)}'s call ${cause.call ?? '?'} fail`;
  const r = m.failure?.revert;
  const gs013 = r?.kind === 'error' && r.message === 'GS013';
  return `made the Safe's transaction fail${gs013 ? ' (GS013: a Safe reverts the whole transaction when its inner call fails and neither safeTxGas nor gasPrice was set)' : ''}`;
}
