/**
 * The --json document (schema version 1, schema/txray.schema.json). The node's answers are carried
 * verbatim; what txray derives (status, calls, failure, warnings) sits beside them.
 */
import { decodedRevertJson, type RevertJson, revertToJson } from '../model/decodeRevert.js';
import { txOutcome } from '../operations/txOutcome.js';
import { type JsonOperation, operationsJson } from './operationsJson.js';
import { notPayableText } from '../words/describe.js';
import { gasOutsideCalls, gasProfile } from '../decode/gasProfile.js';
import type { Action, Outcome, AssetAmount, AuthorizationFact, CallNode, Decoded, DecodedArg, FeeSplit, InspectModel, InternalItem, NetChange, SourceLocation, StorageItem, Transfer } from '../model/types.js';
import { checksumAddress } from '../decode/keccak.js';
import { isQuantity, isRecord, toQuantity } from '../raw/hex.js';
import type { Hex, Reexecution, RpcL1Fee, StateOverride, StateSource, TraceSource } from '../raw/types.js';
import { isParityState } from '../raw/parseStateDiff.js';
import { failureLine, raisedIn } from '../words/failureLine.js';
import { comparisonJson, type JsonReplay } from './comparisonJson.js';
import { writeJson } from './writeJson.js';
import { etherInsideCallsKnown } from '../action/movements.js';

export const SCHEMA_VERSION = 1;

/** A call of `calls`: the node's fields in Parity's vocabulary, quantities as hex, and what decoding named. */
export interface JsonCall {
  readonly type: string;
  readonly missing?: true;
  readonly callType?: string;
  readonly creationMethod?: string;
  readonly rewardType?: string;
  readonly from: Hex | null;
  readonly to: Hex | null;
  readonly value: Hex | null;
  readonly input: Hex | null;
  readonly output: Hex | null;
  readonly gas: Hex | null;
  readonly gasUsed: Hex | null;
  readonly error: string | null;
  readonly traceAddress: readonly number[];
  readonly children: readonly JsonCall[];
  readonly logs?: readonly number[];
  readonly function?: Decoded;
  readonly outputs?: readonly DecodedArg[];
  readonly revert?: RevertJson;
  /** A failed frame: the statement it stopped at (a matched artifact's source map). */
  readonly sourceLocation?: SourceLocation;
  readonly calledFrom?: readonly SourceLocation[];
  /** --internal: the Solidity internal functions it ran, where its code matched (see internalJson). */
  readonly internalCalls?: readonly JsonInternalCall[];
  /** --storage: its storage reads and writes, in order. */
  readonly storage?: readonly StorageItem[];
}

/** An internal call in the --json spelling: gas as a decimal string; `calls`: the indexes, in `children`, of the frame's calls made directly inside it. */
export interface JsonInternalCall {
  readonly name: string;
  readonly contract: string | null;
  readonly file: string;
  readonly line: number;
  readonly gasUsed: string;
  readonly reverted?: true;
  readonly children: readonly JsonInternalCall[];
  readonly calls?: readonly number[];
  /** How many of the frame's calls had been made when it was entered: its place among them. */
  readonly callsBefore: number;
}

/** A frame's internal calls in the --json spelling: its own calls stay in `children`, each internal call says which of them it made. */
function internalJson(items: readonly InternalItem[], made = { count: 0 }): JsonInternalCall[] {
  const out: JsonInternalCall[] = [];
  for (const item of items) {
    if (typeof item === 'number') made.count++;
    if (typeof item === 'number' || 'event' in item) continue;
    const calls = item.inside.filter((x): x is number => typeof x === 'number');
    const callsBefore = made.count;
    out.push({ name: item.name, contract: item.contract, file: item.file, line: item.line, gasUsed: item.gasUsed.toString(), ...(item.reverted ? { reverted: true as const } : {}), children: internalJson(item.inside, made), ...(calls.length > 0 ? { calls } : {}), callsBefore });
  }
  return out;
}

/** A node answer carried verbatim (the transaction, the receipt, a log): whatever the node sent, checked or not. */
export type JsonRaw = Readonly<Record<string, unknown>>;

/** The --json document (schema/txray.schema.json): what renderJson writes and the HTML report's page reads. */
export interface JsonDocument {
  readonly schemaVersion: number;
  readonly hash: Hex | string | null;
  readonly status: string;
  /** How it ended, the operations it carried included (null where nothing ran yet). */
  readonly outcome: Outcome | null;
  /** What it did, in one line, with the actor's net movements (null where nothing ran). */
  readonly action: JsonAction | null;
  /** The user operations, Safe transactions and batches it carried. */
  readonly operations: readonly JsonOperation<JsonAction>[];
  readonly transaction: JsonRaw | null;
  readonly receipt: JsonRaw | null;
  readonly trace: unknown;
  readonly traceSource: TraceSource | null;
  readonly traceNote: string | null;
  readonly reexecution: Reexecution | null;
  readonly confirmations: { readonly wanted: number; readonly reached: number } | null;
  readonly callTrace: unknown;
  readonly calls: JsonCall | null;
  /** The receipt's logs verbatim, each with the `event` decoding named. */
  readonly logs: ReadonlyArray<JsonRaw & { readonly event?: Decoded }>;
  readonly function: Decoded | null;
  /** EIP-7702: one entry per authorization of the transaction's list, in order (empty without one). */
  readonly authorizations: readonly JsonAuthorization[];
  /** EIP-7702: accounts whose code is a delegation, lower-case address → the delegate (as read for names). */
  readonly delegations: Readonly<Record<string, string>>;
  readonly transfers: readonly JsonTransfer[];
  /** Every holder's net movement per asset, the actor first. */
  readonly netChanges: readonly JsonNetChange[];
  /** False where ether moved inside the calls is not known (no call tree): transfers and netChanges may lack it. */
  readonly etherInsideCallsKnown: boolean;
  readonly gasProfile: readonly JsonGasRow[] | null;
  readonly gasOutsideCalls: string | null;
  readonly failure: {
    readonly error: string | null;
    readonly revert: RevertJson | null;
    readonly origin: readonly number[] | null;
    /** Why it failed in one line, as the text view says it (the origin's cause first). */
    readonly reason: string;
    /** Where it was raised, in the text view's words ("Ledger.debit, called by Teller.withdraw"); null at the root. */
    readonly raisedIn: string | null;
    readonly sourceLocation?: SourceLocation;
    /** Ether sent to a function its matched artifact says is not payable (decode/notPayable.ts). */
    readonly notPayable?: { readonly contract: string; readonly function: string; readonly stateMutability: string; readonly value: string; readonly message: string };
  } | null;
  readonly stateSource: StateSource | null;
  readonly stateDiff: unknown;
  readonly balanceChanges: readonly JsonBalanceChange[] | null;
  readonly storageChanges: readonly JsonStorageChange[] | null;
  readonly accountChanges: readonly JsonAccountChange[] | null;
  readonly fee: JsonFee | null;
  readonly labels: Readonly<Record<string, string>>;
  /** Where two shown addresses bear one label: what tells each apart (the token's symbol, else its short address), by lower-case address. */
  readonly instances: Readonly<Record<string, string>>;
  readonly simulation: JsonSimulation | null;
  /** `txray call --tx` only (render/comparisonJson.ts). */
  readonly replayOf?: JsonReplay['replayOf'];
  readonly comparison?: JsonReplay['comparison'];
  readonly warnings: readonly string[];
  readonly error?: JsonError;
}

export interface JsonAuthorization {
  /** Decimal; null where the node did not give it. */
  readonly chainId: string | null;
  /** The delegate, checksummed. */
  readonly address: string;
  readonly nonce: string | null;
  readonly authority: string | null;
  readonly applied: boolean | null;
  readonly reason: string | null;
  readonly revocation: boolean;
}

const authorizationJson = (f: AuthorizationFact): JsonAuthorization => ({
  chainId: f.chainId === null ? null : f.chainId.toString(),
  address: checksumAddress(f.address),
  nonce: f.nonce === null ? null : f.nonce.toString(),
  authority: f.authority === null ? null : checksumAddress(f.authority),
  applied: f.applied,
  reason: f.reason,
  revocation: f.revocation,
});

/** A model type as --json spells it: the named bigint fields as decimal strings, the rest as the model holds them. */
type Decimal<T, K extends keyof T> = Omit<T, K> & { readonly [P in K]: string };

/** A transfer with its amount as a decimal string. */
export type JsonTransfer = Decimal<Transfer, 'amount'>;

/** An amount of one asset; base units, decimal. */
export type JsonAmount = Decimal<AssetAmount, 'amount'>;

/** The action with the actor's amounts as decimal strings. */
export type JsonAction = Omit<Action, 'sent' | 'received'> & { readonly sent: readonly JsonAmount[]; readonly received: readonly JsonAmount[] };

/** One holder's net movement of one asset: signed, in base units, decimal. */
export type JsonNetChange = Decimal<NetChange, 'change'>;

const amountJson = (a: AssetAmount): JsonAmount => ({
  asset: a.asset,
  standard: a.standard,
  amount: a.amount.toString(),
  ...(a.tokenId !== undefined ? { tokenId: a.tokenId } : {}),
  ...(a.symbol !== undefined ? { symbol: a.symbol } : {}),
  ...(a.decimals !== undefined ? { decimals: a.decimals } : {}),
});

/** The action as --json spells it: amounts as decimal strings. */
export function actionJson(a: Action | null | undefined): JsonAction | null {
  if (a === null || a === undefined) return null;
  return { summary: a.summary, kind: a.kind, actor: a.actor, protocols: a.protocols, sent: a.sent.map(amountJson), received: a.received.map(amountJson) };
}

function netChangesJson(m: InspectModel): JsonNetChange[] {
  return (m.netChanges ?? []).map((c) => ({
    holder: c.holder,
    asset: c.asset,
    standard: c.standard,
    ...(c.tokenId !== undefined ? { tokenId: c.tokenId } : {}),
    change: c.change.toString(),
    ...(c.symbol !== undefined ? { symbol: c.symbol } : {}),
    ...(c.decimals !== undefined ? { decimals: c.decimals } : {}),
    ...(c.incomplete === true ? { incomplete: true as const } : {}),
  }));
}

export interface JsonGasRow {
  readonly address: Hex | null;
  readonly contract?: string;
  readonly function?: string;
  readonly selector?: Hex;
  readonly calls: number;
  readonly gasUsed: string | null;
  readonly selfGas: string | null;
}

export interface JsonFee {
  readonly paid: string | null;
  readonly burned: string | null;
  readonly tip: string | null;
  readonly blobFee?: string | null;
  readonly rules: string;
  readonly execution?: string | null;
  readonly l1Fee?: string | null;
  readonly l1?: RpcL1Fee | null;
  readonly toBaseFeeVault?: string | null;
  readonly mint?: string | null;
  readonly gasUsedForL1?: string | null;
}

export interface JsonSimulation {
  readonly method: string;
  readonly block: { readonly number: string; readonly hash: Hex | null; readonly asked: string };
  readonly overrides: StateOverride | null;
  readonly gasUsed: string | null;
  readonly gasEstimate: string | null;
  readonly gasEstimateError: string | null;
  readonly signed: boolean;
  readonly output: Hex | null;
}

export interface JsonBalanceChange {
  readonly address: Hex;
  readonly asset: string;
  readonly standard: string;
  readonly tokenId?: string;
  readonly symbol?: string;
  readonly decimals?: number;
  readonly before?: string | null;
  readonly after?: string | null;
  readonly delta: string | null;
}

export interface JsonStorageChange {
  readonly address: Hex;
  readonly slot: Hex;
  readonly before: Hex;
  readonly after: Hex;
  readonly variables?: ReadonlyArray<{ readonly name: string; readonly path: string; readonly keys: readonly string[]; readonly type: string; readonly before: string | boolean; readonly after: string | boolean }>;
}

export interface JsonAccountChange {
  readonly address: Hex;
  readonly roles: readonly string[];
  readonly nonceBefore?: string | null;
  readonly nonceAfter?: string | null;
  readonly created?: true;
  readonly destroyed?: true;
  readonly codeSize?: number;
  readonly delegatedTo?: Hex | null;
}

const hexOrNull = (n: bigint | null): Hex | null => (n === null ? null : toQuantity(n));

/**
 * Calls spelled one at a time, as they are read: the writer reads an array element by element, so
 * only the calls on its path (and the one being written) exist in the JSON spelling at once, and a
 * big tree is never copied whole.
 */
function lazyCalls(nodes: readonly CallNode[]): JsonCall[] {
  return new Proxy<JsonCall[]>(new Array<JsonCall>(nodes.length), {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) {
        const node = nodes[Number(key)];
        return node === undefined ? undefined : callJson(node);
      }
      return Reflect.get(target, key, receiver);
    },
  });
}

/** A call node in the --json spelling. */
function callJson(n: CallNode): JsonCall {
  const d = n.decoded;
  return {
    type: n.type,
    ...(n.missing ? { missing: true as const } : {}),
    ...(n.callType !== undefined ? { callType: n.callType } : {}),
    ...(n.creationMethod !== undefined ? { creationMethod: n.creationMethod } : {}),
    ...(n.rewardType !== undefined ? { rewardType: n.rewardType } : {}),
    from: n.from,
    to: n.to,
    value: hexOrNull(n.value),
    input: n.input,
    output: n.output,
    gas: hexOrNull(n.gas),
    gasUsed: hexOrNull(n.gasUsed),
    error: n.error,
    traceAddress: n.traceAddress,
    children: lazyCalls(n.children),
    ...(n.logs !== undefined ? { logs: n.logs } : {}),
    ...(d?.function !== undefined ? { function: d.function } : {}),
    ...(d?.outputs !== undefined ? { outputs: d.outputs } : {}),
    ...(d?.revert !== undefined ? { revert: decodedRevertJson(d.revert) } : {}),
    ...(d?.sourceLocation !== undefined ? { sourceLocation: d.sourceLocation } : {}),
    ...(d?.calledFrom !== undefined ? { calledFrom: d.calledFrom } : {}),
    ...(d?.internal !== undefined ? { internalCalls: internalJson(d.internal) } : {}),
    ...(d?.storage !== undefined ? { storage: d.storage } : {}),
  };
}

export interface JsonError {
  readonly code: string;
  readonly message: string;
}

/** The receipt's logs as the node sent them, in logIndex order when every entry has one. */
function rawLogs(receipt: unknown): unknown[] {
  const logs: unknown = isRecord(receipt) ? receipt.logs : undefined;
  if (!Array.isArray(logs)) return [];
  const keyed: Array<{ readonly log: unknown; readonly index: bigint }> = [];
  for (const log of logs) {
    const i = isRecord(log) ? log.logIndex : undefined;
    if (!isQuantity(i)) return logs;
    keyed.push({ log, index: BigInt(i) });
  }
  return keyed.sort((a, b) => (a.index < b.index ? -1 : 1)).map((x) => x.log);
}

/** Why it failed, as --json spells it (a `txray block` row's failure too): the error, the decoded revert, where it was raised. */
export function failureJson(m: InspectModel): JsonDocument['failure'] {
  const f = m.failure;
  if (f === null) return null;
  const custom = m.decoded?.error;
  const revert: RevertJson | null = f.revert === null ? null : custom ? ({ ...revertToJson(f.revert), ...custom, kind: 'custom' } as RevertJson) : revertToJson(f.revert);
  const at = f.origin?.decoded?.sourceLocation;
  const np = m.decoded?.notPayable;
  const notPayable = np === undefined ? {} : { notPayable: { contract: np.contract, function: np.signature, stateMutability: np.stateMutability, value: np.value.toString(), message: notPayableText(np) } };
  return { error: f.error, revert, origin: f.origin === null ? null : f.origin.traceAddress, reason: failureLine(m, { decoded: m.decoded, short: true }), raisedIn: raisedInWords(m), ...(at !== undefined ? { sourceLocation: at } : {}), ...notPayable };
}

/** The text view's "raised in" line as one string. */
function raisedInWords(m: InspectModel): string | null {
  const raised = raisedIn(m, { decoded: m.decoded, short: true });
  return raised === null ? null : `${raised.origin}${raised.caller === null ? '' : `, called by ${raised.caller}`}`;
}

export function jsonDocument(m: InspectModel): JsonDocument {
  if (m.raw === null) throw new Error('jsonDocument needs the verbatim answers (InspectSettings.keepAnswers)');
  const d = m.decoded;
  const logs = m.raw.logs !== undefined ? [...m.raw.logs] : rawLogs(m.raw.receipt);
  // Decoding adds beside the raw fields: each log keeps what the node sent and gains `event`. The
  // decoded list follows the validated logs, which match the raw ones when every entry was valid.
  const events = d !== undefined && d.events.length === logs.length ? d.events : null;
  return {
    schemaVersion: SCHEMA_VERSION,
    hash: m.hash,
    status: m.status,
    outcome: txOutcome(m),
    action: actionJson(m.action),
    operations: operationsJson(m, actionJson),
    transaction: (m.raw.transaction ?? null) as JsonRaw | null,
    receipt: (m.raw.receipt ?? null) as JsonRaw | null,
    trace: m.raw.trace ?? null,
    traceSource: m.traceSource,
    traceNote: m.traceNote,
    reexecution: m.reexecution ?? null,
    confirmations: m.confirmations ?? null,
    callTrace: m.raw.callTrace ?? null,
    calls: m.tree === null ? null : callJson(m.tree.root),
    logs: (events === null ? logs : logs.map((l, i) => (events[i] ? { ...(l as object), event: events[i] } : l))) as JsonRaw[],
    function: d?.function ?? null,
    authorizations: (m.authorizations ?? []).map(authorizationJson),
    delegations: Object.fromEntries(d?.delegates ?? []),
    transfers: (d?.transfers ?? []).map((t) => ({ ...t, amount: t.amount.toString() })),
    netChanges: netChangesJson(m),
    etherInsideCallsKnown: etherInsideCallsKnown(m),
    ...gasJson(m),
    failure: failureJson(m),
    ...stateJson(m),
    fee: feeJson(m.state?.fee ?? m.fee),
    labels: labelsJson(m),
    instances: Object.fromEntries(m.decoded?.instances ?? []),
    simulation: simulationJson(m),
    ...comparisonJson(m),
    warnings: m.warnings,
  };
}

/** Names for the addresses this document shows (from --labels, artifacts, built-in names), by lower-case address. */
function labelsJson(m: InspectModel): Record<string, string> {
  const d = m.decoded;
  if (d === undefined) return {};
  const out: Record<string, string> = {};
  // The delegates of EIP-7702 accounts and authorizations are shown by name too.
  const delegates = [...(d.delegates?.values() ?? []), ...(m.authorizations ?? []).map((f) => f.address.toLowerCase())];
  for (const a of [...d.checksums.keys(), ...delegates]) {
    const name = d.labels.get(a);
    if (name !== undefined) out[a] = name;
  }
  return out;
}

const dec = (n: bigint | null): string | null => (n === null ? null : n.toString());

/** `txray call`: what was simulated, where, and how; null for a mined transaction. */
function simulationJson(m: InspectModel): JsonSimulation | null {
  const s = m.simulation;
  if (s === undefined) return null;
  return {
    method: s.method,
    block: { number: s.block.number.toString(), hash: s.block.hash, asked: s.block.asked },
    overrides: s.overrides,
    gasUsed: dec(m.receipt?.gasUsed ?? null),
    gasEstimate: dec(s.gasEstimate),
    gasEstimateError: s.gasEstimateError,
    signed: s.signed,
    output: s.output ?? m.tree?.root.output ?? null,
  };
}

/** The gas profile, present whenever there is a call tree; unknown gas (failed Parity entries) as null. */
function gasJson(m: InspectModel): { gasProfile: JsonGasRow[] | null; gasOutsideCalls: string | null } {
  if (m.tree === null) return { gasProfile: null, gasOutsideCalls: null };
  const profile = m.decoded?.gasProfile ?? gasProfile(m.tree.root);
  return {
    gasProfile: profile.rows.map((r) => {
      const contract = r.address === null ? undefined : m.decoded?.labels.get(r.address.toLowerCase());
      return {
        address: r.address,
        ...(contract !== undefined ? { contract } : {}),
        ...(r.function !== null ? { function: r.function } : {}),
        ...(r.selector !== null ? { selector: r.selector } : {}),
        calls: r.calls,
        gasUsed: dec(r.gasUsed),
        selfGas: dec(r.selfGas),
      };
    }),
    gasOutsideCalls: dec(gasOutsideCalls(m.receipt, profile)),
  };
}

/**
 * What it paid, as the text's Fee line shows it, with or without --state: paid = gasUsed ×
 * effectiveGasPrice; burned and tip need the block's base fee (--state reads the header), else null.
 */
function feeJson(fee: FeeSplit | null): JsonFee | null {
  if (fee === null) return null;
  const l2 =
    fee.rules === 'op-stack'
      ? { execution: dec(fee.execution), l1Fee: dec(fee.l1Fee), l1: fee.l1, toBaseFeeVault: dec(fee.baseFeePart), mint: dec(fee.mint) }
      : fee.rules === 'arbitrum'
        ? { gasUsedForL1: dec(fee.l1Gas) }
        : {};
  return { paid: dec(fee.total), burned: dec(fee.burned), tip: dec(fee.priority), ...(fee.blobFee > 0n ? { blobFee: dec(fee.blobFee) } : {}), rules: fee.rules, ...l2 };
}

/** The --state fields, all null without --state (or when the node gave no diff). */
const NO_STATE = { stateSource: null, stateDiff: null, balanceChanges: null, storageChanges: null, accountChanges: null } as const;

type StateJson = Pick<JsonDocument, 'stateSource' | 'stateDiff' | 'balanceChanges' | 'storageChanges' | 'accountChanges'>;

/** --state: what changed, derived, with the node's diff verbatim beside it. */
function stateJson(m: InspectModel): StateJson {
  const state = m.state;
  if (state === null || state === undefined) return NO_STATE;
  const d = m.decoded?.state;
  const raw = m.raw?.stateDiff as { stateDiff?: unknown } | null | undefined;
  return {
    stateSource: state.source,
    // trace_replayTransaction: the stateDiff member of its result; the prestateTracer: its whole {pre, post}.
    stateDiff: isParityState(state.source) ? (raw?.stateDiff ?? null) : (raw ?? null),
    balanceChanges: [
      // The balances are the accounts whose balance changed (buildState).
      ...state.balances.flatMap(({ address, balance: b }) => (b === null ? [] : [{ address, asset: 'ETH', standard: 'ETH', before: dec(b.before), after: dec(b.after), delta: dec(b.after - b.before) }])),
      ...(d?.tokens ?? []).map((t) => ({
        address: t.holder,
        asset: t.token,
        standard: t.kind,
        ...(t.tokenId !== undefined ? { tokenId: t.tokenId } : {}),
        ...(t.symbol !== null ? { symbol: t.symbol } : {}),
        ...(t.decimals !== null ? { decimals: t.decimals } : {}),
        delta: t.change.toString(),
      })),
    ],
    storageChanges: state.accounts.flatMap((a) => {
      const names = d?.storage.get(a.address);
      return a.storage.map((s) => {
        const variables = names?.get(s.slot);
        return {
          address: a.address,
          slot: s.slot,
          before: s.before,
          after: s.after,
          ...(variables !== undefined ? { variables: variables.map((v) => ({ name: v.name, path: v.path, keys: v.keys, type: v.type, before: v.before, after: v.after })) } : {}),
        };
      });
    }),
    accountChanges: state.accounts.map((a) => ({
      address: a.address,
      roles: a.roles,
      ...(a.nonce !== null ? { nonceBefore: dec(a.nonce.before), nonceAfter: dec(a.nonce.after) } : {}),
      ...(a.roles.includes('created') ? { created: true } : {}),
      ...(a.roles.includes('destroyed') ? { destroyed: true } : {}),
      ...(a.code !== null ? { codeSize: a.code.after } : {}),
      ...(a.delegation !== null ? { delegatedTo: a.delegation.after } : {}),
    })),
  };
}

export function errorDocument(hash: string | null, error: JsonError, warnings: readonly string[]): JsonDocument {
  return {
    schemaVersion: SCHEMA_VERSION,
    hash,
    status: 'error',
    outcome: null,
    action: null,
    operations: [],
    transaction: null,
    receipt: null,
    trace: null,
    traceSource: null,
    traceNote: null,
    reexecution: null,
    confirmations: null,
    callTrace: null,
    calls: null,
    logs: [],
    function: null,
    authorizations: [],
    delegations: {},
    transfers: [],
    netChanges: [],
    etherInsideCallsKnown: true,
    gasProfile: null,
    gasOutsideCalls: null,
    failure: null,
    ...NO_STATE,
    fee: null,
    labels: {},
    instances: {},
    simulation: null,
    warnings,
    error,
  };
}

export function renderJson(doc: JsonDocument, indent: number): Generator<string> {
  return writeJson(doc, indent);
}
