/**
 * The protocols the action stage knows, as data: events by their shape (topic0 and how many topics:
 * Aave v2 and v3, Compound and Uniswap v2 share event hashes, so the count and the emitter tell them
 * apart), each with what it means and whose name it gives the venue.
 */
import type { ActionKind } from '../model/types.js';
import { byteLength, lowerHex, wordToAddress } from '../raw/hex.js';
import type { Hex, RpcLog } from '../raw/types.js';

/**
 * Each event's topic0, keccak256 of its signature, written out so that no hashing runs at start-up
 * (test/unit/action.test.ts recomputes every one).
 */
export const TOPIC0: Readonly<Record<string, string>> = {
  'Swap(address,uint256,uint256,uint256,uint256,address)': '0xd78ad95fa46c994b6551d0da85fc275fe613ce37657fb8d5e3d130840159d822',
  'Mint(address,uint256,uint256)': '0x4c209b5fc8ad50758f13e2e1088ba56a560dff690a1c6fef26394f4c03821c4f',
  'Burn(address,uint256,uint256,address)': '0xdccd412f0b1252819cb1fd330b93224ca42612892bb3f4f789976e6d81936496',
  'Swap(address,address,int256,int256,uint160,uint128,int24)': '0xc42079f94a6350d7e6235f29174924f928cc2ac818eb64fed8004e115fbcca67',
  'Mint(address,address,int24,int24,uint128,uint256,uint256)': '0x7a53080ba414158be7ec69b987b5fb7d07dee101fe85488f0853ae16239d0bde',
  'Burn(address,int24,int24,uint128,uint256,uint256)': '0x0c396cd989a39f4459b5fa1aed6a9a8dcdbc45908acfd67e028cd568da98982c',
  'Swap(bytes32,address,int128,int128,uint160,uint128,int24,uint24)': '0x40e9cecb9f5f1f1c5b9c97dec2917b7ee92e57ba5563708daca94dd84ad7112f',
  'TokenExchange(address,int128,uint256,int128,uint256)': '0x8b3e96f2b889fa771c53c981b40daf005f63f637f1869f707052d15a3dd97140',
  'TokenExchangeUnderlying(address,int128,uint256,int128,uint256)': '0xd013ca23e77a65003c2c659c5442c00c805371b7fc1ebd4c206c41d1536bd90b',
  'Swap(bytes32,address,address,uint256,uint256)': '0x2170c741c41531aec20e7c107c24eecfdd15e69c9bb0a8dd37b1840b9e0b207b',
  'Supply(address,address,address,uint256,uint16)': '0x2b627736bca15cd5381dcf80b0bf11fd197d01a037c52b927a881a10fb73ba61',
  'Withdraw(address,address,address,uint256)': '0x3115d1449a7b732c986cba18244e897a450f61e1bb8d589cd2e69e6c8924f9f7',
  'Borrow(address,address,address,uint256,uint8,uint256,uint16)': '0xb3d084820fb1a9decffb176436bd02558d15fac9b0ddfed8c465bc7359d7dce0',
  'Repay(address,address,address,uint256,bool)': '0xa534c8dbe71f871f9f3530e97a74601fea17b426cae02e1c5aee42c96c784051',
  'LiquidationCall(address,address,address,uint256,uint256,address,bool)': '0xe413a321e8681d831f4dbccbca790d2952b56f977908e45be37335533e005286',
  'LiquidateBorrow(address,address,uint256,address,uint256)': '0x298637f684da70674f26509b10f07ec2fbc77a335ab1e7d6215a4b2484d8bb52',
  'AbsorbDebt(address,address,uint256,uint256)': '0x1547a878dc89ad3c367b6338b4be6a65a5dd74fb77ae044da1e8747ef1f4f62f',
  'Deposit(address,address,address,uint256,uint16)': '0xde6857219544bb5b7746f48ed30be6386fefc61b2f864cacf559893bf50fd951',
  'Borrow(address,address,address,uint256,uint256,uint256,uint16)': '0xc6a898309e823ee50bac64e45ca8adba6690e99e7841c45d754e2a38e9019d9b',
  'Repay(address,address,address,uint256)': '0x4cdde6e09bb755c9a5589ebaec640bbfedff1362d4b255ebf8339782b9942faa',
  'Submitted(address,uint256,address)': '0x96a25c8ce0baabc1fdefd93e9ed25d8e092a3332f3aa9a41722b5697231d1d1a',
  'ApprovalForAll(address,address,bool)': '0x17307eab39ab6107e8899845ad3d59bd9653f200f220920489ca2b5937696c31',
  'ExecutionSuccess(bytes32,uint256)': '0x442e715f626346e8c54381002da614f62bee8d27386535b2521ec8540898556e',
  'ETHDepositInitiated(address,address,uint256,bytes)': '0x35d79ab81f2b2017e19afb5c5571778877782d7a8786f5907f93b0f4702f4f23',
  'ERC20DepositInitiated(address,address,address,address,uint256,bytes)': '0x718594027abd4eaed59f95162563e0cc6d0e8d5b86b1c7be8b1b0ac3343d0396',
  'InboxMessageDelivered(uint256,bytes)': '0xff64905f73a67fb594e0f940a8075a860db489ad991e032f48c81123eb52d60b',
  'UserOperationEvent(bytes32,address,address,uint256,bool,uint256,uint256)': '0x49628fd1471006c1482da88028e9ce4dbb080b815c9b0344d39e5a8e6ec1419f',
};

const topic = (signature: string): string => {
  const known = TOPIC0[signature];
  if (known === undefined) throw new Error(`no topic0 written for ${signature}`);
  return known;
};

/**
 * A trade as its venue's event tells it. `pool` tells pools apart: an address, or the id of a pool that
 * lives inside one contract (a Uniswap v4 pool in its PoolManager, a Balancer pool in its Vault: the
 * `holder`, to and from which its tokens move). `sideIn` and `sideOut` name the pool's coins that went
 * in and came out (an index, or Balancer's token); the tokens themselves where the event names them.
 */
export interface SwapEvent {
  readonly venue: string;
  readonly pool: Hex;
  readonly holder: Hex;
  readonly sideIn: string;
  readonly sideOut: string;
  readonly tokenIn: Hex | null;
  readonly tokenOut: Hex | null;
  readonly amountIn: bigint;
  readonly amountOut: bigint;
}

/** What one swap event says, past its emitter (null where the log is malformed or moved nothing). */
type SwapReader = (log: RpcLog) => Omit<SwapEvent, 'venue' | 'holder'> | null;

const word = (data: Hex, i: number): bigint => BigInt(`0x${data.slice(2 + 64 * i, 66 + 64 * i)}`);
const signed = (w: bigint): bigint => (w >= 1n << 255n ? w - (1n << 256n) : w);
const emitterOf = (log: RpcLog): Hex => lowerHex(log.address);
const lowerTopic = (log: RpcLog, i: number): Hex => lowerHex(log.topics[i]!);

/** Two coins, the amounts from the pool's view: positive went in, negative came out (v3; v4 flips it). */
function twoCoins(pool: Hex, a0: bigint, a1: bigint): Omit<SwapEvent, 'venue' | 'holder'> | null {
  if (a0 > 0n && a1 <= 0n) return { pool, sideIn: '0', sideOut: '1', tokenIn: null, tokenOut: null, amountIn: a0, amountOut: -a1 };
  if (a1 > 0n && a0 <= 0n) return { pool, sideIn: '1', sideOut: '0', tokenIn: null, tokenOut: null, amountIn: a1, amountOut: -a0 };
  return null;
}

const SWAP_READERS: { readonly v2: SwapReader; readonly v3: SwapReader; readonly v4: SwapReader; readonly curve: (prefix: string) => SwapReader; readonly balancer: SwapReader } = {
  /** Swap(sender, amount0In, amount1In, amount0Out, amount1Out, to). */
  v2: (log) => {
    if (byteLength(log.data) !== 128) return null;
    const [in0, in1, out0, out1] = [0, 1, 2, 3].map((i) => word(log.data, i)) as [bigint, bigint, bigint, bigint];
    if (in0 === 0n && in1 === 0n) return null;
    const pool = emitterOf(log);
    return in0 > 0n ? { pool, sideIn: '0', sideOut: '1', tokenIn: null, tokenOut: null, amountIn: in0, amountOut: out1 } : { pool, sideIn: '1', sideOut: '0', tokenIn: null, tokenOut: null, amountIn: in1, amountOut: out0 };
  },
  /** Swap(sender, recipient, int256 amount0, int256 amount1, …): signed from the pool's view. */
  v3: (log) => (byteLength(log.data) === 160 ? twoCoins(emitterOf(log), signed(word(log.data, 0)), signed(word(log.data, 1))) : null),
  /** Swap(PoolId id, sender, int128 amount0, int128 amount1, …): signed from the swapper's view, the pool by its id. */
  v4: (log) => (byteLength(log.data) === 192 ? twoCoins(lowerTopic(log, 1), -signed(word(log.data, 0)), -signed(word(log.data, 1))) : null),
  /** TokenExchange(buyer, int128 sold_id, tokens_sold, int128 bought_id, tokens_bought); `prefix` sets the underlying coins apart. */
  curve: (prefix: string): SwapReader => (log) => {
    if (byteLength(log.data) !== 128) return null;
    const amountIn = word(log.data, 1);
    if (amountIn === 0n) return null;
    return { pool: emitterOf(log), sideIn: `${prefix}${signed(word(log.data, 0))}`, sideOut: `${prefix}${signed(word(log.data, 2))}`, tokenIn: null, tokenOut: null, amountIn, amountOut: word(log.data, 3) };
  },
  /** Swap(bytes32 poolId, tokenIn, tokenOut, amountIn, amountOut): the tokens are the event's own. */
  balancer: (log) => {
    if (byteLength(log.data) !== 64) return null;
    const tokenIn = lowerHex(wordToAddress(log.topics[2]!));
    const tokenOut = lowerHex(wordToAddress(log.topics[3]!));
    return { pool: lowerTopic(log, 1), sideIn: tokenIn, sideOut: tokenOut, tokenIn, tokenOut, amountIn: word(log.data, 0), amountOut: word(log.data, 1) };
  },
};

/** A venue's own event: a swap (read by `swap`), or liquidity added or removed, named by its shape alone (it works on a local chain too). */
interface VenueEvent {
  readonly topic0: string;
  readonly topics: number;
  readonly venue: string;
  readonly role: 'swap' | 'add' | 'remove';
  readonly swap?: SwapReader;
}

const venue = (signature: string, topics: number, name: string, role: VenueEvent['role'], swap?: SwapReader): VenueEvent => ({ topic0: topic(signature), topics, venue: name, role, ...(swap !== undefined ? { swap } : {}) });

/** Forks of these (SushiSwap's pairs, PancakeSwap's pools) cannot be told apart offline: they get the original's name. */
const VENUE_EVENTS: readonly VenueEvent[] = [
  venue('Swap(address,uint256,uint256,uint256,uint256,address)', 3, 'Uniswap v2', 'swap', SWAP_READERS.v2),
  venue('Mint(address,uint256,uint256)', 2, 'Uniswap v2', 'add'),
  venue('Burn(address,uint256,uint256,address)', 3, 'Uniswap v2', 'remove'),
  venue('Swap(address,address,int256,int256,uint160,uint128,int24)', 3, 'Uniswap v3', 'swap', SWAP_READERS.v3),
  venue('Mint(address,address,int24,int24,uint128,uint256,uint256)', 4, 'Uniswap v3', 'add'),
  venue('Burn(address,int24,int24,uint128,uint256,uint256)', 4, 'Uniswap v3', 'remove'),
  venue('Swap(bytes32,address,int128,int128,uint160,uint128,int24,uint24)', 3, 'Uniswap v4', 'swap', SWAP_READERS.v4),
  venue('TokenExchange(address,int128,uint256,int128,uint256)', 2, 'Curve', 'swap', SWAP_READERS.curve('')),
  venue('TokenExchangeUnderlying(address,int128,uint256,int128,uint256)', 2, 'Curve', 'swap', SWAP_READERS.curve('u')),
  venue('Swap(bytes32,address,address,uint256,uint256)', 4, 'Balancer v2', 'swap', SWAP_READERS.balancer),
];

/** The venue event a log is, by its shape, or undefined. */
const venueEventOf = (log: RpcLog): VenueEvent | undefined => {
  const t0 = log.topics[0]?.toLowerCase();
  return t0 === undefined ? undefined : VENUE_EVENTS.find((v) => v.topic0 === t0 && v.topics === log.topics.length);
};

/** The swaps among the logs, each with its log's position, in order: the venues the action names, read for the block's patterns. */
export function swapEvents(logs: readonly RpcLog[]): Array<{ readonly at: number; readonly swap: SwapEvent }> {
  const out: Array<{ at: number; swap: SwapEvent }> = [];
  logs.forEach((log, at) => {
    const e = venueEventOf(log);
    const read = e?.swap?.(log);
    if (read != null) out.push({ at, swap: { venue: e!.venue, holder: emitterOf(log), ...read } });
  });
  return out;
}

export interface VenueHit {
  readonly venue: string;
  readonly role: VenueEvent['role'];
  /** The pool or pair that emitted it. */
  readonly emitter: Hex;
}

/** The venue events among the logs, in order. */
export function venueEvents(logs: readonly RpcLog[]): VenueHit[] {
  const out: VenueHit[] = [];
  for (const log of logs) {
    const hit = venueEventOf(log);
    if (hit !== undefined) out.push({ venue: hit.venue, role: hit.role, emitter: emitterOf(log) });
  }
  return out;
}

/**
 * A protocol's own event, trusted only from an emitter the address book keys as that protocol's contract
 * (another contract may emit an event of the same signature, and a name given by --labels or an artifact
 * may read like anything). `asset` says which topic holds the asset the sentence is about (the reserve),
 * where the event has one.
 */
interface ProtocolEvent {
  readonly topic0: string;
  readonly topics: number;
  /** The address book's key for the emitter ("aave-v3-pool"); "bridge": any bridge's ("bridge:Base"). */
  readonly key: string;
  /** The protocol's name; for a bridge, empty: the destination comes from the key ("bridge:Base" → "Base"). */
  readonly protocol: string;
  readonly kind: ActionKind;
  readonly assetTopic?: number;
  /** Which 32-byte word of the data holds the amount, where the sentence may need the event's own figure. */
  readonly amountWord?: number;
}

const event = (signature: string, topics: number, key: string, protocol: string, kind: ActionKind, assetTopic?: number, amountWord?: number): ProtocolEvent => ({
  topic0: topic(signature),
  topics,
  key,
  protocol,
  kind,
  ...(assetTopic !== undefined ? { assetTopic } : {}),
  ...(amountWord !== undefined ? { amountWord } : {}),
});

const BRIDGE = 'bridge:';

const PROTOCOL_EVENTS: readonly ProtocolEvent[] = [
  event('Supply(address,address,address,uint256,uint16)', 4, 'aave-v3-pool', 'Aave v3', 'supply', 1),
  event('Withdraw(address,address,address,uint256)', 4, 'aave-v3-pool', 'Aave v3', 'withdraw', 1),
  event('Borrow(address,address,address,uint256,uint8,uint256,uint16)', 4, 'aave-v3-pool', 'Aave v3', 'borrow', 1),
  event('Repay(address,address,address,uint256,bool)', 4, 'aave-v3-pool', 'Aave v3', 'repay', 1),
  event('LiquidationCall(address,address,address,uint256,uint256,address,bool)', 4, 'aave-v3-pool', 'Aave v3', 'liquidate', 2),
  event('Deposit(address,address,address,uint256,uint16)', 4, 'aave-v2-pool', 'Aave v2', 'supply', 1),
  event('Withdraw(address,address,address,uint256)', 4, 'aave-v2-pool', 'Aave v2', 'withdraw', 1),
  event('Borrow(address,address,address,uint256,uint256,uint256,uint16)', 4, 'aave-v2-pool', 'Aave v2', 'borrow', 1),
  event('Repay(address,address,address,uint256)', 4, 'aave-v2-pool', 'Aave v2', 'repay', 1),
  event('LiquidationCall(address,address,address,uint256,uint256,address,bool)', 4, 'aave-v2-pool', 'Aave v2', 'liquidate', 2),
  event('Submitted(address,uint256,address)', 2, 'lido', 'Lido', 'stake', undefined, 0),
  event('ETHDepositInitiated(address,address,uint256,bytes)', 3, BRIDGE, '', 'bridge', undefined, 0),
  event('ERC20DepositInitiated(address,address,address,address,uint256,bytes)', 4, BRIDGE, '', 'bridge', 1, 1),
  event('InboxMessageDelivered(uint256,bytes)', 2, BRIDGE, '', 'bridge'),
];

export interface ProtocolHit {
  readonly protocol: string;
  readonly kind: ActionKind;
  /** The asset the event is about (lower case), where it names one. */
  readonly asset: Hex | null;
  /** The event's own amount, where it says one (the sentence's figure when the movement is in no answer). */
  readonly amount: bigint | null;
  readonly log: RpcLog;
}

/** The first protocol event among the logs whose emitter the address book keys (`keyOf`) as that protocol's. */
export function protocolEvent(logs: readonly RpcLog[], keyOf: (address: string) => string | undefined): ProtocolHit | null {
  for (const log of logs) {
    const t0 = log.topics[0]?.toLowerCase();
    if (t0 === undefined) continue;
    for (const e of PROTOCOL_EVENTS) {
      if (e.topic0 !== t0 || e.topics !== log.topics.length) continue;
      const key = keyOf(log.address.toLowerCase());
      if (key === undefined || (e.key === BRIDGE ? !key.startsWith(BRIDGE) || key.length === BRIDGE.length : key !== e.key)) continue;
      const word = e.assetTopic === undefined ? undefined : log.topics[e.assetTopic];
      const at = e.amountWord === undefined ? -1 : 2 + 64 * e.amountWord;
      const amount = at < 0 || log.data.length < at + 64 ? null : BigInt(`0x${log.data.slice(at, at + 64)}`);
      const protocol = e.protocol !== '' ? e.protocol : key.slice(BRIDGE.length);
      return { protocol, kind: e.kind, asset: word === undefined ? null : (`0x${word.slice(-40).toLowerCase()}` as const), amount, log };
    }
  }
  return null;
}

/** ApprovalForAll(owner, operator, approved) (ERC-20's Approval is decode/transfers.ts's APPROVAL). */
export const APPROVAL_FOR_ALL = topic('ApprovalForAll(address,address,bool)');
/** Safe's ExecutionSuccess(bytes32 txHash, uint256 payment): the Safe is the actor. */
export const SAFE_EXECUTION = topic('ExecutionSuccess(bytes32,uint256)');
/** ERC-4337's UserOperationEvent: its `sender` (the second topic) is the smart account, the actor. */
export const USER_OPERATION = topic('UserOperationEvent(bytes32,address,address,uint256,bool,uint256,uint256)');

/** A lending protocol's liquidation, and where its event names the liquidator. */
interface Liquidation {
  readonly topic0: string;
  readonly topics: number;
  /** The data's length in bytes, where the liquidator is read from it. */
  readonly dataBytes?: number;
  readonly liquidator: (log: RpcLog) => Hex;
}

const dataAddress = (log: RpcLog, i: number): Hex => lowerHex(wordToAddress(log.data.slice(2 + 64 * i, 66 + 64 * i)));

const LIQUIDATIONS: readonly Liquidation[] = [
  // Aave v2 and v3: the liquidator is the third data word.
  { topic0: topic('LiquidationCall(address,address,address,uint256,uint256,address,bool)'), topics: 4, dataBytes: 128, liquidator: (log) => dataAddress(log, 2) },
  // Compound v2: the first data word.
  { topic0: topic('LiquidateBorrow(address,address,uint256,address,uint256)'), topics: 1, dataBytes: 160, liquidator: (log) => dataAddress(log, 0) },
  // Compound v3 (Comet): the absorber, indexed.
  { topic0: topic('AbsorbDebt(address,address,uint256,uint256)'), topics: 3, liquidator: (log) => lowerHex(wordToAddress(log.topics[1]!)) },
];

/** The liquidator a lending protocol's liquidation event names, or null where the log is not one. */
export function liquidatorOf(log: RpcLog): Hex | null {
  const t0 = log.topics[0]?.toLowerCase();
  const hit = LIQUIDATIONS.find((l) => l.topic0 === t0 && l.topics === log.topics.length && (l.dataBytes === undefined || byteLength(log.data) === l.dataBytes));
  return hit === undefined ? null : hit.liquidator(log);
}
