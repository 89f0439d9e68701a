/**
 * Safe's MultiSend packs its transactions back to back, not ABI-encoded: per transaction a uint8
 * operation (0 call, 1 delegatecall), a 20-byte address, a 32-byte value, a 32-byte data length and
 * the data itself, unpadded. Read from the `transactions` bytes of `multiSend(bytes)`.
 */
import type { Hex } from '../raw/types.js';

/** One transaction of a MultiSend batch: operation 0 is a call, 1 a delegatecall. */
export interface MultiSendTransaction {
  operation: number;
  to: Hex;
  value: bigint;
  data: Hex;
}

/** The fixed part of each entry: operation (1) + to (20) + value (32) + data length (32), in hex digits. */
const HEAD = (1 + 20 + 32 + 32) * 2;

/**
 * The batch's transactions in order, or null when the bytes are not a well-formed batch (an entry cut
 * short, a length past the end, an operation other than 0 or 1, an odd digit count).
 */
export function unpackMultiSend(data: Hex): MultiSendTransaction[] | null {
  if (!/^0x(?:[0-9a-fA-F]{2})*$/.test(data)) return null;
  const body = data.slice(2).toLowerCase();
  const out: MultiSendTransaction[] = [];
  let at = 0;
  while (at < body.length) {
    if (body.length - at < HEAD) return null;
    const operation = Number.parseInt(body.slice(at, at + 2), 16);
    if (operation !== 0 && operation !== 1) return null;
    const to: Hex = `0x${body.slice(at + 2, at + 42)}`;
    const value = BigInt(`0x${body.slice(at + 42, at + 106)}`);
    const length = BigInt(`0x${body.slice(at + 106, at + HEAD)}`);
    const start = at + HEAD;
    // A length the bytes cannot hold (compared as bigint: a hostile length word may exceed 2^53).
    if (length * 2n > BigInt(body.length - start)) return null;
    const end = start + Number(length) * 2;
    out.push({ operation, to, value, data: `0x${body.slice(start, end)}` });
    at = end;
  }
  return out;
}
