/**
 * One operation's own action: the action stage run again on what that operation moved, from its
 * account's view. The model is narrowed to the operation's frame (its ether) and its logs (its tokens);
 * the rules, the sentences and the netting are the action stage's own.
 */
import { describeAction } from '../action/describeAction.js';
import { nativeTransfers, tokenTransfers } from '../decode/transfers.js';
import { noRevertWords } from '../words/operationReason.js';
import type { Action, CallNode, DecodedRevert, InspectModel, Transfer } from '../model/types.js';
import type { Hex } from '../raw/types.js';

export interface OperationFacts {
  readonly account: Hex;
  readonly success: boolean;
  /** The frame its execution ran in, where the tree shows it. */
  readonly frame: CallNode | null;
  /** Indices into the receipt's logs of the events it emitted. */
  readonly logs: readonly number[];
  readonly revert: { readonly decoded: DecodedRevert } | null;
  /** Which envelope carried it: a Safe's failure without the call tree has no known reason. */
  readonly kind: 'userOperation' | 'safeTransaction';
}

/** Null where the model has no decoded names or no receipt (nothing ran). */
export function operationAction(model: InspectModel, f: OperationFacts): Action | null {
  const decoded = model.decoded;
  const receipt = model.receipt;
  if (decoded === undefined || receipt === null || model.tx === null) return null;
  const logs = f.success ? f.logs.map((i) => receipt.logs[i]!) : [];
  const meta = decoded.tokens;
  // The token amounts scaled as the decode stage scaled the transaction's (symbol() and decimals() it read).
  const scaled = (t: Transfer): Transfer => {
    const m = t.kind === 'ERC-20' && t.token !== undefined ? meta?.get(t.token.toLowerCase()) : undefined;
    return m !== undefined && m.symbol !== null && m.decimals !== null && m.decimals <= 36 ? { ...t, symbol: m.symbol, decimals: m.decimals } : t;
  };
  const transfers = [...(f.success && f.frame !== null ? nativeTransfers(f.frame) : []), ...tokenTransfers(logs).map(scaled)];
  const frame = f.frame;
  const narrowed: InspectModel = {
    ...model,
    status: f.success ? 'success' : 'reverted',
    tx: { ...model.tx, from: f.account, to: frame?.to ?? f.account, value: frame?.value ?? 0n, ...(frame?.input != null ? { input: frame.input } : {}) },
    receipt: { ...receipt, logs },
    tree: frame === null ? null : { root: frame, count: 1, maxDepth: 0 },
    failure: f.success ? null : { error: f.revert === null ? noRevertWords(f.kind, model.tree !== null) : 'Reverted', revert: f.revert?.decoded.revert ?? null, origin: null },
    decoded: { ...decoded, function: frame?.decoded?.function ?? null, events: f.success ? f.logs.map((i) => decoded.events[i] ?? null) : [], error: f.revert?.decoded.custom ?? null, transfers },
  };
  return describeAction(narrowed, f.account)?.action ?? null;
}
