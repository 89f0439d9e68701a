/**
 * The frames that called an envelope's function (handleOps, execTransaction, a batch): call frames
 * (not delegate or static calls, unless asked) whose input starts with one of the selectors. Without a
 * trace the transaction's own call is still a frame, with no path and no children.
 */
import type { CallNode, InspectModel } from '../model/types.js';
import { walkCalls } from '../model/walk.js';
import type { Hex } from '../raw/types.js';
import { lowerHex } from '../raw/hex.js';

/** A call of an envelope's function as the operations stage reads it: a call node, or the transaction itself where no tree came. */
export interface EnvelopeCall {
  readonly from: Hex;
  readonly to: Hex;
  readonly input: Hex;
  readonly value: bigint;
  readonly failed: boolean;
  /** Null for the transaction standing in for a missing tree. */
  readonly node: CallNode | null;
}

const selectorOf = (input: Hex | null | undefined): string => (input != null && input.length >= 10 ? input.slice(0, 10).toLowerCase() : '');

/** `delegate`: a delegatecall counts too (MultiSend runs in the Safe's context). */
export function envelopeFrames(model: InspectModel, selectors: ReadonlySet<string>, delegate = false): EnvelopeCall[] {
  const out: EnvelopeCall[] = [];
  const tree = model.tree;
  if (tree === null) {
    const tx = model.tx;
    if (tx?.to == null || tx.input === undefined || !selectors.has(selectorOf(tx.input))) return out;
    out.push({ from: lowerHex(tx.from), to: lowerHex(tx.to), input: tx.input, value: tx.value ?? 0n, failed: model.status === 'reverted', node: null });
    return out;
  }
  walkCalls(tree.root, (n, parent) => {
    const kind = n.callType ?? 'call';
    // A proxy forwarding the same input to its implementation is the same envelope, not another.
    const forwarding = kind === 'delegatecall' && parent !== null && parent.input === n.input;
    const callable = n.type === 'call' && !forwarding && (kind === 'call' || (delegate && kind === 'delegatecall'));
    if (callable && n.from !== null && n.to !== null && n.input !== null && selectors.has(selectorOf(n.input))) {
      out.push({ from: lowerHex(n.from), to: lowerHex(n.to), input: n.input, value: n.value ?? 0n, failed: n.error !== null, node: n });
    }
  });
  return out;
}
