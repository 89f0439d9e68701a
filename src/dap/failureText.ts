/**
 * The `stopped` event's text at a failure: where its step is a REVERT, the revert data as the lookup describes
 * it (`Error: …`, `Panic(0x11): …`, a custom error by its selector), read from that step's stack and memory;
 * else (INVALID, out of gas) the frame's error as the EVM gave it.
 */
import type { DebugStepLog } from '../debug/types.js';
import { cell } from '../locate/cell.js';
import { decodeRevert, describeRevert } from '../model/decodeRevert.js';
import { escapeShort } from '../raw/escape.js';

const REVERT = 0xfd;
/** More revert data than this is not read: a description says no more of it. */
const MAX_DATA = 64 * 1024;

export function failureText(rec: DebugStepLog, step: number): string {
  const error = rec.frames[cell(rec.steps.frame, step)]?.error ?? 'failed';
  if (cell(rec.steps.op, step) !== REVERT) return error;
  const [offset, size] = rec.steps.stackAt(step).reverse();
  if (offset === undefined || size === undefined || size > BigInt(MAX_DATA) || offset > BigInt(Number.MAX_SAFE_INTEGER)) return error;
  // Bytes past the memory's end read as zeros, as the EVM reads them.
  const data = new Uint8Array(Number(size));
  data.set(rec.steps.memoryAt(step).subarray(Number(offset), Number(offset + size)));
  return escapeShort(describeRevert(decodeRevert(`0x${Buffer.from(data).toString('hex')}`)), 300);
}
