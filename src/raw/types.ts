/**
 * Node answers after validation, still as the node wrote them: quantities and data are hex strings,
 * exactly as sent. Only fields txray reads are typed; the verbatim objects travel beside these for --json.
 */
import type { RpcAccountStateOverride } from 'viem';

export type Hex = `0x${string}`;

/**
 * State overrides, typed once (cli/parseStateOverride.ts and cli/parseCall.ts make them, checked) and
 * carried so to the node and to txray's EVM (evm/overrideReader.ts). viem's StateOverride is its actions'
 * input (an array, balance a bigint, nonce a number, storage as `{slot, value}` lists); what eth_call,
 * debug_traceCall, trace_call and eth_simulateV1 take, and what --json prints, is the object viem turns
 * it into (serializeStateOverride): RpcStateOverride, keyed by address, quantities and words in hex.
 * Addresses lower case, slots and values 32-byte words; `state` and `stateDiff` never both.
 */
export type StateOverride = { readonly [address: Hex]: Readonly<RpcAccountStateOverride> };

export interface RpcAccessListEntry {
  readonly address: Hex;
  readonly storageKeys: readonly Hex[];
}

/** A JSON object as parsed (not null, not an array), its fields not yet checked. */
export type Json = Record<string, unknown>;

/**
 * An EIP-7702 authorization, one shape for the node's answer and the model: `Q` spells its numbers
 * (hex as sent in RpcAuthorization, bigint in the model's Authorization).
 */
export interface AuthorizationOf<Q> {
  readonly chainId?: Q;
  readonly address: Hex;
  readonly nonce?: Q;
  /** The authority's signature (absent where the node leaves it out). */
  readonly yParity?: Q;
  readonly r?: Q;
  readonly s?: Q;
}

export type RpcAuthorization = AuthorizationOf<Hex>;

/**
 * A transaction, one shape for the node's answer and the model (as viem's): `Q` spells its quantities
 * and `I` its index and chain id — hex strings as sent in RpcTransaction; bigint and number in the
 * model's Transaction, converted once (model/convert.ts). Absent where the node left a field out.
 */
export interface TransactionOf<Q, I> {
  /** Null for a simulated call that was not signed. */
  readonly hash: Hex | null;
  readonly blockHash: Hex | null;
  readonly blockNumber: Q | null;
  readonly transactionIndex: I | null;
  readonly from: Hex;
  readonly to: Hex | null;
  readonly value?: Q;
  readonly gas?: Q;
  readonly gasPrice?: Q;
  readonly maxFeePerGas?: Q;
  readonly maxPriorityFeePerGas?: Q;
  readonly maxFeePerBlobGas?: Q;
  readonly input?: Hex;
  readonly nonce?: Q;
  /** The type byte as the node wrote it ("0x2", an L2's "0x7e"): a name, not a quantity. */
  readonly type?: Hex;
  readonly chainId?: I;
  readonly accessList?: readonly RpcAccessListEntry[];
  readonly blobVersionedHashes?: readonly Hex[];
  readonly authorizationList?: readonly AuthorizationOf<Q>[];
  /** OP Stack deposit (type 0x7e): its source on L1, the ETH minted on L2, and whether it is a system transaction. */
  readonly sourceHash?: Hex;
  readonly mint?: Q;
  readonly isSystemTx?: boolean;
  /** Arbitrum retryables (types 0x68, 0x69): the ticket's fields as the node gave them (addresses, quantities, data). */
  readonly retryable?: Readonly<Record<string, Hex>>;
}

export type RpcTransaction = TransactionOf<Hex, Hex>;

export interface RpcLog {
  readonly address: Hex;
  readonly topics: readonly Hex[];
  readonly data: Hex;
  readonly logIndex?: Hex;
}

/**
 * A receipt, one shape for the node's answer and the model: `Q` spells its quantities, `I` its index,
 * `S` its status ('0x1' | '0x0' as sent in RpcReceipt; 'success' | 'reverted' in the model's Receipt).
 * Logs and the L1 fee stay as the node wrote them in both.
 */
export interface ReceiptOf<Q, I, S> {
  readonly transactionHash: Hex;
  readonly blockHash?: Hex;
  readonly blockNumber?: Q;
  readonly transactionIndex?: I;
  readonly contractAddress?: Hex | null;
  /** The sender and the recipient as the receipt repeats them (null: a creation); read where the transaction object is missing. */
  readonly from?: Hex;
  readonly to?: Hex | null;
  readonly gasUsed?: Q;
  readonly effectiveGasPrice?: Q;
  /** Absent on pre-Byzantium receipts, which carry `root` instead. */
  readonly status?: S;
  readonly root?: Hex;
  readonly blobGasUsed?: Q;
  readonly blobGasPrice?: Q;
  readonly logs: readonly RpcLog[];
  /** The receipt's type (most nodes give it): read where the transaction object is missing. */
  readonly type?: Hex;
  /** OP Stack: the L1 data fee and what it was computed from, as the receipt gives them (shown as given). */
  readonly l1?: RpcL1Fee;
  /** OP Stack deposits: the deposit nonce (and receipt version, after Canyon). */
  readonly depositNonce?: Q;
  /** Arbitrum: the part of gasUsed that paid for L1 calldata, and the L1 block it was read at. */
  readonly gasUsedForL1?: Q;
  readonly l1BlockNumber?: Q;
}

/** '0x1' success, '0x0' failure. */
export type RpcReceipt = ReceiptOf<Hex, Hex, '0x0' | '0x1'>;

/** An OP Stack receipt's L1 data fee fields (the operator fee's after Isthmus). */
export interface RpcL1Fee {
  readonly l1Fee?: Hex;
  readonly l1GasUsed?: Hex;
  readonly l1GasPrice?: Hex;
  /** Bedrock's decimal scalar ("0.684"), before Ecotone's pair of scalars. */
  readonly l1FeeScalar?: string;
  readonly l1BaseFeeScalar?: Hex;
  readonly l1BlobBaseFee?: Hex;
  readonly l1BlobBaseFeeScalar?: Hex;
  readonly operatorFeeScalar?: Hex;
  readonly operatorFeeConstant?: Hex;
}

/** One entry of a Parity-style trace (trace_transaction), normalised to what every type shares. */
export interface RpcTraceEntry {
  readonly type: string;
  readonly traceAddress: readonly number[];
  readonly subtraces: number | null;
  readonly action: Readonly<Record<string, unknown>>;
  readonly result: Readonly<Record<string, unknown>> | null;
  readonly error: string | null;
}

/** Before and after of one account field that changed (missing values as their defaults: 0x0, 0x). */
export interface RpcFieldChange {
  readonly before: Hex;
  readonly after: Hex;
}

/** One storage slot that changed; slot and values as 32-byte words (0x + 64 digits). */
export interface RpcSlotChange {
  readonly slot: Hex;
  readonly before: Hex;
  readonly after: Hex;
}

/**
 * One account's change in a transaction, the same explicit form whichever tracer said it
 * (trace_replayTransaction's stateDiff or the prestateTracer's diff mode).
 */
export interface RpcAccountDiff {
  readonly address: Hex;
  /** Fields that changed; absent when unchanged. */
  readonly balance?: RpcFieldChange;
  readonly nonce?: RpcFieldChange;
  readonly code?: RpcFieldChange;
  readonly storage: readonly RpcSlotChange[];
  /** False when the account did not exist before the transaction. */
  readonly existedBefore: boolean;
  /** False when the transaction removed it (a selfdestruct that deleted it). */
  readonly existsAfter: boolean;
  /** The account's code as the tracer showed it (after, else before), when it did. */
  readonly knownCode?: Hex;
}

/** What --state reads of the transaction's block header. */
export interface RpcBlockHeader {
  readonly hash: Hex;
  readonly miner: Hex;
  /** Absent before London (EIP-1559). */
  readonly baseFeePerGas?: Hex;
}

/** Which node method gave the call tree. */
export type TraceSource = 'trace_transaction' | 'debug_traceTransaction' | 'trace_call' | 'debug_traceCall' | 'local';

/** Which node method gave the state diff (--state). */
export type StateSource = 'trace_replayTransaction' | 'debug_traceTransaction' | 'trace_call' | 'debug_traceCall' | 'local';

/** The state diff as a node sent it, and which method sent it (source null: no method gave one). */
export interface StateAnswer {
  readonly raw: unknown;
  readonly source: StateSource | null;
}

/** A transaction re-executed by txray (traceSource local), checked against its receipt. */
export interface Reexecution {
  /** The block whose state it ran on: the parent of the transaction's block. */
  readonly stateBlock: number;
  /** The block's earlier transactions run first (0 when the parent's state sufficed). */
  readonly replayed: number;
  readonly matchedReceipt: boolean;
  /** Where it differed from the receipt (status, gas used, logs); empty when it matched. */
  readonly differences: readonly string[];
}

/**
 * What a source stage hands on, whichever it was (a mined transaction looked up by hash, a simulated
 * call): the node's answers verbatim, not yet checked. From here on no stage knows which source it was.
 */
export interface SourceAnswers {
  readonly transaction: unknown;
  readonly receipt: unknown;
  /** A Parity-style trace (trace_transaction, trace_call's trace), verbatim; null when not used. */
  readonly trace: unknown;
  /** A callTracer frame (debug_traceTransaction, debug_traceCall), verbatim; null when not used. */
  readonly callTrace: unknown;
  readonly traceSource: TraceSource | null;
  /** Why the tree came from another tracer than the first choice, for the text view's note. */
  readonly traceNote: string | null;
  /** traceSource local: how the re-execution went; else null. */
  readonly reexecution: Reexecution | null;
  /** --state: the state diff, and the block header that splits the fee (null: not asked or not had). */
  readonly state: StateAnswer | null;
  readonly block: unknown;
  readonly warnings: string[];
}
