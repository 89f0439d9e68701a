/**
 * The trades of one transaction, read from its pools' own events: a Uniswap v2 pair's Swap (and its
 * forks': SushiSwap, PancakeSwap share the event) and a Uniswap v3 pool's Swap, each with the tokens that
 * went in and out from the token Transfers to and from the pool before it. Only the event's shape is
 * trusted, not the emitter: any contract can emit it, so a pattern built on it is said as "looks like".
 */
import { byteLength, wordToAddress } from '../raw/hex.js';
import type { Hex, RpcLog } from '../raw/types.js';

/** Swap(address indexed sender, uint amount0In, uint amount1In, uint amount0Out, uint amount1Out, address indexed to). */
export const V2_SWAP = '0xd78ad95fa46c994b6551d0da85fc275fe613ce37657fb8d5e3d130840159d822';
/** Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick). */
export const V3_SWAP = '0xc42079f94a6350d7e6235f29174924f928cc2ac818eb64fed8004e115fbcca67';
const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

export interface Swap {
  readonly pool: Hex;
  /** Which of the pool's two tokens went in: its direction, known from the event alone. */
  readonly sideIn: 0 | 1;
  /** The tokens, where a Transfer to (from) the pool shows them. */
  readonly tokenIn: Hex | null;
  readonly tokenOut: Hex | null;
  readonly amountIn: bigint;
  readonly amountOut: bigint;
}

const word = (data: Hex, i: number): bigint => BigInt(`0x${data.slice(2 + 64 * i, 66 + 64 * i)}`);
const signed = (w: bigint): bigint => (w >= 1n << 255n ? w - (1n << 256n) : w);

/** The pool's side of a Swap event, or null where the log is not one (or is malformed). */
function swapEvent(log: RpcLog): { sideIn: 0 | 1; amountIn: bigint; amountOut: bigint } | null {
  const topic = log.topics[0]?.toLowerCase();
  if (topic === V2_SWAP && log.topics.length === 3 && byteLength(log.data) === 128) {
    const [in0, in1, out0, out1] = [0, 1, 2, 3].map((i) => word(log.data, i)) as [bigint, bigint, bigint, bigint];
    if (in0 === 0n && in1 === 0n) return null;
    return in0 > 0n ? { sideIn: 0, amountIn: in0, amountOut: out1 } : { sideIn: 1, amountIn: in1, amountOut: out0 };
  }
  if (topic === V3_SWAP && log.topics.length === 3 && byteLength(log.data) === 160) {
    // Signed from the pool's view: positive went in, negative came out.
    const a0 = signed(word(log.data, 0));
    const a1 = signed(word(log.data, 1));
    return a0 > 0n ? { sideIn: 0, amountIn: a0, amountOut: -a1 } : { sideIn: 1, amountIn: a1, amountOut: -a0 };
  }
  return null;
}

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
      moves.push({ at, token: l.address.toLowerCase() as Hex, from: wordToAddress(l.topics[1]!).toLowerCase() as Hex, to: wordToAddress(l.topics[2]!).toLowerCase() as Hex, amount: BigInt(l.data) });
    }
  });
  const usedIn = new Set<number>();
  const usedOut = new Set<number>();
  const out: Swap[] = [];
  logs.forEach((l, at) => {
    const e = swapEvent(l);
    if (e === null) return;
    const pool = l.address.toLowerCase() as Hex;
    const tokenIn = pick(moves, usedIn, at, (m) => m.to === pool, e.amountIn);
    const tokenOut = pick(moves, usedOut, at, (m) => m.from === pool, e.amountOut);
    out.push({ pool, sideIn: e.sideIn, tokenIn, tokenOut, amountIn: e.amountIn, amountOut: e.amountOut });
  });
  return out;
}
