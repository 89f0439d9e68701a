/**
 * What it did, in one line: the action of every mined transaction and simulation, on real Uniswap v2
 * (its npm builds deployed on anvil, scripts/lib/uniswap.mjs). Each scenario's facts — the sender's net
 * movements — were read from the node's receipts and call traces by the scenario module, never from
 * txray: the action's sent/received must equal them exactly, its kind must be what the transaction was
 * built to do, and its sentence must name only assets the actor moved.
 */
import { getAddress, keccak256, toHex } from 'viem';
import { describe, expect, test } from 'vitest';
import { jsonOf, runTxray } from '../support/runTxray.js';
import { type UniswapScenarios, withUniswapNode } from '../support/scenarioNode.js';
import { schemaErrors } from '../support/schema.js';

let s: UniswapScenarios;
withUniswapNode((ready) => {
  s = ready;
});

type Fact = UniswapScenarios['actions']['ethForTokens'];
type Amount = { asset: string; amount: string };
const sorted = (xs: readonly Amount[]): Amount[] => xs.map((x) => ({ asset: x.asset, amount: x.amount })).sort((a, b) => (a.asset < b.asset ? -1 : 1));
const short = (a: string): string => `${getAddress(a).slice(0, 6)}…${getAddress(a).slice(-4)}`;

const ACTIONS = ['ethForTokens', 'approveUnlimited', 'tokenForToken', 'tokenForEth', 'addLiquidity', 'removeLiquidity', 'addLiquidityEth', 'wrap', 'unwrap', 'tokenTransfer', 'ethTransfer', 'deploy', 'slippage'] as const;

async function lookup(hash: string, extra: string[] = []): Promise<Record<string, any>> {
  const r = await runTxray([hash, '-r', s.anvil.url, '--json', ...extra]);
  expect(r.stderr).toBe('');
  return jsonOf(r);
}

/** The symbols a sentence may name for a fact's assets: the tokens', ETH, and the pairs' LP token (UNI-V2). */
function symbolsOf(assets: readonly string[]): Set<string> {
  const bySymbol = new Map<string, string>(Object.values(s.uni.tokens).map((t) => [t.address.toLowerCase(), t.symbol]));
  return new Set(assets.map((a) => (a === 'ETH' ? 'ETH' : (bySymbol.get(a.toLowerCase()) ?? 'UNI-V2'))));
}

describe('the action of each single transaction, against the node', () => {
  test.each(ACTIONS)('%s: the kind it was built for, the sender net movements exactly, a valid document', async (name) => {
    const fact: Fact = s.actions[name];
    const doc = await lookup(fact.hash);
    expect(schemaErrors(doc)).toBe('');
    const action = doc.action;
    expect(action.kind).toBe(fact.kind);
    expect(action.actor).toBe(fact.from.toLowerCase());
    expect(sorted(action.sent)).toEqual(sorted(fact.net.sent));
    expect(sorted(action.received)).toEqual(sorted(fact.net.received));
    // The sentence names no asset the actor did not move: every token symbol in it is one of its own.
    const moved = symbolsOf([...fact.net.sent, ...fact.net.received].map((m) => m.asset));
    const named = new Set(['ETH', ...Object.values(s.uni.tokens).map((t) => t.symbol)].filter((sym) => new RegExp(`\\b${sym}\\b`).test(action.summary)));
    if (action.kind !== 'approve') for (const sym of named) expect(moved.has(sym), `${action.summary} names ${sym}`).toBe(true);
    if (fact.pools.length > 0 && fact.kind !== 'failed') expect(action.protocols).toEqual(['Uniswap v2']);
  });

  test('the sentences: verbs, amounts with symbols and decimals, venue and counterparty', async () => {
    const summary = async (name: (typeof ACTIONS)[number]): Promise<string> => (await lookup(s.actions[name].hash)).action.summary;
    const { tka, usdx } = s.uni.tokens;
    // The contract called, when it is named and is not the pool itself: "via" it.
    const viaRouter = await lookup(s.actions.ethForTokens.hash, ['--labels', `${s.uni.router}:UniswapV2Router02`]);
    expect(viaRouter.action.summary).toMatch(new RegExp(`^Swapped 1 ETH for ~?[\\d,]+(\\.\\d+)? ${tka.symbol} on Uniswap v2 \\(via UniswapV2Router02\\)$`));
    expect(await summary('ethForTokens')).toMatch(new RegExp(`^Swapped 1 ETH for ~?[\\d,]+(\\.\\d+)? ${tka.symbol} on Uniswap v2$`));
    expect(await summary('tokenForToken')).toMatch(new RegExp(`^Swapped 1,000 ${tka.symbol} for ~?[\\d,.]+ ${usdx.symbol} on Uniswap v2`));
    expect(await summary('tokenForEth')).toMatch(new RegExp(`^Swapped 500 ${tka.symbol} for ~?[\\d.]+ ETH on Uniswap v2`));
    expect(await summary('addLiquidity')).toMatch(new RegExp(`^Added liquidity: 1,000 ${tka.symbol} and [\\d,.~]+ ${usdx.symbol} to Uniswap v2$`));
    expect(await summary('removeLiquidity')).toMatch(/^Removed liquidity: .* from Uniswap v2$/);
    expect(await summary('wrap')).toBe('Wrapped 2 ETH');
    expect(await summary('unwrap')).toBe('Unwrapped 1 ETH');
    expect(await summary('approveUnlimited')).toBe(`Approved ${tka.symbol} for ${short(s.uni.router)} (unlimited)`);
    expect(await summary('tokenTransfer')).toBe(`Sent 100 ${usdx.symbol} to ${short(s.uni.accounts.recipient)}`);
    expect(await summary('ethTransfer')).toBe(`Sent 1.5 ETH to ${short(s.uni.accounts.recipient)}`);
    expect(await summary('slippage')).toBe('Failed: Error: UniswapV2Router: INSUFFICIENT_OUTPUT_AMOUNT');
    const deployed = await lookup(s.actions.deploy.hash);
    expect(deployed.action.summary).toBe(`Deployed a contract at ${getAddress(deployed.receipt.contractAddress)}`);
  });

  test('every holder net changes add up to zero per asset, and the actor comes first', async () => {
    for (const name of ACTIONS) {
      const doc = await lookup(s.actions[name].hash);
      const sums = new Map<string, bigint>();
      for (const c of doc.netChanges) sums.set(`${c.asset}#${c.tokenId ?? ''}`, (sums.get(`${c.asset}#${c.tokenId ?? ''}`) ?? 0n) + BigInt(c.change));
      for (const [asset, sum] of sums) expect(sum, `${name} ${asset}`).toBe(0n);
      if (doc.netChanges.length > 0 && doc.action.sent.length + doc.action.received.length > 0) expect(doc.netChanges[0].holder).toBe(doc.action.actor);
    }
  });

  test("WETH's Deposit and Withdrawal are Transfers rows (mint, burn), so the transfers net to exactly the net changes", async () => {
    const DEPOSIT = keccak256(toHex('Deposit(address,uint256)'));
    const WITHDRAWAL = keccak256(toHex('Withdrawal(address,uint256)'));
    const weth = s.uni.tokens.weth.address.toLowerCase();
    let wraps = 0;
    for (const name of ACTIONS) {
      const hash = s.actions[name].hash;
      const doc = await lookup(hash);
      // Every wrap the node's receipt logs, as a row marked with its event.
      const logs: Array<{ address: string; topics: string[]; data: string }> = (await s.anvil.rpc('eth_getTransactionReceipt', [hash])).logs;
      const events = doc.status === 'success' ? logs.filter((l) => l.address.toLowerCase() === weth && (l.topics[0] === DEPOSIT || l.topics[0] === WITHDRAWAL)) : [];
      const zero = '0x0000000000000000000000000000000000000000';
      const want = events.map((l) => {
        const holder = `0x${l.topics[1]!.slice(26)}`;
        const deposit = l.topics[0] === DEPOSIT;
        return { kind: 'ERC-20', token: weth, event: deposit ? 'Deposit' : 'Withdrawal', from: deposit ? zero : holder, to: deposit ? holder : zero, amount: BigInt(l.data).toString() };
      });
      const rows = doc.transfers.filter((t: { kind: string; event?: string }) => t.kind === 'ERC-20' && t.event !== undefined);
      expect(rows.map((t: { kind: string; token: string; event: string; from: string; to: string; amount: string }) => ({ kind: t.kind, token: t.token.toLowerCase(), event: t.event, from: t.from.toLowerCase(), to: t.to.toLowerCase(), amount: t.amount })), name).toEqual(want);
      wraps += want.length;
      // The transfers, netted per holder and asset, are the net changes: the two views count the same movements.
      const net = new Map<string, bigint>();
      const add = (holder: string, asset: string, delta: bigint): void => {
        const key = `${holder.toLowerCase()} ${asset.toLowerCase()}`;
        net.set(key, (net.get(key) ?? 0n) + delta);
      };
      if (doc.status === 'success') {
        for (const t of doc.transfers) {
          add(t.from, t.token ?? 'ETH', -BigInt(t.amount));
          add(t.to, t.token ?? 'ETH', BigInt(t.amount));
        }
      }
      const nonzero = [...net].filter(([, v]) => v !== 0n).sort();
      expect(nonzero, name).toEqual(doc.netChanges.map((c: { holder: string; asset: string; change: string }) => [`${c.holder.toLowerCase()} ${c.asset.toLowerCase()}`, BigInt(c.change)]).sort());
    }
    expect(wraps).toBeGreaterThanOrEqual(4);
    const text = (await runTxray([s.actions.wrap.hash, '-r', s.anvil.url], { NO_COLOR: '1' })).stdout;
    const section = text.slice(text.indexOf('Transfers ('), text.indexOf('Net changes'));
    expect(section).toMatch(/0x0000…0000 → \S+ +2 WETH ERC-20 \S+ · minted \(Deposit event\)\n/);
  });

  test("--state's WETH balance changes count the Deposit mint and the Withdrawal burn: each holder's change is balanceOf at the block less at its parent", async () => {
    const weth = s.uni.tokens.weth.address.toLowerCase();
    const balanceOf = async (holder: string, block: string): Promise<bigint> =>
      BigInt(await s.anvil.rpc('eth_call', [{ to: weth, data: `0x70a08231${holder.slice(2).toLowerCase().padStart(64, '0')}` }, block]));
    for (const name of ['ethForTokens', 'addLiquidityEth', 'tokenForEth', 'wrap', 'unwrap'] as const) {
      const hash = s.actions[name].hash;
      const r = await s.anvil.rpc('eth_getTransactionReceipt', [hash]);
      const block = BigInt(r.blockNumber);
      const doc = await lookup(hash, ['--state']);
      const rows = (doc.balanceChanges as Array<{ address: string; asset: string; delta: string }>).filter((b) => b.asset.toLowerCase() === weth);
      // Every WETH holder the receipt's logs name (Transfer, Deposit, Withdrawal), as the node counts them.
      const holders = new Set<string>();
      for (const l of r.logs as Array<{ address: string; topics: string[] }>) if (l.address.toLowerCase() === weth) for (const t of l.topics.slice(1)) holders.add(`0x${t.slice(26)}`);
      for (const holder of holders) {
        const change = (await balanceOf(holder, `0x${block.toString(16)}`)) - (await balanceOf(holder, `0x${(block - 1n).toString(16)}`));
        const row = rows.find((b) => b.address.toLowerCase() === holder);
        expect(row === undefined ? 0n : BigInt(row.delta), `${name}: ${holder}`).toBe(change);
      }
    }
  });

  test('--as takes another actor view: the recipient of the ether received it', async () => {
    const fact = s.actions.ethTransfer;
    const doc = await lookup(fact.hash, ['--as', s.uni.accounts.recipient]);
    expect(doc.action.actor).toBe(s.uni.accounts.recipient.toLowerCase());
    expect(doc.action.summary).toBe(`Received 1.5 ETH from ${short(fact.from)}`);
    expect(doc.action.received).toEqual([{ asset: 'ETH', standard: 'ETH', amount: '1500000000000000000' }]);
    const bad = await runTxray([fact.hash, '-r', s.anvil.url, '--as', 'alice']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toContain('--as needs an address');
  });
});

describe('what a single net figure would misstate', () => {
  test('an arbitrage: the cycle with both gross figures, never a transfer from the last pool', async () => {
    const arb = s.blocks.arbitrage.arbitrage;
    const fact = s.blocks.arbitrage.transactions[0]!;
    const doc = await lookup(arb.hash);
    expect(doc.action.kind).toBe('swap');
    expect(doc.action.protocols).toEqual(['Uniswap v2']);
    expect(sorted(doc.action.received)).toEqual(sorted(fact.net.received));
    expect(doc.action.received).toEqual([expect.objectContaining({ asset: arb.token.toLowerCase(), amount: arb.profit.toString() })]);
    expect(doc.action.summary).toMatch(/^Swapped [\d,.~]+ TKA for [\d,.~]+ TKA on Uniswap v2 \(a cycle: \+[\d,.~]+ TKA\)$/);
  });

  test('a back-run that pays the fee recipient: the swap, then the payment, each said', async () => {
    const { back, payment } = s.blocks.sandwich.sandwich;
    const doc = await lookup(back);
    expect(doc.action.kind).toBe('swap');
    expect(doc.action.summary).toMatch(new RegExp(`^Swapped .+ on Uniswap v2, and paid ${payment === 10n ** 16n ? '0\\.01' : '[\\d.]+'} ETH to 0x`));
    expect(doc.action.sent).toContainEqual(expect.objectContaining({ asset: 'ETH', amount: payment.toString() }));
  });

  test('ether to oneself, and a nonce bump: said as what they are, not as a call', async () => {
    const me = s.uni.accounts.recipient;
    const send = async (value: string): Promise<string> => {
      const hash = await s.anvil.rpc('eth_sendTransaction', [{ from: me, to: me, value, gas: '0x5208' }]);
      for (let i = 0; i < 50 && (await s.anvil.rpc('eth_getTransactionReceipt', [hash])) === null; i++) await new Promise((r) => setTimeout(r, 20));
      return hash;
    };
    expect((await lookup(await send('0xde0b6b3a7640000'))).action).toMatchObject({ kind: 'transfer', summary: 'Sent 1 ETH to itself', sent: [], received: [] });
    expect((await lookup(await send('0x0'))).action).toMatchObject({ kind: 'transfer', summary: 'Sent nothing to itself (a cancel or a nonce bump)' });
  });

  test('a wrap names the wrapped token by its own symbol and decimals, in the action and the net changes', async () => {
    const doc = await lookup(s.actions.wrap.hash);
    expect(doc.action.received).toEqual([expect.objectContaining({ symbol: 'WETH', decimals: 18 })]);
    expect(doc.netChanges.find((c: { standard: string }) => c.standard === 'ERC-20')).toMatchObject({ symbol: 'WETH', decimals: 18 });
  });

  test('--tracer none, a WETH not at a known address: the router whose Deposit went unproven is marked incomplete, in text and JSON; with a trace nothing is', async () => {
    const fact = s.actions.ethForTokens;
    const router = s.uni.router.toLowerCase();
    const weth = s.uni.tokens.weth.address.toLowerCase();
    const doc = await lookup(fact.hash, ['--tracer', 'none']);
    expect(schemaErrors(doc)).toBe('');
    expect(doc.etherInsideCallsKnown).toBe(false);
    const marked = doc.netChanges.filter((c: { incomplete?: true }) => c.incomplete === true).map((c: { holder: string; asset: string }) => `${c.holder} ${c.asset}`);
    expect(marked.sort()).toEqual([`${router} ${weth}`, `${router} ETH`].sort());
    // The actor's own changes are not touched by the router's wrap: unmarked.
    expect(doc.netChanges.filter((c: { holder: string; incomplete?: true }) => c.holder === fact.from.toLowerCase() && c.incomplete === true)).toEqual([]);
    const text = (await runTxray([fact.hash, '-r', s.anvil.url, '--tracer', 'none'], { COLUMNS: '200' })).stdout;
    const net = text.slice(text.indexOf('Net changes'));
    expect(net).toContain('changes marked (incomplete): a Deposit or Withdrawal of a token not known as wrapped ether');
    expect(net).toMatch(new RegExp(`${short(router)}  \\+1 ETH \\(incomplete\\) · −1 WETH \\(incomplete\\)\n`));
    const traced = await lookup(fact.hash);
    expect(traced.netChanges.some((c: { incomplete?: true }) => c.incomplete !== undefined)).toBe(false);
    expect(traced.netChanges.some((c: { holder: string }) => c.holder === router)).toBe(false);
  });

  test('--as the zero address is refused: it stands for mints and burns', async () => {
    const r = await runTxray([s.actions.wrap.hash, '-r', s.anvil.url, '--as', '0x0000000000000000000000000000000000000000']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--as cannot be the zero address');
  });
});

describe('in the views', () => {
  test('text: the Action row comes first, the Net changes section names the actor first', async () => {
    const r = await runTxray([s.actions.tokenForToken.hash, '-r', s.anvil.url], { NO_COLOR: '1' });
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[1]).toMatch(/^ {2}Action {9}Swapped 1,000 TKA for /);
    const net = lines.findIndex((l) => l.startsWith('Net changes ('));
    expect(net).toBeGreaterThan(0);
    expect(lines[net + 1]).toContain(`${short(s.uni.accounts.trader)} (actor)`);
    expect(lines[net + 1]).toMatch(/−1,000 TKA · \+[\d,.]+ USDX/);
  });

  test('the summary table of several hashes gains the action', async () => {
    const r = await runTxray([s.actions.wrap.hash, s.actions.unwrap.hash, '-r', s.anvil.url], { NO_COLOR: '1' });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/│ action +│/);
    expect(r.stdout).toContain('Wrapped 2 ETH');
    expect(r.stdout).toContain('Unwrapped 1 ETH');
  });

  test('txray call: the same swap simulated at the block before it has the mined one action', async () => {
    const sim = s.actions.simulations.ethForTokens;
    const r = await runTxray(['call', sim.to, '--data', sim.data, '--from', sim.from, '--value', sim.value, '--block', String(sim.block), '-r', s.anvil.url, '--json']);
    expect(r.code).toBe(0);
    const doc = jsonOf(r);
    expect(doc.action.kind).toBe('swap');
    expect(sorted(doc.action.sent)).toEqual(sorted(sim.mined.net.sent));
    expect(sorted(doc.action.received)).toEqual(sorted(sim.mined.net.received));
    const failing = s.actions.simulations.slippage;
    const f = await runTxray(['call', failing.to, '--data', failing.data, '--from', failing.from, '--value', failing.value, '--block', String(failing.block), '-r', s.anvil.url, '--json']);
    expect(f.code).toBe(1);
    expect(jsonOf(f).action).toMatchObject({ kind: 'failed', summary: 'Failed: Error: UniswapV2Router: INSUFFICIENT_OUTPUT_AMOUNT', sent: [], received: [] });
  });
});
