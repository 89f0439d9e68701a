/**
 * A block's header as `txray block` reads it (eth_getBlockByHash/ByNumber), checked once: what the
 * header view needs is essential (a broken one makes the block unusable, exit 5); the base fee and the
 * blob gas are optional (absent before London and Cancun; broken: a warning, and left out).
 */
import { RpcFailure } from '../errors.js';
import { isAddress, isHash, isQuantity } from './hex.js';
import type { Warn } from './parseRaw.js';
import type { Hex } from './types.js';

export interface RpcBlock {
  readonly number: Hex;
  /** Null for the pending block on nodes that do not name it yet. */
  readonly hash: Hex | null;
  readonly parentHash: Hex | null;
  readonly timestamp: Hex;
  /** The fee recipient (coinbase); null where the pending block does not name one yet (geth). */
  readonly miner: Hex | null;
  readonly gasUsed: Hex;
  readonly gasLimit: Hex;
  readonly baseFeePerGas?: Hex;
  readonly blobGasUsed?: Hex;
  readonly excessBlobGas?: Hex;
}

/** Some nodes write the pending block's number and hash as null, or a number as a JSON number: both read here. */
const quantity = (v: unknown): Hex | undefined => (isQuantity(v) ? v : typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? `0x${v.toString(16)}` : undefined);

export function parseBlock(raw: Readonly<Record<string, unknown>>, warn: Warn): RpcBlock {
  const need = (key: string): Hex => {
    const v = quantity(raw[key]);
    if (v === undefined) throw new RpcFailure('malformed', `eth_getBlockByHash: the node's answer is malformed (no valid "${key}"); the block cannot be shown.`, { method: 'eth_getBlockByHash' });
    return v;
  };
  const optional = (key: string): Hex | undefined => {
    const v = raw[key];
    if (v === undefined || v === null) return undefined;
    const q = quantity(v);
    if (q === undefined) warn(`block.${key} is not valid; ignored.`);
    return q;
  };
  const miner = raw.miner;
  if (miner !== null && miner !== undefined && !isAddress(miner)) throw new RpcFailure('malformed', 'eth_getBlockByHash: the node\'s answer is malformed (no valid "miner"); the block cannot be shown.', { method: 'eth_getBlockByHash' });
  const baseFeePerGas = optional('baseFeePerGas');
  const blobGasUsed = optional('blobGasUsed');
  const excessBlobGas = optional('excessBlobGas');
  return {
    number: need('number'),
    hash: isHash(raw.hash) ? (raw.hash.toLowerCase() as Hex) : null,
    parentHash: isHash(raw.parentHash) ? (raw.parentHash.toLowerCase() as Hex) : null,
    timestamp: need('timestamp'),
    miner: isAddress(miner) ? (miner.toLowerCase() as Hex) : null,
    gasUsed: need('gasUsed'),
    gasLimit: need('gasLimit'),
    ...(baseFeePerGas !== undefined ? { baseFeePerGas } : {}),
    ...(blobGasUsed !== undefined ? { blobGasUsed } : {}),
    ...(excessBlobGas !== undefined ? { excessBlobGas } : {}),
  };
}
