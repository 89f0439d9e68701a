/** What the block stage makes of a block's finished models: its header (converted in model/), fees and the patterns that look like MEV. */
import type { BlockHeader, InspectModel } from '../model/types.js';
import type { Hex } from '../raw/types.js';


export interface BlockFees {
  /** Base fee × gas used (null before London, where nothing is burnt, and for a pending block). */
  readonly burnt: bigint | null;
  /** Σ (effective price − base fee) × gas used over the receipts (null where a receipt is missing). */
  readonly tips: bigint | null;
  /**
   * Ether sent straight to the fee recipient by the transactions' calls (besides the tips): only the
   * traced ones' (see `untraced`); null where no transaction that ran was traced (nothing of it is known).
   */
  readonly toFeeRecipient: bigint | null;
  /** Transactions that ran (or are pending) with no trace: their calls' payments are not in toFeeRecipient. */
  readonly untraced: number;
}

/** One asset's signed amount: ether, or a token with what it says of itself where known. */
export interface Flow {
  readonly asset: 'ETH' | Hex;
  readonly amount: bigint;
  readonly symbol?: string;
  readonly decimals?: number;
}

export type MevKind = 'sandwich' | 'arbitrage' | 'liquidation' | 'fee-recipient-payment';

/** A pattern that looks like MEV, never said to be it. */
export interface MevFinding {
  readonly kind: MevKind;
  /** In block order; a sandwich's are [front, victims…, back]. */
  readonly transactions: readonly Hex[];
  /** Who it looks like profited: the sending account (a liquidation's liquidator). */
  readonly actor: Hex | null;
  readonly pools: readonly Hex[];
  /** The actor's net movements over its transactions, fees aside; null where the flows do not show them. */
  readonly profit: readonly Flow[] | null;
  /**
   * True where one of its transactions was not traced: the ether its calls moved is not known, so the
   * profit leaves ether out rather than state a part of it.
   */
  readonly etherNotKnown?: boolean;
  /** fee-recipient-payment: the ether paid. */
  readonly payment?: bigint;
}

export interface BlockView {
  readonly header: BlockHeader;
  readonly fees: BlockFees;
  /** One per transaction, in block order: the models every lookup makes. */
  readonly models: readonly InspectModel[];
  readonly mev: readonly MevFinding[];
  readonly pending: boolean;
  readonly warnings: readonly string[];
}
