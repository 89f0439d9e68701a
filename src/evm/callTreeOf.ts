/**
 * The call tree of a local run: a view of the tracer's frames in the model's vocabulary (Parity's
 * kinds, as every tree is), made from txray's own record, so nothing in it is checked again. It names
 * each frame as the tree of a node's callTracer answer would (raw/parseCallTrace.ts, model/buildCallTree.ts):
 *   CALL / STATICCALL / DELEGATECALL / CALLCODE → 'call' with its callType (a staticcall's value 0)
 *   CREATE / CREATE2                            → 'create' with its creationMethod, `to` the created address
 *   SELFDESTRUCT                                → 'suicide': `from` the destroyed contract, `to` the beneficiary
 * A frame that failed without returning data (out of gas, an invalid opcode) has no output and no gas used.
 */
import type { FrameLog } from '../raw/parseCallTrace.js';
import type { CallNode, CallTree } from '../model/types.js';
import type { EvmFrame } from './tracer.js';

/** A local run's call tree, and where each of its logs was emitted (in the order they were). */
export interface RecordedCalls {
  readonly tree: CallTree;
  readonly logs: readonly FrameLog[];
  /** The whole run's gas used, as the run set it on the top frame: known where the tree's root has none (it ran out of gas). */
  readonly gasUsed: bigint | null;
}

function nodeOf(f: EvmFrame, traceAddress: readonly number[]): CallNode {
  const noResult = f.error !== null && f.output === null;
  const base = { from: f.from, value: f.value ?? 0n, gas: f.gas, error: f.error, traceAddress, children: [] };
  switch (f.type) {
    case 'CREATE':
    case 'CREATE2': {
      const ok = f.error === null;
      return { ...base, type: 'create', creationMethod: f.type.toLowerCase(), to: ok ? f.to : null, input: f.input, output: ok ? (f.output ?? '0x') : f.output, gasUsed: noResult ? null : f.gasUsed };
    }
    case 'SELFDESTRUCT':
      return { ...base, type: 'suicide', to: f.to, input: null, output: null, gas: null, gasUsed: null };
    default:
      return { ...base, type: 'call', callType: f.type.toLowerCase(), to: f.to, input: f.input, output: noResult ? null : (f.output ?? '0x'), gasUsed: noResult ? null : f.gasUsed };
  }
}

/** The tracer's top frame and logs → the model's call tree. Iterative: the EVM nests 1024 calls deep. */
export function callTreeOf(top: EvmFrame, logs: readonly FrameLog[]): RecordedCalls {
  const root = nodeOf(top, []);
  let count = 0;
  let maxDepth = 0;
  const stack: Array<{ readonly frame: EvmFrame; readonly node: CallNode }> = [{ frame: top, node: root }];
  while (stack.length > 0) {
    const { frame, node } = stack.pop()!;
    count++;
    maxDepth = Math.max(maxDepth, node.traceAddress.length);
    frame.calls.forEach((call, i) => {
      const child = nodeOf(call, [...node.traceAddress, i]);
      node.children.push(child);
      stack.push({ frame: call, node: child });
    });
  }
  return { tree: { root, count, maxDepth }, logs, gasUsed: top.gasUsed };
}
