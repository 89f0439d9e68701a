/**
 * --internal: which frames' internal calls can be read (a call whose code matches an artifact, or a
 * verified contract, whose source map and AST are at hand; never a guess), and reading them once
 * txray's EVM has recorded their jumps. Pure.
 */
import type { FrameFacts } from '../evm/recorder.js';
import { frameKey } from '../model/frameKey.js';
import type { CallDecoding, CallNode, InspectModel, PlacedEvent } from '../model/types.js';
import { walkCalls } from '../model/walk.js';
import type { Hex } from '../raw/types.js';
import { internalCallsOf } from './internalCallsOf.js';
import { codeAddressOf, type FrameToLocate } from './locateFailures.js';
import { type CodeArtifact, matchArtifact } from './matchCode.js';
import type { DebugSource, SourceTable } from './sourceMap.js';

/** Whether a compilation kept the AST of any of its files. */
function hasAst(sources: SourceTable): boolean {
  if (sources.ast === undefined) return false;
  for (let id = 0; id < sources.count; id++) if (sources.ast(id) != null) return true;
  return false;
}

/**
 * Every call frame whose runtime code has a source map and the AST of its files (constructors are left
 * out); `withoutAst`: how many more frames matched code whose build kept no AST.
 */
export function internalFrames(model: InspectModel, artifacts: readonly CodeArtifact[], codes: ReadonlyMap<string, Hex>, verified: ReadonlyMap<string, DebugSource>): { frames: FrameToLocate[]; withoutAst: number } {
  const out: FrameToLocate[] = [];
  let withoutAst = 0;
  if (model.tree === null) return { frames: out, withoutAst };
  const withDebug = artifacts.filter((a) => a.debug !== undefined);
  walkCalls(model.tree.root, (n) => {
    const address = codeAddressOf(n);
    const code = address === null ? undefined : codes.get(address);
    if (address === null || code === undefined || code.length <= 2) return;
    const debug = matchArtifact(code, withDebug)?.debug?.runtime() ?? verified.get(address)?.runtime() ?? null;
    if (debug === null) return;
    if (hasAst(debug.sources)) out.push({ node: n, code, codeAddress: address, debug });
    else withoutAst++;
  });
  return { frames: out, withoutAst };
}

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
    const eventsAt = placed.length === trail.logs.length ? placed.map((e, k) => ({ at: trail.logs[k]!, calls: e.position })) : undefined;
    if (placed.length > 0 && eventsAt === undefined) continue;
    const internal = internalCallsOf(f.code, f.debug, trail, { gas: trail.endGas, reverted: f.node.error !== null, callsAt: callsAtOf(f.node, facts), ...(eventsAt === undefined ? {} : { eventsAt }) });
    if (internal !== null) out.set(f.node, { internal });
  }
  return out;
}
