/**
 * The debugger's step log from one local run: the StepLog, and each frame it ran named and mapped
 * the way the source-location stage does it — by an artifact whose code is the code that ran (runtime
 * code at the frame's code address, or the creation code a constructor's init code starts with), never
 * guessed. Pure: the codes are fetched by the caller.
 */
import type { Abi, AbiFunction } from 'viem';
import { signatureOf } from '../decode/abiIndex.js';
import { keccakHex } from '../decode/keccak.js';
import type { StepLog } from '../evm/stepLog.js';
import { frameKey } from '../model/frameKey.js';
import type { CallNode } from '../model/types.js';
import { walkCalls } from '../model/walk.js';
import { type CodeArtifact, matchArtifact } from '../locate/matchCode.js';
import { type CodeDebug, decompressMap, instructions } from '../locate/sourceMap.js';
import type { Hex } from '../raw/types.js';
import { BATCHES, EXEC_TRANSACTION, HANDLE_OPS } from '../operations/signatures.js';
import { internalTable } from './internalTable.js';
import { lineTable } from './lineTable.js';
import type { DebugFrame, DebugStepLog, FrameSource } from './types.js';
import { cell } from '../locate/cell.js';

/** An artifact as the debugger reads it: code, maps and ABI. */
export type DebugArtifact = CodeArtifact & { readonly abi?: Abi };

/** The lookup's names (the same decoder's): an address's label, a call's function by any loaded ABI. */
export interface FrameNames {
  label(address: string): string | undefined;
  functionOf(input: Hex): string | null;
}

const selectorOf = (input: Hex | null): string | null => (input !== null && /^0x[0-9a-fA-F]{8}/.test(input) ? input.slice(0, 10).toLowerCase() : null);

/** The function of `abi` whose selector is `selector`. */
function functionNamed(abi: Abi | undefined, selector: string | null): string | null {
  if (abi === undefined || selector === null) return null;
  const fn = abi.find((item): item is AbiFunction => item.type === 'function' && `0x${keccakHex(signatureOf(item)).slice(0, 8)}` === selector);
  return fn?.name ?? null;
}

/** The creation artifact whose code the init code starts with (its constructor arguments follow). */
const creationArtifact = (init: Hex, artifacts: readonly DebugArtifact[]): DebugArtifact | undefined =>
  artifacts.find((a) => a.bytecode !== undefined && a.bytecode.length > 10 && init.toLowerCase().startsWith(a.bytecode.toLowerCase()));

function sourceOf(code: Hex, debug: CodeDebug | null): FrameSource | null {
  if (debug === null) return null;
  const map = decompressMap(debug.map);
  return map === null ? null : { index: instructions(code).index, map, sources: debug.sources, debug };
}

/** What ran in a frame, its artifact and its map, by the call node. */
function identify(n: CallNode, codes: ReadonlyMap<string, Hex>, artifacts: readonly DebugArtifact[]): Pick<DebugFrame, 'contract' | 'function' | 'source' | 'codeAddress' | 'storageAddress' | 'code'> {
  const create = n.type === 'create';
  const context = n.callType === 'delegatecall' || n.callType === 'callcode';
  const codeAddress = n.to?.toLowerCase() ?? null;
  const storageAddress = (context ? n.from : n.to)?.toLowerCase() ?? null;
  if (create) {
    const a = n.input === null ? undefined : creationArtifact(n.input, artifacts);
    return { codeAddress, storageAddress, code: n.input === null ? null : instructions(n.input).bytes, contract: a?.name ?? null, function: a === undefined ? null : 'constructor', source: a === undefined || n.input === null ? null : sourceOf(n.input, a.debug?.creation() ?? null) };
  }
  const code = codeAddress === null ? undefined : codes.get(codeAddress);
  const a = code === undefined ? undefined : matchArtifact(code, artifacts);
  return { codeAddress, storageAddress, code: code === undefined ? null : instructions(code).bytes, contract: a?.name ?? null, function: functionNamed(a?.abi, selectorOf(n.input)), source: code === undefined || a === undefined ? null : sourceOf(code, a.debug?.runtime() ?? null) };
}

/** Envelopes whose inner failures are failures to step to: handleOps, execTransaction, the batches. */
const ENVELOPES: ReadonlySet<string> = new Set([...HANDLE_OPS, EXEC_TRANSACTION, ...Object.keys(BATCHES)]);

/**
 * Where a transaction that did not fail failed inside an envelope (a user operation, a Safe
 * transaction, a batch call): the first failed frame, in the order they ran, whose caller did not fail
 * and that runs under an envelope's frame.
 */
function envelopeFailure(frames: readonly DebugFrame[]): number | null {
  const underEnvelope = (i: number): boolean => {
    for (let at = cell(frames, i).parent; at !== null; at = cell(frames, at).parent) if (ENVELOPES.has(cell(frames, at).selector ?? '')) return true;
    return false;
  };
  // Frames are in the order they were entered.
  const found = frames.findIndex((f, i) => f.error !== null && f.last >= f.first && f.parent !== null && cell(frames, f.parent).error === null && underEnvelope(i));
  return found < 0 ? null : found;
}

/** Where a failed frame's failure began: down into the last failed call whose revert data is the frame's own (the frame passed it on), as far as that goes. */
function originOf(frames: readonly DebugFrame[], nodes: ReadonlyMap<string, CallNode>, from: number): number {
  const outputOf = (i: number) => nodes.get(frameKey(cell(frames, i).traceAddress))?.output;
  let at = from;
  for (;;) {
    const here = outputOf(at);
    const next = frames.findLastIndex((f, i) => f.parent === at && f.error !== null && f.last >= f.first && outputOf(i) === here);
    if (next < 0) return at;
    at = next;
  }
}

/**
 * Where the failure began: from the failed top frame (or, where it did not fail, an envelope's failed
 * operation) down to its origin. Its last step is the failing opcode (REVERT, INVALID, or the one that ran out of gas).
 */
function failureOf(frames: readonly DebugFrame[], nodes: ReadonlyMap<string, CallNode>): number | null {
  if (frames.length === 0) return null;
  const top = cell(frames, 0).error !== null ? 0 : envelopeFailure(frames);
  if (top === null) return null;
  const f = cell(frames, originOf(frames, nodes, top));
  return f.last >= f.first ? f.last : null;
}

/** Where every failure began, in step order: each failed frame whose caller did not pass its revert data on (the top frame's included), followed down to its origin. */
function failuresOf(frames: readonly DebugFrame[], nodes: ReadonlyMap<string, CallNode>): number[] {
  const outputOf = (i: number) => nodes.get(frameKey(cell(frames, i).traceAddress))?.output;
  const out = new Set<number>();
  frames.forEach((f, i) => {
    if (f.error === null || f.last < f.first) return;
    const parent = f.parent === null ? null : cell(frames, f.parent);
    if (parent !== null && f.parent !== null && parent.error !== null && outputOf(f.parent) === outputOf(i)) return;
    const origin = cell(frames, originOf(frames, nodes, i));
    if (origin.last >= origin.first) out.add(origin.last);
  });
  return [...out].sort((a, b) => a - b);
}

/** The step log: `root` is the run's call tree, `codes` the runtime code by lower-case address. */
export function buildStepLog(steps: StepLog, root: CallNode, codes: ReadonlyMap<string, Hex>, artifacts: readonly DebugArtifact[], names?: FrameNames): DebugStepLog {
  const nodes = new Map<string, CallNode>();
  walkCalls(root, (n) => void nodes.set(frameKey(n.traceAddress), n));
  const withMaps = artifacts.filter((a) => a.deployedBytecode !== undefined || a.bytecode !== undefined);
  // Each frame's last step: the last step whose frame it is (steps of a frame are not contiguous: its calls come between).
  const last = new Int32Array(steps.frames.length).fill(-1);
  for (let i = 0; i < steps.count; i++) last[cell(steps.frame, i)] = i;
  const byKey = new Map<string, number>();
  const frames = steps.frames.map((f, i): DebugFrame => {
    byKey.set(frameKey(f.traceAddress), i);
    const n = nodes.get(frameKey(f.traceAddress));
    const parent = f.traceAddress.length === 0 ? null : (byKey.get(frameKey(f.traceAddress.slice(0, -1))) ?? null);
    const kind = n === undefined ? 'call' : n.type === 'create' ? (n.creationMethod ?? 'create') : (n.callType ?? n.type);
    const known = n === undefined ? { codeAddress: null, storageAddress: null, code: null, contract: null, function: null, source: null } : identify(n, codes, withMaps);
    const lookup = names === undefined || n === undefined ? {} : { lookup: { label: known.codeAddress === null ? null : (names.label(known.codeAddress) ?? null), function: n.type === 'call' && n.input !== null ? names.functionOf(n.input) : null } };
    return { traceAddress: f.traceAddress, kind, ...known, ...lookup, selector: n?.type === 'call' ? selectorOf(n.input) : null, error: n?.error ?? null, parent, first: f.first, last: cell(last, i) < 0 ? f.first - 1 : cell(last, i) };
  });
  const base = { steps, frames, failure: failureOf(frames, nodes), failures: failuresOf(frames, nodes) };
  return { ...base, lines: lineTable(base), internal: internalTable(base) };
}
