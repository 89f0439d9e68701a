/**
 * A call that sent ether to a function that takes none: Solidity (and Vyper) check the value at the
 * function's entry and revert without data, which alone reads as "reverted without data". Said only
 * where the callee's code matched an artifact (so its ABI is the code's own) and that ABI calls the
 * function nonpayable, view or pure.
 */
import { type Artifact, signatureOf } from './abiIndex.js';
import { keccakHex } from './keccak.js';
import { byteLength } from '../raw/hex.js';
import type { InspectModel, NotPayable } from '../model/types.js';
import type { Hex } from '../raw/types.js';

/** The failed frame: the deepest call whose failure reached the root unchanged, or (no tree) the transaction itself. */
function failedFrame(m: InspectModel): { to: Hex | null; value: bigint | null; input: Hex | null; output: Hex | null } | null {
  const origin = m.failure?.origin;
  if (origin != null) return origin.type === 'call' ? origin : null;
  if (m.tree !== null || m.tx == null) return null;
  return { to: m.tx.to, value: m.tx.value ?? null, input: m.tx.input ?? null, output: null };
}

export function notPayable(m: InspectModel, byCode: ReadonlyMap<string, string> | undefined, artifacts: readonly Artifact[]): NotPayable | null {
  if (m.status !== 'reverted' || byCode === undefined) return null;
  const frame = failedFrame(m);
  if (frame === null || frame.to === null || frame.value === null || frame.value === 0n || frame.input === null || byteLength(frame.input) < 4) return null;
  // Revert data, of any kind, is the function's own: the value check reverts with none.
  if (frame.output !== null && byteLength(frame.output) > 0) return null;
  if (m.failure?.revert != null && m.failure.revert.kind !== 'empty') return null;
  const contract = byCode.get(frame.to.toLowerCase());
  if (contract === undefined) return null;
  const selector = frame.input.slice(2, 10).toLowerCase();
  for (const a of artifacts) {
    if (a.name !== contract || a.deployedBytecode === undefined) continue;
    for (const item of a.abi) {
      if (item.type !== 'function' || item.stateMutability === 'payable') continue;
      const signature = signatureOf(item);
      if (keccakHex(signature).slice(0, 8) === selector) return { contract, signature, stateMutability: item.stateMutability, value: frame.value };
    }
  }
  return null;
}
