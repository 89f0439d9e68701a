/**
 * What a transaction paid, and where it went as far as the block header tells: gasUsed ×
 * effectiveGasPrice, the base fee's part burned (EIP-1559) and the rest to the coinbase, and a blob
 * transaction's blob fee (burned as well). Without the header, paid only.
 */
import { toBig } from '../raw/hex.js';
import type { Hex, RpcBlockHeader, RpcReceipt, RpcTransaction } from '../raw/types.js';
import type { FeeSplit } from './types.js';

export function feeSplit(tx: RpcTransaction | null, receipt: RpcReceipt | null, block: RpcBlockHeader | null): FeeSplit | null {
  // Receipts before London have no effectiveGasPrice: a legacy transaction's own price is what it paid.
  const price = receipt?.effectiveGasPrice ?? (tx?.maxFeePerGas === undefined ? tx?.gasPrice : undefined);
  if (receipt?.gasUsed === undefined || price === undefined) return null;
  const gasUsed = toBig(receipt.gasUsed);
  const effectiveGasPrice = toBig(price);
  // Before London there is no base fee: the whole fee goes to the coinbase.
  const baseFeePerGas = block === null ? null : block.baseFeePerGas !== undefined ? toBig(block.baseFeePerGas) : 0n;
  const burned = baseFeePerGas === null ? null : gasUsed * baseFeePerGas;
  const blobFee = receipt.blobGasUsed !== undefined && receipt.blobGasPrice !== undefined ? toBig(receipt.blobGasUsed) * toBig(receipt.blobGasPrice) : 0n;
  return {
    gasUsed,
    effectiveGasPrice,
    total: gasUsed * effectiveGasPrice,
    baseFeePerGas,
    burned,
    priority: burned === null ? null : gasUsed * effectiveGasPrice - burned,
    blobFee,
    coinbase: block?.miner.toLowerCase() as Hex | undefined ?? null,
  };
}
