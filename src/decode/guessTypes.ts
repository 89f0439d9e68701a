/**
 * Argument types for call data that no source names, read from its layout alone: static words,
 * offsets with the lengths they point at (bytes, strings, arrays), arrays of static rows, arrays of
 * dynamic items and nested tuples. Types are returned only when the whole body parses as a layout;
 * the decoder keeps them only when the values re-encode to exactly the same bytes.
 *
 * Word types are a reading, not a fact: a 20-byte value with high bits set is shown as an address, a
 * word starting with four 0xff bytes as an int256, a word whose first byte is set (or a left-aligned
 * short byte string) as bytes32, and every other word as uint256 (bools and small enums among them).
 */
import type { AbiParameter } from 'abitype';
import type { Hex } from '../raw/types.js';

/** Bodies larger than this, or heads wider than MAX_HEAD words, are not guessed (time and noise). */
const MAX_BYTES = 32 * 1024;
const MAX_HEAD = 64;
const MAX_DEPTH = 4;
/** Regions tried per guess: hostile data cannot make the search explode. */
const MAX_STEPS = 2000;
let steps = 0;

type Words = readonly bigint[];

/** Word `i`; every index read below lies inside the region being read, so a miss is a bug here. */
function wordAt(words: Words, i: number): bigint {
  const w = words[i];
  if (w === undefined) throw new Error(`internal error: guessTypes read word ${i} of ${words.length}`);
  return w;
}
const TWO_128 = 1n << 128n;
const TWO_160 = 1n << 160n;
const TWO_224 = 1n << 224n;
const TWO_248 = 1n << 248n;
const ALL_ONES_TOP = ((1n << 32n) - 1n) << 224n;

/** The type a single static word reads as. */
function wordType(w: bigint): string {
  if (w >= TWO_128 && w < TWO_160) return 'address';
  if ((w & ALL_ONES_TOP) === ALL_ONES_TOP) return 'int256';
  if (w >= TWO_248) return 'bytes32';
  if (w >= TWO_224 && (w & 0xffffffffn) === 0n) return 'bytes32';
  return 'uint256';
}

/** One type for a column of words: the common one, address only when every word is one, else uint256/bytes32. */
function columnType(ws: readonly bigint[]): string {
  const types = new Set(ws.map(wordType));
  const [only] = types;
  if (types.size === 1 && only !== undefined) return only;
  if (types.has('bytes32')) return 'bytes32';
  if (types.has('int256') && !types.has('address')) return 'int256';
  return 'uint256';
}

const isOffset = (w: bigint, min: number, max: number): boolean => w % 32n === 0n && w >= BigInt(min) && w < BigInt(max);

/** Is a `bytes` value of `len` bytes at `start` words exactly what fills [start, end) (zero padding)? */
function fitsBytes(bytes: Uint8Array, startWord: number, endWord: number, len: bigint): boolean {
  if (len > BigInt((endWord - startWord) * 32)) return false;
  const n = Number(len);
  if (startWord + Math.ceil(n / 32) !== endWord) return false;
  for (let i = startWord * 32 + n; i < endWord * 32; i++) if (bytes[i] !== 0) return false;
  return true;
}

/** Printable UTF-8 text (no control characters other than tab and newline). */
function looksLikeText(bytes: Uint8Array): boolean {
  if (bytes.length === 0) return false;
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    // eslint-disable-next-line no-control-regex
    return !/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.test(text);
  } catch {
    return false;
  }
}

/** A dynamic value in words [start, end): bytes/string, a static array, an array of rows, of dynamic items, or a tuple. */
function tail(words: Words, bytes: Uint8Array, start: number, end: number, depth: number): AbiParameter | null {
  const len = wordAt(words, start);
  if (fitsBytes(bytes, start + 1, end, len)) {
    return { type: looksLikeText(bytes.subarray((start + 1) * 32, (start + 1) * 32 + Number(len))) ? 'string' : 'bytes' };
  }
  const body = end - start - 1;
  if (len > 0n && len <= BigInt(body)) {
    const n = Number(len);
    // An array of dynamic items: a head of exactly n offsets, each item of the same type.
    const dynamic = depth < MAX_DEPTH ? region(words, bytes, start + 1, end, depth + 1, n) : null;
    const first = dynamic?.[0];
    if (dynamic !== null && first !== undefined && dynamic.length === n && dynamic.every((p) => sameType(p, first) && isDynamic(p))) {
      return { ...first, type: `${first.type}[]` } as AbiParameter;
    }
    // Rows of k static words each (k = 1: a plain array).
    if (body % n === 0) {
      const k = body / n;
      const columns = Array.from({ length: k }, (_, c) => Array.from({ length: n }, (_, r) => wordAt(words, start + 1 + r * k + c)));
      const [column] = columns;
      if (k === 1 && column !== undefined) return { type: `${columnType(column)}[]` };
      if (k <= 8) return { type: 'tuple[]', components: columns.map((col) => ({ type: columnType(col) })) };
    }
  }
  if (depth < MAX_DEPTH) {
    const inner = region(words, bytes, start, end, depth + 1);
    if (inner !== null && inner.length > 0) return { type: 'tuple', components: inner };
  }
  return null;
}

const sameType = (a: AbiParameter, b: AbiParameter): boolean => JSON.stringify(a) === JSON.stringify(b);

function isDynamic(p: AbiParameter): boolean {
  if (p.type === 'bytes' || p.type === 'string' || p.type.endsWith('[]')) return true;
  return p.type === 'tuple' && ((p as { components?: readonly AbiParameter[] }).components ?? []).some(isDynamic);
}

/**
 * The parameters encoded in words [start, end) (offsets relative to `start`). When `count` is given,
 * the head must be exactly that many offsets (an array of dynamic items).
 */
function region(words: Words, bytes: Uint8Array, start: number, end: number, depth: number, count?: number): AbiParameter[] | null {
  if (++steps > MAX_STEPS) return null;
  const size = end - start;
  if (size === 0) return count === undefined || count === 0 ? [] : null;
  // The head ends where the first offset points; each candidate head is tried, shortest first.
  const heads: number[] = [];
  for (let i = 0; i < Math.min(size, MAX_HEAD); i++) {
    const w = wordAt(words, start + i);
    if (isOffset(w, (i + 1) * 32, size * 32)) {
      const h = Number(w / 32n);
      if (!heads.includes(h)) heads.push(h);
    }
  }
  heads.sort((a, b) => a - b);
  for (const h of heads) {
    if (h > MAX_HEAD || (count !== undefined && h !== count)) continue;
    const guess = withHead(words, bytes, start, end, h, depth, count !== undefined);
    if (guess !== null) return guess;
  }
  if (count !== undefined || size > MAX_HEAD) return null;
  return Array.from({ length: size }, (_, i) => ({ type: wordType(wordAt(words, start + i)) }));
}

/** The head is words [start, start + h): offsets among them must point, in order, at tails that tile the rest exactly. */
function withHead(words: Words, bytes: Uint8Array, start: number, end: number, h: number, depth: number, allOffsets: boolean): AbiParameter[] | null {
  const offsets: number[] = [];
  let last = h - 1;
  for (let i = 0; i < h; i++) {
    const w = wordAt(words, start + i);
    if (isOffset(w, h * 32, (end - start) * 32) && Number(w / 32n) > last) {
      offsets.push(i);
      last = Number(w / 32n);
    } else if (allOffsets) return null;
  }
  if (offsets.length === 0) return null;
  const starts = offsets.map((i) => start + Number(wordAt(words, start + i) / 32n));
  if (starts[0] !== start + h) return null;
  const params: AbiParameter[] = [];
  let o = 0;
  for (let i = 0; i < h; i++) {
    if (offsets[o] === i) {
      const from = starts[o] ?? end;
      const to = starts[o + 1] ?? end;
      if (to <= from) return null;
      const t = tail(words, bytes, from, to, depth);
      if (t === null) return null;
      params.push(t);
      o++;
    } else params.push({ type: wordType(wordAt(words, start + i)) });
  }
  return params;
}

/**
 * Types for a call body (the bytes after the selector), or null when its layout is not clean ABI. The
 * caller decodes with them and keeps the guess only if the values re-encode to the same bytes.
 */
export function guessTypes(body: Hex): AbiParameter[] | null {
  const hex = body.slice(2);
  if (hex.length % 64 !== 0 || hex.length / 2 > MAX_BYTES || !/^[0-9a-fA-F]*$/.test(hex)) return null;
  const n = hex.length / 64;
  const words: bigint[] = [];
  for (let i = 0; i < n; i++) words.push(BigInt(`0x${hex.slice(i * 64, i * 64 + 64)}`));
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  steps = 0;
  return region(words, bytes, 0, n, 0);
}
