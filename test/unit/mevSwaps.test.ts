/**
 * The block's MEV rules read swaps from the action stage's table of venue events: a sandwich through a
 * Uniswap v4 pool, a Curve pool or a Balancer pool is found as one through a Uniswap v2 pair is. The
 * logs are the events' own encodings (viem), each with the amounts it states.
 */
import { encodeAbiParameters, encodeEventTopics, parseAbi, parseAbiParameters } from 'viem';
import { describe, expect, test } from 'vitest';
import { findMev } from '../../src/block/findMev.js';
import { swapsOf } from '../../src/block/swapsOf.js';
import type { InspectModel } from '../../src/model/types.js';
import type { Hex, RpcLog } from '../../src/raw/types.js';
import { decodedModel } from '../support/decodedModel.js';

const EVENTS = parseAbi([
  'event Swap(bytes32 indexed id, address indexed sender, int128 amount0, int128 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick, uint24 fee)',
  'event TokenExchange(address indexed buyer, int128 sold_id, uint256 tokens_sold, int128 bought_id, uint256 tokens_bought)',
]);
const BALANCER = parseAbi(['event Swap(bytes32 indexed poolId, address indexed tokenIn, address indexed tokenOut, uint256 amountIn, uint256 amountOut)']);

const ATTACKER = '0x00000000000000000000000000000000000a77ac' as Hex;
const VICTIM = '0x000000000000000000000000000000000000717c' as Hex;
const ROUTER = '0x00000000000000000000000000000000000e0e7e' as Hex;
const MANAGER = '0x000000000004444c5dc75cb358380d2e3de08a90' as Hex;
const CURVE = '0xbebc44782c7db0a1a60cb6fe97d0b483032ff1c7' as Hex;
const VAULT = '0xba12222222228d8ba445958a75a0704d566bf2c8' as Hex;
const POOL_ID = `0x${'ab'.repeat(32)}` as Hex;
const TOKEN_A = '0x00000000000000000000000000000000000000aa' as Hex;
const TOKEN_B = '0x00000000000000000000000000000000000000bb' as Hex;

const log = (address: Hex, topics: readonly (Hex | Hex[] | null)[], data: Hex): RpcLog => ({ address, topics: topics.filter((t): t is Hex => typeof t === "string"), data }) as RpcLog;

/** One trade each way: `forward` sells the pool's first coin for its second. */
const VENUES: Record<string, { pool: Hex; swap: (forward: boolean, amountIn: bigint, amountOut: bigint) => RpcLog }> = {
  'Uniswap v4': {
    pool: POOL_ID,
    // The swapper's view: what it paid is negative.
    swap: (forward, amountIn, amountOut) =>
      log(MANAGER, encodeEventTopics({ abi: EVENTS, eventName: 'Swap', args: { id: POOL_ID, sender: ROUTER } }), encodeAbiParameters(parseAbiParameters('int128, int128, uint160, uint128, int24, uint24'), [forward ? -amountIn : amountOut, forward ? amountOut : -amountIn, 1n << 96n, 10n ** 18n, 0, 3000])),
  },
  Curve: {
    pool: CURVE,
    swap: (forward, amountIn, amountOut) =>
      log(CURVE, encodeEventTopics({ abi: EVENTS, eventName: 'TokenExchange', args: { buyer: ROUTER } }), encodeAbiParameters(parseAbiParameters('int128, uint256, int128, uint256'), [forward ? 0n : 1n, amountIn, forward ? 1n : 0n, amountOut])),
  },
  'Balancer v2': {
    pool: POOL_ID,
    swap: (forward, amountIn, amountOut) =>
      log(VAULT, encodeEventTopics({ abi: BALANCER, eventName: 'Swap', args: { poolId: POOL_ID, tokenIn: forward ? TOKEN_A : TOKEN_B, tokenOut: forward ? TOKEN_B : TOKEN_A } }), encodeAbiParameters(parseAbiParameters('uint256, uint256'), [amountIn, amountOut])),
  },
};

const model = (n: number, from: Hex, logs: RpcLog[]): InspectModel => ({ ...decodedModel({ from, to: ROUTER, logs }), hash: `0x${String(n).repeat(64)}` as Hex });

describe.each(Object.entries(VENUES))('%s', (name, v) => {
  test('a swap reads as the event says: its pool, its direction and its amounts', () => {
    const [forward, back] = [swapsOf([v.swap(true, 500n, 480n)]), swapsOf([v.swap(false, 470n, 490n)])];
    expect(forward).toHaveLength(1);
    expect(forward[0]).toMatchObject({ venue: name, pool: v.pool, amountIn: 500n, amountOut: 480n });
    expect(back[0]).toMatchObject({ pool: v.pool, sideIn: forward[0]!.sideOut, sideOut: forward[0]!.sideIn, amountIn: 470n, amountOut: 490n });
  });

  test('a front-run, a victim in its direction and a back-run by its sender: a sandwich on that pool', () => {
    const models = [model(1, ATTACKER, [v.swap(true, 500n, 480n)]), model(2, VICTIM, [v.swap(true, 300n, 270n)]), model(3, ATTACKER, [v.swap(false, 480n, 520n)])];
    const found = findMev(models, null);
    expect(found.map((f) => [f.kind, f.actor, f.pools, f.transactions])).toEqual([['sandwich', ATTACKER, [v.pool], models.map((m) => m.hash)]]);
  });

  test('the victim trading the other way: no sandwich', () => {
    const models = [model(1, ATTACKER, [v.swap(true, 500n, 480n)]), model(2, VICTIM, [v.swap(false, 300n, 320n)]), model(3, ATTACKER, [v.swap(false, 480n, 520n)])];
    expect(findMev(models, null)).toEqual([]);
  });
});
