/**
 * geth's callTracer (debug_traceTransaction with {tracer: "callTracer", tracerConfig: {withLog: true}})
 * converted into Parity-style entries, so one tree builder serves both tracers and the tree speaks
 * one vocabulary:
 *   CALL / STATICCALL / DELEGATECALL / CALLCODE → type "call" with callType
 *   CREATE / CREATE2                            → type "create" with creationMethod, result.address = `to`
 *   SELFDESTRUCT                                → type "suicide": address = from, refundAddress = to
 * traceAddress is computed from each frame's place among its parent's calls. Iterative: the EVM allows
 * 1024 nested calls and a hostile node may send more.
 *
 * Known differences from trace_transaction for the same transaction (clients', not ours):
 * - the root frame's gas and gasUsed include the intrinsic gas in geth, not in Parity/Erigon;
 * - callcode: geth's `to` is the code address, Parity's the calling contract (fixtures: mainnet-parity-subtraces-*);
 * - STATICCALL/DELEGATECALL frames carry no value in geth; Parity writes 0x0 / the parent's value;
 * - error wording: geth "execution reverted", Parity/Erigon "Reverted" (both are reverts here);
 * - some clients leave out calls to precompiles in one tracer and not the other.
 */
import { escapeShort } from './escape.js';
import { isAddress, isData, isQuantity, isRecord } from './hex.js';
import type { Warn } from './parseRaw.js';
import type { Hex, RpcTraceEntry, TraceSource } from './types.js';

/** geth's callTracer (and what stands in for it: debug_traceCall, local re-execution) counts the intrinsic gas in its root frame; Parity does not. */
export const rootCountsIntrinsicGas = (source: TraceSource | null): boolean => source === 'debug_traceTransaction' || source === 'debug_traceCall' || source === 'local';

/** A log as the callTracer reports it, with where it was emitted. */
export interface FrameLog {
  readonly traceAddress: readonly number[];
  /** The log was emitted after this many of the frame's subcalls. */
  readonly position: number;
  readonly address: Hex;
  readonly topics: readonly Hex[];
  readonly data: Hex;
}

export interface ConvertedCallTrace {
  readonly entries: RpcTraceEntry[];
  /** Every log, in execution order (the order the receipt lists the surviving ones in). */
  readonly logs: FrameLog[];
}

function frameEntry(f: Record<string, unknown>, traceAddress: number[], subtraces: number): RpcTraceEntry | string {
  const type = typeof f.type === 'string' ? f.type.toUpperCase() : '';
  const error = typeof f.error === 'string' ? f.error : null;
  const gasUsed = f.gasUsed;
  const base = { traceAddress, subtraces, error };
  // A frame that failed without returning data (out of gas, invalid opcode) has no result in Parity's
  // vocabulary (Erigon writes result: null); a revert keeps its output, the revert data.
  const noResult = error !== null && f.output === undefined;
  switch (type) {
    case 'CALL':
    case 'STATICCALL':
    case 'DELEGATECALL':
    case 'CALLCODE':
      return {
        ...base,
        type: 'call',
        action: { callType: type.toLowerCase(), from: f.from, to: f.to, value: f.value ?? '0x0', gas: f.gas, input: f.input ?? '0x' },
        result: noResult ? null : { gasUsed, output: f.output ?? '0x' },
      };
    case 'CREATE':
    case 'CREATE2':
      return {
        ...base,
        type: 'create',
        action: { creationMethod: type.toLowerCase(), from: f.from, value: f.value ?? '0x0', gas: f.gas, init: f.input ?? '0x' },
        result: error === null ? { address: f.to, code: f.output ?? '0x', gasUsed } : noResult ? null : { gasUsed, output: f.output },
      };
    case 'SELFDESTRUCT':
      return { ...base, type: 'suicide', action: { address: f.from, refundAddress: f.to, balance: f.value ?? '0x0' }, result: null };
    default:
      return typeof f.type === 'string' ? `unknown frame type "${escapeShort(f.type, 30)}"` : 'a frame without a type';
  }
}

function frameLogs(f: Record<string, unknown>, traceAddress: number[], subcalls: number, bad: { count: number }): FrameLog[] {
  if (!Array.isArray(f.logs)) return [];
  const out: FrameLog[] = [];
  for (const l of f.logs) {
    if (isRecord(l) && isAddress(l.address) && Array.isArray(l.topics) && l.topics.every((t) => isData(t)) && isData(l.data)) {
      // position is hex in geth; clamp a nonsense value to the end of the frame.
      const position = isQuantity(l.position) ? Math.min(Number(BigInt(l.position) > 1_000_000n ? 1_000_000n : BigInt(l.position)), subcalls) : subcalls;
      out.push({ traceAddress, position, address: l.address, topics: l.topics, data: l.data });
    } else bad.count++;
  }
  return out;
}

export function parseCallTrace(raw: unknown, warn: Warn): ConvertedCallTrace | null {
  if (raw === null || raw === undefined) return null;
  if (!isRecord(raw)) {
    warn('debug_traceTransaction returned something other than a call frame; the call tree is not shown.');
    return null;
  }
  const entries: RpcTraceEntry[] = [];
  const logs: FrameLog[] = [];
  const problems: string[] = [];
  const badLogs = { count: 0 };
  // Pre-order walk; an explicit stack of (frame, its traceAddress). Logs are emitted in execution
  // order: a frame's logs at position p come before its p-th subcall's subtree.
  type Item = { kind: 'frame'; frame: unknown; at: number[] } | { kind: 'logs'; logs: FrameLog[] };
  const stack: Item[] = [{ kind: 'frame', frame: raw, at: [] }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    if (item.kind === 'logs') {
      logs.push(...item.logs);
      continue;
    }
    const { frame, at } = item;
    if (!isRecord(frame)) {
      problems.push(`[${at.join(',')}] is not an object`);
      continue;
    }
    const calls = Array.isArray(frame.calls) ? frame.calls : [];
    const entry = frameEntry(frame, at, calls.length);
    if (typeof entry === 'string') {
      problems.push(`[${at.join(',')}] is ${entry}`);
      continue; // its subtree cannot be placed under a node that does not exist; children become orphans below
    }
    entries.push(entry);
    const own = frameLogs(frame, at, calls.length, badLogs);
    // Push in reverse: logs after the last call, then call n-1, logs at n-1, …, call 0, logs at 0.
    for (let i = calls.length; i >= 0; i--) {
      const here = own.filter((l) => l.position === i);
      if (i < calls.length) stack.push({ kind: 'frame', frame: calls[i], at: [...at, i] });
      if (here.length > 0) stack.push({ kind: 'logs', logs: here });
    }
  }
  if (problems.length > 0) {
    const more = problems.length > 5 ? ` and ${problems.length - 5} more` : '';
    warn(`callTracer: frames left out of the call tree: ${problems.slice(0, 5).join('; ')}${more}.`);
  }
  if (badLogs.count > 0) warn(`callTracer: ${badLogs.count} malformed log ${badLogs.count === 1 ? 'entry' : 'entries'} left out.`);
  return { entries, logs };
}
