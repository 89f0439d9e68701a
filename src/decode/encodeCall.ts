/**
 * `txray call`'s arguments as calldata: a signature (`transfer(address,uint256)`, or a name the loaded
 * ABIs know) and its arguments in the forms `cast call` takes — decimal or hex integers, amounts with a
 * unit (`1.5ether`, `10gwei`), `true`/`false`, hex bytes, strings, tuples `(a,b)` and arrays `[a,b]`.
 * Pure: every failure is a UsageError (exit 2), raised before any request.
 */
import type { AbiFunction, AbiParameter } from 'abitype';
import { encodeAbiParameters, encodeFunctionData, parseAbiItem } from 'viem';
import { AmbiguousFunction, UsageError } from '../errors.js';
import { escapeShort } from '../raw/escape.js';
import { isAddress } from '../raw/hex.js';
import type { Hex } from '../raw/types.js';
import type { AbiIndex } from './abiIndex.js';
import { nearFunctions } from './nearFunctions.js';
import { signatureOf } from './abiIndex.js';

const UNITS: Readonly<Record<string, number>> = { wei: 0, gwei: 9, ether: 18, eth: 18 };

/**
 * An integer as cast reads one: decimal, 0x-hex, or a decimal amount with a unit (`1.5ether`,
 * `10gwei`, `7wei`). Null when the text is none of these (or an amount has more decimals than its unit).
 */
export function parseAmount(text: string): bigint | null {
  const s = text.trim().toLowerCase().replace(/_/g, '');
  if (/^-?0x[0-9a-f]+$/.test(s)) return s.startsWith('-') ? -BigInt(s.slice(1)) : BigInt(s);
  if (/^-?\d+$/.test(s)) return BigInt(s);
  const m = /^(-?)(\d+)(?:\.(\d+))?\s*(wei|gwei|ether|eth)$/.exec(s);
  if (m === null) {
    const sci = /^(\d+)e(\d{1,2})$/.exec(s);
    return sci === null ? null : BigInt(sci[1]!) * 10n ** BigInt(sci[2]!);
  }
  const decimals = UNITS[m[4]!]!;
  const fraction = m[3] ?? '';
  if (fraction.length > decimals) return null;
  const value = BigInt(m[2]!) * 10n ** BigInt(decimals) + BigInt((fraction || '0').padEnd(decimals, '0'));
  return m[1] === '-' ? -value : value;
}

/** Split `a,(b,c),[d,e],"f,g"` at its top-level commas; brackets and double quotes nest. */
export function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') quoted = !quoted;
    else if (quoted) continue;
    else if (ch === '(' || ch === '[') depth++;
    else if (ch === ')' || ch === ']') depth--;
    else if (ch === ',' && depth === 0) {
      parts.push(text.slice(start, i).trim());
      start = i + 1;
    }
    if (depth < 0) throw new Error('unbalanced brackets');
  }
  if (depth !== 0 || quoted) throw new Error('unbalanced brackets or quotes');
  const last = text.slice(start).trim();
  if (last !== '' || parts.length > 0) parts.push(last);
  return parts;
}

function inner(text: string, open: string, close: string, what: string): string[] {
  const s = text.trim();
  if (!s.startsWith(open) || !s.endsWith(close)) throw new Error(`expected ${what} written as ${open}…${close}`);
  return splitTopLevel(s.slice(1, -1));
}

const hexBody = (s: string): string | null => (/^0x([0-9a-fA-F]{2})*$/.test(s) ? s.slice(2) : null);

/** One argument's text as the value viem encodes for its ABI type; throws an Error saying what it expected. */
function valueFor(param: AbiParameter, text: string): unknown {
  const type = param.type;
  const array = /^(.*)\[(\d*)\]$/.exec(type);
  if (array !== null) {
    const items = inner(text, '[', ']', 'an array');
    if (array[2] !== '' && items.length !== Number(array[2])) throw new Error(`expected ${array[2]} items, got ${items.length}`);
    return items.map((item) => valueFor({ ...param, type: array[1]! }, item));
  }
  if (type === 'tuple') {
    const components = (param as { components?: readonly AbiParameter[] }).components ?? [];
    const items = inner(text, '(', ')', 'a tuple');
    if (items.length !== components.length) throw new Error(`expected a tuple of ${components.length}, got ${items.length} items`);
    return components.map((c, i) => valueFor(c, items[i]!));
  }
  const s = text.trim();
  if (type === 'address') {
    if (!isAddress(s)) throw new Error('expected an address (0x and 40 hex digits)');
    return s.toLowerCase();
  }
  if (type === 'bool') {
    if (s === 'true' || s === 'false') return s === 'true';
    throw new Error('expected true or false');
  }
  if (type === 'string') return s.length >= 2 && s.startsWith('"') && s.endsWith('"') ? s.slice(1, -1) : text;
  if (type === 'bytes') {
    if (hexBody(s) === null) throw new Error('expected hex bytes (0x and an even number of hex digits)');
    return s;
  }
  const fixed = /^bytes(\d+)$/.exec(type);
  if (fixed !== null) {
    const size = Number(fixed[1]);
    const body = hexBody(s);
    if (body === null || body.length / 2 > size) throw new Error(`expected at most ${size} bytes of hex`);
    return `0x${body.padEnd(size * 2, '0')}`;
  }
  const int = /^(u?)int(\d*)$/.exec(type);
  if (int !== null) {
    const bits = BigInt(int[2] === '' ? 256 : Number(int[2]));
    const n = parseAmount(s);
    if (n === null) throw new Error('expected an integer (decimal, 0x-hex, or an amount such as 1.5ether or 10gwei)');
    const [min, max] = int[1] === 'u' ? [0n, 2n ** bits - 1n] : [-(2n ** (bits - 1n)), 2n ** (bits - 1n) - 1n];
    if (n < min || n > max) throw new Error(`out of range for ${type}`);
    return n;
  }
  throw new Error(`the type ${type} is not supported here; pass --data instead`);
}

/** The values of every argument, or a UsageError naming the one that does not fit its type. */
function argumentValues(params: readonly AbiParameter[], words: readonly string[], what: string): unknown[] {
  if (words.length !== params.length) {
    throw new UsageError(`${what} takes ${params.length} argument${params.length === 1 ? '' : 's'}, got ${words.length}.`);
  }
  return params.map((p, i) => {
    try {
      return valueFor(p, words[i]!);
    } catch (err) {
      const name = p.name ? ` (${p.name})` : '';
      throw new UsageError(`argument ${i + 1}${name} of ${what}, '${escapeShort(words[i]!, 60)}', does not fit ${p.type}: ${(err as Error).message}.`);
    }
  });
}

/**
 * A signature as cast writes it: `name(types)` with optional return types `(types)` after it; tuples
 * as `(a,b)`. Throws a UsageError for anything viem cannot read as a function.
 */
export function parseSignature(sig: string): AbiFunction {
  const s = sig.trim().replace(/^function\s+/, '');
  const name = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(s)?.[0];
  // The parameter list ends where its first parenthesis closes; a second list after it is the return types.
  let depth = 0;
  let end = -1;
  for (let i = name?.length ?? 0; i < s.length && end < 0; i++) {
    if (s[i] === '(') depth++;
    else if (s[i] === ')' && --depth === 0) end = i + 1;
  }
  const params = name === undefined || end < 0 ? '' : s.slice(name.length, end).trim();
  const returns = end < 0 ? '' : s.slice(end).trim();
  if (name === undefined || !params.startsWith('(') || (returns !== '' && !/^\(.*\)$/.test(returns))) {
    throw new UsageError(`'${escapeShort(sig, 80)}' is not a function signature; write it as name(type,…), e.g. transfer(address,uint256).`);
  }
  const text = `function ${name}${params}${returns !== '' ? ` returns ${returns}` : ''}`;
  try {
    const item = parseAbiItem(text) as AbiFunction;
    if (item.type !== 'function') throw new Error('not a function');
    return item;
  } catch {
    throw new UsageError(`'${escapeShort(sig, 80)}' is not a function signature viem can read; write it as name(type,…), e.g. transfer(address,uint256).`);
  }
}

/**
 * The function a signature or a bare name means. A name several loaded functions of that arity have is
 * narrowed: to those whose argument types the values fit, then to those of the target's own contract
 * (`prefer`: the artifact its code matched; undefined while the code is not asked yet, which the caller
 * does on AmbiguousFunction; null where it matched none), then to the project's and --abi's.
 */
function resolveFunction(sig: string, words: readonly string[], index: AbiIndex | null, prefer?: string | null): AbiFunction {
  if (sig.includes('(')) return parseSignature(sig);
  if (!/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(sig)) throw new UsageError(`'${escapeShort(sig, 80)}' is neither a function signature nor a function name.`);
  const argCount = words.length;
  const found = index?.functionsNamed(sig) ?? [];
  const signatures = [...new Set(found.map((c) => signatureOf(c.item)))];
  type C = (typeof found)[number];
  const distinct = (list: readonly C[]): AbiFunction[] => [...new Map(list.map((c) => [signatureOf(c.item), c.item])).values()];
  const fits = (c: C): boolean => {
    try {
      argumentValues(c.item.inputs, words, signatureOf(c.item));
      return true;
    } catch {
      return false;
    }
  };
  const ambiguous = (list: readonly C[]): AmbiguousFunction =>
    new AmbiguousFunction(`${sig} with ${argCount} argument${argCount === 1 ? '' : 's'} is ambiguous (${distinct(list).map(signatureOf).join(', ')}); give the signature instead.`);
  let pool = found.filter((c) => c.item.inputs.length === argCount);
  // Each step keeps what it narrows to, where that is anything.
  const narrow = (keep: (c: C) => boolean): void => {
    const kept = pool.filter(keep);
    if (kept.length > 0 && distinct(pool).length > 1) pool = kept;
  };
  narrow(fits);
  if (distinct(pool).length > 1 && prefer === undefined) throw ambiguous(pool);
  narrow((c) => prefer != null && c.contract === prefer);
  narrow((c) => c.source === 'project' || c.source === 'abi');
  const fitting = distinct(pool);
  if (fitting.length === 1) return fitting[0]!;
  if (signatures.length === 0) throw new UsageError(`no loaded ABI has a function named ${sig}; ${unknownName(sig, index, argCount)}`);
  if (fitting.length === 0) throw new UsageError(`the loaded ABIs have ${signatures.join(', ')}, none with ${argCount} argument${argCount === 1 ? '' : 's'}.`);
  throw ambiguous(pool);
}

/** What to do about a name no loaded ABI has: the near names they do have, else how to write a signature. */
function unknownName(sig: string, index: AbiIndex | null, argCount: number): string {
  const near = index === null ? [] : nearFunctions(sig, index.loadedFunctions(), argCount).map((s) => escapeShort(s, 80));
  if (near.length === 0) return 'give its signature instead, as name(type,…), e.g. transfer(address,uint256).';
  return `did you mean ${near.length === 1 ? near[0] : `${near.slice(0, -1).join(', ')} or ${near.at(-1)}`}?`;
}

/** Calldata for `sig` with `words` as its arguments; `prefer`: see resolveFunction. */
export function encodeCall(sig: string, words: readonly string[], index: AbiIndex | null, prefer?: string | null): Hex {
  const fn = resolveFunction(sig, words, index, prefer);
  const values = argumentValues(fn.inputs, words, signatureOf(fn));
  return encodeFunctionData({ abi: [fn], functionName: fn.name, args: values });
}

/** `--create <initcode> [constructor(types)] [args]`: the init code with the constructor arguments appended. */
export function encodeCreate(initcode: Hex, sig: string | undefined, words: readonly string[]): Hex {
  if (sig === undefined) {
    if (words.length > 0) throw new UsageError('constructor arguments need the constructor\'s signature first, e.g. --create 0x… "constructor(uint256)" 42.');
    return initcode;
  }
  const m = /^\s*(?:constructor)?\s*(\(.*\))\s*$/.exec(sig);
  if (m === null) throw new UsageError(`'${escapeShort(sig, 80)}' is not a constructor signature; write it as constructor(type,…).`);
  let params: readonly AbiParameter[];
  try {
    params = (parseAbiItem(`function f${m[1]}`) as AbiFunction).inputs;
  } catch {
    throw new UsageError(`'${escapeShort(sig, 80)}' is not a constructor signature viem can read.`);
  }
  const values = argumentValues(params, words, 'the constructor');
  return `${initcode}${encodeAbiParameters(params, values).slice(2)}`;
}
