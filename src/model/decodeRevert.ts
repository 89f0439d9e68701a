/**
 * The revert ladder for raw revert data: Error(string) → Panic(uint256) → printable text →
 * custom error by selector → empty. (Custom errors by name come with the decoding issue.)
 */
import { abiString, byteLength, toQuantity } from '../raw/hex.js';
import { isPrintableText } from '../raw/escape.js';
import type { Hex } from '../raw/types.js';
import type { DecodedRevert, Revert, RevertJson } from './types.js';

export type { RevertJson } from './types.js';

const ERROR_STRING = '0x08c379a0';
const PANIC = '0x4e487b71';

/** Solidity's panic codes (docs.soliditylang.org, "Panic via assert and Error via require"). */
const PANIC_MEANINGS: Readonly<Record<number, string>> = {
  0x00: 'generic compiler panic',
  0x01: 'assertion failed',
  0x11: 'arithmetic overflow or underflow',
  0x12: 'division or modulo by zero',
  0x21: 'invalid enum value',
  0x22: 'corrupt storage byte array',
  0x31: 'pop on an empty array',
  0x32: 'array index out of bounds',
  0x41: 'out of memory (too much allocated)',
  0x51: 'call to a zero-initialised function pointer',
};

function word(hex: string, byteOffset: number): bigint | undefined {
  const start = 2 + byteOffset * 2;
  if (hex.length < start + 64) return undefined;
  return BigInt(`0x${hex.slice(start, start + 64)}`);
}

export function decodeRevert(data: Hex | null): Revert {
  if (data === null || data === '0x' || byteLength(data) === 0) return { kind: 'empty' };
  const lower = data.toLowerCase();
  if (lower.startsWith(ERROR_STRING)) {
    const message = abiString(lower.slice(10));
    if (message !== undefined) return { kind: 'error', message };
  }
  const code = lower.startsWith(PANIC) && byteLength(data) === 36 ? word(lower, 4) : undefined;
  if (code !== undefined) {
    const meaning = code <= 0xffn ? PANIC_MEANINGS[Number(code)] : undefined;
    return { kind: 'panic', code, meaning: meaning ?? 'unknown panic code' };
  }
  // Some contracts revert with a bare string (no selector): show it when it is all printable UTF-8.
  if (data.length % 2 === 0) {
    const text = Buffer.from(data.slice(2), 'hex').toString('utf8');
    if (text.length > 0 && isPrintableText(text) && !text.includes('\uFFFD')) return { kind: 'text', text };
  }
  return { kind: 'custom', selector: byteLength(data) >= 4 ? `0x${data.slice(2, 10)}` : data, data };
}

/** A revert as --json writes it (failure.revert, and call nodes' revert); a custom error an ABI names adds its decoding. */

export function revertToJson(r: Revert): RevertJson {
  switch (r.kind) {
    case 'error':
      return { kind: 'Error', message: r.message };
    case 'panic':
      return { kind: 'Panic', code: toQuantity(r.code), meaning: r.meaning };
    case 'text':
      return { kind: 'text', text: r.text };
    case 'custom':
      return { kind: 'custom', selector: r.selector, data: r.data };
    case 'empty':
      return { kind: 'empty' };
  }
}

/** A decoded revert as --json spells it: a custom error an ABI names carries its name and arguments beside its data. */
export function decodedRevertJson(r: DecodedRevert): RevertJson {
  const json = revertToJson(r.revert);
  return r.custom !== null && json.kind === 'custom' ? { kind: 'custom', ...r.custom, selector: json.selector, data: json.data } : json;
}

/** A one-line description of a revert, for text output (the caller escapes it). */
export function describeRevert(r: Revert): string {
  switch (r.kind) {
    case 'error':
      return `Error: ${r.message}`;
    case 'panic':
      return `Panic(0x${r.code.toString(16).padStart(2, '0')}): ${r.meaning}`;
    case 'text':
      return `"${r.text}"`;
    case 'custom':
      return byteLength(r.data) >= 4 ? `custom error ${r.selector}` : `revert data ${r.data}`;
    case 'empty':
      return 'reverted without data';
  }
}
