/**
 * --storage: every storage read and write of each call, from the command's one local run in txray's
 * EVM (its config keeps them: see runConfigOf.ts), placed on the model's call nodes by frameKey, as
 * --internal's internal calls are. Names come from the storage layouts the artifacts carry, else a
 * verified contract's (--online; nameAccesses.ts).
 */
import type { Decoder } from '../decode/createDecoder.js';
import { Interrupted } from '../errors.js';
import type { StorageAccess, StorageRecord } from '../evm/storageTrace.js';
import type { LocalRun } from '../localRun/localRuns.js';
import { frameKey } from '../model/frameKey.js';
import type { CallDecoding, CallNode, InspectModel, StorageItem } from '../model/types.js';
import { walkCalls } from '../model/walk.js';
import { withCallDecodings } from '../model/withCallDecodings.js';
import { escapeShort } from '../raw/escape.js';
import type { Hex } from '../raw/types.js';
import type { Artifact } from '../decode/abiIndex.js';
import { keyCandidates, nameStorage } from '../decode/decodeState.js';
import { type HashedKeys, hashedKeys, type VerifiedLayouts } from '../decode/nameStorage.js';
import { nameAccesses } from './nameAccesses.js';

const word = (n: bigint): Hex => `0x${n.toString(16).padStart(64, '0')}`;

/** One access in the model's spelling. */
function itemOf(a: StorageAccess): StorageItem {
  const marks = { ...(a.transient ? { transient: true as const } : {}), ...(a.reverted ? { reverted: true as const } : {}) };
  if (a.op === 'read') return { op: 'read', address: a.address, slot: word(a.slot), value: word(a.value), ...marks };
  return { op: 'write', address: a.address, slot: word(a.slot), before: word(a.before ?? 0n), after: word(a.value), ...marks };
}

/** The run's storage record, or why there is none. */
async function recordOf(run: LocalRun): Promise<StorageRecord | string> {
  try {
    const r = await run.result({ storage: true });
    // A mined transaction's accesses are placed only where the run is the chain's (a changed re-run has no receipt to match).
    if (run.kind === 'mined' && r.mismatch.length > 0) return `the run differs from the receipt (${r.mismatch.join('; ')})`;
    return r.storage ?? 'no storage record';
  } catch (err) {
    if (err instanceof Interrupted) throw err;
    return escapeShort(err instanceof Error ? err.message : String(err), 200);
  }
}

/** --state's storage names again, with the keys the run hashed: exact, where the transaction's own addresses and numbers were not the keys. */
function withStateNames(model: InspectModel, hashed: HashedKeys, artifacts: readonly Artifact[], codes: ReadonlyMap<string, Hex>, verified: VerifiedLayouts): InspectModel {
  const decoded = model.decoded;
  if (model.state == null || decoded?.state === undefined) return model;
  const keys = { ...keyCandidates(model, [decoded.function, ...decoded.events]), hashed };
  const { storage, layouts } = nameStorage(model, model.state, artifacts, codes, keys, verified);
  return { ...model, decoded: { ...decoded, state: { ...decoded.state, storage, layouts } } };
}

/** `verified`: the verified contracts' storage layouts (--online), used where no artifact names the code. */
export async function traceStorage(decoder: Decoder, model: InspectModel, run: LocalRun | undefined, codes: ReadonlyMap<string, Hex>, verified: VerifiedLayouts): Promise<InspectModel> {
  if (model.tree === null) return model;
  const record = run === undefined ? 'no transaction to run' : await recordOf(run);
  if (typeof record === 'string') return { ...model, warnings: [...model.warnings, `--storage: the transaction could not be run in txray's EVM (${record}); no storage accesses are shown.`] };
  const hashed = hashedKeys(record.preimages);
  const named = nameAccesses(model, hashed, decoder.index.artifacts, codes, verified);
  const added = new Map<CallNode, CallDecoding>();
  walkCalls(model.tree.root, (n) => {
    const accesses = record.byFrame.get(frameKey(n.traceAddress)) ?? [];
    added.set(n, { storage: accesses.map((a) => named(a, itemOf(a))) });
  });
  const traced = withStateNames(withCallDecodings(model, added), hashed, decoder.index.artifacts, codes, verified);
  if (record.capped === null) return traced;
  const most = record.capped.toLocaleString('en-US');
  return { ...traced, warnings: [...traced.warnings, `--storage: the run made more than ${most} storage accesses; only the first ${most} are shown.`] };
}
