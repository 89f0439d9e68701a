/**
 * The debugger's names for frames no artifact matched, as the lookup names them: the same decoder's
 * labels (--labels, the address book) and its ABIs (loaded, built in, the signature database).
 */
import type { FrameNames } from '../debug/buildStepLog.js';
import { decodeCallData } from '../decode/callData.js';
import type { Decoder } from '../decode/createDecoder.js';

export function frameNamesOf(d: Decoder): FrameNames {
  return { label: (a) => d.labelOf(a), functionOf: (input) => decodeCallData(d.index, input)?.decoded.name ?? null };
}
