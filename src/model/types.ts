import type { StateSource } from '../raw/parseStateDiff.js';
import type { Hex, RpcReceipt, RpcSlotChange, RpcTransaction } from '../raw/types.js';
import type { DecodedModel } from '../decode/decodeModel.js';
import type { TraceSource } from '../rpc/fetchBundle.js';

export type Status = 'success' | 'reverted' | 'pending' | 'not_found';

/**
 * One node of the call tree, in Parity's vocabulary whatever tracer produced it (this is also the
 * --json shape of `calls`). Quantities and data stay hex strings as the node sent them.
 */
export interface CallNode {
  /** 'call' | 'create' | 'suicide' | 'reward'; an unknown type is kept as the node wrote it. */
  readonly type: string;
  readonly callType?: string;
  readonly creationMethod?: string;
  readonly rewardType?: string;
  readonly from: Hex | null;
  /** For a create: the created address. For a suicide: the beneficiary (with `from` the destroyed contract). */
  readonly to: Hex | null;
  readonly value: Hex | null;
  readonly gas: Hex | null;
  readonly gasUsed: Hex | null;
  readonly input: Hex | null;
  readonly output: Hex | null;
  readonly error: string | null;
  readonly traceAddress: readonly number[];
  readonly children: CallNode[];
  /**
   * Indices into the receipt's logs (in logIndex order) of the events this call emitted; present only
   * when the tracer tells where each log was emitted (callTracer with withLog).
   */
  logs?: number[];
  /** Set on a placeholder standing in for a root entry the node did not send. */
  readonly missing?: true;
}

export interface CallTree {
  readonly root: CallNode;
  readonly count: number;
  readonly maxDepth: number;
}

export type Revert =
  | { readonly kind: 'error'; readonly message: string }
  | { readonly kind: 'panic'; readonly code: bigint; readonly meaning: string }
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'custom'; readonly selector: Hex; readonly data: Hex }
  | { readonly kind: 'empty' };

/** Why a transaction failed, as far as the trace tells. */
export interface Failure {
  /** The root entry's error string ("Reverted", "out of gas", …), or null without a trace. */
  readonly error: string | null;
  /** Decoded revert data, when the failure is a revert with data available. */
  readonly revert: Revert | null;
  /** The deepest call whose failure bubbled up unchanged to the root (the root itself when it failed on its own). */
  readonly origin: CallNode | null;
}

/** An event drawn inside the tree: emitted by a call after `position` of its subcalls. */
export interface PlacedEvent {
  readonly position: number;
  /** Index into the receipt's logs. */
  readonly log: number;
}

export interface InspectModel {
  readonly hash: Hex;
  readonly status: Status;
  readonly tx: RpcTransaction | null;
  readonly receipt: RpcReceipt | null;
  readonly tree: CallTree | null;
  readonly traceSource: TraceSource | null;
  /** Which tracer the tree came from, when it was not trace_transaction. */
  readonly traceNote: string | null;
  /** Events per call, when the tracer placed them (null: they stay in the Logs section only). */
  readonly events: ReadonlyMap<CallNode, readonly PlacedEvent[]> | null;
  readonly failure: Failure | null;
  /** --state: the changes (null when the node gave none); absent when not asked. */
  readonly state?: StateModel | null;
  readonly warnings: readonly string[];
  /** Names for what the model holds (the decode stage); absent before it runs. */
  readonly decoded?: DecodedModel;
  /**
   * The node's results verbatim, for --json; null when the run prints text, so that a big answer's
   * parsed objects can be freed once the model is built.
   */
  readonly raw: {
    readonly transaction: unknown;
    readonly receipt: unknown;
    readonly trace: unknown;
    readonly callTrace: unknown;
    /** --state: the state diff's answer verbatim (absent when not asked). */
    readonly stateDiff?: unknown;
  } | null;
}

/** What an account was to the transaction. */
export type AccountRole = 'sender' | 'recipient' | 'coinbase' | 'created' | 'destroyed' | 'new';

/** An EIP-7702 delegation: the account's code is 0xef0100 ‖ the address it runs the code of. */
export interface DelegationChange {
  readonly before: Hex | null;
  readonly after: Hex | null;
}

/** One account's change, from the state diff (--state). Quantities as bigints, slots as words. */
export interface AccountChange {
  readonly address: Hex;
  readonly roles: readonly AccountRole[];
  readonly balance: { readonly before: bigint; readonly after: bigint } | null;
  readonly nonce: { readonly before: bigint; readonly after: bigint } | null;
  /** Code sizes in bytes, when the code changed (created, destroyed, delegated). */
  readonly code: { readonly before: number; readonly after: number } | null;
  readonly delegation: DelegationChange | null;
  readonly storage: readonly RpcSlotChange[];
  /** The account's code as the tracer showed it, for naming it by artifact. */
  readonly knownCode?: Hex;
}

/** How the fee divides: the base fee burned (EIP-1559) and the rest to the block's coinbase. */
export interface FeeSplit {
  readonly gasUsed: bigint;
  readonly effectiveGasPrice: bigint;
  /** gasUsed × effectiveGasPrice. */
  readonly total: bigint;
  /** Null when the block header is not known. */
  readonly baseFeePerGas: bigint | null;
  readonly burned: bigint | null;
  readonly priority: bigint | null;
  /** EIP-4844 blob gas × blob gas price, burned as well. */
  readonly blobFee: bigint;
  readonly coinbase: Hex | null;
}

export interface StateModel {
  readonly source: StateSource;
  /** Changed accounts: the sender first, then by address. */
  readonly accounts: readonly AccountChange[];
  /** ETH balance changes: the sender first, then by size of the change. */
  readonly balances: readonly AccountChange[];
  readonly fee: FeeSplit | null;
  /**
   * False when the diff's ETH changes leave the gas fee out (they add up to zero although a fee was
   * paid: seen on Erigon's trace_replayTransaction); the sender's change then lacks the fee.
   */
  readonly feeInDiff: boolean;
  /** The self-check: the diff's ETH changes added up, and what they should add up to (minus the burned fee), when known. */
  readonly ethSum: bigint;
  readonly expectedSum: bigint | null;
}
