/**
 * Keccak-256 (Ethereum's padding) in JavaScript, for the HTML report's page: its Content-Security-Policy
 * allows no WebAssembly, so the page build (scripts/build.mjs) puts this module where
 * src/hash/wasmKeccak.ts is imported; Node runs that one. The same two functions. A page hashes a
 * handful of addresses (EIP-55 checksums) before the browser has compiled anything to machine code:
 * the permutation's steps are written out lane by lane over two typed arrays, which an interpreter runs
 * faster than a library's loops, and whose literal indexes the state's type knows are there
 * (noUncheckedIndexedAccess). test/unit/keccak.test.ts checks both against @noble/hashes.
 *
 * State: 25 lanes of 64 bits, lane i held as (lo = s[2i], hi = s[2i + 1]), bytes little-endian.
 */

/** 0 | 1 | … | N - 1. */
type Below<N extends number, Seen extends number[] = []> = Seen['length'] extends N ? Seen[number] : Below<N, [...Seen, Seen['length']]>;

/** 50 words whose every literal index 0–49 reads as a number. */
type Words50 = Uint32Array & { [I in Below<50>]: number };

function hasFiftyWords(words: Uint32Array): words is Words50 {
  return words.length === 50;
}

function words50(): Words50 {
  const words = new Uint32Array(50);
  if (!hasFiftyWords(words)) throw new Error('internal error: a Uint32Array(50) without 50 words');
  return words;
}

const s = words50();
const b = words50();

/** Bytes absorbed per permutation for a 256-bit output. */
const RATE = 136;

/** The block being filled, and its words read little-endian whatever the platform's byte order. */
const block = new Uint8Array(RATE);
const blockView = new DataView(block.buffer);

/** The 24 round constants of Keccak-f[1600] (FIPS 202, 3.2.5), as low and high 32-bit halves. */
const ROUNDS: readonly (readonly [lo: number, hi: number])[] = [
  [0x00000001, 0x00000000], [0x00008082, 0x00000000], [0x0000808a, 0x80000000], [0x80008000, 0x80000000],
  [0x0000808b, 0x00000000], [0x80000001, 0x00000000], [0x80008081, 0x80000000], [0x00008009, 0x80000000],
  [0x0000008a, 0x00000000], [0x00000088, 0x00000000], [0x80008009, 0x00000000], [0x8000000a, 0x00000000],
  [0x8000808b, 0x00000000], [0x0000008b, 0x80000000], [0x00008089, 0x80000000], [0x00008003, 0x80000000],
  [0x00008002, 0x80000000], [0x00000080, 0x80000000], [0x0000800a, 0x00000000], [0x8000000a, 0x80000000],
  [0x80008081, 0x80000000], [0x00008080, 0x80000000], [0x80000001, 0x00000000], [0x80008008, 0x80000000],
];

/** theta: every lane takes the parity of the columns on either side (x - 1, and x + 1 rotated by one). */
function theta(): void {
  const c0 = s[0] ^ s[10] ^ s[20] ^ s[30] ^ s[40];
  const c1 = s[1] ^ s[11] ^ s[21] ^ s[31] ^ s[41];
  const c2 = s[2] ^ s[12] ^ s[22] ^ s[32] ^ s[42];
  const c3 = s[3] ^ s[13] ^ s[23] ^ s[33] ^ s[43];
  const c4 = s[4] ^ s[14] ^ s[24] ^ s[34] ^ s[44];
  const c5 = s[5] ^ s[15] ^ s[25] ^ s[35] ^ s[45];
  const c6 = s[6] ^ s[16] ^ s[26] ^ s[36] ^ s[46];
  const c7 = s[7] ^ s[17] ^ s[27] ^ s[37] ^ s[47];
  const c8 = s[8] ^ s[18] ^ s[28] ^ s[38] ^ s[48];
  const c9 = s[9] ^ s[19] ^ s[29] ^ s[39] ^ s[49];
  const d0 = c8 ^ ((c2 << 1) | (c3 >>> 31));
  const d1 = c9 ^ ((c3 << 1) | (c2 >>> 31));
  const d2 = c0 ^ ((c4 << 1) | (c5 >>> 31));
  const d3 = c1 ^ ((c5 << 1) | (c4 >>> 31));
  const d4 = c2 ^ ((c6 << 1) | (c7 >>> 31));
  const d5 = c3 ^ ((c7 << 1) | (c6 >>> 31));
  const d6 = c4 ^ ((c8 << 1) | (c9 >>> 31));
  const d7 = c5 ^ ((c9 << 1) | (c8 >>> 31));
  const d8 = c6 ^ ((c0 << 1) | (c1 >>> 31));
  const d9 = c7 ^ ((c1 << 1) | (c0 >>> 31));
  s[0] ^= d0; s[10] ^= d0; s[20] ^= d0; s[30] ^= d0; s[40] ^= d0;
  s[1] ^= d1; s[11] ^= d1; s[21] ^= d1; s[31] ^= d1; s[41] ^= d1;
  s[2] ^= d2; s[12] ^= d2; s[22] ^= d2; s[32] ^= d2; s[42] ^= d2;
  s[3] ^= d3; s[13] ^= d3; s[23] ^= d3; s[33] ^= d3; s[43] ^= d3;
  s[4] ^= d4; s[14] ^= d4; s[24] ^= d4; s[34] ^= d4; s[44] ^= d4;
  s[5] ^= d5; s[15] ^= d5; s[25] ^= d5; s[35] ^= d5; s[45] ^= d5;
  s[6] ^= d6; s[16] ^= d6; s[26] ^= d6; s[36] ^= d6; s[46] ^= d6;
  s[7] ^= d7; s[17] ^= d7; s[27] ^= d7; s[37] ^= d7; s[47] ^= d7;
  s[8] ^= d8; s[18] ^= d8; s[28] ^= d8; s[38] ^= d8; s[48] ^= d8;
  s[9] ^= d9; s[19] ^= d9; s[29] ^= d9; s[39] ^= d9; s[49] ^= d9;
}

/** rho and pi: rotate each lane by its own amount (rho) and move it (pi: (x, y) → (y, 2x + 3y)) into b. */
function rhoPi(): void {
  let lo: number, hi: number;
  b[0] = s[0];
  b[1] = s[1];
  lo = s[2]; hi = s[3]; b[20] = (lo << 1) | (hi >>> 31); b[21] = (hi << 1) | (lo >>> 31);
  lo = s[4]; hi = s[5]; b[40] = (hi << 30) | (lo >>> 2); b[41] = (lo << 30) | (hi >>> 2);
  lo = s[6]; hi = s[7]; b[10] = (lo << 28) | (hi >>> 4); b[11] = (hi << 28) | (lo >>> 4);
  lo = s[8]; hi = s[9]; b[30] = (lo << 27) | (hi >>> 5); b[31] = (hi << 27) | (lo >>> 5);
  lo = s[10]; hi = s[11]; b[32] = (hi << 4) | (lo >>> 28); b[33] = (lo << 4) | (hi >>> 28);
  lo = s[12]; hi = s[13]; b[2] = (hi << 12) | (lo >>> 20); b[3] = (lo << 12) | (hi >>> 20);
  lo = s[14]; hi = s[15]; b[22] = (lo << 6) | (hi >>> 26); b[23] = (hi << 6) | (lo >>> 26);
  lo = s[16]; hi = s[17]; b[42] = (hi << 23) | (lo >>> 9); b[43] = (lo << 23) | (hi >>> 9);
  lo = s[18]; hi = s[19]; b[12] = (lo << 20) | (hi >>> 12); b[13] = (hi << 20) | (lo >>> 12);
  lo = s[20]; hi = s[21]; b[14] = (lo << 3) | (hi >>> 29); b[15] = (hi << 3) | (lo >>> 29);
  lo = s[22]; hi = s[23]; b[34] = (lo << 10) | (hi >>> 22); b[35] = (hi << 10) | (lo >>> 22);
  lo = s[24]; hi = s[25]; b[4] = (hi << 11) | (lo >>> 21); b[5] = (lo << 11) | (hi >>> 21);
  lo = s[26]; hi = s[27]; b[24] = (lo << 25) | (hi >>> 7); b[25] = (hi << 25) | (lo >>> 7);
  lo = s[28]; hi = s[29]; b[44] = (hi << 7) | (lo >>> 25); b[45] = (lo << 7) | (hi >>> 25);
  lo = s[30]; hi = s[31]; b[46] = (hi << 9) | (lo >>> 23); b[47] = (lo << 9) | (hi >>> 23);
  lo = s[32]; hi = s[33]; b[16] = (hi << 13) | (lo >>> 19); b[17] = (lo << 13) | (hi >>> 19);
  lo = s[34]; hi = s[35]; b[36] = (lo << 15) | (hi >>> 17); b[37] = (hi << 15) | (lo >>> 17);
  lo = s[36]; hi = s[37]; b[6] = (lo << 21) | (hi >>> 11); b[7] = (hi << 21) | (lo >>> 11);
  lo = s[38]; hi = s[39]; b[26] = (lo << 8) | (hi >>> 24); b[27] = (hi << 8) | (lo >>> 24);
  lo = s[40]; hi = s[41]; b[28] = (lo << 18) | (hi >>> 14); b[29] = (hi << 18) | (lo >>> 14);
  lo = s[42]; hi = s[43]; b[48] = (lo << 2) | (hi >>> 30); b[49] = (hi << 2) | (lo >>> 30);
  lo = s[44]; hi = s[45]; b[18] = (hi << 29) | (lo >>> 3); b[19] = (lo << 29) | (hi >>> 3);
  lo = s[46]; hi = s[47]; b[38] = (hi << 24) | (lo >>> 8); b[39] = (lo << 24) | (hi >>> 8);
  lo = s[48]; hi = s[49]; b[8] = (lo << 14) | (hi >>> 18); b[9] = (hi << 14) | (lo >>> 18);
}

/** chi, the only non-linear step, along each row of five lanes: from b back into s. */
function chi(): void {
  let b0: number, b1: number, b2: number, b3: number, b4: number, b5: number, b6: number, b7: number, b8: number, b9: number;
  b0 = b[0]; b1 = b[1]; b2 = b[2]; b3 = b[3]; b4 = b[4];
  b5 = b[5]; b6 = b[6]; b7 = b[7]; b8 = b[8]; b9 = b[9];
  s[0] = b0 ^ (~b2 & b4); s[1] = b1 ^ (~b3 & b5); s[2] = b2 ^ (~b4 & b6); s[3] = b3 ^ (~b5 & b7); s[4] = b4 ^ (~b6 & b8);
  s[5] = b5 ^ (~b7 & b9); s[6] = b6 ^ (~b8 & b0); s[7] = b7 ^ (~b9 & b1); s[8] = b8 ^ (~b0 & b2); s[9] = b9 ^ (~b1 & b3);
  b0 = b[10]; b1 = b[11]; b2 = b[12]; b3 = b[13]; b4 = b[14];
  b5 = b[15]; b6 = b[16]; b7 = b[17]; b8 = b[18]; b9 = b[19];
  s[10] = b0 ^ (~b2 & b4); s[11] = b1 ^ (~b3 & b5); s[12] = b2 ^ (~b4 & b6); s[13] = b3 ^ (~b5 & b7); s[14] = b4 ^ (~b6 & b8);
  s[15] = b5 ^ (~b7 & b9); s[16] = b6 ^ (~b8 & b0); s[17] = b7 ^ (~b9 & b1); s[18] = b8 ^ (~b0 & b2); s[19] = b9 ^ (~b1 & b3);
  b0 = b[20]; b1 = b[21]; b2 = b[22]; b3 = b[23]; b4 = b[24];
  b5 = b[25]; b6 = b[26]; b7 = b[27]; b8 = b[28]; b9 = b[29];
  s[20] = b0 ^ (~b2 & b4); s[21] = b1 ^ (~b3 & b5); s[22] = b2 ^ (~b4 & b6); s[23] = b3 ^ (~b5 & b7); s[24] = b4 ^ (~b6 & b8);
  s[25] = b5 ^ (~b7 & b9); s[26] = b6 ^ (~b8 & b0); s[27] = b7 ^ (~b9 & b1); s[28] = b8 ^ (~b0 & b2); s[29] = b9 ^ (~b1 & b3);
  b0 = b[30]; b1 = b[31]; b2 = b[32]; b3 = b[33]; b4 = b[34];
  b5 = b[35]; b6 = b[36]; b7 = b[37]; b8 = b[38]; b9 = b[39];
  s[30] = b0 ^ (~b2 & b4); s[31] = b1 ^ (~b3 & b5); s[32] = b2 ^ (~b4 & b6); s[33] = b3 ^ (~b5 & b7); s[34] = b4 ^ (~b6 & b8);
  s[35] = b5 ^ (~b7 & b9); s[36] = b6 ^ (~b8 & b0); s[37] = b7 ^ (~b9 & b1); s[38] = b8 ^ (~b0 & b2); s[39] = b9 ^ (~b1 & b3);
  b0 = b[40]; b1 = b[41]; b2 = b[42]; b3 = b[43]; b4 = b[44];
  b5 = b[45]; b6 = b[46]; b7 = b[47]; b8 = b[48]; b9 = b[49];
  s[40] = b0 ^ (~b2 & b4); s[41] = b1 ^ (~b3 & b5); s[42] = b2 ^ (~b4 & b6); s[43] = b3 ^ (~b5 & b7); s[44] = b4 ^ (~b6 & b8);
  s[45] = b5 ^ (~b7 & b9); s[46] = b6 ^ (~b8 & b0); s[47] = b7 ^ (~b9 & b1); s[48] = b8 ^ (~b0 & b2); s[49] = b9 ^ (~b1 & b3);
}

/** XOR the block (136 bytes, read little-endian) into the first 34 words of the state. */
function absorbBlock(): void {
  s[0] ^= blockView.getUint32(0, true); s[1] ^= blockView.getUint32(4, true); s[2] ^= blockView.getUint32(8, true);
  s[3] ^= blockView.getUint32(12, true); s[4] ^= blockView.getUint32(16, true); s[5] ^= blockView.getUint32(20, true);
  s[6] ^= blockView.getUint32(24, true); s[7] ^= blockView.getUint32(28, true); s[8] ^= blockView.getUint32(32, true);
  s[9] ^= blockView.getUint32(36, true); s[10] ^= blockView.getUint32(40, true); s[11] ^= blockView.getUint32(44, true);
  s[12] ^= blockView.getUint32(48, true); s[13] ^= blockView.getUint32(52, true); s[14] ^= blockView.getUint32(56, true);
  s[15] ^= blockView.getUint32(60, true); s[16] ^= blockView.getUint32(64, true); s[17] ^= blockView.getUint32(68, true);
  s[18] ^= blockView.getUint32(72, true); s[19] ^= blockView.getUint32(76, true); s[20] ^= blockView.getUint32(80, true);
  s[21] ^= blockView.getUint32(84, true); s[22] ^= blockView.getUint32(88, true); s[23] ^= blockView.getUint32(92, true);
  s[24] ^= blockView.getUint32(96, true); s[25] ^= blockView.getUint32(100, true); s[26] ^= blockView.getUint32(104, true);
  s[27] ^= blockView.getUint32(108, true); s[28] ^= blockView.getUint32(112, true); s[29] ^= blockView.getUint32(116, true);
  s[30] ^= blockView.getUint32(120, true); s[31] ^= blockView.getUint32(124, true); s[32] ^= blockView.getUint32(128, true);
  s[33] ^= blockView.getUint32(132, true);
}
function permute(): void {
  for (const [lo, hi] of ROUNDS) {
    theta();
    rhoPi();
    chi();
    // iota
    s[0] ^= lo;
    s[1] ^= hi;
  }
}

/** Pad the last block (Keccak's 0x01 … 0x80, not SHA-3's 0x06), `k` bytes of it filled, and absorb it. */
function finish(k: number): void {
  block.fill(0, k);
  block[k] = 0x01;
  block[RATE - 1] = k === RATE - 1 ? 0x81 : 0x80;
  absorbBlock();
  permute();
}

/** keccak256 of bytes. */
export function keccak_256(data: Uint8Array): Uint8Array {
  s.fill(0);
  let k = 0;
  for (let i = 0; i < data.length; ) {
    const take = Math.min(RATE - k, data.length - i);
    block.set(data.subarray(i, i + take), k);
    i += take;
    k += take;
    if (k === RATE) {
      absorbBlock();
      permute();
      k = 0;
    }
  }
  return digest(k).slice();
}

/** keccak256 of the characters of `text` from `start` on, each taken as one byte (see wasmKeccak.ts). */
export function keccakOfLatin1(text: string, start = 0): Uint8Array {
  s.fill(0);
  let k = 0;
  for (let i = start; i < text.length; i++) {
    block[k] = text.charCodeAt(i);
    if (++k === RATE) {
      absorbBlock();
      permute();
      k = 0;
    }
  }
  return digest(k);
}

const out = new Uint8Array(32);
const outView = new DataView(out.buffer);

/** Finishes the hash, `k` bytes of the last block filled: the digest, in an array reused by the next hash. */
function digest(k: number): Uint8Array {
  finish(k);
  outView.setUint32(0, s[0], true);
  outView.setUint32(4, s[1], true);
  outView.setUint32(8, s[2], true);
  outView.setUint32(12, s[3], true);
  outView.setUint32(16, s[4], true);
  outView.setUint32(20, s[5], true);
  outView.setUint32(24, s[6], true);
  outView.setUint32(28, s[7], true);
  return out;
}
