import type { Hex, Json } from './types.js';

const QUANTITY = /^0x[0-9a-fA-F]{1,64}$/;
const DATA = /^0x[0-9a-fA-F]*$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const HASH = /^0x[0-9a-fA-F]{64}$/;

/** A hex quantity of at most 256 bits ("0x0", "0x1bc16d674ec80000"). Leading zeros are tolerated. */
export const isQuantity = (v: unknown): v is Hex => typeof v === 'string' && QUANTITY.test(v);
/** Hex data of any length; an odd digit count is tolerated and shown as it is. */
export const isData = (v: unknown): v is Hex => typeof v === 'string' && DATA.test(v);
export const isAddress = (v: unknown): v is Hex => typeof v === 'string' && ADDRESS.test(v);
export const isHash = (v: unknown): v is Hex => typeof v === 'string' && HASH.test(v);

/** A JSON object (not null, not an array). */
export const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The bigint of a validated quantity. */
export const toBig = (q: Hex): bigint => BigInt(q);

/** A bigint (or a safe non-negative integer) as a JSON-RPC quantity (0x, no leading zeros). */
export const toQuantity = (n: bigint | number): Hex => `0x${n.toString(16)}`;

/** A validated quantity as a decimal string; quantities below 2^52 (gas, indices) skip BigInt. */
export const toDecimal = (q: Hex): string => (q.length <= 15 ? String(Number.parseInt(q, 16)) : BigInt(q).toString());

/** A 32-byte word of zeros: an unset storage slot, a zero topic. */
export const ZERO_WORD: Hex = `0x${'0'.repeat(64)}`;

/** Hex in lower case, as addresses, topics and selectors are compared (an address as a map's key): the same digits, still Hex. */
export const lowerHex = (h: Hex): Hex => `0x${h.slice(2).toLowerCase()}`;

/** Byte length of hex data. */
export const byteLength = (data: Hex): number => Math.floor((data.length - 2) / 2);

/** The address in the low 20 bytes of a 32-byte word (an indexed topic, a storage slot, a return value). */
export const wordToAddress = (word: string): Hex => `0x${word.slice(-40)}`;

/**
 * One ABI-encoded `string` (an offset word, then a length word and the bytes) read from hex without a
 * selector: Error(string)'s payload, symbol()'s answer. Undefined when the encoding does not hold
 * together or the string is longer than `maxBytes`.
 */
export function abiString(hex: string, maxBytes = Number.MAX_SAFE_INTEGER): string | undefined {
  const body = hex.startsWith('0x') ? hex.slice(2) : hex;
  if (body.length % 2 !== 0 || body.length < 128 || !/^[0-9a-fA-F]*$/.test(body)) return undefined;
  const size = body.length / 2;
  const offset = BigInt(`0x${body.slice(0, 64)}`);
  if (offset > BigInt(size - 32)) return undefined;
  const at = Number(offset);
  const length = BigInt(`0x${body.slice(at * 2, at * 2 + 64)}`);
  if (length > BigInt(maxBytes) || BigInt(at) + 32n + length > BigInt(size)) return undefined;
  const start = (at + 32) * 2;
  return Buffer.from(body.slice(start, start + Number(length) * 2), 'hex').toString('utf8');
}
