/**
 * Put each event under the call that emitted it. Only the callTracer (withLog) says where a log was
 * emitted; its logs, in execution order, are the receipt's logs in logIndex order (logs of reverted
 * frames never reach the receipt: geth leaves them out of the tracer's answer, anvil keeps them, so
 * they are skipped here). When the two lists do not agree we do not guess: the events stay in the
 * Logs section only.
 */
import type { FrameLog } from '../raw/parseCallTrace.js';
import type { Warn } from '../raw/parseRaw.js';
import type { RpcLog } from '../raw/types.js';
import { frameKey } from './frameKey.js';
import type { CallNode, CallTree, PlacedEvent } from './types.js';
import { walkCalls } from './walk.js';

const sameLog = (a: FrameLog, b: RpcLog): boolean =>
  a.address.toLowerCase() === b.address.toLowerCase() &&
  a.data.toLowerCase() === b.data.toLowerCase() &&
  a.topics.length === b.topics.length &&
  a.topics.every((t, i) => t.toLowerCase() === b.topics[i]?.toLowerCase());

/** traceAddress keys of every call that failed or sits under one that failed: their logs were reverted. */
function revertedPaths(tree: CallTree): Set<string> {
  const out = new Set<string>();
  const failed = new Set<CallNode>();
  walkCalls(tree.root, (node, parent) => {
    if (node.error === null && (parent === null || !failed.has(parent))) return;
    failed.add(node);
    out.add(frameKey(node.traceAddress));
  });
  return out;
}

export function placeLogs(tree: CallTree, allFrameLogs: readonly FrameLog[], receiptLogs: readonly RpcLog[], warn: Warn): Map<CallNode, PlacedEvent[]> | null {
  const reverted = revertedPaths(tree);
  const frameLogs = allFrameLogs.filter((l) => !reverted.has(frameKey(l.traceAddress)));
  const mismatch = frameLogs.length !== receiptLogs.length || frameLogs.some((l, i) => { const r = receiptLogs[i]; return r === undefined || !sameLog(l, r); });
  if (mismatch) {
    warn(`the tracer reports ${frameLogs.length} events and the receipt ${receiptLogs.length} logs that do not match one to one; events are shown in the Logs section only.`);
    return null;
  }
  const byPath = new Map<string, { readonly node: CallNode; readonly logs: number[] }>();
  walkCalls(tree.root, (node) => {
    const logs: number[] = [];
    node.logs = logs;
    byPath.set(frameKey(node.traceAddress), { node, logs });
  });
  const events = new Map<CallNode, PlacedEvent[]>();
  for (const [i, log] of frameLogs.entries()) {
    const frame = byPath.get(frameKey(log.traceAddress));
    if (frame === undefined) continue; // its frame was left out as malformed (already warned about)
    frame.logs.push(i);
    const list = events.get(frame.node) ?? [];
    list.push({ position: log.position, log: i });
    events.set(frame.node, list);
  }
  return events;
}
