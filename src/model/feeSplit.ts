/**
 * What a transaction paid, and where it went as far as the answers tell, by the rules of its chain:
 * - Ethereum: gasUsed × effectiveGasPrice, the base fee's part burned (EIP-1559) and the rest to the
 *   coinbase, and a blob transaction's blob fee (burned as well).
 * - OP Stack: the same execution fee plus the receipt's L1 data fee; nothing is burned: the base fee's
 *   part goes to the BaseFeeVault, the rest to the SequencerFeeVault (the coinbase), the L1 data fee to
 *   the L1FeeVault. A deposit pays no L2 fee (its gas was bought on L1) and mints its `mint` on L2.
 * - Arbitrum: gasUsed × effectiveGasPrice, of which gasUsedForL1 paid for L1 calldata; where it goes
 *   (the chain's fee accounts) the answers do not say, so no split is claimed.
 * Without the block header, the split is unknown and only the total is given.
 */
import { lowerHex, toBig } from '../raw/hex.js';
import type { RpcBlockHeader } from '../raw/types.js';
import { type FeeRules, familyOf, isDeposit } from './chain.js';
import type { FeeSplit, Receipt, Transaction } from './types.js';

/** `rules`: what the state diff showed where the answers did not (the OP Stack's fee vaults). */
export function feeSplit(tx: Transaction | null, receipt: Receipt | null, block: RpcBlockHeader | null, rules?: FeeRules): FeeSplit | null {
  // Receipts before London have no effectiveGasPrice: a legacy transaction's own price is what it paid.
  const price = receipt?.effectiveGasPrice ?? (tx?.maxFeePerGas === undefined ? tx?.gasPrice : undefined);
  if (receipt?.gasUsed === undefined || price === undefined) return null;
  const applied: FeeRules = familyOf(tx, receipt) ?? rules ?? 'ethereum';
  const gasUsed = receipt.gasUsed;
  const deposit = applied === 'op-stack' && isDeposit(tx, receipt);
  const effectiveGasPrice = deposit ? 0n : price;
  const execution = gasUsed * effectiveGasPrice;
  const l1Fee = applied === 'op-stack' && receipt.l1?.l1Fee !== undefined ? toBig(receipt.l1.l1Fee) : 0n;
  // Before London there is no base fee: the whole fee goes to the coinbase.
  const baseFeePerGas = block === null ? null : block.baseFeePerGas !== undefined ? toBig(block.baseFeePerGas) : 0n;
  const baseFeePart = deposit ? 0n : baseFeePerGas === null ? null : gasUsed * baseFeePerGas;
  const blobFee = receipt.blobGasUsed !== undefined && receipt.blobGasPrice !== undefined && applied === 'ethereum' ? receipt.blobGasUsed * receipt.blobGasPrice : 0n;
  const common = { gasUsed, effectiveGasPrice, execution, total: execution + l1Fee, baseFeePerGas, blobFee, coinbase: block === null ? null : lowerHex(block.miner), rules: applied };
  if (applied === 'op-stack') {
    return {
      ...common,
      burned: baseFeePart === null ? null : 0n,
      baseFeePart,
      priority: baseFeePart === null ? null : execution - baseFeePart,
      l1Fee,
      l1: receipt.l1 ?? null,
      l1Gas: null,
      mint: deposit && tx?.mint !== undefined ? tx.mint : deposit ? 0n : null,
    };
  }
  if (applied === 'arbitrum') {
    return { ...common, burned: null, baseFeePart: null, priority: null, l1Fee: 0n, l1: null, l1Gas: receipt.gasUsedForL1 ?? null, mint: null };
  }
  return { ...common, burned: baseFeePart, baseFeePart, priority: baseFeePart === null ? null : execution - baseFeePart, l1Fee: 0n, l1: null, l1Gas: null, mint: null };
}
