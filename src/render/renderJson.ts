/**
 * The --json document (schema version 1, schema/txray.schema.json). The node's answers are carried
 * verbatim; what txray derives (status, calls, failure, warnings) sits beside them.
 */
import { revertToJson } from '../model/decodeRevert.js';
import { gasOutsideCalls, gasProfile } from '../decode/gasProfile.js';
import type { FeeSplit, InspectModel } from '../model/types.js';
import { isQuantity } from '../raw/hex.js';
import { isParityState } from '../raw/parseStateDiff.js';
import { writeJson } from './writeJson.js';

export const SCHEMA_VERSION = 1;

export interface JsonError {
  readonly code: string;
  readonly message: string;
}

/** The receipt's logs as the node sent them, in logIndex order when every entry has one. */
function rawLogs(receipt: unknown): unknown[] {
  const logs = (receipt as { logs?: unknown } | null)?.logs;
  if (!Array.isArray(logs)) return [];
  const indexOf = (l: unknown): bigint | undefined => {
    const i = (l as { logIndex?: unknown } | null)?.logIndex;
    return isQuantity(i) ? BigInt(i) : undefined;
  };
  if (!logs.every((l) => indexOf(l) !== undefined)) return logs;
  return [...logs].sort((a, b) => (indexOf(a)! < indexOf(b)! ? -1 : 1));
}

export function jsonDocument(m: InspectModel): Record<string, unknown> {
  if (m.raw === null) throw new Error('jsonDocument needs the verbatim answers (InspectSettings.keepAnswers)');
  const f = m.failure;
  const d = m.decoded;
  const logs = m.raw.logs !== undefined ? [...m.raw.logs] : rawLogs(m.raw.receipt);
  // Decoding adds beside the raw fields: each log keeps what the node sent and gains `event`. The
  // decoded list follows the validated logs, which match the raw ones when every entry was valid.
  const events = d !== undefined && d.events.length === logs.length ? d.events : null;
  const revert = f?.revert === null || f === null ? null : d?.error ? { ...revertToJson(f.revert), ...d.error, kind: 'custom' } : revertToJson(f.revert);
  return {
    schemaVersion: SCHEMA_VERSION,
    hash: m.hash,
    status: m.status,
    transaction: m.raw.transaction ?? null,
    receipt: m.raw.receipt ?? null,
    trace: m.raw.trace ?? null,
    traceSource: m.traceSource,
    traceNote: m.traceNote,
    reexecution: m.reexecution ?? null,
    confirmations: m.confirmations ?? null,
    callTrace: m.raw.callTrace ?? null,
    calls: m.tree?.root ?? null,
    logs: events === null ? logs : logs.map((l, i) => (events[i] ? { ...(l as object), event: events[i] } : l)),
    function: d?.function ?? null,
    transfers: d?.transfers ?? [],
    ...gasJson(m),
    failure: f === null ? null : { error: f.error, revert, origin: f.origin === null ? null : f.origin.traceAddress },
    ...stateJson(m),
    fee: feeJson(m.state?.fee ?? m.fee),
    labels: labelsJson(m),
    simulation: simulationJson(m),
    warnings: m.warnings,
  };
}

/** Names for the addresses this document shows (from --labels, artifacts, built-in names), by lower-case address. */
function labelsJson(m: InspectModel): Record<string, string> {
  const d = m.decoded;
  if (d === undefined) return {};
  const out: Record<string, string> = {};
  for (const a of d.checksums.keys()) {
    const name = d.labels.get(a);
    if (name !== undefined) out[a] = name;
  }
  return out;
}

const dec = (n: bigint | null): string | null => (n === null ? null : n.toString());
const decHex = (h: string | null | undefined): string | null => (h === null || h === undefined ? null : BigInt(h).toString());

/** `txray call`: what was simulated, where, and how; null for a mined transaction. */
function simulationJson(m: InspectModel): Record<string, unknown> | null {
  const s = m.simulation;
  if (s === undefined) return null;
  return {
    method: s.method,
    block: { number: decHex(s.block.number), hash: s.block.hash, asked: s.block.asked },
    overrides: s.overrides,
    gasUsed: decHex(m.receipt?.gasUsed),
    gasEstimate: decHex(s.gasEstimate),
    gasEstimateError: s.gasEstimateError,
    signed: s.signed,
    output: s.output ?? m.tree?.root.output ?? null,
  };
}

/** The gas profile, present whenever there is a call tree; unknown gas (failed Parity entries) as null. */
function gasJson(m: InspectModel): { gasProfile: unknown; gasOutsideCalls: string | null } {
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
function feeJson(fee: FeeSplit | null): Record<string, unknown> | null {
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

/** --state: what changed, derived, with the node's diff verbatim beside it. */
function stateJson(m: InspectModel): Record<string, unknown> {
  const state = m.state;
  if (state === null || state === undefined) return NO_STATE;
  const d = m.decoded?.state;
  const raw = m.raw?.stateDiff as { stateDiff?: unknown } | null | undefined;
  return {
    stateSource: state.source,
    // trace_replayTransaction: the stateDiff member of its result; the prestateTracer: its whole {pre, post}.
    stateDiff: isParityState(state.source) ? (raw?.stateDiff ?? null) : (raw ?? null),
    balanceChanges: [
      ...state.balances.map((a) => ({ address: a.address, asset: 'ETH', standard: 'ETH', before: dec(a.balance!.before), after: dec(a.balance!.after), delta: dec(a.balance!.after - a.balance!.before) })),
      ...(d?.tokens ?? []).map((t) => ({
        address: t.holder,
        asset: t.token,
        standard: t.kind,
        ...(t.tokenId !== undefined ? { tokenId: t.tokenId } : {}),
        ...(t.symbol !== null ? { symbol: t.symbol } : {}),
        ...(t.decimals !== null ? { decimals: t.decimals } : {}),
        delta: t.change,
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

export function errorDocument(hash: string | null, error: JsonError, warnings: readonly string[]): Record<string, unknown> {
  return {
    schemaVersion: SCHEMA_VERSION,
    hash,
    status: 'error',
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
    transfers: [],
    gasProfile: null,
    gasOutsideCalls: null,
    failure: null,
    ...NO_STATE,
    fee: null,
    labels: {},
    simulation: null,
    warnings,
    error,
  };
}

export function renderJson(doc: Record<string, unknown>, indent: number): Generator<string> {
  return writeJson(doc, indent);
}
