/** Why a user operation or Safe transaction failed, in words: the one spelling the text, the summary table and the report use. */
import { describeRevert } from '../model/decodeRevert.js';
import type { SafeTransaction, UserOperation } from '../model/types.js';
import { escapeText } from '../raw/escape.js';
import { type AddressStyle, formatDecoded } from './formatDecoded.js';

/**
 * Where no revert data says it. A user operation's EntryPoint emits UserOperationRevertReason when its
 * execution returned one; a Safe's ExecutionFailure never carries one, so without the call tree the
 * reason is not known, not absent.
 */
export function noRevertWords(kind: 'userOperation' | 'safeTransaction', traced: boolean): string {
  return kind === 'safeTransaction' && !traced ? 'reason not known (no call tree)' : 'no revert reason emitted';
}

/** The custom error an ABI names, else the revert ladder's words, else why there are none. Escaped. */
export function operationReason(o: UserOperation | SafeTransaction, traced: boolean, s: AddressStyle): string {
  const r = o.revert;
  if (r === null) return noRevertWords(o.kind, traced);
  return r.decoded.custom !== null ? formatDecoded(r.decoded.custom, s) : escapeText(describeRevert(r.decoded.revert));
}
