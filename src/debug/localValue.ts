/**
 * A variable's stack words as text, by its type: integers in decimal (an int<N> sign-extended from its
 * N bits, a uint<N> cut to them: the code generator cleans the higher bits only when it uses a value),
 * addresses and contracts EIP-55 checksummed, booleans, bytes<N> as their N bytes, enums as their
 * number. A reference says where it lives (`memory 0x80`, `calldata 0x44, length 3`, `storage slot 0x2`),
 * never what is there; a type not read here is its word in hex.
 */
import { checksumAddress } from '../decode/keccak.js';
import type { StackVariable } from './functionLayout.js';

const hex = (v: bigint): string => `0x${v.toString(16)}`;
const bits = (n: number): bigint => (1n << BigInt(n)) - 1n;

/** A value type's word. */
function wordAs(id: string, word: bigint): string {
  const sized = /^t_(u?int|bytes)(\d{1,3})$/.exec(id);
  const size = Number(sized?.[2] ?? 0);
  if (sized?.[1] === 'uint' && size > 0 && size <= 256 && size % 8 === 0) return (word & bits(size)).toString();
  if (sized?.[1] === 'int' && size > 0 && size <= 256 && size % 8 === 0) {
    const low = word & bits(size);
    return (low >> BigInt(size - 1) === 1n ? low - (1n << BigInt(size)) : low).toString();
  }
  if (sized?.[1] === 'bytes' && size > 0 && size <= 32) return `0x${word.toString(16).padStart(64, '0').slice(0, size * 2)}`;
  if (id === 't_address' || id === 't_address_payable' || id.startsWith('t_contract$')) return checksumAddress(`0x${(word & bits(160)).toString(16).padStart(40, '0')}`);
  if (id === 't_bool') return word === 0n ? 'false' : 'true';
  // An enum has at most 256 members: one byte.
  if (id.startsWith('t_enum$')) return (word & 0xffn).toString();
  return hex(word);
}

/** `words`: the variable's stack words, the deepest first. */
export function localValue(v: StackVariable, words: readonly bigint[]): string {
  const [first = 0n, second] = words;
  if (v.location === 'memory') return `memory ${hex(first)}`;
  if (v.location === 'storage') return `storage slot ${hex(first)}`;
  if (v.location === 'calldata') return second === undefined ? `calldata ${hex(first)}` : `calldata ${hex(first)}, length ${second}`;
  if (v.typeIdentifier.startsWith('t_function_external')) return `address ${checksumAddress(`0x${(first & bits(160)).toString(16).padStart(40, '0')}`)}, selector 0x${((second ?? 0n) & bits(32)).toString(16).padStart(8, '0')}`;
  return wordAs(v.typeIdentifier, first);
}
