/** Short descriptions of call nodes shared by the text views. Escaped for the terminal. */
import { decodeRevert, describeRevert } from '../model/decodeRevert.js';
import { isRevertError } from '../model/buildModel.js';
import type { CallNode, NotPayable } from '../model/types.js';
import { formatEth } from '../format/format.js';

import { escapeText } from '../raw/escape.js';
import { type AddressStyle, formatDecoded, showTarget } from './formatDecoded.js';

/**
 * Ether sent to a function that takes none, in words (`setFee(uint16) is not payable, but the call sends
 * 1 ETH`): the text's reason, the summary's and the block's first error, and --json's failure.message.
 */
export function notPayableText(np: NotPayable): string {
  return escapeText(`${np.signature} is not payable, but the call sends ${formatEth(np.value)}`);
}

export function describeNodeKind(n: CallNode): string {
  if (n.missing) return 'missing';
  switch (n.type) {
    case 'call':
      return escapeText(n.callType ?? 'call');
    case 'create':
      return n.creationMethod === 'create2' ? 'create2' : 'create';
    case 'suicide':
      return 'selfdestruct';
    case 'reward':
      return 'reward';
    default:
      return escapeText(n.type);
  }
}

/** A failed call's error word ("Reverted", "out of gas") and, for a revert with data, the decoded reason. Escaped. */
export function failureParts(n: CallNode, s?: AddressStyle): { readonly error: string; readonly reason: string | null } {
  // One word for a revert, whatever the client wrote ("Reverted", geth's "execution reverted"); --json keeps the client's.
  const error = n.error !== null && isRevertError(n.error) ? 'Reverted' : escapeText(n.error ?? '');
  const revert = n.decoded?.revert;
  if (revert?.custom && s !== undefined) return { error, reason: formatDecoded(revert.custom, s) };
  // The decode stage decoded the data where it ran; a view drawn before it (or without it) decodes it here.
  if (n.error !== null && isRevertError(n.error) && n.output !== null && n.output !== '0x') return { error, reason: escapeText(describeRevert(revert?.revert ?? decodeRevert(n.output))) };
  return { error, reason: null };
}

/** A frame in words: Contract.function where both are known, the contract (or its short address) alone otherwise. Escaped. */
export function frameName(n: CallNode, s: AddressStyle): string {
  if (n.to === null) return describeNodeKind(n);
  const target = showTarget(n.to, { ...s, short: true });
  if (n.type === 'create') return `${target}.constructor`;
  const fn = n.decoded?.function;
  return fn !== undefined && fn.name !== null ? `${target}.${escapeText(fn.name)}` : target;
}
