/**
 * The block stage: on top of the finished models (each transaction ran the stages a lookup runs), the
 * block's header, its fees and what looks like MEV. Pure: (header, models) → BlockView.
 */
import type { InspectModel } from '../model/types.js';
import type { RpcBlock } from '../raw/parseBlock.js';
import { findMev } from './findMev.js';
import { etherUnseen } from './flows.js';
import type { BlockFees, BlockHeader, BlockView, MevFinding } from './types.js';

const big = (q: string | undefined): bigint | null => (q === undefined ? null : BigInt(q));

export function blockHeader(b: RpcBlock, transactionCount: number): BlockHeader {
  return {
    number: BigInt(b.number),
    hash: b.hash,
    parentHash: b.parentHash,
    timestamp: BigInt(b.timestamp),
    miner: b.miner,
    gasUsed: BigInt(b.gasUsed),
    gasLimit: BigInt(b.gasLimit),
    baseFeePerGas: big(b.baseFeePerGas),
    blobGasUsed: big(b.blobGasUsed),
    excessBlobGas: big(b.excessBlobGas),
    transactionCount,
  };
}

/**
 * burnt = base fee × the block's gas used; tips = Σ (effective price − base fee) × gas used over the
 * receipts (the whole price before London); the payments are the ones findMev found, which only a
 * transaction's trace shows: with none traced the sum is not known, with some it is a part.
 */
export function blockFees(h: BlockHeader, models: readonly InspectModel[], payments: readonly MevFinding[], pending: boolean): BlockFees {
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

export function summarizeBlock(b: RpcBlock, models: readonly InspectModel[], pending: boolean, warnings: readonly string[]): BlockView {
  const header = blockHeader(b, models.length);
  const mev = pending ? [] : findMev(models, header.miner);
  const fees = blockFees(header, models, mev.filter((f) => f.kind === 'fee-recipient-payment'), pending);
  return { header, fees, models, mev, pending, warnings };
}
