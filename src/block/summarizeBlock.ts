/**
 * The block stage: on top of the finished models (each transaction ran the stages a lookup runs), the
 * block's fees and what looks like MEV, beside its header. Pure: (header, models) → BlockView.
 */
import type { BlockHeader, InspectModel } from '../model/types.js';
import { findMev } from './findMev.js';
import { etherUnseen } from './flows.js';
import type { BlockFees, BlockView, MevFinding } from './types.js';

/**
 * burnt = base fee × the block's gas used; tips = Σ (effective price − base fee) × gas used over the
 * receipts (the whole price before London); the payments are the ones findMev found, which only a
 * transaction's trace shows: with none traced the sum is not known, with some it is a part.
 */
function blockFees(h: BlockHeader, models: readonly InspectModel[], payments: readonly MevFinding[], pending: boolean): BlockFees {
  const base = h.baseFeePerGas ?? 0n;
  let tips: bigint | null = 0n;
  for (const m of models) {
    const used = m.receipt?.gasUsed;
    const price = m.receipt?.effectiveGasPrice ?? m.tx?.gasPrice;
    tips = tips === null || used === undefined || price === undefined ? null : tips + (price - base) * used;
  }
  const untraced = models.filter(etherUnseen).length;
  const ran = models.filter((m) => m.status !== 'reverted').length;
  const toFeeRecipient = untraced > 0 && untraced === ran ? null : payments.reduce((sum, p) => sum + (p.payment ?? 0n), 0n);
  return { burnt: pending || h.baseFeePerGas === null ? null : h.baseFeePerGas * h.gasUsed, tips: pending ? null : tips, toFeeRecipient, untraced };
}

export function summarizeBlock(header: BlockHeader, models: readonly InspectModel[], pending: boolean, warnings: readonly string[]): BlockView {
  const mev = pending ? [] : findMev(models, header.miner);
  const fees = blockFees(header, models, mev.filter((f) => f.kind === 'fee-recipient-payment'), pending);
  return { header, fees, models, mev, pending, warnings };
}
