/**
 * The stages every source shares after its model: names for the called contracts by their code (when
 * artifacts carry runtime code), the decode stage, --state's token and storage names, and the gas
 * profile once for every view that shows it. A mined transaction and a simulated call both end here.
 */
import { notPayable } from '../decode/notPayable.js';
import type { Decoder } from '../decode/createDecoder.js';
import type { LogDecoding } from '../decode/decodeLogs.js';
import { gasProfile } from '../decode/gasProfile.js';
import type { InspectModel } from '../model/types.js';
import { walkCalls } from '../model/walk.js';
import { describeAction } from '../action/describeAction.js';
import { operationsActor } from '../operations/operationsActor.js';
import { bundleAction } from '../operations/bundleAction.js';
import { failureCause } from '../operations/failureCause.js';
import { findOperations } from '../operations/findOperations.js';
import { transfersWithWraps } from '../action/wrapTransfers.js';
import { tokenBalances } from '../decode/decodeState.js';
import type { Hex } from '../raw/types.js';
import type { RpcClient } from '../rpc/createRpcClient.js';
import { delegateOf, EIP1967_IMPLEMENTATION } from '../model/accountCode.js';
import { wordToAddress } from '../raw/hex.js';
import type { OnlineSettings } from '../rpc/fetchOnline.js';
import type { VerifiedLayouts } from '../decode/nameStorage.js';
import { blockOf } from './blockOf.js';
import type { EarlyTokens } from './earlyTokenMeta.js';
import { tokensToAsk } from './tokensToAsk.js';
import type { TokenAnswers } from '../rpc/fetchTokenMeta.js';
import { type OnlineNames, onlineNames } from './onlineNames.js';
import { codesAt } from './codesAt.js';
import { authorizationsOf } from './authorizationsOf.js';
import { seenAddresses } from './seenAddresses.js';
import { locateSources, warmUp } from './locateSources.js';
import type { LocalRun } from '../localRun/localRuns.js';
import { traceStorage } from './traceStorage.js';
import { traceInternal } from './traceInternal.js';

export interface CompleteSettings {
  readonly timeoutMs: number;
  /** --online: where to look up verified ABIs and signatures; null without it (nothing else goes out). */
  readonly online: OnlineSettings | null;
  readonly interrupt?: AbortSignal;
  /** --debug's line per stage. */
  readonly debug?: (line: string) => void;
  /** A view shows the gas profile (--json, --html, --gas, --gas-out). */
  readonly needsGasProfile: boolean;
  /** The profile was asked for itself (--gas, --gas-out): partial sums earn a warning. */
  readonly warnPartialGas: boolean;
  /** A view shows the transfers (not --quiet, nor the many-hashes summary): their tokens' symbols and decimals are asked for. */
  readonly tokenAmounts: boolean;
  /** --as: whose view the action takes (else the sender, the Safe, the smart account). */
  readonly actor?: Hex;
  /** --internal: each matched frame's internal calls (a local run). */
  readonly internal?: boolean;
  /** --storage: each frame's storage reads and writes (a local run). */
  readonly storage?: boolean;
}

/** At most this many contracts are asked for their code, to name them from the project's artifacts. */
const MAX_CODE_LOOKUPS = 32;
/** And at most this many more addresses the transaction shows without calling them (emitters, arguments). */
const MAX_SEEN_LOOKUPS = 32;

/**
 * The runtime code of the contracts a transaction called (its `to` and every call target), and of the
 * addresses it shows otherwise (seenAddresses), in one batch, for naming them by artifact (and their
 * storage, with --state). Best effort: a failure here only means fewer names.
 */
async function fetchCode(client: RpcClient, model: InspectModel, timeoutMs: number): Promise<Map<string, Hex>> {
  const targets = new Set<string>();
  if (model.tx?.to) targets.add(model.tx.to.toLowerCase());
  // EIP-7702: the code each authorization delegates to, to name it.
  for (const a of model.tx?.authorizationList ?? []) if (!/^0x0{40}$/i.test(a.address)) targets.add(a.address.toLowerCase());
  // --state: contracts whose storage changed, unless the diff showed their code, and the code that
  // may have run on it: an EIP-7702 delegate, the implementation an EIP-1967 slot names.
  for (const a of model.state?.accounts ?? []) {
    if (a.storage.length === 0) continue;
    if (a.knownCode === undefined) targets.add(a.address);
    const delegate = a.delegation?.after ?? delegateOf(a.knownCode);
    if (delegate !== null) targets.add(delegate);
    for (const s of a.storage) if (s.slot === EIP1967_IMPLEMENTATION && BigInt(s.after) !== 0n) targets.add(wordToAddress(s.after));
  }
  if (model.tree) {
    walkCalls(model.tree.root, (n) => {
      if (targets.size >= MAX_CODE_LOOKUPS) return false;
      if (n.type === 'call' && n.to !== null) targets.add(n.to.toLowerCase());
    });
  }
  const called = [...targets].slice(0, MAX_CODE_LOOKUPS);
  // The sender is an account, not a contract of the project: its code is not asked for.
  const known = new Set([...called, ...(model.tx ? [model.tx.from.toLowerCase()] : [])]);
  const codes = await codesAt(client, [...called, ...seenAddresses(model, known, MAX_SEEN_LOOKUPS)], blockOf(model), timeoutMs);
  // A simulation ran the code its overrides set, not the node's: that code names the contract and places its failures.
  for (const [address, o] of Object.entries(model.simulation?.overrides ?? {})) if (o.code !== undefined) codes.set(address.toLowerCase(), o.code);
  return codes;
}

/**
 * The tokens' own symbol and decimals (one batch request, at the transaction's block): for the ERC-20
 * amounts of every view, and --state's token balances; storage names (--state: by the artifacts' layouts
 * where `known.codes` match, else the verified ones). No request where no
 * token moved, or the address book knows each one that did. `early`: the same asked as soon as the
 * receipt was in (earlyTokenMeta), used where it asked for these tokens at this block.
 */
async function withTokens(client: RpcClient, decoder: Decoder, model: InspectModel, known: { readonly codes: ReadonlyMap<string, Hex>; readonly verified: VerifiedLayouts }, timeoutMs: number, shown: boolean, early: EarlyTokens | null): Promise<InspectModel> {
  const decoded = model.decoded!;
  const withState = model.state != null;
  const tokens = tokensToAsk(model, decoder.index, decoded.transfers, withState, shown);
  if (tokens.length === 0 && !withState) return { ...model, decoded: decoder.withTokens(model, decoded, new Map()) };
  const warnings = [...model.warnings];
  const block = blockOf(model);
  let answers: TokenAnswers;
  if (early !== null && early.block === block && sameList(early.tokens, tokens)) {
    answers = await early.answers;
    warnings.push(...early.warnings);
  } else {
    const { fetchTokenMeta } = await import('../rpc/fetchTokenMeta.js');
    answers = await fetchTokenMeta(client, tokens, block, timeoutMs, warnings);
  }
  const scaled = decoder.withTokens(model, decoded, answers);
  return { ...model, warnings, decoded: withState ? decoder.decodeState(model, scaled, answers, known.codes, known.verified) : scaled };
}

const sameList = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * EIP-7702: the accounts among `codes` whose code is a delegation, by address → delegate; the delegates'
 * own code is read too (one more request), so that they are named like any contract.
 */
async function delegatesIn(client: RpcClient, model: InspectModel, codes: Map<string, Hex>, timeoutMs: number): Promise<Map<string, Hex>> {
  const delegates = new Map<string, Hex>();
  for (const [address, code] of codes) {
    const delegate = delegateOf(code);
    if (delegate !== null) delegates.set(address.toLowerCase(), delegate);
  }
  const missing = [...new Set(delegates.values())].filter((d) => !codes.has(d)).slice(0, MAX_CODE_LOOKUPS);
  if (missing.length > 0) for (const [address, code] of await codesAt(client, missing, blockOf(model), timeoutMs)) codes.set(address, code);
  return delegates;
}

/**
 * `run`: the source's one run in txray's EVM (see localRun/), read for the failed frames' places in the
 * source and --internal (none: they are not placed, nor read). `earlyTokens`: the tokens' symbols and
 * decimals asked before the model was made.
 */
export async function completeModel(client: RpcClient, decoder: Decoder, given: InspectModel, s: CompleteSettings, earlyLogs?: LogDecoding, run?: LocalRun, earlyTokens: EarlyTokens | null = null): Promise<InspectModel> {
  let plain = given;
  // With artifacts that carry runtime code, the node's code for the called contracts (and the
  // contracts whose storage changed) names them; the state diff may show some code itself.
  warmUp(decoder, plain, run, s.internal === true);
  // --storage reads the run at the end: started now, it runs while the names are found (traceStorage says how it went).
  if (s.storage === true) run?.result({ storage: true }).catch(() => undefined);
  // A type-4 transaction: its authorizations' signers and effect, and the code read for names even
  // without artifacts (its delegations are named by the address book, labels, --online).
  const found = plain.status !== 'not_found';
  const signed = found && (plain.tx?.authorizationList?.length ?? 0) > 0;
  const namesByCode = found && (decoder.canMatchCode || signed);
  const [auth, codes] = await Promise.all([signed ? authorizationsOf(client, plain, s.timeoutMs) : null, namesByCode ? fetchCode(client, plain, s.timeoutMs) : new Map<string, Hex>()]);
  if (auth !== null) plain = { ...plain, authorizations: auth.facts, ...(auth.warning !== null ? { warnings: [...plain.warnings, auth.warning] } : {}) };
  if (namesByCode) for (const a of plain.state?.accounts ?? []) if (a.knownCode !== undefined) codes.set(a.address, a.knownCode);
  const delegates = namesByCode ? await delegatesIn(client, plain, codes, s.timeoutMs) : undefined;
  const owners = namesByCode ? decoder.matchByCode(codes) : undefined;
  const byCode = owners === undefined ? undefined : new Map([...owners].map(([address, artifact]) => [address, artifact.name]));
  // --online: verified ABIs and names for what the offline sources leave unnamed (the artifacts' names win).
  let labels = byCode;
  let online: OnlineNames | null = null;
  if (s.online !== null && plain.status !== 'not_found') {
    online = await onlineNames(client, decoder, plain, s.online, s.timeoutMs, s.interrupt);
    s.debug?.(`--online: ${online.requests} request(s), ${online.labels.size} verified contract(s)`);
    labels = new Map([...online.labels, ...(byCode ?? [])]);
  }
  // The logs decoded early knew no online names: decoded again where those added any.
  const decodedAll = decoder.decode(plain, labels, online?.added ? undefined : earlyLogs, { owners, delegates });
  const sentToNonPayable = notPayable(plain, byCode, decoder.index.artifacts);
  const decoded = sentToNonPayable === null ? decodedAll : { ...decodedAll, notPayable: sentToNonPayable };
  const withOnline = online === null || online.warnings.length === 0 ? plain : { ...plain, warnings: [...plain.warnings, ...online.warnings] };
  let model: InspectModel = await withTokens(client, decoder, { ...withOnline, decoded }, { codes, verified: online?.layouts ?? new Map() }, s.timeoutMs, s.tokenAmounts, earlyTokens);
  // What it did: the action stage reads the decoded model (and the token amounts just read).
  const began = performance.now();
  // The operations it carried (user operations, Safe transactions, batches), each with its own action.
  const seen: string[] = [];
  const operations = findOperations(model, decoder.index, seen);
  const cause = model.failure === null ? null : failureCause(model, operations);
  if (cause !== null && model.failure !== null) model = { ...model, failure: { ...model.failure, cause } };
  const did = describeAction(model, s.actor ?? operationsActor(model, operations));
  const action = did === null ? null : (bundleAction(model, operations, did.action, s.actor) ?? did.action);
  model = { ...model, operations, ...(seen.length > 0 ? { warnings: [...model.warnings, ...seen] } : {}) };
  if (did !== null) model = { ...model, action, netChanges: did.netChanges };
  s.debug?.(`action and operations: ${(performance.now() - began).toFixed(1)} ms`);
  if (did !== null && model.decoded !== undefined) model = withWrapRows(model);
  // --internal before the gas profile, whose stacks take its calls in; its run serves the source locations too.
  if (s.internal === true && run !== undefined) model = await traceInternal(client, decoder, model, { codes, verified: online?.debug ?? new Map() }, run, s);
  if (s.storage === true) model = await traceStorage(decoder, model, run, codes, online?.layouts ?? new Map());
  // The gas profile, once, for every view that shows it. With it asked for (--gas, --gas-out), calls
  // without gas used make its sums partial; --json carries its unknowns as null only.
  if (s.needsGasProfile && model.tree !== null) {
    const profile = gasProfile(model.tree.root);
    const unknown = profile.unknown;
    const partial = `${unknown} ${unknown === 1 ? 'call has' : 'calls have'} no gas used in the trace (failed entries): the gas profile's sums are partial.`;
    const warns = unknown > 0 && s.warnPartialGas;
    model = { ...model, decoded: { ...model.decoded!, gasProfile: profile }, ...(warns ? { warnings: [...model.warnings, partial] } : {}) };
  }
  return locateSources(client, decoder, model, codes, online?.debug ?? new Map(), run, s);
}

/**
 * The Transfers view gains the wraps the action counted (WETH9's Deposit/Withdrawal, which emit no
 * Transfer), and --state's token balances are counted from the same rows: without the mint, a router
 * that wrapped ether and passed the WETH on read as having lost it.
 */
function withWrapRows(model: InspectModel): InspectModel {
  const decoded = model.decoded!;
  const transfers = transfersWithWraps(model);
  const state = decoded.state === undefined ? {} : { state: { ...decoded.state, tokens: tokenBalances(transfers, decoded.tokens ?? new Map(), model.tx?.from.toLowerCase()) } };
  return { ...model, decoded: { ...decoded, transfers, ...state } };
}
