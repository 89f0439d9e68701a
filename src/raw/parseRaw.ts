/**
 * The validation stage: node answers arrive as unknown JSON and leave as Rpc* types, checked once.
 * What is essential and broken makes the answer unusable (RpcFailure 'malformed', exit 5); what is
 * optional and broken is dropped with a warning, so the rest still renders.
 */
import { RpcFailure } from '../errors.js';
import { escapeShort } from './escape.js';
import { isAddress, isData, isHash, isQuantity, isRecord } from './hex.js';
import type { Hex, RpcAccessListEntry, RpcAuthorization, RpcL1Fee, RpcLog, RpcReceipt, RpcTraceEntry, RpcTransaction } from './types.js';

export type Warn = (message: string) => void;


function malformed(method: string, what: string): RpcFailure {
  return new RpcFailure('malformed', `${method}: the node's answer is malformed (${what}); it cannot be shown as this transaction.`, { method });
}

/** Read an optional field with a validator: absent/null → undefined; present but invalid → warning, undefined. */
export function optional<T>(obj: Record<string, unknown>, key: string, check: (v: unknown) => v is T, where: string, warn: Warn): T | undefined {
  const v = obj[key];
  if (v === undefined || v === null) return undefined;
  if (check(v)) return v;
  warn(`${where}.${key} is not valid (${describe(v)}); ignored.`);
  return undefined;
}

function describe(v: unknown): string {
  if (typeof v === 'string') return `"${escapeShort(v, 40)}"`;
  if (Array.isArray(v)) return 'an array';
  return v === null ? 'null' : typeof v;
}

/** An optional list field: absent → undefined; not an array → warning; malformed entries left out with a warning. */
function parseList<T>(v: unknown, field: string, entry: (e: unknown) => T | undefined, warn: Warn): T[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v)) {
    warn(`transaction.${field} is not an array; ignored.`);
    return undefined;
  }
  const out: T[] = [];
  for (const e of v) {
    const parsed = entry(e);
    if (parsed === undefined) warn(`transaction.${field} has a malformed entry; it is left out.`);
    else out.push(parsed);
  }
  return out;
}

const accessListEntry = (e: unknown): RpcAccessListEntry | undefined =>
  isRecord(e) && isAddress(e.address) && Array.isArray(e.storageKeys) && e.storageKeys.every(isHash)
    ? { address: e.address, storageKeys: e.storageKeys }
    : undefined;

// The signature's parity: `yParity` (geth, reth, anvil), or `v` where an older node writes that instead.
const authorization = (e: unknown): RpcAuthorization | undefined =>
  isRecord(e) && isAddress(e.address)
    ? {
        address: e.address,
        chainId: isQuantity(e.chainId) ? e.chainId : undefined,
        nonce: isQuantity(e.nonce) ? e.nonce : undefined,
        yParity: isQuantity(e.yParity) ? e.yParity : isQuantity(e.v) ? e.v : undefined,
        r: isQuantity(e.r) ? e.r : undefined,
        s: isQuantity(e.s) ? e.s : undefined,
      }
    : undefined;

export const sameHash = (a: string, b: string): boolean => a === b || a.toLowerCase() === b.toLowerCase();

export function parseTransaction(raw: unknown, hash: Hex, warn: Warn): RpcTransaction | null {
  const M = 'eth_getTransactionByHash';
  if (raw === null) return null;
  if (!isRecord(raw)) throw malformed(M, `expected an object or null, got ${describe(raw)}`);
  if (!isHash(raw.hash)) throw malformed(M, 'no valid "hash"');
  if (!sameHash(raw.hash, hash)) {
    throw new RpcFailure('malformed', `${M}: the node answered about another transaction (${raw.hash}); refusing to show it as ${hash}.`, {
      method: M,
    });
  }
  if (!isAddress(raw.from)) throw malformed(M, 'no valid "from"');
  const w = 'transaction';
  const to = raw.to === null || raw.to === undefined ? null : isAddress(raw.to) ? raw.to : undefined;
  if (to === undefined) throw malformed(M, '"to" is not an address');
  const blobs = raw.blobVersionedHashes;
  let blobVersionedHashes: Hex[] | undefined;
  if (Array.isArray(blobs) && blobs.every(isHash)) blobVersionedHashes = blobs;
  else if (blobs !== undefined && blobs !== null) warn('transaction.blobVersionedHashes is malformed; ignored.');
  return {
    hash: raw.hash,
    blockHash: optional(raw, 'blockHash', isHash, w, warn) ?? null,
    blockNumber: optional(raw, 'blockNumber', isQuantity, w, warn) ?? null,
    transactionIndex: optional(raw, 'transactionIndex', isQuantity, w, warn) ?? null,
    from: raw.from,
    to,
    value: optional(raw, 'value', isQuantity, w, warn),
    gas: optional(raw, 'gas', isQuantity, w, warn),
    gasPrice: optional(raw, 'gasPrice', isQuantity, w, warn),
    maxFeePerGas: optional(raw, 'maxFeePerGas', isQuantity, w, warn),
    maxPriorityFeePerGas: optional(raw, 'maxPriorityFeePerGas', isQuantity, w, warn),
    maxFeePerBlobGas: optional(raw, 'maxFeePerBlobGas', isQuantity, w, warn),
    input: optional(raw, 'input', isData, w, warn),
    nonce: optional(raw, 'nonce', isQuantity, w, warn),
    type: optional(raw, 'type', isQuantity, w, warn),
    chainId: optional(raw, 'chainId', isQuantity, w, warn),
    accessList: parseList(raw.accessList, 'accessList', accessListEntry, warn),
    blobVersionedHashes,
    authorizationList: parseList(raw.authorizationList, 'authorizationList', authorization, warn),
    sourceHash: optional(raw, 'sourceHash', isHash, w, warn),
    mint: optional(raw, 'mint', isQuantity, w, warn),
    isSystemTx: optional(raw, 'isSystemTx', (v): v is boolean => typeof v === 'boolean', w, warn),
    ...retryableOf(raw, warn),
  };
}

/** Nitro's retryable fields: the ticket (a retry's), the request, the L1 deposit and refund, the call it retries. */
const RETRYABLE_FIELDS = ['ticketId', 'requestId', 'refundTo', 'beneficiary', 'maxRefund', 'submissionFeeRefund', 'maxSubmissionFee', 'depositValue', 'l1BaseFee', 'retryTo', 'retryValue', 'retryData'] as const;

function retryableOf(raw: Record<string, unknown>, warn: Warn): { retryable?: Record<string, Hex> } {
  const out = optionals(raw, RETRYABLE_FIELDS, (x): x is Hex => isQuantity(x) || isData(x), 'transaction', warn);
  return Object.keys(out).length === 0 ? {} : { retryable: out };
}

/** The optional fields among `keys` that `raw` holds and that pass `check` (each other one warned about). */
function optionals<K extends string, T>(raw: Record<string, unknown>, keys: readonly K[], check: (v: unknown) => v is T, where: string, warn: Warn): Partial<Record<K, T>> {
  const out: Partial<Record<K, T>> = {};
  for (const key of keys) {
    const v = optional(raw, key, check, where, warn);
    if (v !== undefined) out[key] = v;
  }
  return out;
}

/** A log's shape as receipts and simulations give it: an address, 32-byte topics, data. */
export const isLog = (v: unknown): v is Record<string, unknown> & { address: Hex; topics: Hex[]; data: Hex } =>
  isRecord(v) && isAddress(v.address) && Array.isArray(v.topics) && v.topics.every(isHash) && isData(v.data);

function parseLog(v: unknown, i: number, warn: Warn): RpcLog | undefined {
  if (isLog(v)) return { address: v.address, topics: v.topics, data: v.data, logIndex: isQuantity(v.logIndex) ? v.logIndex : undefined };
  warn(`receipt.logs[${i}] is malformed; it is left out.`);
  return undefined;
}

/** The logs sorted by logIndex; nodes list them in that order already, which one pass confirms. */
function inLogIndexOrder(logs: RpcLog[]): RpcLog[] {
  // Numbers where they are exact (up to 13 hex digits), BigInts only beyond: 20,000 logs, 20,000 BigInts less.
  const keys: Array<number | bigint> = [];
  for (const { logIndex } of logs) {
    if (logIndex === undefined) return logs;
    keys.push(logIndex.length <= 15 ? parseInt(logIndex, 16) : BigInt(logIndex));
  }
  if (keys.every((key, i) => i === 0 || (keys[i - 1] ?? key) <= key)) return logs;
  return logs
    .map((log, i) => ({ log, key: keys[i] ?? 0 }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((x) => x.log);
}

export function parseReceipt(raw: unknown, hash: Hex, warn: Warn): RpcReceipt | null {
  const M = 'eth_getTransactionReceipt';
  if (raw === null) return null;
  if (!isRecord(raw)) throw malformed(M, `expected an object or null, got ${describe(raw)}`);
  if (!isHash(raw.transactionHash)) throw malformed(M, 'no valid "transactionHash"');
  if (!sameHash(raw.transactionHash, hash)) {
    throw new RpcFailure(
      'malformed',
      `${M}: the node answered with the receipt of another transaction (${raw.transactionHash}); refusing to show it as ${hash}.`,
      { method: M },
    );
  }
  const w = 'receipt';
  let status: '0x0' | '0x1' | undefined;
  if (raw.status !== undefined && raw.status !== null) {
    // Nodes write 0x1/0x0; a few old ones padded ("0x01"). Anything else is unusable for an exit code.
    if (isQuantity(raw.status) && (BigInt(raw.status) === 0n || BigInt(raw.status) === 1n)) status = BigInt(raw.status) === 1n ? '0x1' : '0x0';
    else throw malformed(M, `"status" is ${describe(raw.status)}, not 0x0 or 0x1`);
  }
  let logs: RpcLog[] = [];
  if (Array.isArray(raw.logs)) logs = raw.logs.map((l, i) => parseLog(l, i, warn)).filter((l): l is RpcLog => l !== undefined);
  else if (raw.logs !== undefined && raw.logs !== null) warn('receipt.logs is not an array; no logs are shown.');
  // Show logs in logIndex order (the order they were emitted), whatever order the node listed them in.
  if (logs.every((l) => l.logIndex !== undefined)) logs = inLogIndexOrder(logs);
  return {
    transactionHash: raw.transactionHash,
    blockHash: optional(raw, 'blockHash', isHash, w, warn),
    blockNumber: optional(raw, 'blockNumber', isQuantity, w, warn),
    transactionIndex: optional(raw, 'transactionIndex', isQuantity, w, warn),
    contractAddress: optional(raw, 'contractAddress', isAddress, w, warn) ?? null,
    from: optional(raw, 'from', isAddress, w, warn),
    to: raw.to === null ? null : optional(raw, 'to', isAddress, w, warn),
    gasUsed: optional(raw, 'gasUsed', isQuantity, w, warn),
    effectiveGasPrice: optional(raw, 'effectiveGasPrice', isQuantity, w, warn),
    status,
    root: optional(raw, 'root', isData, w, warn),
    blobGasUsed: optional(raw, 'blobGasUsed', isQuantity, w, warn),
    blobGasPrice: optional(raw, 'blobGasPrice', isQuantity, w, warn),
    logs,
    type: optional(raw, 'type', isQuantity, w, warn),
    ...l1FeeOf(raw, warn),
    depositNonce: optional(raw, 'depositNonce', isQuantity, w, warn),
    gasUsedForL1: optional(raw, 'gasUsedForL1', isQuantity, w, warn),
    l1BlockNumber: optional(raw, 'l1BlockNumber', isQuantity, w, warn),
  };
}

const L1_QUANTITIES = ['l1Fee', 'l1GasUsed', 'l1GasPrice', 'l1BaseFeeScalar', 'l1BlobBaseFee', 'l1BlobBaseFeeScalar', 'operatorFeeScalar', 'operatorFeeConstant'] as const;
const DECIMAL = (v: unknown): v is string => typeof v === 'string' && /^\d{1,30}(\.\d{1,30})?$/.test(v);

/** An OP Stack receipt's L1 fee fields, where it has any (`{}` on other chains). */
function l1FeeOf(raw: Record<string, unknown>, warn: Warn): { l1?: RpcL1Fee } {
  const scalar = optional(raw, 'l1FeeScalar', DECIMAL, 'receipt', warn);
  const l1: RpcL1Fee = { ...optionals(raw, L1_QUANTITIES, isQuantity, 'receipt', warn), ...(scalar === undefined ? {} : { l1FeeScalar: scalar }) };
  return Object.keys(l1).length === 0 ? {} : { l1 };
}

const isIndex = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/**
 * Validate a trace_transaction result. Entries that cannot be placed (no traceAddress, no action)
 * or that belong to another transaction are dropped with a warning; field-level checks happen when
 * the call tree reads them.
 */
export function parseTrace(raw: unknown, hash: Hex | null, warn: Warn): RpcTraceEntry[] | null {
  if (raw === null || raw === undefined) return null;
  if (!Array.isArray(raw)) {
    warn(`trace_transaction returned ${describe(raw)} instead of an array; the call tree is not shown.`);
    return null;
  }
  const out: RpcTraceEntry[] = [];
  let bad = 0;
  let foreign = 0;
  for (const e of raw) {
    if (!isRecord(e) || !isRecord(e.action) || typeof e.type !== 'string' || !Array.isArray(e.traceAddress) || !e.traceAddress.every(isIndex)) {
      bad++;
      continue;
    }
    // Per-transaction traces carry transactionHash; block-level reward entries carry null.
    if (hash !== null && typeof e.transactionHash === 'string' && !sameHash(e.transactionHash, hash)) {
      foreign++;
      continue;
    }
    out.push({
      type: e.type,
      traceAddress: e.traceAddress,
      subtraces: isIndex(e.subtraces) ? e.subtraces : null,
      action: e.action,
      result: isRecord(e.result) ? e.result : null,
      error: typeof e.error === 'string' ? e.error : null,
    });
  }
  if (bad > 0) warn(`${bad} trace ${bad === 1 ? 'entry is' : 'entries are'} malformed (no type, action or traceAddress) and left out of the call tree.`);
  if (foreign > 0) warn(`${foreign} trace ${foreign === 1 ? 'entry belongs' : 'entries belong'} to another transaction and ${foreign === 1 ? 'is' : 'are'} left out.`);
  return out;
}

