/**
 * Keccak-256 (the pre-standard padding Ethereum uses) for the main bundle: EIP-55 checksums of every
 * address shown and selectors of signatures. A CLI run hashes these before V8 has compiled any
 * JavaScript to machine code, so the permutation is src/hash/wasmKeccak.ts's WebAssembly (compiled
 * at once), not JavaScript, which the interpreter runs slowly (docs/speed.md).
 * test/unit/keccak.test.ts checks it against viem's (@noble/hashes).
 */
import { keccak_256, keccakOfLatin1 } from '../hash/wasmKeccak.js';

/** keccak256 of bytes. */
export { keccak_256 as keccak256 };

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
 * case where the same nibble of keccak256(the 40 lower-case digits) is 8 or more. The digits are written
 * into the hash's memory and the nibbles read from its digest directly: a big trace checksums tens of
 * thousands of addresses, and byte buffers and hex strings in between would be most of the work.
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
  const digest = keccakOfLatin1(lower, 2);
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
