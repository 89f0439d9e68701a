/**
 * `txray call --raw`: a signed transaction (any type: legacy, 2930, 1559, 4844, 7702) read back into
 * the JSON-RPC call object that simulates exactly it, with its sender recovered from the signature and
 * the hash it would have once sent. Nothing here sends anything.
 */
import { keccak256, parseTransaction, recoverTransactionAddress, type TransactionSerialized } from 'viem';
import { UsageError } from '../errors.js';
import { escapeShort } from '../raw/escape.js';
import type { Hex } from '../raw/types.js';
import { lowerHex } from '../raw/hex.js';

export interface SignedTransaction {
  /** The hash the transaction would have on chain. */
  readonly hash: Hex;
  /** The call object for debug_traceCall / trace_call / eth_call: quantities as hex, as the node takes them. */
  readonly call: Readonly<Record<string, unknown>>;
}

const quantity = (n: bigint | number | undefined): Hex | undefined => (n === undefined ? undefined : `0x${n.toString(16)}`);

const TYPE_CODES: Readonly<Record<string, Hex>> = { legacy: '0x0', eip2930: '0x1', eip1559: '0x2', eip4844: '0x3', eip7702: '0x4' };

export async function parseSignedTransaction(text: string): Promise<SignedTransaction> {
  const s = text.trim();
  if (!/^0x([0-9a-fA-F]{2})+$/.test(s)) throw new UsageError(`--raw takes a signed transaction as 0x and hex bytes, not '${escapeShort(s, 40)}'.`);
  const raw = s.toLowerCase() as TransactionSerialized;
  let tx: ReturnType<typeof parseTransaction>;
  let from: Hex;
  try {
    tx = parseTransaction(raw);
    if (tx.r === undefined || tx.s === undefined) throw new Error('it carries no signature');
    from = lowerHex(await recoverTransactionAddress({ serializedTransaction: raw as never }));
  } catch (err) {
    const why = escapeShort((err as Error).message.split('\n')[0] ?? 'unreadable', 120).replace(/\.$/, '');
    throw new UsageError(`--raw: not a signed transaction txray can read (${why}).`);
  }
  const call: Record<string, unknown> = {
    type: TYPE_CODES[tx.type ?? 'legacy'] ?? '0x0',
    from,
    ...(tx.to ? { to: tx.to.toLowerCase() } : {}),
    nonce: quantity(tx.nonce),
    gas: quantity(tx.gas),
    value: quantity(tx.value ?? 0n),
    data: tx.data ?? '0x',
    ...(tx.chainId !== undefined ? { chainId: quantity(tx.chainId) } : {}),
    ...(tx.gasPrice !== undefined ? { gasPrice: quantity(tx.gasPrice) } : {}),
    ...(tx.maxFeePerGas !== undefined ? { maxFeePerGas: quantity(tx.maxFeePerGas) } : {}),
    ...(tx.maxPriorityFeePerGas !== undefined ? { maxPriorityFeePerGas: quantity(tx.maxPriorityFeePerGas) } : {}),
    ...(tx.maxFeePerBlobGas !== undefined ? { maxFeePerBlobGas: quantity(tx.maxFeePerBlobGas) } : {}),
    ...(tx.accessList !== undefined ? { accessList: tx.accessList } : {}),
    ...(tx.blobVersionedHashes !== undefined ? { blobVersionedHashes: tx.blobVersionedHashes } : {}),
    ...(tx.authorizationList !== undefined
      ? {
          authorizationList: tx.authorizationList.map((a) => ({
            chainId: quantity(a.chainId),
            address: a.address.toLowerCase(),
            nonce: quantity(a.nonce),
            yParity: quantity(a.yParity ?? 0),
            r: a.r,
            s: a.s,
          })),
        }
      : {}),
  };
  for (const key of Object.keys(call)) if (call[key] === undefined) delete call[key];
  return { hash: keccak256(raw), call };
}
