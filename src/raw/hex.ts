import type { Hex } from './types.js';

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
export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The bigint of a validated quantity. */
export const toBig = (q: Hex): bigint => BigInt(q);

/** A validated quantity as a decimal string; quantities below 2^52 (gas, indices) skip BigInt. */
export const toDecimal = (q: Hex): string => (q.length <= 15 ? String(Number.parseInt(q, 16)) : BigInt(q).toString());

/** True for a quantity of zero ("0x0", "0x00"…), without parsing it. */
export const isZero = (q: Hex): boolean => /^0x0*$/.test(q);

/** Byte length of hex data. */
export const byteLength = (data: Hex): number => Math.floor((data.length - 2) / 2);
