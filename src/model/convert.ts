/**
 * The node's checked answers converted once for every reader after the model: quantities to bigint
 * (indices and chain ids to number), as viem's formatters do. The verbatim answers stay beside the
 * model for --json.
 */
import type { RpcBlock } from '../raw/parseBlock.js';
import type { Hex, RpcReceipt, RpcTransaction } from '../raw/types.js';
import type { BlockHeader, Receipt, Transaction } from './types.js';

const big = (v: Hex | undefined): bigint | undefined => (v === undefined ? undefined : BigInt(v));
const num = (v: Hex | undefined): number | undefined => (v === undefined ? undefined : Number(BigInt(v)));

/** Only the fields the node gave: an absent one stays absent (undefined), never a made-up zero. */
function defined<T extends object>(o: T): T {
  for (const [k, v] of Object.entries(o)) if (v === undefined) Reflect.deleteProperty(o, k);
  return o;
}

export function toTransaction(tx: RpcTransaction): Transaction {
  return defined({
    hash: tx.hash,
    blockHash: tx.blockHash,
    blockNumber: tx.blockNumber === null ? null : BigInt(tx.blockNumber),
    transactionIndex: tx.transactionIndex === null ? null : Number(BigInt(tx.transactionIndex)),
    from: tx.from,
    to: tx.to,
    value: big(tx.value),
    gas: big(tx.gas),
    gasPrice: big(tx.gasPrice),
    maxFeePerGas: big(tx.maxFeePerGas),
    maxPriorityFeePerGas: big(tx.maxPriorityFeePerGas),
    maxFeePerBlobGas: big(tx.maxFeePerBlobGas),
    input: tx.input,
    nonce: big(tx.nonce),
    type: tx.type,
    chainId: num(tx.chainId),
    accessList: tx.accessList,
    blobVersionedHashes: tx.blobVersionedHashes,
    authorizationList: tx.authorizationList?.map((a) => defined({ chainId: big(a.chainId), address: a.address, nonce: big(a.nonce), yParity: big(a.yParity), r: big(a.r), s: big(a.s) })),
    sourceHash: tx.sourceHash,
    mint: big(tx.mint),
    isSystemTx: tx.isSystemTx,
    retryable: tx.retryable,
  });
}

export function toReceipt(r: RpcReceipt): Receipt {
  return defined({
    transactionHash: r.transactionHash,
    blockHash: r.blockHash,
    blockNumber: big(r.blockNumber),
    transactionIndex: num(r.transactionIndex),
    contractAddress: r.contractAddress,
    from: r.from,
    to: r.to,
    gasUsed: big(r.gasUsed),
    effectiveGasPrice: big(r.effectiveGasPrice),
    status: r.status === undefined ? undefined : r.status === '0x1' ? ('success' as const) : ('reverted' as const),
    root: r.root,
    blobGasUsed: big(r.blobGasUsed),
    blobGasPrice: big(r.blobGasPrice),
    logs: r.logs,
    type: r.type,
    l1: r.l1,
    depositNonce: big(r.depositNonce),
    gasUsedForL1: big(r.gasUsedForL1),
    l1BlockNumber: big(r.l1BlockNumber),
  });
}

/** A block's checked header, with how many transactions it holds. */
export function toBlockHeader(b: RpcBlock, transactionCount: number): BlockHeader {
  const orNull = (q: Hex | undefined): bigint | null => (q === undefined ? null : BigInt(q));
  return {
    number: BigInt(b.number),
    hash: b.hash,
    parentHash: b.parentHash,
    timestamp: BigInt(b.timestamp),
    miner: b.miner,
    gasUsed: BigInt(b.gasUsed),
    gasLimit: BigInt(b.gasLimit),
    baseFeePerGas: orNull(b.baseFeePerGas),
    blobGasUsed: orNull(b.blobGasUsed),
    excessBlobGas: orNull(b.excessBlobGas),
    transactionCount,
  };
}
