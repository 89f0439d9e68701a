/**
 * Where in the source each failed frame stopped: a stage after decode. No node's tracer says where a
 * frame ended, so where a failed frame's code has a source map (a matched artifact, a verified
 * contract), the transaction (or the simulated call) runs once more in txray's EVM, which records each
 * frame's exit pc and last jumps; locate/sourceMap.ts turns them into a file, a line and its code.
 * Nothing is asked, and nothing runs, where no failed frame has a map.
 */
import type { Decoder } from '../decode/createDecoder.js';
import { Interrupted } from '../errors.js';
import { loadLocalTrace } from '../evm/loadLocalTrace.js';
import type { FrameFacts } from '../evm/recorder.js';
import { editedFiles, failedCodeAddresses, framesToLocate, placeFrames } from '../locate/locateFailures.js';
import type { DebugSource } from '../locate/sourceMap.js';
import type { InspectModel } from '../model/types.js';
import { walkCalls } from '../model/walk.js';
import { withCallDecodings } from '../model/withCallDecodings.js';
import { escapeShort } from '../raw/escape.js';
import { isQuantity, isRecord } from '../raw/hex.js';
import type { Hex } from '../raw/types.js';
import type { RpcClient } from '../rpc/createRpcClient.js';
import { deadlineSignal } from '../rpc/deadline.js';
import { runCall } from '../sources/runCall.js';
import { runMined } from '../sources/runMined.js';
import { changedTransaction } from '../sources/fetchAtPosition.js';
import { runAtPosition } from '../sources/runAtPosition.js';
import { blockOf } from './blockOf.js';
import { codesAt } from './codesAt.js';
import type { CallPlan } from './simulateCall.js';

/** Runs the source again in txray's EVM: each frame's facts by frameKey, or why they cannot be had; `trailOf`: the code addresses whose frames keep every jump (--internal). */
export type FactsReplay = (trailOf?: ReadonlySet<string>) => Promise<ReadonlyMap<string, FrameFacts> | string>;

/** A mined transaction's answers as the node gave them (its signatures and authorizations too). */
export interface MinedAnswers {
  readonly transaction: unknown;
  readonly receipt: unknown;
}

/** The replay of a mined transaction, as the node gave it: on its parent block's state, checked against its receipt. */
export function transactionReplay(client: RpcClient, mined: MinedAnswers | null, timeoutMs: number): FactsReplay {
  return async (trailOf) => {
    const tx = mined?.transaction;
    const receipt = mined?.receipt;
    if (!isRecord(tx) || !isRecord(receipt) || !isQuantity(tx.blockNumber)) return 'no mined transaction to run';
    const local = await runMined(client, tx, receipt, deadlineSignal(timeoutMs), { exits: true, jumps: true, ...(trailOf === undefined ? {} : { trailOf }) });
    if (local.mismatch.length > 0) return `the run differs from the receipt (${local.mismatch.join('; ')})`;
    return local.facts ?? 'no facts';
  };
}

/** The replay of a simulated call, at the block it was simulated at (`txray call --tx`: at the transaction's position). */
export function callReplay(client: RpcClient, plan: CallPlan, model: InspectModel, timeoutMs: number): FactsReplay {
  return async (trailOf) => {
    const config = { exits: true, jumps: true, ...(trailOf === undefined ? {} : { trailOf }) };
    const replay = plan.replay;
    if (replay?.at === 'position') {
      const rerun = { changed: replay.changed, anotherSender: replay.anotherSender };
      const { trace } = await runAtPosition(client, changedTransaction(replay.tx, plan.call), replay.receipt!, plan.overrides, deadlineSignal(timeoutMs), config, rerun);
      return trace.facts ?? 'no facts';
    }
    const local = await runCall(client, plan.call, blockOf(model), plan.overrides, deadlineSignal(timeoutMs), config);
    return local.facts ?? 'no facts';
  };
}

/**
 * Where a failed frame may be placed (or, `internal`, any frame's internal calls read), txray's EVM is
 * loaded while the other stages wait for the node (no request: that waits for a match). Called before them.
 */
export function warmUp(decoder: Decoder, model: InspectModel, replay: FactsReplay | undefined, internal = false): void {
  if (replay === undefined || model.tree === null || !decoder.index.artifacts.some((a) => a.debug !== undefined)) return;
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
  replay: FactsReplay | undefined,
  s: { readonly timeoutMs: number; readonly debug?: (line: string) => void },
): Promise<InspectModel> {
  if (replay === undefined || model.tree === null) return model;
  const fromArtifacts = decoder.index.artifacts.some((a) => a.debug !== undefined);
  if (!fromArtifacts && verified.size === 0) return model;
  // Code is asked only where it could match: any address with artifacts at hand, else the verified ones.
  const missing = failedCodeAddresses(model).filter((a) => !codes.has(a) && (fromArtifacts || verified.has(a)));
  const all = missing.length === 0 ? codes : new Map([...codes, ...(await codesAt(client, missing, blockOf(model), s.timeoutMs))]);
  const frames = framesToLocate(model, decoder.index.artifacts, all, verified);
  if (frames.length === 0) return model;
  const started = performance.now();
  let exits: ReadonlyMap<string, FrameFacts> | string;
  try {
    exits = await replay();
  } catch (err) {
    if (err instanceof Interrupted) throw err;
    exits = escapeShort(err instanceof Error ? err.message : String(err), 200);
  }
  const ms = Math.round(performance.now() - started);
  if (typeof exits === 'string') {
    s.debug?.(`source locations: the local run for ${frames.length} failed frame(s) gave none in ${ms} ms (${exits})`);
    return model;
  }
  const placed = placeFrames(frames, exits);
  s.debug?.(`source locations: a local run of ${ms} ms placed ${placed.size} of ${frames.length} failed frame(s) with a source map`);
  const located = withCallDecodings(model, placed);
  // Editing right after a failure is the usual loop: say why a frame has no place, not only that it has none.
  const edited = editedFiles(frames).map((path) => `${escapeShort(path, 120)} changed since the build; run forge build`);
  return edited.length === 0 ? located : { ...located, warnings: [...located.warnings, ...edited] };
}
