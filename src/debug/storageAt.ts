/**
 * The storage an account has read and written in the transaction up to a step (that step's SLOAD or
 * SSTORE included), each slot's last value read or written: what geth's and anvil's struct loggers
 * show at an SLOAD or SSTORE. A reverted frame's writes stay listed, as they do there.
 */
import type { DebugStepLog } from './types.js';

export function storageAt(rec: DebugStepLog, i: number, address: string | null): Map<bigint, bigint> {
  const out = new Map<bigint, bigint>();
  if (address === null) return out;
  const all = [...rec.steps.reads, ...rec.steps.storage].filter((c) => c.step <= i && c.address === address).sort((a, b) => a.step - b.step);
  for (const c of all) out.set(c.slot, c.value);
  return out;
}

