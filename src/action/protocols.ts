/**
 * The protocols the action stage knows, as data: events by their shape (topic0 and how many topics:
 * Aave v2 and v3, Compound and Uniswap v2 share event hashes, so the count and the emitter tell them
 * apart), each with what it means and whose name it gives the venue.
 */
import { keccakHex } from '../decode/keccak.js';
import type { ActionKind } from '../model/types.js';
import type { Hex, RpcLog } from '../raw/types.js';

const topic = (signature: string): string => `0x${keccakHex(signature)}`;

/** A venue's own event: a swap, or liquidity added or removed, named by its shape alone (it works on a local chain too). */
interface VenueEvent {
  readonly topic0: string;
  readonly topics: number;
  readonly venue: string;
  readonly role: 'swap' | 'add' | 'remove';
}

const venue = (signature: string, topics: number, name: string, role: VenueEvent['role']): VenueEvent => ({ topic0: topic(signature), topics, venue: name, role });

/** Forks of these (SushiSwap's pairs, PancakeSwap's pools) cannot be told apart offline: they get the original's name. */
const VENUE_EVENTS: readonly VenueEvent[] = [
  venue('Swap(address,uint256,uint256,uint256,uint256,address)', 3, 'Uniswap v2', 'swap'),
  venue('Mint(address,uint256,uint256)', 2, 'Uniswap v2', 'add'),
  venue('Burn(address,uint256,uint256,address)', 3, 'Uniswap v2', 'remove'),
  venue('Swap(address,address,int256,int256,uint160,uint128,int24)', 3, 'Uniswap v3', 'swap'),
  venue('Mint(address,address,int24,int24,uint128,uint256,uint256)', 4, 'Uniswap v3', 'add'),
  venue('Burn(address,int24,int24,uint128,uint256,uint256)', 4, 'Uniswap v3', 'remove'),
  venue('Swap(bytes32,address,int128,int128,uint160,uint128,int24,uint24)', 3, 'Uniswap v4', 'swap'),
  venue('TokenExchange(address,int128,uint256,int128,uint256)', 2, 'Curve', 'swap'),
  venue('TokenExchangeUnderlying(address,int128,uint256,int128,uint256)', 2, 'Curve', 'swap'),
  venue('Swap(bytes32,address,address,uint256,uint256)', 4, 'Balancer v2', 'swap'),
];

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
    const t0 = log.topics[0]?.toLowerCase();
    const hit = t0 === undefined ? undefined : VENUE_EVENTS.find((v) => v.topic0 === t0 && v.topics === log.topics.length);
    if (hit !== undefined) out.push({ venue: hit.venue, role: hit.role, emitter: log.address.toLowerCase() as Hex });
  }
  return out;
}

/**
 * A protocol's own event, trusted only from an emitter the address book names as that protocol's
 * (another contract may emit an event of the same signature). `asset` says which topic holds the asset
 * the sentence is about (the reserve), where the event has one.
 */
interface ProtocolEvent {
  readonly topic0: string;
  readonly topics: number;
  readonly emitter: RegExp;
  readonly protocol: string;
  readonly kind: ActionKind;
  readonly assetTopic?: number;
}

const AAVE_V3_POOL = /^Aave v3\b.*\bPool$/;
const AAVE_V2_POOL = /^Aave v2\b.*\b(Lending)?Pool$/;

const event = (signature: string, topics: number, emitter: RegExp, protocol: string, kind: ActionKind, assetTopic?: number): ProtocolEvent => ({
  topic0: topic(signature),
  topics,
  emitter,
  protocol,
  kind,
  ...(assetTopic !== undefined ? { assetTopic } : {}),
});

const PROTOCOL_EVENTS: readonly ProtocolEvent[] = [
  event('Supply(address,address,address,uint256,uint16)', 4, AAVE_V3_POOL, 'Aave v3', 'supply', 1),
  event('Withdraw(address,address,address,uint256)', 4, AAVE_V3_POOL, 'Aave v3', 'withdraw', 1),
  event('Borrow(address,address,address,uint256,uint8,uint256,uint16)', 4, AAVE_V3_POOL, 'Aave v3', 'borrow', 1),
  event('Repay(address,address,address,uint256,bool)', 4, AAVE_V3_POOL, 'Aave v3', 'repay', 1),
  event('LiquidationCall(address,address,address,uint256,uint256,address,bool)', 4, AAVE_V3_POOL, 'Aave v3', 'liquidate', 2),
  event('Deposit(address,address,address,uint256,uint16)', 4, AAVE_V2_POOL, 'Aave v2', 'supply', 1),
  event('Withdraw(address,address,address,uint256)', 4, AAVE_V2_POOL, 'Aave v2', 'withdraw', 1),
  event('Borrow(address,address,address,uint256,uint256,uint256,uint16)', 4, AAVE_V2_POOL, 'Aave v2', 'borrow', 1),
  event('Repay(address,address,address,uint256)', 4, AAVE_V2_POOL, 'Aave v2', 'repay', 1),
  event('LiquidationCall(address,address,address,uint256,uint256,address,bool)', 4, AAVE_V2_POOL, 'Aave v2', 'liquidate', 2),
  event('Submitted(address,uint256,address)', 2, /^(Lido\b|stETH$)/, 'Lido', 'stake'),
];

export interface ProtocolHit {
  readonly protocol: string;
  readonly kind: ActionKind;
  /** The asset the event is about (lower case), where it names one. */
  readonly asset: Hex | null;
}

/** The first protocol event among the logs whose emitter `nameOf` names as that protocol's. */
export function protocolEvent(logs: readonly RpcLog[], nameOf: (address: string) => string | undefined): ProtocolHit | null {
  for (const log of logs) {
    const t0 = log.topics[0]?.toLowerCase();
    if (t0 === undefined) continue;
    for (const e of PROTOCOL_EVENTS) {
      if (e.topic0 !== t0 || e.topics !== log.topics.length) continue;
      const name = nameOf(log.address.toLowerCase());
      if (name === undefined || !e.emitter.test(name)) continue;
      const word = e.assetTopic === undefined ? undefined : log.topics[e.assetTopic];
      return { protocol: e.protocol, kind: e.kind, asset: word === undefined ? null : (`0x${word.slice(-40).toLowerCase()}` as Hex) };
    }
  }
  return null;
}

/** ERC-20 Approval(owner, spender, value) and ApprovalForAll(owner, operator, approved). */
export const APPROVAL = topic('Approval(address,address,uint256)');
export const APPROVAL_FOR_ALL = topic('ApprovalForAll(address,address,bool)');
/** Safe's ExecutionSuccess(bytes32 txHash, uint256 payment): the Safe is the actor. */
export const SAFE_EXECUTION = topic('ExecutionSuccess(bytes32,uint256)');
/** ERC-4337's UserOperationEvent: its `sender` (the second topic) is the smart account, the actor. */
export const USER_OPERATION = topic('UserOperationEvent(bytes32,address,address,uint256,bool,uint256,uint256)');
