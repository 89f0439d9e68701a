/**
 * Safe's MultiSend packs its transactions back to back, without ABI offsets: each is
 * `uint8 operation ‖ address to ‖ uint256 value ‖ uint256 dataLength ‖ bytes data` (MultiSend.sol).
 * Pure; the bytes come from a transaction's input, so every length is checked against what is there.
 */
import type { Hex } from '../raw/types.js';

/** A packed entry's fixed part: 1 + 20 + 32 + 32 bytes, in hex digits. */
const HEAD = (1 + 20 + 32 + 32) * 2;

/** The packed transactions, in order; null where the bytes do not split exactly into entries (malformed or hostile). */
export function unpackMultiSend(data: Hex): { operation: number; to: Hex; value: bigint; data: Hex }[] | null {
  if (!/^0x(?:[0-9a-fA-F]{2})*$/.test(data)) return null;
  const hex = data.slice(2);
  const out: { operation: number; to: Hex; value: bigint; data: Hex }[] = [];
  let at = 0;
  while (at < hex.length) {
    if (hex.length - at < HEAD) return null;
    const operation = Number.parseInt(hex.slice(at, at + 2), 16);
    const to = `0x${hex.slice(at + 2, at + 42).toLowerCase()}` as Hex;
    const value = BigInt(`0x${hex.slice(at + 42, at + 106)}`);
    const length = BigInt(`0x${hex.slice(at + 106, at + 170)}`);
    const start = at + HEAD;
    // A length past the end of what is there (a hostile word near 2^256 included) ends the reading.
    if (length * 2n > BigInt(hex.length - start)) return null;
    const end = start + Number(length) * 2;
    if (operation > 1) return null;
    out.push({ operation, to, value, data: `0x${hex.slice(start, end)}` as Hex });
    at = end;
  }
  return out;
}
