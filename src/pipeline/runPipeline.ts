/**
 * The one pipeline both front doors run, per input: its source (a lookup by hash, or a simulated call),
 * then the stages every source shares (completeModel). The writers are the caller's.
 */
import type { Decoder } from '../decode/createDecoder.js';
import type { LogDecoding } from '../decode/decodeLogs.js';
import type { InspectModel } from '../model/types.js';
import type { Hex, RpcLog } from '../raw/types.js';
import type { RpcClient } from '../rpc/createRpcClient.js';
import { compareMined, needsMined } from './compareMined.js';
import type { RerunPlan } from '../sources/rerunPlan.js';
import { Interrupted } from '../errors.js';
import { type CompleteSettings, completeModel } from './completeModel.js';
import { earlyTokenMeta, type EarlyTokens } from './earlyTokenMeta.js';
import { createLocalRuns, type LocalRun, type LocalRuns } from '../localRun/localRuns.js';
import { checkedMined } from '../localRun/checkedMined.js';
import { deadlineSignal } from '../rpc/deadline.js';
import { rerunAt } from '../sources/fetchAtPosition.js';
import { blockOf } from './blockOf.js';
import { runConfigOf } from './runConfigOf.js';
import { inspect, type InspectSettings } from './lookupHash.js';
import { type CallPlan, simulateCall } from './simulateCall.js';

/** What a pipeline starts from, by kind: a transaction hash, or a call ready to simulate. */
export type Lookup = { readonly kind: 'hash'; readonly hash: Hex } | { readonly kind: 'call'; readonly hash: Hex | null; readonly plan: CallPlan };

export interface PipelineSettings {
  readonly lookup: InspectSettings;
  readonly complete: CompleteSettings;
  readonly decoderReady: Promise<Decoder>;
  /** `txray call --tx`: the decoder of the mined transaction's lookup, where it differs (--override-code's artifact files name the new code only). */
  readonly minedDecoderReady?: Promise<Decoder>;
  /** Told when each stage is done ("answers checked and modelled", "decoded"), for --debug. */
  readonly onStage?: (stage: string) => void;
}

export async function runPipeline(client: RpcClient, source: Lookup, s: PipelineSettings): Promise<InspectModel> {
  // A lookup's receipt logs are decoded as soon as they arrive, while the trace is still coming.
  let earlyLogs: Promise<LogDecoding | undefined> | undefined;
  // And its tokens' symbols and decimals asked as soon as the transaction and receipt name them.
  let earlyTokens: Promise<EarlyTokens | null> = Promise.resolve(null);
  let plain: InspectModel;
  let mined: { readonly transaction: unknown; readonly receipt: unknown } | null = null;
  // The source's runs in txray's EVM, one per transaction, shared by every stage (see localRun/).
  const stateDiff = s.lookup.state === true;
  const storage = s.complete.storage === true;
  const config = () => s.decoderReady.then((d) => runConfigOf(d, { stateDiff, internal: s.complete.internal === true, online: s.complete.online !== null, storage }), () => ({ stateDiff, storage }));
  const runs = createLocalRuns(client, { config, timeoutMs: s.lookup.timeoutMs, debug: s.complete.debug });
  // --tx, changed: the mined transaction is looked up beside the run (the comparison needs its outcome).
  const early = source.kind === 'call' && source.plan.replay?.changed === true && source.plan.replay.receipt !== null ? lookupMined(client, source.plan.replay.hash, s) : null;
  if (source.kind === 'call') {
    plain = await simulateCall(client, source.plan, { timeoutMs: s.lookup.timeoutMs, tracer: s.lookup.tracer, state: stateDiff, keepAnswers: s.lookup.keepAnswers, runs });
  } else {
    const hash = source.hash;
    const onLogs = (logs: readonly RpcLog[]): void => {
      earlyLogs = s.decoderReady.then((d) => d.decodeLogs(logs)).catch(() => undefined);
    };
    const onAnswers = (answers: { readonly transaction: unknown; readonly receipt: unknown }): void => {
      mined = answers;
    };
    const asksTokens = s.complete.tokenAmounts && s.lookup.state !== true;
    const onHead = (head: Pick<InspectModel, 'tx' | 'receipt'>): void => {
      earlyTokens = s.decoderReady.then((d) => earlyTokenMeta(client, d, head, s.lookup.timeoutMs)).catch(() => null);
    };
    plain = await inspect(client, hash, { ...s.lookup, onLogs, onAnswers, runs, ...(asksTokens ? { onHead } : {}) });
  }
  s.onStage?.('answers checked and modelled');
  // From here on, the same stages whatever the source.
  const run = source.kind === 'call' ? callRun(runs, source.plan, plain, s.lookup.timeoutMs) : minedRun(runs, source.hash, mined, s.lookup.timeoutMs);
  const decoder = await s.decoderReady;
  const completed = await completeModel(client, decoder, plain, s.complete, await earlyLogs, run, await earlyTokens);
  const model = source.kind === 'call' ? compareMined(completed, source.plan.replay, await minedModel(client, completed, source.plan.replay, s, early)) : completed;
  s.onStage?.('decoded');
  return model;
}

/** A mined transaction's run, on its parent block's state, checked against its receipt (none: pending, unknown, malformed). */
function minedRun(runs: LocalRuns, hash: Hex, answers: { readonly transaction: unknown; readonly receipt: unknown } | null, timeoutMs: number): LocalRun | undefined {
  if (answers === null) return undefined;
  try {
    const checked = checkedMined(answers.transaction, answers.receipt, hash);
    return 'pending' in checked ? undefined : runs.of({ kind: 'mined', hash, mined: checked.mined }, deadlineSignal(timeoutMs));
  } catch {
    return undefined;
  }
}

/** A simulated call's run, at the block it was simulated at (`txray call --tx`: at the transaction's position). */
function callRun(runs: LocalRuns, plan: CallPlan, model: InspectModel, timeoutMs: number): LocalRun | undefined {
  if (plan.replay?.at === 'position') return rerunAt(runs, plan.call, plan.overrides, plan.replay, deadlineSignal(timeoutMs)) ?? undefined;
  return runs.of({ kind: 'call', call: plan.call, block: blockOf(model), overrides: plan.overrides }, deadlineSignal(timeoutMs));
}

/** The mined transaction looked up as any hash is (not for --state); 'failed' where the lookup failed (the comparison says what it cannot). */
function lookupMined(client: RpcClient, hash: Hex, s: PipelineSettings): Promise<InspectModel | 'failed'> {
  const looked = runPipeline(client, { kind: 'hash', hash }, {
      ...s,
      decoderReady: s.minedDecoderReady ?? s.decoderReady,
      lookup: { ...s.lookup, state: false },
      // The comparison reads its status, failure, net changes and names: no internal calls, no gas profile.
      complete: { ...s.complete, internal: false, storage: false, needsGasProfile: false, warnPartialGas: false },
      onStage: undefined,
    }).catch((err: unknown) => {
    if (err instanceof Interrupted) throw err;
    return 'failed' as const;
  });
  looked.catch(() => undefined);
  return looked;
}

/** `txray call --tx`: the mined model, where the comparison needs it (the run did not reproduce the receipt as it is). */
async function minedModel(client: RpcClient, model: InspectModel, replay: RerunPlan | undefined, s: PipelineSettings, early: Promise<InspectModel | 'failed'> | null): Promise<InspectModel | 'failed' | null> {
  if (replay === undefined || !needsMined(model, replay)) return null;
  return early ?? lookupMined(client, replay.hash, s);
}
