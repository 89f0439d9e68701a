/**
 * Call data inside call data: the `bytes` arguments of an envelope (an account's execute and
 * executeBatch, EntryPoint handleOps' user operations, Safe execTransaction, Multicall3 aggregate3,
 * Safe multiSend's packed batch) that are themselves calls of a known function, decoded in place.
 * A bytes value is named only when it decodes exactly (no trailing bytes, no padding added, never by
 * guessed types): bytes that merely begin with a known selector stay hex. Bounded in depth and count.
 */
import type { AbiFunction, AbiParameter } from 'abitype';
import type { Decoded, DecodedArg, JsonValue, NestedCall, PackedTransaction } from '../model/types.js';
import type { Hex } from '../raw/types.js';
import { type AbiIndex, signatureOf } from './abiIndex.js';
import { decodeCallData } from './callData.js';
import { checksumAddress } from './keccak.js';
import { unpackMultiSend } from './unpackMultiSend.js';

/** Calls inside calls are decoded this many levels down from the transaction's input (handleOps → executeBatch → transfer is 2). */
export const NESTED_DEPTH = 4;
/** At most this many inner calls are decoded per input; the rest stay hex. */
const NESTED_CALLS = 256;
/** A bytes value longer than this is not read as call data. */
const MAX_BYTES = 128 * 1024;

interface Walk {
  readonly index: AbiIndex;
  readonly labels: ReadonlyMap<string, string>;
  budget: number;
}

/** Where bytes were found, and the address their call most likely goes to (the candidates of its contract are tried first). */
type Found = (value: JsonValue, path: string, target: string | undefined) => void;

/** The addresses of one level (an argument list, a tuple's components): the first address, the first address[]. */
interface Targets {
  readonly target: string | undefined;
  readonly list: readonly JsonValue[] | undefined;
}

function targetsAt(params: readonly AbiParameter[], values: readonly (JsonValue | undefined)[], outer: string | undefined): Targets {
  const at = params.findIndex((p, i) => p.type === 'address' && typeof values[i] === 'string');
  const listAt = params.findIndex((p, i) => p.type === 'address[]' && Array.isArray(values[i]));
  return { target: at < 0 ? outer : (values[at] as string), list: listAt < 0 ? undefined : (values[listAt] as JsonValue[]) };
}

/**
 * The bytes under one parameter. A call's target: the first address beside the bytes (execute's dest,
 * a user operation's sender, aggregate3's target, execTransaction's to); for bytes[] beside an address[]
 * of the same length (executeBatch(address[], bytes[])), the address at the same index; else the outer one.
 */
function bytesOf(p: AbiParameter, v: JsonValue | undefined, at: string, t: Targets, found: Found): void {
  if (v === undefined) return;
  if (p.type === 'bytes') {
    found(v, at, t.target);
    return;
  }
  if (p.type === 'bytes[]' && Array.isArray(v)) {
    const list = t.list?.length === v.length ? t.list : undefined;
    v.forEach((x, k) => {
      const own = list?.[k];
      found(x, `${at}[${k}]`, typeof own === 'string' ? own : t.target);
    });
    return;
  }
  const array = /^(.*)\[\d*\]$/.exec(p.type);
  if (array !== null) {
    if (!Array.isArray(v)) return;
    const element = { ...p, type: array[1] ?? '' };
    for (const [k, x] of v.entries()) bytesOf(element, x, `${at}[${k}]`, { target: t.target, list: undefined }, found);
    return;
  }
  if (p.type !== 'tuple') return;
  const components = ('components' in p ? p.components : undefined) ?? [];
  const named = !Array.isArray(v) && typeof v === 'object';
  const values = components.map((c, j) => (Array.isArray(v) ? v[j] : named ? v[c.name ?? ''] : undefined));
  const inner = targetsAt(components, values, t.target);
  for (const [j, c] of components.entries()) bytesOf(c, values[j], named && c.name ? `${at}.${c.name}` : `${at}[${j}]`, inner, found);
}

/** One bytes value as a call: decoded exactly, by the target's contract first, then its own inner calls. */
function innerCall(value: JsonValue, target: string | undefined, w: Walk, depth: number): Decoded | null {
  if (typeof value !== 'string' || value.length < 10 || value.length > 2 + 2 * MAX_BYTES || w.budget <= 0) return null;
  const label = target === undefined ? undefined : w.labels.get(target.toLowerCase());
  const found = decodeCallData(w.index, value as Hex, { exact: true, ...(label !== undefined ? { own: label } : {}) });
  if (found === null) return null;
  w.budget--;
  return nest(found.decoded, found.item, target, w, depth);
}

/** multiSend(bytes)'s argument: its packed transactions, each call decoded by its own target. */
function multiSendArg(a: DecodedArg, w: Walk, depth: number): DecodedArg {
  const txs = typeof a.value === 'string' ? unpackMultiSend(a.value as Hex) : null;
  if (txs === null) return a;
  const transactions = txs.map((t): PackedTransaction => {
    const call = innerCall(t.data, t.to, w, depth + 1);
    const tx = { operation: t.operation, to: checksumAddress(t.to) as Hex, value: t.value.toString(), data: t.data };
    return call === null ? tx : { ...tx, call };
  });
  return { ...a, transactions };
}

/** At the depth bound: marked where a bytes argument holds data (a selector's worth or more) that is left undecoded, so that the cut is said, not silent. */
function cutAt(d: Decoded, item: AbiFunction, self: string | undefined): Decoded {
  const t = targetsAt(item.inputs, d.args.map((a) => a.value), self);
  let holds = false;
  for (const [i, a] of d.args.entries()) {
    bytesOf(item.inputs[i]!, a.value, '', t, (value) => {
      holds ||= typeof value === 'string' && value.length >= 10;
    });
  }
  return holds ? { ...d, nestedCut: 'depth' } : d;
}

/** A decoded call at `depth` with the calls inside its bytes arguments decoded (depth permitting). */
function nest(d: Decoded, item: AbiFunction, self: string | undefined, w: Walk, depth: number): Decoded {
  if (item.inputs.length !== d.args.length) return d;
  if (depth >= NESTED_DEPTH) return cutAt(d, item, self);
  if (w.budget <= 0) return d;
  if (d.signature === 'multiSend(bytes)') return { ...d, args: [multiSendArg(d.args[0]!, w, depth)] };
  const t = targetsAt(item.inputs, d.args.map((a) => a.value), self);
  let changed = false;
  const args = d.args.map((a, i): DecodedArg => {
    let call: Decoded | null = null;
    const calls: NestedCall[] = [];
    bytesOf(item.inputs[i]!, a.value, '', t, (value, path, target) => {
      const inner = innerCall(value, target, w, depth + 1);
      if (inner === null) return;
      if (path === '') call = inner;
      else calls.push({ path, call: inner });
    });
    if (call === null && calls.length === 0) return a;
    changed = true;
    return { ...a, ...(call !== null ? { call } : {}), ...(calls.length > 0 ? { calls } : {}) };
  });
  return changed ? { ...d, args } : d;
}

/** Whether a function's parameters can hold bytes at all (else nothing to look into). */
const holdsBytes = (item: AbiFunction): boolean => item.inputs.some((p) => (p.type.startsWith('bytes') && !/^bytes\d/.test(p.type)) || p.type.startsWith('tuple'));

/**
 * A call's decoded input (`input`, sent to `to`) with the calls inside it decoded. `to` is the default
 * target of its inner calls (a multicall into itself); `labels` name targets by contract.
 */
export function withNestedCalls(d: Decoded, input: Hex, to: Hex | null, index: AbiIndex, labels: ReadonlyMap<string, string>): Decoded {
  if (d.name === null || d.signature === null || d.guessed === true || input.length < 10) return d;
  const item = index.functionCandidates(`0x${input.slice(2, 10)}`).find((c) => c.source === d.source && c.contract === d.contract && signatureOf(c.item) === d.signature)?.item;
  if (item === undefined || !holdsBytes(item)) return d;
  return nest(d, item, to ?? undefined, { index, labels, budget: NESTED_CALLS }, 0);
}
