/**
 * Where in the source each failed frame stopped: a stage after decode. No node's tracer says where a
 * frame ended, so where a failed frame's code has a source map (a matched artifact, a verified
 * contract), the transaction (or the simulated call) runs once more in txray's EVM, which records each
 * frame's exit pc and last jumps; decode/sourceMap.ts turns them into a file, a line and its code.
 * Nothing is asked, and nothing runs, where no failed frame has a map.
 */
import type { Decoder } from '../decode/createDecoder.js';
import type { DebugSource } from '../decode/loadDebug.js';
import { editedFiles, failedCodeAddresses, type FrameExits, framesToLocate, placeFrames } from '../decode/locateFailures.js';
import { Interrupted } from '../errors.js';
import type { InspectModel, Receipt, Transaction } from '../model/types.js';
import { walkCalls } from '../model/walk.js';
import { toQuantity } from '../raw/hex.js';
import type { Hex } from '../raw/types.js';
import { askAhead } from '../rpc/askAhead.js';
import type { RpcClient } from '../rpc/createRpcClient.js';
import { deadlineSignal } from '../rpc/deadline.js';
import { loadLocalTrace } from '../rpc/loadLocalTrace.js';
import { escapeShort } from '../raw/escape.js';
import { blockOf } from './blockOf.js';
import { codesAt } from './codesAt.js';
import type { CallPlan } from './simulateCall.js';

/** Runs the source again in txray's EVM: each frame's exit facts, or why they cannot be had. */
export type FactsReplay = () => Promise<FrameExits | string>;

const q = (v: bigint | number | undefined | null): Hex | undefined => (v === undefined || v === null ? undefined : toQuantity(BigInt(v)));

/** A mined transaction as the node gave it, from the model (text runs keep no verbatim answers). */
function rawTransaction(tx: Transaction): Record<string, unknown> {
  return {
    hash: tx.hash,
    type: tx.type,
    from: tx.from,
    to: tx.to,
    nonce: q(tx.nonce),
    gas: q(tx.gas),
    gasPrice: q(tx.gasPrice),
    maxFeePerGas: q(tx.maxFeePerGas),
    maxPriorityFeePerGas: q(tx.maxPriorityFeePerGas),
    maxFeePerBlobGas: q(tx.maxFeePerBlobGas),
    value: q(tx.value),
    input: tx.input,
    chainId: q(tx.chainId),
    accessList: tx.accessList,
    blobVersionedHashes: tx.blobVersionedHashes,
    blockNumber: q(tx.blockNumber),
    transactionIndex: q(tx.transactionIndex),
  };
}

function rawReceipt(r: Receipt): Record<string, unknown> {
  return { status: r.status === undefined ? undefined : r.status === 'success' ? '0x1' : '0x0', gasUsed: q(r.gasUsed), logs: r.logs };
}

/** The replay of a mined transaction: on its parent block's state, checked against its receipt. */
export function transactionReplay(client: RpcClient, model: InspectModel, timeoutMs: number): FactsReplay {
  return async () => {
    const { tx, receipt } = model;
    if (tx === null || receipt === null || tx.blockNumber === null) return 'no mined transaction to run';
    // An authorization list's signatures are not in the model: such a transaction is not run again.
    if ((tx.authorizationList?.length ?? 0) > 0) return 'an EIP-7702 transaction';
    const deadline = deadlineSignal(timeoutMs);
    const rawTx = rawTransaction(tx);
    const rawR = rawReceipt(receipt);
    const ahead = askAhead(client, rawTx, rawR, deadline);
    const { traceLocally } = await loadLocalTrace();
    const local = await traceLocally(client, rawTx, rawR, ahead, { state: false, deadline, facts: true });
    if (local.mismatch.length > 0) return `the run differs from the receipt (${local.mismatch.join('; ')})`;
    return local.facts ?? 'no facts';
  };
}

/** The replay of a simulated call, at the block it was simulated at. */
export function callReplay(client: RpcClient, plan: CallPlan, model: InspectModel, timeoutMs: number): FactsReplay {
  return async () => {
    const deadline = deadlineSignal(timeoutMs);
    const { simulateLocally } = await loadLocalTrace();
    const local = await simulateLocally(client, plan.call, blockOf(model), plan.overrides, { state: false, deadline, facts: true });
    return local.facts ?? 'no facts';
  };
}

/**
 * Where a failed frame may be placed, txray's EVM is loaded while the other stages wait for the node
 * (no request: that waits for a match). Called before them.
 */
export function warmUp(decoder: Decoder, model: InspectModel, replay: FactsReplay | undefined): void {
  if (replay === undefined || model.tree === null || !decoder.index.artifacts.some((a) => a.debug !== undefined)) return;
  let failed = false;
  walkCalls(model.tree.root, (n) => {
    failed ||= n.error !== null;
    return !failed;
  });
  if (failed) loadLocalTrace().catch(() => undefined);
}

/**
 * The source-location stage: the failed frames placed where they can be (their call nodes gain
 * `decoded.sourceLocation`). `codes` are the runtime codes already fetched; `verified` what --online
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
  let exits: FrameExits | string;
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
  s.debug?.(`source locations: a local run of ${ms} ms placed ${placed} of ${frames.length} failed frame(s) with a source map`);
  // Editing right after a failure is the usual loop: say why a frame has no place, not only that it has none.
  const edited = editedFiles(frames).map((path) => `${escapeShort(path, 120)} changed since the build; run forge build`);
  return edited.length === 0 ? model : { ...model, warnings: [...model.warnings, ...edited] };
}
