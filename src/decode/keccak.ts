/**
 * Keccak-256 for decoding: selectors, topics and EIP-55 checksums. The permutation is the WebAssembly
 * one the EVM uses (hash/wasmKeccak.ts): a CLI run hashes before V8 has optimised any JavaScript, where
 * an interpreted permutation cost ~0.3 ms a hash and this one a few microseconds.
 * test/unit/keccak.test.ts checks these against viem's.
 */
import { keccak_256 } from '../hash/wasmKeccak.js';

export function keccak256(data: Uint8Array): Uint8Array {
  return keccak_256(data);
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** keccak256 of a text's UTF-8 bytes, as 64 lower-case hex digits (no 0x). */
export function keccakHex(text: string): string {
  const digest = keccak_256(Buffer.from(text, 'utf8'));
  let out = '';
  for (const byte of digest) out += HEX[byte];
  return out;
}

/** Character codes of a checksummed address, reused: the answer is made from them in one step. */
const codes: number[] = new Array<number>(42).fill(0);

/**
 * The EIP-55 form of a 20-byte address given as 0x and 40 hex digits (any case): each letter is upper
 * case where the same nibble of keccak256(the 40 lower-case digits) is 8 or more.
 */
export function checksumAddress(address: string): string {
  const lower = address.toLowerCase();
  let out = checksummed.get(lower);
  if (out === undefined) {
    out = computeChecksum(lower);
    checksummed.set(lower, out);
  }
  return out;
}

/** EIP-55 forms, by lower-case address, for every caller: a big transaction names the same few contracts thousands of times. */
const checksummed = new Map<string, string>();

function computeChecksum(lower: string): string {
  const digest = keccak_256(Buffer.from(lower.slice(2), 'latin1'));
  codes[0] = 0x30; // 0
  codes[1] = 0x78; // x
  for (let k = 0; k < 40; k++) {
    const code = lower.charCodeAt(k + 2);
    const byte = digest[k >> 1]!;
    const nibble = (k & 1) === 0 ? byte >> 4 : byte & 0x0f;
    codes[k + 2] = code >= 0x61 && nibble >= 8 ? code - 0x20 : code;
  }
  return String.fromCharCode.apply(null, codes);
}
