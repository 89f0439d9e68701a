/**
 * The --json document (schema version 1, schema/txray.schema.json). The node's answers are carried
 * verbatim; what txray derives (status, calls, failure, warnings) sits beside them.
 */
import { revertToJson } from '../decode/decodeRevert.js';
import type { InspectModel } from '../model/types.js';
import { isQuantity } from '../raw/hex.js';
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
  const logs = rawLogs(m.raw.receipt);
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
    callTrace: m.raw.callTrace ?? null,
    calls: m.tree?.root ?? null,
    logs: events === null ? logs : logs.map((l, i) => (events[i] ? { ...(l as object), event: events[i] } : l)),
    function: d?.function ?? null,
    transfers: d?.transfers ?? [],
    failure: f === null ? null : { error: f.error, revert, origin: f.origin === null ? null : f.origin.traceAddress },
    ...(m.state === undefined ? {} : { state: stateJson(m, m.raw.stateDiff ?? null) }),
    warnings: m.warnings,
  };
}

const dec = (n: bigint | null): string | null => (n === null ? null : n.toString());

/** --state: what changed, derived, with the node's answer verbatim beside it. */
function stateJson(m: InspectModel, raw: unknown): Record<string, unknown> | null {
  const state = m.state;
  if (state === null || state === undefined) return null;
  const d = m.decoded?.state;
  const fee = state.fee;
  const roles = new Map(state.accounts.map((a) => [a.address as string, a.roles]));
  return {
    source: state.source,
    feeInDiff: state.feeInDiff,
    fee:
      fee === null
        ? null
        : {
            gasUsed: dec(fee.gasUsed),
            effectiveGasPrice: dec(fee.effectiveGasPrice),
            total: dec(fee.total),
            baseFeePerGas: dec(fee.baseFeePerGas),
            burned: dec(fee.burned),
            priority: dec(fee.priority),
            blobFee: dec(fee.blobFee),
            coinbase: fee.coinbase,
          },
    balances: [
      ...state.balances.map((a) => ({ address: a.address, roles: a.roles, asset: 'ETH', before: dec(a.balance!.before), after: dec(a.balance!.after), change: dec(a.balance!.after - a.balance!.before) })),
      ...(d?.tokens ?? []).map((t) => ({ address: t.holder, roles: roles.get(t.holder) ?? [], asset: t.token, kind: t.kind, ...(t.tokenId !== undefined ? { tokenId: t.tokenId } : {}), symbol: t.symbol, decimals: t.decimals, change: t.change })),
    ],
    accounts: state.accounts.map((a) => {
      const names = d?.storage.get(a.address);
      const layout = d?.layouts.get(a.address);
      return {
        address: a.address,
        roles: a.roles,
        balance: a.balance === null ? null : { before: dec(a.balance.before), after: dec(a.balance.after), change: dec(a.balance.after - a.balance.before) },
        nonce: a.nonce === null ? null : { before: dec(a.nonce.before), after: dec(a.nonce.after) },
        code: a.code === null ? null : { beforeBytes: a.code.before, afterBytes: a.code.after },
        delegation: a.delegation,
        layout: layout === undefined ? null : { contract: layout.contract, implementation: layout.via ?? null },
        storage: a.storage.map((s) => ({ slot: s.slot, before: s.before, after: s.after, variables: names?.get(s.slot) ?? [] })),
      };
    }),
    stateDiff: raw,
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
    callTrace: null,
    calls: null,
    logs: [],
    function: null,
    transfers: [],
    failure: null,
    warnings,
    error,
  };
}

export function renderJson(doc: Record<string, unknown>, indent: number): Generator<string> {
  return writeJson(doc, indent);
}
