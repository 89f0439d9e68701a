/**
 * Which failed frames can be placed in the source, and placing them once txray's EVM said where each
 * stopped. A frame is placed only by code that is matched, never guessed: the artifact whose runtime
 * code equals the code at the frame's code address (immutables, links and the metadata tail masked,
 * see matchArtifact), the creation code its init code starts with for a constructor, or the verified
 * contract a service holds for that address.
 */
import type { FrameFacts } from '../evm/tracer.js';
import { frameKey } from '../model/frameKey.js';
import type { CallDecoding, CallNode, InspectModel } from '../model/types.js';
import { walkCalls } from '../model/walk.js';
import type { Hex } from '../raw/types.js';
import { type CodeArtifact, matchArtifact } from './matchCode.js';
import { type CodeDebug, type DebugSource, locateExit } from './sourceMap.js';

/** A failed frame whose code has a source map: what ran, and where its map and files are. */
export interface FrameToLocate {
  readonly node: CallNode;
  /** The code that ran: the runtime code at its address, a constructor's init code. */
  readonly code: Hex;
  /** The account whose code ran (the EVM's facts must say the same); null for a constructor. */
  readonly codeAddress: string | null;
  readonly debug: CodeDebug;
}

/** The code address of a failed frame, where its tracer's `to` is that (not a callcode's, which names the caller). */
export function codeAddressOf(n: CallNode): string | null {
  if (n.type !== 'call' || n.to === null || n.callType === 'callcode') return null;
  return n.to.toLowerCase();
}

/** The artifact whose creation code the init code starts with (its constructor arguments follow). */
function creationArtifact(init: Hex, artifacts: readonly CodeArtifact[]): CodeArtifact | undefined {
  const lower = init.toLowerCase();
  return artifacts.find((a) => a.bytecode !== undefined && a.bytecode.length > 10 && lower.startsWith(a.bytecode.toLowerCase()));
}

/** The addresses of the failed call frames, whose code the caller may need to ask for. */
export function failedCodeAddresses(model: InspectModel): string[] {
  const out = new Set<string>();
  if (model.tree !== null) {
    walkCalls(model.tree.root, (n) => {
      const a = n.error !== null ? codeAddressOf(n) : null;
      if (a !== null) out.add(a);
    });
  }
  return [...out];
}

/**
 * The failed frames that can be placed: each with the code that ran and its debug. `codes` are the
 * runtime codes by lower-case address; `verified` the debug a service gave by address (--online).
 */
export function framesToLocate(model: InspectModel, artifacts: readonly CodeArtifact[], codes: ReadonlyMap<string, Hex>, verified: ReadonlyMap<string, DebugSource>): FrameToLocate[] {
  if (model.tree === null) return [];
  const withDebug = artifacts.filter((a) => a.debug !== undefined);
  if (withDebug.length === 0 && verified.size === 0) return [];
  const out: FrameToLocate[] = [];
  walkCalls(model.tree.root, (n) => {
    if (n.error === null) return;
    if (n.type === 'create' && n.input !== null) {
      const debug = creationArtifact(n.input, withDebug)?.debug?.creation() ?? null;
      if (debug !== null) out.push({ node: n, code: n.input, codeAddress: null, debug });
      return;
    }
    const address = codeAddressOf(n);
    const code = address === null ? undefined : codes.get(address);
    if (address === null || code === undefined || code.length <= 2) return;
    // The project's own build first (its files are the developer's); a service's otherwise.
    const debug = matchArtifact(code, withDebug)?.debug?.runtime() ?? verified.get(address)?.runtime() ?? null;
    if (debug !== null) out.push({ node: n, code, codeAddress: address, debug });
  });
  return out;
}

/** Each frame's statement, from where the EVM said it stopped, by its call node. Frames whose facts disagree on the code are left alone. */
export function placeFrames(frames: readonly FrameToLocate[], exits: ReadonlyMap<string, FrameFacts>): Map<CallNode, CallDecoding> {
  const placed = new Map<CallNode, CallDecoding>();
  for (const f of frames) {
    const exit = exits.get(frameKey(f.node.traceAddress));
    if (exit === undefined || exit.exitPc === null) continue;
    if (f.codeAddress !== null && exit.codeAddress.toLowerCase() !== f.codeAddress) continue;
    const located = locateExit(f.code, f.debug, { exitPc: exit.exitPc, lastJumps: exit.lastJumps, lastJumpsFrom: exit.lastJumpsFrom });
    if (located === null) continue;
    placed.set(f.node, { sourceLocation: located.at, ...(located.calledFrom.length > 0 ? { calledFrom: located.calledFrom } : {}) });
  }
  return placed;
}

/**
 * The project files edited since the build that kept a frame, or one of the places that called it, from
 * being placed: a file is read only when the code that ran points into it, so an edit elsewhere is not named.
 */
export function editedFiles(frames: readonly FrameToLocate[]): string[] {
  const out = new Set<string>();
  for (const f of frames) for (const path of f.debug.sources.edited) out.add(path);
  return [...out].sort();
}
