/**
 * Batches: Multicall3's aggregate, aggregate3 and aggregate3Value, an account's executeBatch, a Safe's
 * multiSend. The calls come from the envelope's own arguments; each call's outcome from the frame's
 * children, taken in order by their target (without a tree: a batch that reverts on any failure
 * succeeded in full when its frame did; an allowed failure, and a call that never ran, stay unknown).
 */
import { decodeFunctionData, parseAbiItem, type AbiFunction } from 'viem';
import type { AbiIndex } from '../decode/abiIndex.js';
import { decodeCallData } from '../decode/callData.js';
import { unpackMultiSend } from '../decode/unpackMultiSend.js';
import type { BatchCall, BatchOperation, CallNode, InspectModel } from '../model/types.js';
import type { Hex } from '../raw/types.js';
import { envelopeFrames, type EnvelopeCall } from './envelopeFrames.js';
import { forwarded } from './forwarded.js';
import { BATCHES } from './signatures.js';

interface Planned {
  readonly to: Hex;
  readonly value: bigint;
  readonly data: Hex;
  readonly allowFailure?: boolean;
}

type Row = Readonly<Record<string, unknown>>;
const lower = (a: unknown): Hex => String(a).toLowerCase() as Hex;
const asRow = (x: unknown): Row => (typeof x === 'object' && x !== null ? (x as Row) : {});

/** The calls an envelope's arguments name, in order; null where they do not decode. */
function planned(input: Hex, name: string, signature: string): Planned[] | null {
  let args: readonly unknown[];
  try {
    args = decodeFunctionData({ abi: [parseAbiItem(signature) as AbiFunction], data: input }).args ?? [];
  } catch {
    return null;
  }
  if (name === 'multiSend') return unpackMultiSend(args[0] as Hex)?.map((t) => ({ to: t.to, value: t.value, data: t.data })) ?? null;
  if (name === 'executeBatch' && Array.isArray(args[0]) && args.length > 1) {
    const [dest, second, third] = args as [unknown[], unknown[], unknown[] | undefined];
    const values = third === undefined ? null : second;
    const data = third ?? second;
    return dest.map((to, i) => ({ to: lower(to), value: values === null ? 0n : BigInt(String(values[i] ?? 0)), data: (data[i] ?? '0x') as Hex }));
  }
  const calls = Array.isArray(args[0]) ? args[0] : [];
  return calls.map((c) => {
    const r = asRow(c);
    const value = typeof r.value === 'bigint' ? r.value : 0n;
    const call: Planned = { to: lower(r.target), value, data: (r.callData ?? r.data ?? '0x') as Hex };
    return typeof r.allowFailure === 'boolean' ? { ...call, allowFailure: r.allowFailure } : call;
  });
}

/** The calls a batch envelope's input names (its selector one of BATCHES'), in order; null where it is none or does not decode. */
export function batchedCalls(input: Hex): Array<{ readonly to: Hex; readonly data: Hex }> | null {
  const known = BATCHES[input.slice(0, 10).toLowerCase()];
  return known === undefined ? null : planned(input, known.name, known.signature);
}

/** Each planned call's frame among the envelope's children, in order by target. */
function childFrames(envelope: CallNode, calls: readonly Planned[]): Array<CallNode | null> {
  const node = forwarded(envelope);
  let next = 0;
  return calls.map((c) => {
    for (let j = next; j < node.children.length; j++) {
      const child = node.children[j]!;
      if (child.type === 'call' && child.to !== null && lower(child.to) === c.to) {
        next = j + 1;
        return child;
      }
    }
    return null;
  });
}

function batchOf(frame: EnvelopeCall, index: AbiIndex): BatchOperation | null {
  const known = BATCHES[frame.input.slice(0, 10).toLowerCase()]!;
  const calls = planned(frame.input, known.name, known.signature);
  if (calls === null || calls.length === 0) return null;
  // With a tree, a frame that called nothing and did not fail ran no batch (call data sent to an account without code).
  if (frame.node !== null && frame.node.children.length === 0 && !frame.failed) return null;
  const children = frame.node === null ? calls.map(() => null) : childFrames(frame.node, calls);
  const out: BatchCall[] = calls.map((c, i) => {
    const child = children[i]!;
    const success = child !== null ? child.error === null : frame.node === null && !frame.failed && c.allowFailure !== true ? true : null;
    const own = child?.decoded?.function;
    const decoded = own?.name != null ? own : (decodeCallData(index, c.data)?.decoded ?? null);
    const fn = decoded?.name ?? null;
    const args = decoded !== null && decoded.name !== null && decoded.guessed !== true ? { args: decoded.args } : {};
    const rolledBack = success === true && frame.failed ? { rolledBack: true as const } : {};
    const failedAt = child !== null && child.error !== null ? { traceAddress: child.traceAddress } : {};
    return { to: c.to, value: c.value, function: fn, ...args, success, ...(c.allowFailure !== undefined ? { allowFailure: c.allowFailure } : {}), ...rolledBack, ...failedAt };
  });
  // Who made the calls: Multicall3 and an account itself; a multiSend runs in its Safe's context (a delegatecall).
  const account = known.name === 'multiSend' ? frame.from : frame.to;
  return { kind: 'batchCall', account, success: !frame.failed, traceAddress: frame.node?.traceAddress ?? null, action: null, via: known.name, calls: out };
}

export function batchCalls(model: InspectModel, index: AbiIndex): BatchOperation[] {
  if (model.status !== 'success' && model.status !== 'reverted') return [];
  return envelopeFrames(model, new Set(Object.keys(BATCHES)), true).flatMap((f) => batchOf(f, index) ?? []);
}
