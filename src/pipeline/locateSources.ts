/**
 * Where in the source each failed frame stopped: a stage after decode. No node's tracer says where a
 * frame ended, so where a failed frame's code has a source map (a matched artifact, a verified
 * contract), it reads the command's local run of the transaction (or the simulated call) in txray's
 * EVM (made here where no stage made it before), which keeps each frame's exit pc and last jumps;
 * locate/sourceMap.ts turns them into a file, a line and its code. Nothing is asked, and nothing runs,
 * where no failed frame has a map.
 */
import type { Decoder } from '../decode/createDecoder.js';
import { loadLocalTrace } from '../evm/loadLocalTrace.js';
import type { LocalRun } from '../localRun/localRuns.js';
import { editedFiles, failedCodeAddresses, framesToLocate, placeFrames } from '../locate/locateFailures.js';
import { rebuiltCodes } from '../locate/rebuiltCodes.js';
import { checksumAddress } from '../decode/keccak.js';
import type { DebugSource } from '../locate/sourceMap.js';
import type { InspectModel } from '../model/types.js';
import { walkCalls } from '../model/walk.js';
import { withCallDecodings } from '../model/withCallDecodings.js';
import { escapeShort } from '../raw/escape.js';
import type { Hex } from '../raw/types.js';
import type { RpcClient } from '../rpc/createRpcClient.js';
import { codesToMatch } from './codesToMatch.js';
import { factsOf } from './factsOf.js';

/**
 * Where a failed frame may be placed (or, `internal`, any frame's internal calls read), txray's EVM is
 * loaded while the other stages wait for the node (no request: that waits for a match). Called before them.
 */
export function warmUp(decoder: Decoder, model: InspectModel, run: LocalRun | undefined, internal = false): void {
  if (run === undefined || model.tree === null || !decoder.index.artifacts.some((a) => a.debug !== undefined)) return;
  let failed = internal;
  walkCalls(model.tree.root, (n) => {
    failed ||= n.error !== null;
    return !failed;
  });
  if (failed) loadLocalTrace().catch(() => undefined);
}

/**
 * The source-location stage: the failed frames placed where they can be (a new model, whose call nodes
 * gain `decoded.sourceLocation`). `codes` are the runtime codes already fetched; `verified` what --online
 * found, by address.
 */
export async function locateSources(
  client: RpcClient,
  decoder: Decoder,
  model: InspectModel,
  codes: ReadonlyMap<string, Hex>,
  verified: ReadonlyMap<string, DebugSource>,
  run: LocalRun | undefined,
  s: { readonly timeoutMs: number; readonly debug?: (line: string) => void },
): Promise<InspectModel> {
  if (run === undefined || model.tree === null) return model;
  const all = await codesToMatch(client, decoder, model, failedCodeAddresses(model), { codes, verified }, s.timeoutMs);
  if (all === null) return model;
  // Rebuilding after a failure is the usual loop too: a failed frame whose code the new build no longer is, said.
  const rebuilt = rebuiltCodes(all, failedCodeAddresses(model), decoder.index.artifacts).map(
    (r) => `${escapeShort(r.name, 80)} at ${checksumAddress(r.address)} does not match ${escapeShort(r.file, 160)} (its functions and compiler do; rebuilt since it was deployed?)`,
  );
  const withRebuilt = rebuilt.length === 0 ? model : { ...model, warnings: [...model.warnings, ...rebuilt] };
  const frames = framesToLocate(model, decoder.index.artifacts, all, verified);
  if (frames.length === 0) return withRebuilt;
  const { facts: exits, ms } = await factsOf(run, { exits: true, jumps: true });
  if (typeof exits === 'string') {
    s.debug?.(`source locations: the local run for ${frames.length} failed frame(s) gave none in ${ms} ms (${exits})`);
    return withRebuilt;
  }
  const placed = placeFrames(frames, exits);
  s.debug?.(`source locations: a local run of ${ms} ms placed ${placed.size} of ${frames.length} failed frame(s) with a source map`);
  const located = withCallDecodings(withRebuilt, placed);
  // Editing right after a failure is the usual loop: say why a frame has no place, not only that it has none.
  const edited = editedFiles(frames).map((path) => `${escapeShort(path, 120)} changed since the build; run forge build`);
  return edited.length === 0 ? located : { ...located, warnings: [...located.warnings, ...edited] };
}
