/**
 * What a command's stages need of a local run, decided once the decoder knows the artifacts (before the
 * node's answers say whether anything failed, or which code ran): a run made at fetch time (--tracer
 * local, a node without a call tracer) then already keeps what the source locations and --internal read.
 * With source maps at hand, every frame's exit and last jumps (any frame may fail: a caught revert too);
 * with --internal, every jump of the frames whose code matches an artifact with a source map. With
 * --online, a verified contract found after a run made at fetch time may bring a source map of its own:
 * every frame's exit and last jumps are kept from the start, and with --internal every frame's jumps, so
 * that no stage needs a second run. With --storage, every storage access and KECCAK256 input too.
 */
import type { Decoder } from '../decode/createDecoder.js';
import type { LocalOptions } from '../evm/localTrace.js';
import type { TrailFilter } from '../evm/tracer.js';
import { matchArtifact } from '../locate/matchCode.js';

export function runConfigOf(decoder: Decoder, s: { readonly stateDiff: boolean; readonly internal: boolean; readonly online: boolean; readonly storage: boolean }): LocalOptions {
  const parts = partsOf(decoder, s);
  return s.storage ? { ...parts, storage: true } : parts;
}

function partsOf(decoder: Decoder, s: { readonly stateDiff: boolean; readonly internal: boolean; readonly online: boolean }): LocalOptions {
  const mapped = decoder.index.artifacts.filter((a) => a.debug !== undefined);
  if (mapped.length === 0 && !s.online) return { stateDiff: s.stateDiff };
  if (!s.internal) return { stateDiff: s.stateDiff, exits: true, jumps: true };
  if (s.online) return { stateDiff: s.stateDiff, exits: true, jumps: true, trailOf: () => true };
  // A frame's code is matched once per address in a run (the same contract is called again and again).
  const matched = new Map<string, boolean>();
  const trailOf: TrailFilter = ({ address, bytecode }) => {
    let found = matched.get(address);
    if (found === undefined) matched.set(address, (found = matchArtifact(bytecode, mapped) !== undefined));
    return found;
  };
  return { stateDiff: s.stateDiff, exits: true, jumps: true, trailOf };
}
