/**
 * A block's header, checked here for every reader: `txray block`'s (eth_getBlockByHash/ByNumber), where
 * what the header view needs is essential (a broken one makes the block unusable, exit 5), and --state's
 * receipt block (its coinbase and base fee split the fee; broken, the fee stays whole). The base fee and
 * the blob gas are optional for both (absent before London and Cancun; broken: a warning, and left out).
 */
import { RpcFailure } from '../errors.js';
import { isAddress, isData, isHash, isQuantity, isRecord, lowerHex, toQuantity } from './hex.js';
import { optional, sameHash, type Warn } from './parseRaw.js';
import type { Hex, RpcBlockHeader } from './types.js';

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
const quantity = (v: unknown): Hex | undefined => (isQuantity(v) ? v : typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? toQuantity(v) : undefined);
const isQuantityLike = (v: unknown): v is Hex | number => quantity(v) !== undefined;

/** An optional quantity of the header: absent, or checked (a broken one is warned of and left out). */
const optionalQuantity = (raw: Readonly<Record<string, unknown>>, key: string, warn: Warn): Hex | undefined => quantity(optional(raw, key, isQuantityLike, 'block', warn));

export function parseBlockAnswer(raw: Readonly<Record<string, unknown>>, warn: Warn): RpcBlock {
  const need = (key: string): Hex => {
    const v = quantity(raw[key]);
    if (v === undefined) throw new RpcFailure('malformed', `eth_getBlockByHash: the node's answer is malformed (no valid "${key}"); the block cannot be shown.`, { method: 'eth_getBlockByHash' });
    return v;
  };
  const miner = raw.miner;
  if (miner !== null && miner !== undefined && !isAddress(miner)) throw new RpcFailure('malformed', 'eth_getBlockByHash: the node\'s answer is malformed (no valid "miner"); the block cannot be shown.', { method: 'eth_getBlockByHash' });
  const baseFeePerGas = optionalQuantity(raw, 'baseFeePerGas', warn);
  const blobGasUsed = optionalQuantity(raw, 'blobGasUsed', warn);
  const excessBlobGas = optionalQuantity(raw, 'excessBlobGas', warn);
  return {
    number: need('number'),
    hash: isHash(raw.hash) ? lowerHex(raw.hash) : null,
    parentHash: isHash(raw.parentHash) ? lowerHex(raw.parentHash) : null,
    timestamp: need('timestamp'),
    miner: isAddress(miner) ? lowerHex(miner) : null,
    gasUsed: need('gasUsed'),
    gasLimit: need('gasLimit'),
    ...(baseFeePerGas !== undefined ? { baseFeePerGas } : {}),
    ...(blobGasUsed !== undefined ? { blobGasUsed } : {}),
    ...(excessBlobGas !== undefined ? { excessBlobGas } : {}),
  };
}

/**
 * The receipt's block header (eth_getBlockByHash): its coinbase and base fee. Null, with a warning,
 * when it is missing or not the receipt's block: the fee is then shown whole, not split.
 */
export function parseBlockHeader(raw: unknown, blockHash: Hex | undefined, warn: Warn): RpcBlockHeader | null {
  if (raw === null || raw === undefined) return null;
  if (!isRecord(raw) || !isHash(raw.hash) || !isAddress(raw.miner)) {
    warn('eth_getBlockByHash: the block header is malformed (no hash or miner); the fee is not split into burned and priority parts.');
    return null;
  }
  if (blockHash !== undefined && !sameHash(raw.hash, blockHash)) {
    warn(`eth_getBlockByHash: the node answered with another block (${raw.hash}); the fee is not split into burned and priority parts.`);
    return null;
  }
  const baseFeePerGas = optionalQuantity(raw, 'baseFeePerGas', warn);
  return { hash: raw.hash, miner: raw.miner, ...(baseFeePerGas !== undefined ? { baseFeePerGas } : {}) };
}

/** A block header as txray's EVM builds its block context and its chain's rules from it (evm/localEvm.ts). */
export interface EvmHeader {
  readonly number: Hex;
  readonly timestamp: Hex;
  readonly gasLimit: Hex;
  /** The coinbase: the fees go there, and COINBASE reads it. */
  readonly miner: Hex;
  readonly baseFeePerGas?: Hex;
  readonly difficulty?: Hex;
  readonly excessBlobGas?: Hex;
  readonly blobGasUsed?: Hex;
  readonly mixHash?: Hex;
  readonly parentBeaconBlockRoot?: Hex;
  readonly requestsHash?: Hex;
  readonly withdrawalsRoot?: Hex;
}

const EVM_QUANTITIES = ['baseFeePerGas', 'difficulty', 'excessBlobGas'] as const;
const EVM_DATA = ['mixHash', 'parentBeaconBlockRoot', 'requestsHash', 'withdrawalsRoot'] as const;

/**
 * The header a local run starts from (eth_getBlockByNumber's answer): the block's number, time, gas
 * limit and coinbase are essential (the run cannot be made without them); a hardfork's field the node
 * gave is kept where it is well formed (which fields are there tells a local chain's hardfork).
 */
export function parseEvmHeader(raw: Readonly<Record<string, unknown>>): EvmHeader {
  const need = (key: 'number' | 'timestamp' | 'gasLimit'): Hex => {
    const v = raw[key];
    if (!isQuantity(v)) throw new Error(`the node's block has no ${key}`);
    return v;
  };
  if (!isAddress(raw.miner)) throw new Error('the node\'s block has no miner');
  const out: { -readonly [K in keyof EvmHeader]: EvmHeader[K] } = { number: need('number'), timestamp: need('timestamp'), gasLimit: need('gasLimit'), miner: raw.miner };
  for (const key of EVM_QUANTITIES) {
    const v = raw[key];
    if (v === undefined) continue;
    if (!isQuantity(v)) throw new Error(`the node's block has no ${key}`);
    out[key] = v;
  }
  // The blob gas the block used counts for the next block's fee only: where it is broken, the run goes on without it.
  if (isQuantity(raw.blobGasUsed)) out.blobGasUsed = raw.blobGasUsed;
  for (const key of EVM_DATA) {
    const v = raw[key];
    if (isData(v)) out[key] = v;
  }
  return out;
}
