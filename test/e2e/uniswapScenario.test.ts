/**
 * The Uniswap v2 scenarios (scripts/lib/uniswap.mjs) are what they say, by the node's own word: the npm
 * builds deployed as published (the router's built-in init code hash is the pair's), every action mined
 * with the status it was built for and alone in its block, its facts' net movements equal to the sender's
 * balance changes across that block, the pairs' events where a fact says it trades; the busy block's
 * statuses, reasons and fees; the sandwich's order, senders and directions; the arbitrage's cycle and
 * profit; the plain block's trades by different senders; and all of it made in seconds.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { decodeEventLog, decodeFunctionResult, keccak256, maxUint256, toHex } from 'viem';
import { BUILDER, hopperError, uniCall, UNISWAP_ARTIFACTS } from '../../scripts/lib/uniswap.mjs';
import { type UniswapScenarios, withUniswapNode } from '../support/scenarioNode.js';

type Fact = UniswapScenarios['actions']['ethForTokens'];
type Net = Fact['net'];

let s: UniswapScenarios;
let began = 0;
let setUpMs = 0;
beforeAll(() => {
  began = performance.now();
});
withUniswapNode((ready) => {
  s = ready;
  setUpMs = performance.now() - began;
});

const rpc = (method: string, params: unknown[] = []) => s.anvil.rpc(method, params);

/** What `who` holds of `asset` ("ETH" or a token address) after block `block`. */
async function holding(asset: string, who: string, block: number): Promise<bigint> {
  const tag = toHex(block);
  if (asset === 'ETH') return BigInt(await rpc('eth_getBalance', [who, tag]));
  return BigInt(await rpc('eth_call', [{ to: asset, data: uniCall('token', 'balanceOf', [who]) }, tag]));
}

/** A Net (or several) as one signed amount per asset. */
function signed(...nets: Net[]): Map<string, bigint> {
  const out = new Map<string, bigint>();
  for (const net of nets) {
    for (const m of net.sent) out.set(m.asset, (out.get(m.asset) ?? 0n) - BigInt(m.amount));
    for (const m of net.received) out.set(m.asset, (out.get(m.asset) ?? 0n) + BigInt(m.amount));
  }
  return out;
}

/** Every asset a scenario can move: ether, the three tokens and the three pairs' LP tokens. */
const assets = () => ['ETH', ...Object.values(s.uni.tokens).map((t) => t.address), ...Object.values(s.uni.pairs)];

/** How `who`'s holdings changed across `block`, per asset, with the fees it paid in the block added back to ether. */
async function balanceChanges(who: string, block: number, feesPaid: bigint): Promise<Map<string, bigint>> {
  const out = new Map<string, bigint>();
  for (const asset of assets()) {
    const change = (await holding(asset, who, block)) - (await holding(asset, who, block - 1)) + (asset === 'ETH' ? feesPaid : 0n);
    if (change !== 0n) out.set(asset, change);
  }
  return out;
}

/** The Uniswap v2 pair events of a transaction's receipt, with their emitters. */
async function pairEvents(hash: string): Promise<{ pair: string; eventName: string; args: Record<string, bigint | string> }[]> {
  const pairs = new Set(Object.values(s.uni.pairs));
  const receipt = await rpc('eth_getTransactionReceipt', [hash]);
  return receipt.logs
    .filter((log: { address: string }) => pairs.has(log.address.toLowerCase() as `0x${string}`))
    .map((log: { address: string; topics: [`0x${string}`, ...`0x${string}`[]]; data: `0x${string}` }) => {
      const { eventName, args } = decodeEventLog({ abi: UNISWAP_ARTIFACTS.pair.abi, topics: log.topics, data: log.data }) as { eventName: string; args: Record<string, bigint | string> };
      return { pair: log.address.toLowerCase(), eventName, args };
    });
}

const actionFacts = (): [string, Fact][] => Object.entries(s.actions).filter((e): e is [string, Fact] => 'hash' in e[1]);

test('the set-up (anvil, the deployment and every scenario) takes seconds, not minutes', () => {
  expect(setUpMs).toBeLessThan(30_000);
});

describe('the deployment', () => {
  test('the published router looks pairs up with the init code hash of the published pair bytecode', async () => {
    const routerCode: string = await rpc('eth_getCode', [s.uni.router, 'latest']);
    expect(routerCode).toContain(keccak256(UNISWAP_ARTIFACTS.pair.bytecode).slice(2));
    const quote = await rpc('eth_call', [{ to: s.uni.router, data: uniCall('router', 'getAmountsOut', [10n ** 18n, [s.uni.tokens.weth.address, s.uni.tokens.usdx.address]]) }, 'latest']);
    expect(BigInt(`0x${quote.slice(-64)}`)).toBeGreaterThan(0n);
  });

  test.each([
    ['weth', 'WETH', 18],
    ['tka', 'TKA', 18],
    ['usdx', 'USDX', 6],
  ] as const)('token %s reads symbol %s and %i decimals', async (key, symbol, decimals) => {
    const token = s.uni.tokens[key];
    expect(token).toMatchObject({ symbol, decimals });
    const read = async (functionName: 'symbol' | 'decimals') =>
      decodeFunctionResult({ abi: UNISWAP_ARTIFACTS.weth.abi, functionName, data: await rpc('eth_call', [{ to: token.address, data: uniCall('weth', functionName) }, 'latest']) }) as string | number;
    expect(await read('symbol')).toBe(symbol);
    expect(Number(await read('decimals'))).toBe(decimals);
  });
});

describe('the single actions', () => {
  test('each is mined alone in its block, sent by the trader, with the status its kind says', async () => {
    for (const [, fact] of actionFacts()) {
      expect(await rpc('eth_getBlockTransactionCountByNumber', [toHex(fact.blockNumber)])).toBe('0x1');
      const receipt = await rpc('eth_getTransactionReceipt', [fact.hash]);
      expect(receipt.from.toLowerCase()).toBe(s.uni.accounts.trader);
      expect(receipt.status).toBe(fact.kind === 'failed' ? '0x0' : '0x1');
    }
  });

  test("each fact's net movements are the sender's balance changes across its block, fee aside", async () => {
    for (const [name, fact] of actionFacts()) {
      expect([name, await balanceChanges(fact.from, fact.blockNumber, fact.fee)]).toEqual([name, signed(fact.net)]);
    }
  });

  test('the swaps trade the pools their facts name, in that order, each Swap followed by its Sync', async () => {
    for (const fact of [s.actions.ethForTokens, s.actions.tokenForToken, s.actions.tokenForEth]) {
      const events = await pairEvents(fact.hash);
      expect(events.filter((e) => e.eventName === 'Swap').map((e) => e.pair)).toEqual(fact.pools);
      events.forEach((e, i) => {
        if (e.eventName === 'Swap') expect(events[i - 1]).toMatchObject({ pair: e.pair, eventName: 'Sync' });
      });
    }
  });

  test('token to token goes TKA → WETH → USDX and leaves the trader with neither WETH nor ether moved', () => {
    const { tka, usdx } = s.uni.tokens;
    expect(s.actions.tokenForToken.net.sent.map((m) => m.asset)).toEqual([tka.address]);
    expect(s.actions.tokenForToken.net.received.map((m) => m.asset)).toEqual([usdx.address]);
  });

  test('liquidity: Mint on adding and Burn on removing, in the pool the fact names; the ether add is refunded what the pool did not take', async () => {
    for (const [fact, eventName] of [
      [s.actions.addLiquidity, 'Mint'],
      [s.actions.addLiquidityEth, 'Mint'],
      [s.actions.removeLiquidity, 'Burn'],
    ] as const) {
      expect((await pairEvents(fact.hash)).filter((e) => e.eventName === eventName).map((e) => e.pair)).toEqual(fact.pools);
    }
    const ethSent = BigInt(s.actions.addLiquidityEth.net.sent.find((m) => m.asset === 'ETH')?.amount ?? '0');
    expect(ethSent).toBeGreaterThan(0n);
    expect(ethSent).toBeLessThan(10n ** 18n);
  });

  test('the approval is unlimited: max uint256 to the router', async () => {
    const fact = s.actions.approveUnlimited;
    const allowance = await rpc('eth_call', [{ to: s.uni.tokens.tka.address, data: uniCall('token', 'allowance', [fact.from, s.uni.router]) }, toHex(fact.blockNumber)]);
    expect(BigInt(allowance)).toBe(maxUint256);
    expect(fact.net).toEqual({ sent: [], received: [] });
  });

  test('the deployment made a contract, and the transfers moved one asset each to the recipient', async () => {
    const { deploy, tokenTransfer, ethTransfer } = s.actions;
    expect(deploy.to).toBeNull();
    expect(await rpc('eth_getCode', [deploy.contractAddress, 'latest'])).not.toBe('0x');
    for (const fact of [tokenTransfer, ethTransfer]) {
      const [sent] = fact.net.sent;
      expect(fact.net.received).toEqual([]);
      expect(sent).toBeDefined();
      const change = (await holding(sent!.asset, s.uni.accounts.recipient, fact.blockNumber)) - (await holding(sent!.asset, s.uni.accounts.recipient, fact.blockNumber - 1));
      expect(change.toString()).toBe(sent!.amount);
    }
  });

  test('the slippage swap reverts with the router reason and moves nothing', async () => {
    const fact = s.actions.slippage;
    const trace = await rpc('debug_traceTransaction', [fact.hash, { tracer: 'callTracer' }]);
    expect(trace.revertReason).toBe('UniswapV2Router: INSUFFICIENT_OUTPUT_AMOUNT');
    expect(fact).toMatchObject({ status: 'reverted', reason: trace.revertReason, net: { sent: [], received: [] } });
  });

  test('the simulations, called at the block before, do what the mined transactions did', async () => {
    const { ethForTokens, slippage } = s.actions.simulations;
    const callAt = (c: typeof ethForTokens) => rpc('eth_call', [{ to: c.to, from: c.from, data: c.data, value: toHex(BigInt(c.value)) }, toHex(c.block)]);
    const amounts = decodeFunctionResult({ abi: UNISWAP_ARTIFACTS.router.abi, functionName: 'swapExactETHForTokens', data: await callAt(ethForTokens) }) as readonly bigint[];
    expect(amounts.map(String)).toEqual([ethForTokens.value, ethForTokens.mined.net.received[0]?.amount]);
    await expect(callAt(slippage)).rejects.toThrow('UniswapV2Router: INSUFFICIENT_OUTPUT_AMOUNT');
  });
});

describe('the blocks', () => {
  test('the busy block: 100 transactions from four senders, each status and reason as the node traces it', async () => {
    const block = s.blocks.busy;
    expect(block.transactions).toHaveLength(100);
    expect(new Set(block.transactions.map((t) => t.from)).size).toBe(4);
    expect(block.transactions.map((t) => t.index)).toEqual(block.transactions.map((_, i) => i));
    const failed = block.transactions.filter((t) => t.kind === 'failed');
    expect(failed.length).toBeGreaterThanOrEqual(8);
    for (const t of block.transactions) {
      const receipt = await rpc('eth_getTransactionReceipt', [t.hash]);
      expect([t.hash, receipt.status, BigInt(receipt.gasUsed)]).toEqual([t.hash, t.kind === 'failed' ? '0x0' : '0x1', t.gasUsed]);
    }
    for (const t of failed) {
      const trace = await rpc('debug_traceTransaction', [t.hash, { tracer: 'callTracer' }]);
      expect([t.hash, trace.revertReason ?? hopperError(trace.output)]).toEqual([t.hash, t.reason]);
    }
  });

  test.each(['busy', 'sandwich', 'arbitrage', 'plain'] as const)("the %s block's fees: the fee recipient gained the tips and direct payments, the rest was burnt", async (name) => {
    const block = s.blocks[name];
    expect(block.miner).toBe(BUILDER);
    const gained = (await holding('ETH', BUILDER, block.number)) - (await holding('ETH', BUILDER, block.number - 1));
    expect(gained).toBe(block.fees.tips + block.fees.toFeeRecipient);
    const paid = block.transactions.reduce((sum, t) => sum + t.fee, 0n);
    expect(paid).toBe(block.fees.burnt + block.fees.tips);
  });

  test('the sandwich: the attacker buys, the victim buys, the attacker sells, one after another on one pool, for a profit', async () => {
    const block = s.blocks.sandwich;
    const { front, victims, back, attacker, victim, pool, profit, payment } = block.sandwich;
    expect(block.transactions.map((t) => [t.hash, t.from])).toEqual([
      [front, attacker],
      [victims[0], victim],
      [back, attacker],
    ]);
    const { weth } = s.uni.tokens;
    const wethIsToken0 = weth.address < s.uni.tokens.tka.address;
    const buysTka = async (hash: string) => {
      const swaps = (await pairEvents(hash)).filter((e) => e.eventName === 'Swap');
      expect(swaps.map((e) => e.pair)).toEqual([pool]);
      return ((wethIsToken0 ? swaps[0]!.args.amount0In : swaps[0]!.args.amount1In) as bigint) > 0n;
    };
    expect([await buysTka(front), await buysTka(victims[0]!), await buysTka(back)]).toEqual([true, true, false]);
    expect(profit).toEqual({ sent: [{ asset: 'ETH', amount: payment.toString() }], received: [{ asset: weth.address, amount: expect.any(String) }] });
    expect(block.fees.toFeeRecipient).toBe(payment);
    const fees = block.transactions.filter((t) => t.from === attacker).reduce((sum, t) => sum + t.fee, 0n);
    expect(await balanceChanges(attacker, block.number, fees)).toEqual(signed(profit));
  });

  test('the arbitrage: one transaction round three pools from TKA back to TKA, ending with more', async () => {
    const block = s.blocks.arbitrage;
    const { hash, actor, pools, token, profit } = block.arbitrage;
    expect(block.transactions.map((t) => t.hash)).toEqual([hash]);
    expect(new Set(pools).size).toBe(3);
    expect((await pairEvents(hash)).filter((e) => e.eventName === 'Swap').map((e) => e.pair)).toEqual(pools);
    expect(profit).toBeGreaterThan(0n);
    expect(block.transactions[0]!.net).toEqual({ sent: [], received: [{ asset: token, amount: profit.toString() }] });
    expect(await balanceChanges(actor, block.number, block.transactions[0]!.fee)).toEqual(new Map([[token, profit]]));
  });

  test('the plain block: a buy and a sell on one pool by two senders, and two transfers; no sender twice', async () => {
    const block = s.blocks.plain;
    expect(block.transactions.map((t) => t.kind).sort()).toEqual(['swap', 'swap', 'transfer', 'transfer']);
    expect(new Set(block.transactions.map((t) => t.from)).size).toBe(4);
    for (const t of block.transactions) {
      expect(t.status).toBe('success');
      expect((await pairEvents(t.hash)).filter((e) => e.eventName === 'Swap').length).toBe(t.kind === 'swap' ? 1 : 0);
    }
  });
});
