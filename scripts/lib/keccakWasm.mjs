// The WebAssembly module of src/hash/wasmKeccak.ts, written out as bytes: its one function, `h`, runs
// Keccak-f[1600] over padded blocks laid out in memory. src/hash/wasmKeccak.ts carries these bytes as
// base64 (test/unit/wasmKeccak.test.ts checks that they are this function's output), so a run decodes
// them rather than writing them out each time.
//
// h(blocks): absorbs `blocks` blocks of 136 bytes from byte DATA_AT on (the caller has padded them),
// and leaves the first four lanes of the state (the digest) at bytes 0-31. The 24 round constants are
// the module's data, at bytes CONSTANTS_AT to CONSTANTS_AT + 191.
export const CONSTANTS_AT = 200;
export const DATA_AT = 400;

/** Rotation of lane x + 5y (rho). */
const ROT = [0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14];
// Local indices: the parameter, lanes a0-a24, moved lanes b0-b24, column parities c0-c4, d, the round
// counter and the data pointer. Locals start at zero: so does the state.
const [BLOCKS, A, B, C, D, ROUND, PTR] = [0, 1, 26, 51, 56, 57, 58];

/** The 24 round constants (iota), from the spec's linear feedback shift register (FIPS 202, 3.2.5). */
function roundConstants() {
  const out = [];
  let r = 1;
  for (let round = 0; round < 24; round++) {
    let rc = 0n;
    for (let j = 0; j < 7; j++) {
      if (r & 1) rc |= 1n << BigInt((1 << j) - 1);
      r = r & 0x80 ? ((r << 1) ^ 0x71) & 0xff : r << 1;
    }
    out.push(rc);
  }
  return out;
}

/** Unsigned LEB128 (indices, offsets, sizes). */
function leb(n) {
  const out = [];
  do {
    const byte = n & 0x7f;
    n >>>= 7;
    out.push(n === 0 ? byte : byte | 0x80);
  } while (n !== 0);
  return out;
}

const get = (i) => [0x20, i];
const set = (i) => [0x21, i];
const I64_XOR = 0x85;
const I64_AND = 0x83;
const I64_ROTL = 0x89;
/** Signed LEB128 (constants). */
function sleb(n) {
  const out = [];
  for (;;) {
    const byte = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (byte & 0x40) === 0) || (n === -1 && (byte & 0x40) !== 0)) return [...out, byte];
    out.push(byte | 0x80);
  }
}
const i64 = (n) => [0x42, ...sleb(n)];
const i32 = (n) => [0x41, ...sleb(n)];
/** i64.load / i64.store with 8-byte alignment at a constant offset from the address on the stack. */
const load = (offset) => [0x29, 3, ...leb(offset)];
const store = (offset) => [0x37, 3, ...leb(offset)];

/** One round of Keccak-f[1600] on the lanes in locals. */
function round() {
  const code = [];
  // theta: each column's parity, then every lane takes those of the columns on either side.
  for (let x = 0; x < 5; x++) code.push(...get(A + x), ...get(A + x + 5), I64_XOR, ...get(A + x + 10), I64_XOR, ...get(A + x + 15), I64_XOR, ...get(A + x + 20), I64_XOR, ...set(C + x));
  for (let x = 0; x < 5; x++) {
    code.push(...get(C + ((x + 4) % 5)), ...get(C + ((x + 1) % 5)), ...i64(1), I64_ROTL, I64_XOR, ...set(D));
    for (let y = 0; y < 5; y++) code.push(...get(A + x + 5 * y), ...get(D), I64_XOR, ...set(A + x + 5 * y));
  }
  // rho and pi: lane (x, y) rotated into (y, 2x + 3y).
  for (let x = 0; x < 5; x++) {
    for (let y = 0; y < 5; y++) {
      const n = ROT[x + 5 * y];
      code.push(...get(A + x + 5 * y), ...(n === 0 ? [] : [...i64(n), I64_ROTL]), ...set(B + y + 5 * ((2 * x + 3 * y) % 5)));
    }
  }
  // chi, along each row.
  for (let y = 0; y < 5; y++) {
    for (let x = 0; x < 5; x++) {
      code.push(...get(B + ((x + 1) % 5) + 5 * y), ...i64(-1), I64_XOR, ...get(B + ((x + 2) % 5) + 5 * y), I64_AND, ...get(B + x + 5 * y), I64_XOR, ...set(A + x + 5 * y));
    }
  }
  // iota: a0 ^= the constant at CONSTANTS_AT + 8 * round.
  code.push(...get(A), ...get(ROUND), ...i32(3), 0x74, ...load(CONSTANTS_AT), I64_XOR, ...set(A));
  return code;
}

/** The function's body: absorb each block (its 17 lanes XORed in), 24 rounds after each, then the digest out. */
function body() {
  const code = [0x02, ...leb(56), 0x7e, 0x02, 0x7f];
  code.push(...i32(DATA_AT), ...set(PTR));
  // block; loop: while blocks > 0.
  code.push(0x02, 0x40, 0x03, 0x40, ...get(BLOCKS), 0x45, 0x0d, 1);
  for (let i = 0; i < 17; i++) code.push(...get(A + i), ...get(PTR), ...load(8 * i), I64_XOR, ...set(A + i));
  code.push(...i32(0), ...set(ROUND));
  code.push(0x03, 0x40, ...round(), ...get(ROUND), ...i32(1), 0x6a, 0x22, ROUND, ...i32(24), 0x49, 0x0d, 0, 0x0b);
  code.push(...get(PTR), ...i32(136), 0x6a, ...set(PTR), ...get(BLOCKS), ...i32(1), 0x6b, ...set(BLOCKS), 0x0c, 0, 0x0b, 0x0b);
  for (let i = 0; i < 4; i++) code.push(...i32(0), ...get(A + i), ...store(8 * i));
  code.push(0x0b);
  return code;
}

/** The module: the function `h` (one i32 parameter) and its memory `m` (one page to begin with). */
export function keccakWasmBytes() {
  const code = body();
  const constants = roundConstants().flatMap((rc) => Array.from({ length: 8 }, (_, i) => Number((rc >> BigInt(8 * i)) & 0xffn)));
  const section = (id, content) => [id, ...leb(content.length), ...content];
  const name = (text) => [text.length, ...Array.from(text, (c) => c.charCodeAt(0))];
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [1, 0x60, 1, 0x7f, 0]),
    ...section(3, [1, 0]),
    ...section(5, [1, 0, 1]),
    ...section(7, [2, ...name('h'), 0, 0, ...name('m'), 2, 0]),
    ...section(10, [1, ...leb(code.length), ...code]),
    // The round constants, little-endian, at CONSTANTS_AT.
    ...section(11, [1, 0, ...i32(CONSTANTS_AT), 0x0b, ...leb(192), ...constants]),
  ]);
}
