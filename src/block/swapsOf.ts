/**
 * The trades of one transaction, read from its venues' own events as the action stage reads them
 * (action/protocols.ts: Uniswap v2, v3 and v4, Curve, Balancer), each with the tokens that went in and
 * out: the event's own where it names them, else the token Transfers to and from the pool (its holder)
 * before it. Only the event's shape is trusted, not the emitter: any contract can emit it, so a pattern
 * built on it is said as "looks like".
 */
import { type SwapEvent, swapEvents } from '../action/protocols.js';
import { TRANSFER } from '../decode/transfers.js';
import { byteLength, lowerHex, wordToAddress } from '../raw/hex.js';
import type { Hex, RpcLog } from '../raw/types.js';

export type Swap = SwapEvent;

interface TokenMove {
  readonly at: number;
  readonly token: Hex;
  readonly from: Hex;
  readonly to: Hex;
  readonly amount: bigint;
}

/**
 * The Transfer before the swap (at `before`) that moved `amount` to (from) the pool, else the latest
 * one that moved anything; each Transfer is matched once. A v2 route sends a pair's output straight
 * to the next pair, before the first pair's Swap: so the search is not limited to the logs since the
 * previous Swap.
 */
function pick(moves: readonly TokenMove[], used: Set<number>, before: number, fits: (m: TokenMove) => boolean, amount: bigint): Hex | null {
  let latest: TokenMove | undefined;
  for (const m of moves) {
    if (m.at >= before || used.has(m.at) || !fits(m)) continue;
    if (m.amount === amount) {
      used.add(m.at);
      return m.token;
    }
    latest = m;
  }
  if (latest === undefined) return null;
  used.add(latest.at);
  return latest.token;
}

export function swapsOf(logs: readonly RpcLog[]): Swap[] {
  const moves: TokenMove[] = [];
  logs.forEach((l, at) => {
    if (l.topics[0]?.toLowerCase() === TRANSFER && l.topics.length === 3 && byteLength(l.data) === 32) {
      moves.push({ at, token: lowerHex(l.address), from: lowerHex(wordToAddress(l.topics[1]!)), to: lowerHex(wordToAddress(l.topics[2]!)), amount: BigInt(l.data) });
    }
  });
  const usedIn = new Set<number>();
  const usedOut = new Set<number>();
  return swapEvents(logs).map(({ at, swap }) => ({
    ...swap,
    tokenIn: swap.tokenIn ?? pick(moves, usedIn, at, (m) => m.to === swap.holder, swap.amountIn),
    tokenOut: swap.tokenOut ?? pick(moves, usedOut, at, (m) => m.from === swap.holder, swap.amountOut),
  }));
}
