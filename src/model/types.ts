import type { Hex, RpcReceipt, RpcTransaction } from '../raw/types.js';

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

export interface InspectModel {
  readonly hash: Hex;
  readonly status: Status;
  readonly tx: RpcTransaction | null;
  readonly receipt: RpcReceipt | null;
  readonly tree: CallTree | null;
  readonly failure: Failure | null;
  readonly warnings: readonly string[];
  /** The node's results verbatim, for --json. */
  readonly raw: { readonly transaction: unknown; readonly receipt: unknown; readonly trace: unknown };
}
