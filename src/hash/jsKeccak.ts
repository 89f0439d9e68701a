/**
 * Keccak-256 (Ethereum's padding) in JavaScript, for the HTML report's page: its Content-Security-Policy
 * allows no WebAssembly, so the page build (scripts/build.mjs) puts this module where
 * src/hash/wasmKeccak.ts is imported; Node runs that one. The same two functions. A page hashes a
 * handful of addresses (EIP-55 checksums) before the browser has compiled anything to machine code:
 * the permutation's column and row steps are written out over two typed arrays, which an interpreter
 * runs faster than a library's loops. test/unit/keccak.test.ts checks both against @noble/hashes.
 *
 * State: 25 lanes of 64 bits, lane i held as (lo = s[2i], hi = s[2i + 1]), bytes little-endian.
 */

/** The 24 round constants of Keccak-f[1600] (FIPS 202, 3.2.5), as low and high 32-bit halves. */
const RC_LO = new Uint32Array([
  0x00000001, 0x00008082, 0x0000808a, 0x80008000, 0x0000808b, 0x80000001, 0x80008081, 0x00008009, 0x0000008a, 0x00000088, 0x80008009, 0x8000000a,
  0x8000808b, 0x0000008b, 0x00008089, 0x00008003, 0x00008002, 0x00000080, 0x0000800a, 0x8000000a, 0x80008081, 0x00008080, 0x80000001, 0x80008008,
]);
const RC_HI = new Uint32Array([
  0x00000000, 0x00000000, 0x80000000, 0x80000000, 0x00000000, 0x00000000, 0x80000000, 0x80000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000,
  0x00000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x00000000, 0x80000000, 0x80000000, 0x80000000, 0x00000000, 0x80000000,
]);

/** Rotation of lane x + 5y (rho), and where pi sends it: (x, y) → (y, 2x + 3y). */
const ROT = new Uint8Array([0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14]);
const PI = new Uint8Array(25);
for (let x = 0; x < 5; x++) for (let y = 0; y < 5; y++) PI[x + 5 * y] = y + 5 * ((2 * x + 3 * y) % 5);

const s = new Uint32Array(50);
const b = new Uint32Array(50);

function permute(): void {
  for (let round = 0; round < 24; round++) {
    // theta: every lane takes the parity of the columns on either side (x - 1, and x + 1 rotated by one).
    const c0 = s[0]! ^ s[10]! ^ s[20]! ^ s[30]! ^ s[40]!;
    const c1 = s[1]! ^ s[11]! ^ s[21]! ^ s[31]! ^ s[41]!;
    const c2 = s[2]! ^ s[12]! ^ s[22]! ^ s[32]! ^ s[42]!;
    const c3 = s[3]! ^ s[13]! ^ s[23]! ^ s[33]! ^ s[43]!;
    const c4 = s[4]! ^ s[14]! ^ s[24]! ^ s[34]! ^ s[44]!;
    const c5 = s[5]! ^ s[15]! ^ s[25]! ^ s[35]! ^ s[45]!;
    const c6 = s[6]! ^ s[16]! ^ s[26]! ^ s[36]! ^ s[46]!;
    const c7 = s[7]! ^ s[17]! ^ s[27]! ^ s[37]! ^ s[47]!;
    const c8 = s[8]! ^ s[18]! ^ s[28]! ^ s[38]! ^ s[48]!;
    const c9 = s[9]! ^ s[19]! ^ s[29]! ^ s[39]! ^ s[49]!;
    theta(0, c8 ^ ((c2 << 1) | (c3 >>> 31)), c9 ^ ((c3 << 1) | (c2 >>> 31)));
    theta(2, c0 ^ ((c4 << 1) | (c5 >>> 31)), c1 ^ ((c5 << 1) | (c4 >>> 31)));
    theta(4, c2 ^ ((c6 << 1) | (c7 >>> 31)), c3 ^ ((c7 << 1) | (c6 >>> 31)));
    theta(6, c4 ^ ((c8 << 1) | (c9 >>> 31)), c5 ^ ((c9 << 1) | (c8 >>> 31)));
    theta(8, c6 ^ ((c0 << 1) | (c1 >>> 31)), c7 ^ ((c1 << 1) | (c0 >>> 31)));
    // rho and pi: rotate each lane and move it.
    for (let i = 0; i < 25; i++) {
      const lo = s[2 * i]!;
      const hi = s[2 * i + 1]!;
      const n = ROT[i]!;
      const j = 2 * PI[i]!;
      if (n === 0) {
        b[j] = lo;
        b[j + 1] = hi;
      } else if (n < 32) {
        b[j] = (lo << n) | (hi >>> (32 - n));
        b[j + 1] = (hi << n) | (lo >>> (32 - n));
      } else {
        const m = n - 32; // 1..31: no lane rotates by exactly 32
        b[j] = (hi << m) | (lo >>> (32 - m));
        b[j + 1] = (lo << m) | (hi >>> (32 - m));
      }
    }
    // chi, the only non-linear step, along each row of five lanes.
    for (let y = 0; y < 50; y += 10) {
      const b0 = b[y]!, b1 = b[y + 1]!, b2 = b[y + 2]!, b3 = b[y + 3]!, b4 = b[y + 4]!;
      const b5 = b[y + 5]!, b6 = b[y + 6]!, b7 = b[y + 7]!, b8 = b[y + 8]!, b9 = b[y + 9]!;
      s[y] = b0 ^ (~b2 & b4);
      s[y + 1] = b1 ^ (~b3 & b5);
      s[y + 2] = b2 ^ (~b4 & b6);
      s[y + 3] = b3 ^ (~b5 & b7);
      s[y + 4] = b4 ^ (~b6 & b8);
      s[y + 5] = b5 ^ (~b7 & b9);
      s[y + 6] = b6 ^ (~b8 & b0);
      s[y + 7] = b7 ^ (~b9 & b1);
      s[y + 8] = b8 ^ (~b0 & b2);
      s[y + 9] = b9 ^ (~b1 & b3);
    }
    // iota
    s[0] = s[0]! ^ RC_LO[round]!;
    s[1] = s[1]! ^ RC_HI[round]!;
  }
}

/** XOR (lo, hi) into the five lanes of column x (given as 2x). */
function theta(x2: number, lo: number, hi: number): void {
  s[x2] = s[x2]! ^ lo;
  s[x2 + 1] = s[x2 + 1]! ^ hi;
  s[x2 + 10] = s[x2 + 10]! ^ lo;
  s[x2 + 11] = s[x2 + 11]! ^ hi;
  s[x2 + 20] = s[x2 + 20]! ^ lo;
  s[x2 + 21] = s[x2 + 21]! ^ hi;
  s[x2 + 30] = s[x2 + 30]! ^ lo;
  s[x2 + 31] = s[x2 + 31]! ^ hi;
  s[x2 + 40] = s[x2 + 40]! ^ lo;
  s[x2 + 41] = s[x2 + 41]! ^ hi;
}

/** Bytes absorbed per permutation for a 256-bit output. */
const RATE = 136;

/** XOR byte `k` of the current block into the state. */
function absorbByte(k: number, byte: number): void {
  const word = k >> 2; // 32-bit word: lane k >> 3, low half when (k & 4) === 0
  s[word] = s[word]! ^ (byte << ((k & 3) * 8));
}

/** Pad the last block (Keccak's 0x01 … 0x80, not SHA-3's 0x06), `k` bytes of it already absorbed, and permute. */
function finish(k: number): void {
  absorbByte(k, 0x01);
  absorbByte(RATE - 1, 0x80);
  permute();
}

/** Byte `i` (0–31) of the digest, once finish() has run. */
function digestByte(i: number): number {
  return (s[i >> 2]! >>> ((i & 3) * 8)) & 0xff;
}

/** keccak256 of bytes. */
export function keccak_256(data: Uint8Array): Uint8Array {
  s.fill(0);
  let k = 0;
  for (let i = 0; i < data.length; i++) {
    absorbByte(k, data[i]!);
    if (++k === RATE) {
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
    absorbByte(k, text.charCodeAt(i) & 0xff);
    if (++k === RATE) {
      permute();
      k = 0;
    }
  }
  return digest(k);
}

const out = new Uint8Array(32);

/** Finishes the hash, `k` bytes of the last block absorbed: the digest, in an array reused by the next hash. */
function digest(k: number): Uint8Array {
  finish(k);
  for (let i = 0; i < 32; i++) out[i] = digestByte(i);
  return out;
}
