/**
 * `txray block --json`: one document (schema/block.schema.json). Numbers and wei as decimal strings,
 * the timestamp in seconds; each row's `failure` spelled as a lookup's document spells it.
 */
import type { BlockView, Flow, MevFinding } from '../block/types.js';
import type { InspectModel, Outcome } from '../model/types.js';
import type { Hex } from '../raw/types.js';
import { txOutcome } from '../operations/txOutcome.js';
import { actionJson, failureJson, type JsonAction, type JsonDocument, type JsonError, SCHEMA_VERSION } from './renderJson.js';
import { writeJson } from './writeJson.js';

export interface JsonBlockRow {
  readonly hash: Hex | null;
  readonly index: number;
  readonly from: Hex | null;
  /** Null for a contract creation, with `contractAddress` beside it. */
  readonly to: Hex | null;
  readonly contractAddress?: Hex | null;
  readonly status: string;
  /** As the lookup's document says it: partial where a user operation or Safe transaction in it failed. */
  readonly outcome: Outcome | null;
  readonly gasUsed: string | null;
  readonly fee: string | null;
  readonly action: JsonAction | null;
  readonly failure: JsonDocument['failure'];
}

export interface JsonFlow {
  readonly asset: string;
  /** Signed: what the actor gained (positive) or gave (negative). */
  readonly amount: string;
  readonly symbol?: string;
  readonly decimals?: number;
}

/** A finding with its amounts as decimal strings. */
export type JsonMev = Omit<MevFinding, 'profit' | 'payment'> & { readonly profit: readonly JsonFlow[] | null; readonly payment?: string };

export interface JsonBlockDocument {
  readonly schemaVersion: number;
  readonly block: {
    readonly number: string;
    readonly hash: Hex | null;
    readonly parentHash: Hex | null;
    readonly timestamp: string;
    readonly miner: Hex | null;
    readonly gasUsed: string;
    readonly gasLimit: string;
    readonly baseFeePerGas: string | null;
    readonly blobGasUsed: string | null;
    readonly excessBlobGas: string | null;
    readonly transactionCount: number;
  } | null;
  readonly fees: { readonly burnt: string | null; readonly tips: string | null; readonly toFeeRecipient: string | null; readonly untraced: number } | null;
  readonly transactions: readonly JsonBlockRow[];
  readonly mev: readonly JsonMev[];
  readonly warnings: readonly string[];
  readonly error?: JsonError;
}

const dec = (n: bigint | null | undefined): string | null => (n === null || n === undefined ? null : n.toString());

function rowJson(m: InspectModel, index: number): JsonBlockRow {
  const created = m.tx !== null && m.tx.to === null;
  return {
    hash: m.hash,
    index: m.tx?.transactionIndex ?? index,
    from: m.tx?.from ?? null,
    to: m.tx?.to ?? null,
    ...(created ? { contractAddress: m.receipt?.contractAddress ?? null } : {}),
    status: m.status,
    outcome: txOutcome(m),
    gasUsed: dec(m.receipt?.gasUsed),
    fee: dec(m.fee?.total),
    action: actionJson(m.action),
    failure: failureJson(m),
  };
}

const flowJson = (f: Flow): JsonFlow => ({ asset: f.asset, amount: f.amount.toString(), ...(f.symbol !== undefined ? { symbol: f.symbol } : {}), ...(f.decimals !== undefined ? { decimals: f.decimals } : {}) });

function mevJson(f: MevFinding): JsonMev {
  return {
    kind: f.kind,
    transactions: f.transactions,
    actor: f.actor,
    pools: f.pools,
    profit: f.profit === null ? null : f.profit.map(flowJson),
    ...(f.etherNotKnown === true ? { etherNotKnown: true } : {}),
    ...(f.payment !== undefined ? { payment: f.payment.toString() } : {}),
  };
}

export function blockDocument(v: BlockView): JsonBlockDocument {
  const h = v.header;
  return {
    schemaVersion: SCHEMA_VERSION,
    block: {
      number: h.number.toString(),
      hash: h.hash,
      parentHash: h.parentHash,
      timestamp: h.timestamp.toString(),
      miner: h.miner,
      gasUsed: h.gasUsed.toString(),
      gasLimit: h.gasLimit.toString(),
      baseFeePerGas: dec(h.baseFeePerGas),
      blobGasUsed: dec(h.blobGasUsed),
      excessBlobGas: dec(h.excessBlobGas),
      transactionCount: h.transactionCount,
    },
    fees: { burnt: dec(v.fees.burnt), tips: dec(v.fees.tips), toFeeRecipient: dec(v.fees.toFeeRecipient), untraced: v.fees.untraced },
    transactions: v.models.map(rowJson),
    mev: v.mev.map(mevJson),
    warnings: [...v.warnings, ...v.models.flatMap((m) => m.warnings.map((w) => (m.hash === null ? w : `${m.hash}: ${w}`)))],
  };
}

/** What --json prints when the block could not be read: the same shape, with `error`. */
export function blockErrorDocument(error: JsonError): JsonBlockDocument {
  return { schemaVersion: SCHEMA_VERSION, block: null, fees: null, transactions: [], mev: [], warnings: [], error };
}

export function renderBlockJson(doc: JsonBlockDocument, indent: number): Generator<string> {
  return writeJson(doc, indent);
}
