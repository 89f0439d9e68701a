/**
 * Revert data passed on as a value: a contract that catches a call's failure often emits or returns
 * its `bytes reason` (`SweepFailed(token, reason)`). Where such bytes are a known error (Error(string),
 * Panic(uint256), or a custom error an ABI names and whose encoding they are exactly), the argument
 * gains `revert`, decoded by the same ladder as a failure's revert data.
 */
import type { Decoded, DecodedArg } from '../model/types.js';
import { decodeRevert, type RevertJson, revertToJson } from '../model/decodeRevert.js';
import { byteLength, isData } from '../raw/hex.js';
import type { Hex } from '../raw/types.js';
import type { AbiIndex } from './abiIndex.js';
import type { Artifact } from './abiIndex.js';
import { decodeErrorData } from './callData.js';

function knownRevert(data: string, index: AbiIndex): RevertJson | null {
  if (!isData(data) || byteLength(data) < 4) return null;
  const revert = decodeRevert(data);
  if (revert.kind === 'error' || revert.kind === 'panic') return revertToJson(revert);
  if (revert.kind !== 'custom') return null;
  const custom = decodeErrorData(index, data);
  return custom === null || custom.name === null ? null : { ...custom, kind: 'custom', selector: revert.selector, data: revert.data };
}

/** The arguments, each top-level `bytes` that is a known error with its `revert`; the same array where none is. */
export function withReverts(args: DecodedArg[], index: AbiIndex): DecodedArg[] {
  let out: DecodedArg[] | null = null;
  args.forEach((a, i) => {
    if (a.type !== 'bytes' || typeof a.value !== 'string') return;
    const revert = knownRevert(a.value, index);
    if (revert === null) return;
    out ??= [...args];
    out[i] = { ...a, revert };
  });
  return out ?? args;
}

/**
 * A custom error by the ABIs, its `bytes` arguments that are themselves revert data decoded (one level):
 * an account's `ExecuteError(index, error)` wraps the failed call's own error, which is the reason.
 */
export function decodeCustomError(index: AbiIndex, data: Hex, own?: Artifact): Decoded | null {
  const custom = decodeErrorData(index, data, own);
  return custom === null ? null : { ...custom, args: withReverts([...custom.args], index) };
}
