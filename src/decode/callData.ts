/**
 * Call data, return values, revert data and constructor arguments by the candidates an AbiIndex holds.
 * Every candidate must decode cleanly and re-encode to the same bytes before it names anything.
 */
import type { AbiError, AbiEvent, AbiFunction, AbiParameter } from 'abitype';
import { decodeAbiParameters, decodeErrorResult, encodeAbiParameters, encodeErrorResult } from 'viem';
import type { Decoded, DecodedArg, JsonValue } from '../model/types.js';
import { byteLength, isAddress, lowerHex } from '../raw/hex.js';
import type { Hex } from '../raw/types.js';
import { type AbiIndex, type Artifact, type Candidate, signatureOf } from './abiIndex.js';
import { checksumAddress } from './keccak.js';
import { guessTypes } from './guessTypes.js';
import { decodeStaticWords } from './staticWords.js';

function jsonValue(value: unknown, param: AbiParameter): JsonValue {
  const type = param.type;
  const array = type.endsWith(']') ? /^(.*)\[(\d*)\]$/.exec(type) : null;
  if (array) return (value as unknown[]).map((v) => jsonValue(v, { ...param, type: array[1]! }));
  if (type === 'tuple') {
    const components = ('components' in param ? param.components : undefined) ?? [];
    const named = components.length > 0 && components.every((c) => c.name);
    const items = components.map((c, i) => jsonValue(Array.isArray(value) ? value[i] : (value as Record<string, unknown>)[c.name ?? String(i)], c));
    return named ? Object.fromEntries(components.map((c, i) => [c.name!, items[i]!])) : items;
  }
  if (typeof value === 'bigint') return value.toString();
  if (type === 'address' && typeof value === 'string' && isAddress(value)) return checksumAddress(value);
  if (typeof value === 'boolean' || typeof value === 'string') return value;
  return String(value);
}

export function args(params: readonly AbiParameter[], values: readonly unknown[] | Record<string, unknown> | undefined, withIndexed = false): DecodedArg[] {
  return params.map((p, i) => {
    const raw = Array.isArray(values) ? values[i] : (values as Record<string, unknown> | undefined)?.[p.name ?? String(i)] ?? (values as unknown[] | undefined)?.[i];
    const name = p.name ?? '';
    const value = jsonValue(raw, p);
    return withIndexed ? { name, type: p.type, indexed: 'indexed' in p && p.indexed === true, value } : { name, type: p.type, value };
  });
}

/**
 * Parameters from data: by word when they are all static (exactly the words, each canonical, when
 * `exact`), else by viem's codec, which must then re-encode to the same bytes when `exact`.
 * Throws when the data does not fit.
 */
export function decodeParams(params: readonly AbiParameter[], data: Hex, exact: boolean): readonly unknown[] {
  const fast = decodeStaticWords(params, data, exact);
  if (fast === null) throw new Error('the data does not fit the parameters');
  if (fast !== undefined) return fast;
  const values = decodeAbiParameters(params, data);
  if (exact && encodeAbiParameters(params, values).toLowerCase() !== data.toLowerCase()) throw new Error('the data does not re-encode to itself');
  return values;
}

export function named(item: AbiFunction | AbiEvent | AbiError, c: Candidate<unknown>, decodedArgs: DecodedArg[]): Decoded {
  return { name: item.name, signature: signatureOf(item), args: decodedArgs, source: c.source, ...(c.contract ? { contract: c.contract } : {}) };
}

/**
 * How call data is read: `own` puts the candidates of one contract first (the artifact its code matched,
 * or a contract's name: the target's); `exact` accepts only an exact fit.
 */
export interface CallDataHow {
  readonly own?: Artifact | string;
  readonly exact?: boolean;
}

/**
 * The candidates with those of `own` first (the artifact whose code the called or emitting contract
 * runs): its own names for its functions, events and parameters win over a generic ABI's of the same
 * selector, whatever the sources' order. The others keep their order, to fill what it lacks.
 */
export function ownFirst<T>(candidates: Array<Candidate<T>>, own: Artifact | string | undefined): Array<Candidate<T>> {
  if (own === undefined) return candidates;
  const mine = typeof own === 'string' ? (c: Candidate<T>): boolean => c.contract === own : (c: Candidate<T>): boolean => c.contract === own.name && c.source === own.source;
  const first = candidates.filter(mine);
  return first.length === 0 || first.length === candidates.length ? candidates : [...first, ...candidates.filter((c) => !mine(c))];
}

/**
 * Call data by a candidate of its selector (those of `how.own`, the callee's matched artifact or a
 * contract name, first). The index files candidates under their true selector, so only the parameters
 * are decoded here, and they must re-encode to exactly the bytes that were sent.
 */
export function decodeCallData(index: AbiIndex, input: Hex, how: CallDataHow = {}): { decoded: Decoded; item: AbiFunction } | null {
  if (byteLength(input) < 4) return null;
  const data = lowerHex(input);
  const body: Hex = `0x${data.slice(10)}`;
  const candidates = ownFirst(index.functionCandidates(`0x${data.slice(2, 10)}`), how.own);
  for (const c of candidates) {
    try {
      const values = decodeParams(c.item.inputs, body, true);
      return { decoded: named(c.item, c, args(c.item.inputs, values)), item: c.item };
    } catch {
      /* this candidate does not fit: try the next */
    }
  }
  if (how.exact === true) return null;
  // None fits exactly: the first whose canonical encoding is followed only by extra bytes (a router's
  // tracking suffix, a memo), which the function never reads. Those bytes are counted, not dropped. A
  // database signature with no parameters would "fit" any data this way: too weak to name anything.
  for (const c of candidates) {
    if (c.source === 'database' && c.item.inputs.length === 0) continue;
    try {
      const values = decodeAbiParameters(c.item.inputs, body);
      const canonical = encodeAbiParameters(c.item.inputs, values).toLowerCase();
      if (canonical.length >= body.length || !body.startsWith(canonical)) continue;
      const decoded = { ...named(c.item, c, args(c.item.inputs, values)), trailingBytes: (body.length - canonical.length) / 2 };
      return { decoded, item: c.item };
    } catch {
      /* next */
    }
  }
  // Nor that: the first whose canonical encoding is exactly the bytes sent plus the zero padding of a
  // last dynamic value that the sender left off (routers and bots send `bytes` unpadded at the end of
  // the call data; the callee reads the same values). A database signature with no dynamic parameter
  // could not need padding: none is tried.
  const short = (body.length - 2) % 64;
  if (short === 0) return null;
  const padded: Hex = `${body}${'0'.repeat(64 - short)}`;
  for (const c of candidates) {
    if (!c.item.inputs.some((p) => p.type === 'bytes' || p.type === 'string')) continue;
    try {
      const values = decodeParams(c.item.inputs, padded, true);
      return { decoded: named(c.item, c, args(c.item.inputs, values)), item: c.item };
    } catch {
      /* next */
    }
  }
  return null;
}

/** Guessed types by selector, reused while they fit (a big transaction calls the same unknown function many times). */
export type GuessMemo = Map<string, readonly AbiParameter[]>;

/**
 * Types for call data that no source names (see guessTypes), kept only when the values decoded with
 * them re-encode to exactly the same bytes. Its args carry a type and a value, no name. `memo` is the
 * decode pass's own (never shared between inputs, so one input's guesses cannot change another's).
 */
export function guessCallData(input: Hex, memo: GuessMemo = new Map()): Decoded | null {
  if (input.length < 10) return null;
  const data = lowerHex(input);
  const selector: Hex = `0x${data.slice(2, 10)}`;
  const body: Hex = `0x${data.slice(10)}`;
  const known = memo.get(selector);
  const again = known === undefined ? null : fitGuess(selector, known, body);
  if (again !== null) return again;
  const params = guessTypes(body);
  const guess = params === null ? null : fitGuess(selector, params, body);
  if (guess !== null && params !== null) {
    if (memo.size >= 4096) memo.clear();
    memo.set(selector, params);
  }
  return guess;
}

function fitGuess(selector: Hex, params: readonly AbiParameter[], body: Hex): Decoded | null {
  let values: readonly unknown[];
  try {
    values = decodeParams(params, body, true);
  } catch {
    return null;
  }
  const guessedArgs: DecodedArg[] = [];
  for (let i = 0; i < params.length; i++) guessedArgs.push({ type: params[i]!.type, value: jsonValue(values[i], params[i]!) });
  return { name: null, selector, guessed: true, signature: null, args: guessedArgs, source: 'guessed' };
}

export function decodeReturn(item: AbiFunction, output: Hex): DecodedArg[] | null {
  if (item.outputs.length === 0 || byteLength(output) === 0) return null;
  try {
    return args(item.outputs, decodeParams(item.outputs, output, true));
  } catch {
    return null;
  }
}

export function decodeErrorData(index: AbiIndex, data: Hex, own?: Artifact): Decoded | null {
  if (byteLength(data) < 4) return null;
  const lower = lowerHex(data);
  for (const c of ownFirst(index.errorCandidates(`0x${lower.slice(2, 10)}`), own)) {
    try {
      const { args: values } = decodeErrorResult({ abi: [c.item], data: lower });
      if (encodeErrorResult({ abi: [c.item], errorName: c.item.name, args: (values ?? []) as unknown[] }).toLowerCase() !== lower) continue;
      return named(c.item, c, args(c.item.inputs, (values ?? []) as unknown[]));
    } catch {
      /* next */
    }
  }
  return null;
}

/** Constructor arguments, when the init code is a known artifact's creation code followed by them. */
export function decodeConstructor(artifacts: readonly Artifact[], init: Hex): { artifact: Artifact; decoded: Decoded } | null {
  const lower = init.toLowerCase();
  for (const a of artifacts) {
    const code = a.bytecode?.toLowerCase();
    if (code === undefined || code.length < 10 || !lower.startsWith(code)) continue;
    const ctor = a.abi.find((i) => i.type === 'constructor') as { inputs: readonly AbiParameter[] } | undefined;
    const inputs = ctor?.inputs ?? [];
    const rest: Hex = `0x${lower.slice(code.length)}`;
    try {
      const values = inputs.length === 0 ? [] : decodeAbiParameters(inputs, rest);
      const decoded: Decoded = { name: 'constructor', signature: `constructor(${inputs.map((i) => i.type).join(',')})`, args: args(inputs, values as unknown[]), source: a.source, contract: a.name };
      return { artifact: a, decoded };
    } catch {
      /* the tail is not this constructor's arguments */
    }
  }
  return null;
}

