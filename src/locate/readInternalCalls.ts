/**
 * --internal: each matched frame's internal calls, read from the JUMPs txray's EVM kept of it
 * (FrameFacts.trail), with its calls and events placed where they ran. Pure.
 */
import type { FrameFacts } from '../evm/tracer.js';
import { frameKey } from '../model/frameKey.js';
import type { CallDecoding, CallNode, PlacedEvent } from '../model/types.js';
import { internalCallsOf } from './internalCallsOf.js';
import type { FrameToLocate } from './locateFailures.js';
import { cell } from './cell.js';

/** Where each of a frame's calls was made among its jumps (a selfdestruct, which keeps no facts, where the call before it was). */
function callsAtOf(node: CallNode, facts: ReadonlyMap<string, FrameFacts>): number[] {
  let last = 0;
  return node.children.map((c) => (last = facts.get(frameKey(c.traceAddress))?.calledAt ?? last));
}

/** Each frame's internal calls, from the jumps the EVM recorded, by its call node; frames whose facts disagree on the code are left alone. */
export function readInternalCalls(frames: readonly FrameToLocate[], facts: ReadonlyMap<string, FrameFacts>, events: ReadonlyMap<CallNode, readonly PlacedEvent[]> | null): Map<CallNode, CallDecoding> {
  const out = new Map<CallNode, CallDecoding>();
  for (const f of frames) {
    const own = facts.get(frameKey(f.node.traceAddress));
    const trail = own?.trail;
    if (own === undefined || trail === undefined || trail.endGas === null || own.codeAddress.toLowerCase() !== f.codeAddress) continue;
    // The events the receipt kept of this frame (none where a caller reverted) are the ones it emitted, in order.
    const placed = events?.get(f.node) ?? [];
    const eventsAt = placed.length === trail.logs.length ? placed.map((e, k) => ({ at: cell(trail.logs, k), calls: e.position })) : undefined;
    if (placed.length > 0 && eventsAt === undefined) continue;
    const internal = internalCallsOf(f.code, f.debug, trail, { gas: trail.endGas, reverted: f.node.error !== null, callsAt: callsAtOf(f.node, facts), ...(eventsAt === undefined ? {} : { eventsAt }) });
    if (internal !== null) out.set(f.node, { internal });
  }
  return out;
}
