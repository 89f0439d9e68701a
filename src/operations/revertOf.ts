import { decodeCustomError } from '../decode/revertArgs.js';
import type { AbiIndex } from '../decode/abiIndex.js';
import { decodeRevert } from '../model/decodeRevert.js';
import type { DecodedRevert } from '../model/types.js';
import type { Hex } from '../raw/types.js';

/** Revert data decoded as every revert is: Error and Panic first, then a custom error an ABI names, then text or raw. */
export function revertOf(index: AbiIndex, data: Hex): { readonly data: Hex; readonly decoded: DecodedRevert } {
  const revert = decodeRevert(data);
  const custom = revert.kind !== 'error' && revert.kind !== 'panic' && revert.kind !== 'empty' ? decodeCustomError(index, data) : null;
  return { data, decoded: { revert, custom } };
}
