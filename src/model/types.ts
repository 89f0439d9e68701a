import type { Hex, RpcReceipt, RpcTransaction } from '../raw/types.js';
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
  readonly warnings: readonly string[];
  /** Names for what the model holds (the decode stage); absent before it runs. */
  readonly decoded?: DecodedModel;
  /**
   * The node's results verbatim, for --json; null when the run prints text, so that a big answer's
   * parsed objects can be freed once the model is built.
   */
  readonly raw: { readonly transaction: unknown; readonly receipt: unknown; readonly trace: unknown; readonly callTrace: unknown } | null;
}
