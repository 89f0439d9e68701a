// Uniswap v2 on an anvil, deployed from the published npm builds (v2-core's factory and pair,
// v2-periphery's Router02 and WETH9), with two 0x DummyERC20Tokens of 18 and 6 decimals and the Hopper of
// contracts/Searcher.sol; then the transactions an action (what a transaction did) and a block view are
// tested on, each mined and returned with its facts. Every fact is read from the node — receipts, logs,
// callTracer traces — never from txray, so a test can hold txray's answers against them.
//
// The router finds a pair by CREATE2 address with the init code hash built into UniswapV2Library.pairFor
// (mainnet's, 0x96e8ac42…845f). v2-core's UniswapV2Pair bytecode hashes to exactly that, and the factory
// deploys that same bytecode, so the published router works with the published factory as they are;
// deployUniswap checks it and throws if a package update ever breaks it.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { decodeErrorResult, encodeDeployData, encodeFunctionData, getContractAddress, keccak256, maxUint256, parseEther, parseGwei, parseUnits, toEventSelector, toHex } from 'viem';
import { DEV, inOneBlock, receipt, send } from './scenarios.mjs';

const require = createRequire(import.meta.url);

/** An npm build as { abi, bytecode } (the Uniswap builds write the bytecode without 0x; 0x's sit in compilerOutput). */
function npmBuild(path) {
  const json = require(path);
  const out = json.compilerOutput ?? json;
  const object = out.evm.bytecode.object;
  return { abi: out.abi, bytecode: object.startsWith('0x') ? object : `0x${object}` };
}

const hopper = JSON.parse(readFileSync(new URL('../../contracts/out/Searcher.json', import.meta.url), 'utf8')).contracts.Hopper;

/** The contracts deployed, by role: ABIs for decoding what the scenarios emit, bytecode for deploying. */
export const UNISWAP_ARTIFACTS = {
  factory: npmBuild('@uniswap/v2-core/build/UniswapV2Factory.json'),
  pair: npmBuild('@uniswap/v2-core/build/UniswapV2Pair.json'),
  router: npmBuild('@uniswap/v2-periphery/build/UniswapV2Router02.json'),
  weth: npmBuild('@uniswap/v2-periphery/build/WETH9.json'),
  token: npmBuild('@0x/contract-artifacts/lib/artifacts/DummyERC20Token.json'),
  hopper: { abi: hopper.abi, bytecode: hopper.bytecode },
};

/** Call data for one of UNISWAP_ARTIFACTS' contracts. */
export function uniCall(contract, functionName, args = []) {
  return encodeFunctionData({ abi: UNISWAP_ARTIFACTS[contract].abi, functionName, args });
}

/** The fee recipient of every block after deployUniswap: a named builder, so payments to it stand out from the zero address. */
export const BUILDER = '0x00000000000000000000000000000000b01d0000';

/** No deadline: the router only checks `deadline >= block.timestamp`. */
const NO_DEADLINE = maxUint256;

const TRANSFER = toEventSelector('Transfer(address,address,uint256)');
const DEPOSIT = toEventSelector('Deposit(address,uint256)');
const WITHDRAWAL = toEventSelector('Withdrawal(address,uint256)');

/**
 * @typedef {`0x${string}`} Hex
 * @typedef {{ asset: string, amount: string }} Movement
 *   One asset's net movement: `asset` is exactly "ETH" for ether, else the token's lower-case address;
 *   `amount` is in the asset's base units, a positive decimal string.
 * @typedef {{ sent: Movement[], received: Movement[] }} Net
 *   An account's net movements in one transaction (or, where said, several): each asset at most once, in
 *   `sent` when more left than arrived and in `received` otherwise, "ETH" first and then tokens by address.
 *   Tokens from the receipt's ERC-20 Transfer logs (3 topics; the zero address is a mint or burn) and
 *   WETH's Deposit (WETH received) and Withdrawal (WETH sent); ether from the value of every call frame
 *   of the node's callTracer that did not fail. The gas fee is not in it (it is `fee`). A reverted
 *   transaction moved nothing: both lists empty.
 * @typedef {'swap' | 'transfer' | 'approve' | 'wrap' | 'unwrap' | 'add-liquidity' | 'remove-liquidity' | 'deploy' | 'failed'} Kind
 *   What the scenario made the transaction do (the action kinds of the action issue this builds for).
 * @typedef {object} Mined  One mined transaction as the node tells it.
 * @property {Hex} hash
 * @property {number} blockNumber
 * @property {number} index  its position in the block
 * @property {Hex} from  lower-case, as every address here
 * @property {Hex | null} to  null for a contract creation
 * @property {Hex | null} contractAddress  the created contract, else null
 * @property {'success' | 'reverted'} status
 * @property {bigint} gasUsed
 * @property {bigint} effectiveGasPrice
 * @property {bigint} fee  gasUsed × effectiveGasPrice, wei
 * @property {string | null} revertReason  callTracer's revertReason (an Error(string)'s text), else null
 * @property {Hex | null} revertData  what a reverted transaction returned (its error, encoded), else null
 * @property {Net} net  the sender's net movements
 * @typedef {Mined & { kind: Kind, reason: string | null, pools: Hex[] }} Fact
 *   A scenario's transaction: `kind` what it was built to do; `reason` why it reverts (an Error(string)'s
 *   text, or a custom error's name), null when it succeeds; `pools` the pairs it trades or changes the
 *   liquidity of, in the order it touches them.
 * @typedef {object} BlockFacts  A block as the node tells it, every transaction in block order.
 * @property {number} number
 * @property {Hex} hash
 * @property {Hex} miner
 * @property {number} timestamp  seconds
 * @property {bigint} baseFeePerGas
 * @property {bigint} gasUsed
 * @property {bigint} gasLimit
 * @property {{ burnt: bigint, tips: bigint, toFeeRecipient: bigint }} fees
 *   burnt = base fee × gas used; tips = Σ (effective price − base fee) × gas used; toFeeRecipient = ether
 *   paid to the miner by call frames that did not fail (direct payments, besides the tips)
 * @property {Fact[]} transactions
 * @typedef {object} CallInputs  The inputs of `txray call` for a scenario's transaction, at the block
 *   before it was mined, where the simulation sees the state the transaction saw.
 * @property {Hex} to
 * @property {Hex} from
 * @property {Hex} data
 * @property {string} value  wei, decimal
 * @property {number} block
 * @property {Fact} mined  the mined transaction it simulates (its status, reason and net are the call's too)
 */

/**
 * @typedef {{ address: Hex, symbol: string, decimals: number }} TokenInfo
 * @typedef {object} Uniswap  What deployUniswap made.
 * @property {Hex} factory
 * @property {Hex} router
 * @property {Hex} hopper
 * @property {{ weth: TokenInfo, tka: TokenInfo, usdx: TokenInfo }} tokens
 * @property {{ tkaWeth: Hex, usdxWeth: Hex, tkaUsdx: Hex }} pairs  TKA/USDX is priced 1.5 USDX a TKA against 1.25
 *   through WETH, so a cycle TKA → USDX → WETH → TKA pays
 * @property {{ trader: Hex, recipient: Hex, arbitrageur: Hex, attacker: Hex, victim: Hex, lp: Hex, crowd: Hex[] }} accounts
 *   anvil's unlocked accounts by role: trader (the first, DEV.sender) and recipient (DEV.other) for the
 *   single actions, lp the liquidity provider, crowd four senders for the busy and plain blocks
 */

const lower = (address) => /** @type {Hex} */ (address.toLowerCase());

/** Signed amounts per asset (a Map), split by sign into a Net of decimal strings. */
function netOf(deltas) {
  const order = [...deltas.keys()].sort((a, b) => (a === 'ETH' ? -1 : b === 'ETH' ? 1 : a < b ? -1 : 1));
  const net = { sent: [], received: [] };
  for (const asset of order) {
    const d = deltas.get(asset);
    if (d < 0n) net.sent.push({ asset, amount: (-d).toString() });
    if (d > 0n) net.received.push({ asset, amount: d.toString() });
  }
  return net;
}

/** The ether moves of a callTracer tree, outside failed frames (a failed frame's moves were undone with it). */
function etherMoves(frame) {
  const moves = [];
  const stack = [frame];
  while (stack.length > 0) {
    const f = stack.pop();
    if (f.error) continue;
    const value = BigInt(f.value ?? '0x0');
    // A DELEGATECALL's value is the caller's own, shown again; it moves nothing.
    if (value > 0n && f.type !== 'DELEGATECALL' && f.type !== 'STATICCALL' && f.to) moves.push({ from: lower(f.from), to: lower(f.to), value });
    for (const child of f.calls ?? []) stack.push(child);
  }
  return moves;
}

const topicAddress = (topic) => lower(`0x${topic.slice(26)}`);

/** `actor`'s net movements in one transaction; see Net. */
export function netMovements(actor, rpcReceipt, frame, weth) {
  const deltas = new Map();
  const add = (asset, amount) => deltas.set(asset, (deltas.get(asset) ?? 0n) + amount);
  if (rpcReceipt.status !== '0x1') return netOf(deltas);
  for (const log of rpcReceipt.logs) {
    const emitter = lower(log.address);
    const [topic0, one, two] = log.topics;
    if (topic0 === TRANSFER && log.topics.length === 3) {
      const amount = BigInt(log.data);
      if (topicAddress(one) === actor) add(emitter, -amount);
      if (topicAddress(two) === actor) add(emitter, amount);
    } else if (emitter === weth && log.topics.length === 2 && topicAddress(one) === actor) {
      if (topic0 === DEPOSIT) add(weth, BigInt(log.data));
      if (topic0 === WITHDRAWAL) add(weth, -BigInt(log.data));
    }
  }
  for (const move of etherMoves(frame)) {
    if (move.from === actor) add('ETH', -move.value);
    if (move.to === actor) add('ETH', move.value);
  }
  return netOf(deltas);
}

/**
 * Block `number` read back from the node: header, fees, and every transaction with its receipt and its
 * sender's net movements; `scenario` gives each hash its kind, reason and pools. Throws when the block
 * holds a transaction `scenario` does not name, or one that reverted (succeeded) where it should not.
 * @param {(method: string, params?: unknown[]) => Promise<any>} rpc
 * @param {number} number
 * @param {Hex} weth
 * @param {Map<string, { kind: Kind, reason?: string | null, pools?: Hex[] }>} scenario
 * @returns {Promise<BlockFacts>}
 */
export async function readBlock(rpc, number, weth, scenario) {
  const tag = toHex(number);
  const [block, receipts, traces] = await Promise.all([
    rpc('eth_getBlockByNumber', [tag, false]),
    rpc('eth_getBlockReceipts', [tag]),
    rpc('debug_traceBlockByNumber', [tag, { tracer: 'callTracer' }]),
  ]);
  const baseFee = BigInt(block.baseFeePerGas);
  const miner = lower(block.miner);
  const fees = { burnt: baseFee * BigInt(block.gasUsed), tips: 0n, toFeeRecipient: 0n };
  const transactions = receipts.map((r, i) => {
    const frame = traces[i].result;
    const hash = lower(r.transactionHash);
    const meta = scenario.get(hash);
    if (!meta) throw new Error(`block ${number} holds ${hash}, which no scenario sent`);
    if ((r.status !== '0x1') !== (meta.kind === 'failed')) throw new Error(`${meta.kind} transaction ${hash} ended with status ${r.status}: ${JSON.stringify(frame).slice(0, 1000)}`);
    const gasUsed = BigInt(r.gasUsed);
    const effectiveGasPrice = BigInt(r.effectiveGasPrice);
    fees.tips += (effectiveGasPrice - baseFee) * gasUsed;
    fees.toFeeRecipient += etherMoves(frame).filter((m) => m.to === miner).reduce((sum, m) => sum + m.value, 0n);
    return {
      hash,
      blockNumber: number,
      index: Number(r.transactionIndex),
      from: lower(r.from),
      to: r.to ? lower(r.to) : null,
      contractAddress: r.contractAddress ? lower(r.contractAddress) : null,
      status: r.status === '0x1' ? 'success' : 'reverted',
      gasUsed,
      effectiveGasPrice,
      fee: gasUsed * effectiveGasPrice,
      revertReason: frame.revertReason ?? null,
      revertData: r.status === '0x1' ? null : (frame.output ?? null),
      net: netMovements(lower(r.from), r, frame, weth),
      kind: meta.kind,
      reason: meta.reason ?? null,
      pools: meta.pools ?? [],
    };
  });
  return {
    number,
    hash: lower(block.hash),
    miner,
    timestamp: Number(block.timestamp),
    baseFeePerGas: baseFee,
    gasUsed: BigInt(block.gasUsed),
    gasLimit: BigInt(block.gasLimit),
    fees,
    transactions,
  };
}

/**
 * `tx` with a gas limit of its own unless it has one. Never anvil's estimate: a pair writes its price
 * accumulators only in the first trade of a new timestamp, so an estimate made in the same second as the
 * pool's last trade is tens of thousands of gas short once the transaction lands a second later, and it
 * runs out of gas.
 */
const gassed = (tx) => ({ gas: toHex(tx.to ? 1_000_000 : 6_000_000), ...tx });

/** Send one set-up transaction and wait for it to be mined; returns the receipt. */
async function mined(rpc, tx) {
  const r = await receipt(rpc, await send(rpc, gassed(tx)));
  if (r.status !== '0x1') throw new Error(`set-up transaction ${r.transactionHash} reverted`);
  return r;
}

async function deployed(rpc, contract, args = [], from = DEV.sender) {
  const { abi, bytecode } = UNISWAP_ARTIFACTS[contract];
  return lower((await mined(rpc, { from, data: encodeDeployData({ abi, bytecode, args }) })).contractAddress);
}

async function read(rpc, contract, to, functionName, args = [], block = 'latest') {
  return rpc('eth_call', [{ to, data: uniCall(contract, functionName, args) }, block]);
}

/** A router quote: what `amountIn` of path[0] buys of the path's last token now. */
async function quote(rpc, uni, amountIn, path) {
  const answer = await read(rpc, 'router', uni.router, 'getAmountsOut', [amountIn, path]);
  return BigInt(`0x${answer.slice(-64)}`);
}

/**
 * Deploy WETH9, the factory, Router02, TKA (18 decimals) and USDX (6), and the Hopper; seed three pools
 * from the `lp` account: TKA/WETH at 2,000 TKA an ETH, USDX/WETH at 2,500 USDX an ETH, TKA/USDX at 1.5
 * USDX a TKA. From here on every block's fee recipient is BUILDER.
 * @param {(method: string, params?: unknown[]) => Promise<any>} rpc
 * @returns {Promise<Uniswap>}
 */
export async function deployUniswap(rpc) {
  const all = (await rpc('eth_accounts')).map(lower);
  const accounts = { trader: all[0], recipient: all[1], arbitrageur: all[2], attacker: all[3], victim: all[4], crowd: all.slice(5, 9), lp: all[9] };
  await rpc('anvil_setCoinbase', [BUILDER]);
  const weth = await deployed(rpc, 'weth');
  const factory = await deployed(rpc, 'factory', [DEV.sender]);
  const router = await deployed(rpc, 'router', [factory, weth]);
  const tka = await deployed(rpc, 'token', ['Token A', 'TKA', 18n, parseUnits('1000000000', 18)]);
  const usdx = await deployed(rpc, 'token', ['USD X', 'USDX', 6n, parseUnits('1000000000', 6)]);
  const hopperAddress = await deployed(rpc, 'hopper');
  const { lp } = accounts;
  await mined(rpc, { to: tka, data: uniCall('token', 'transfer', [lp, parseUnits('3000000', 18)]) });
  await mined(rpc, { to: usdx, data: uniCall('token', 'transfer', [lp, parseUnits('3000000', 6)]) });
  for (const token of [tka, usdx]) await mined(rpc, { from: lp, to: token, data: uniCall('token', 'approve', [router, maxUint256]) });
  const seed = (token, amount) => uniCall('router', 'addLiquidityETH', [token, amount, 0n, 0n, lp, NO_DEADLINE]);
  // Each seed creates its pair (a contract creation inside the call).
  const gas = toHex(5_000_000);
  await mined(rpc, { from: lp, to: router, gas, value: toHex(parseEther('1000')), data: seed(tka, parseUnits('2000000', 18)) });
  await mined(rpc, { from: lp, to: router, gas, value: toHex(parseEther('1000')), data: seed(usdx, parseUnits('2500000', 6)) });
  await mined(rpc, { from: lp, to: router, gas, data: uniCall('router', 'addLiquidity', [tka, usdx, parseUnits('100000', 18), parseUnits('150000', 6), 0n, 0n, lp, NO_DEADLINE]) });
  const pair = async (a, b) => {
    const address = lower(`0x${(await read(rpc, 'factory', factory, 'getPair', [a, b])).slice(26)}`);
    const [token0, token1] = a < b ? [a, b] : [b, a];
    const salt = keccak256(encodePacked(token0, token1));
    const expected = lower(getContractAddress({ opcode: 'CREATE2', from: factory, salt, bytecode: UNISWAP_ARTIFACTS.pair.bytecode }));
    if (address !== expected) throw new Error(`the factory made pair ${address}, the router would look for ${expected}: the init code hashes differ`);
    return address;
  };
  const info = (address, symbol, decimals) => ({ address, symbol, decimals });
  return {
    factory,
    router,
    hopper: hopperAddress,
    tokens: { weth: info(weth, 'WETH', 18), tka: info(tka, 'TKA', 18), usdx: info(usdx, 'USDX', 6) },
    pairs: { tkaWeth: await pair(tka, weth), usdxWeth: await pair(usdx, weth), tkaUsdx: await pair(tka, usdx) },
    accounts,
  };
}

/** abi.encodePacked(address, address): UniswapV2Library's CREATE2 salt is its keccak. */
function encodePacked(a, b) {
  return /** @type {Hex} */ (`0x${a.slice(2)}${b.slice(2)}`);
}

/**
 * Sends one scenario transaction at a time, each mined in its own block, and reads its facts back.
 * @returns {(tx: Record<string, unknown>, meta: { kind: Kind, reason?: string | null, pools?: Hex[] }) => Promise<Fact>}
 */
function scenarioSender(rpc, uni) {
  return async (tx, meta) => {
    const r = await receipt(rpc, await send(rpc, gassed(tx)));
    const block = await readBlock(rpc, Number(r.blockNumber), uni.tokens.weth.address, new Map([[lower(r.transactionHash), meta]]));
    if (block.transactions.length !== 1) throw new Error(`block ${block.number} holds ${block.transactions.length} transactions, not one`);
    return block.transactions[0];
  };
}

/**
 * The single actions, each its own transaction in its own block, all sent by `trader`: swaps ETH→TKA,
 * TKA→USDX through WETH and TKA→ETH; an unlimited approval; adding and removing liquidity (TKA/USDX;
 * TKA/ETH with ether over what the pool takes, which the router sends back); a wrap and an unwrap; a
 * USDX transfer and an ETH transfer to `recipient`; a token deployment; a swap that reverts on slippage.
 * `simulations` are the first swap and the failing one as `txray call` inputs.
 * @param {(method: string, params?: unknown[]) => Promise<any>} rpc
 * @param {Uniswap} uni
 */
export async function actionScenarios(rpc, uni) {
  const { router, pairs } = uni;
  const { weth, tka, usdx } = uni.tokens;
  const { trader, recipient } = uni.accounts;
  const mine = scenarioSender(rpc, uni);
  const prepare = (tx) => mined(rpc, { from: trader, ...tx });
  const swap = { kind: /** @type {const} */ ('swap') };
  const ethIn = parseEther('1');
  const ethForTokensData = uniCall('router', 'swapExactETHForTokens', [0n, [weth.address, tka.address], trader, NO_DEADLINE]);
  const ethForTokens = await mine({ from: trader, to: router, value: toHex(ethIn), data: ethForTokensData }, { ...swap, pools: [pairs.tkaWeth] });
  const approveUnlimited = await mine({ from: trader, to: tka.address, data: uniCall('token', 'approve', [router, maxUint256]) }, { kind: 'approve' });
  const tokenForToken = await mine(
    { from: trader, to: router, data: uniCall('router', 'swapExactTokensForTokens', [parseUnits('1000', 18), 0n, [tka.address, weth.address, usdx.address], trader, NO_DEADLINE]) },
    { ...swap, pools: [pairs.tkaWeth, pairs.usdxWeth] },
  );
  const tokenForEth = await mine(
    { from: trader, to: router, data: uniCall('router', 'swapExactTokensForETH', [parseUnits('500', 18), 0n, [tka.address, weth.address], trader, NO_DEADLINE]) },
    { ...swap, pools: [pairs.tkaWeth] },
  );
  await prepare({ to: usdx.address, data: uniCall('token', 'approve', [router, maxUint256]) });
  const addLiquidity = await mine(
    { from: trader, to: router, data: uniCall('router', 'addLiquidity', [tka.address, usdx.address, parseUnits('1000', 18), parseUnits('2000', 6), 0n, 0n, trader, NO_DEADLINE]) },
    { kind: 'add-liquidity', pools: [pairs.tkaUsdx] },
  );
  await prepare({ to: pairs.tkaUsdx, data: uniCall('pair', 'approve', [router, maxUint256]) });
  const lpHeld = BigInt(await read(rpc, 'pair', pairs.tkaUsdx, 'balanceOf', [trader]));
  const removeLiquidity = await mine(
    { from: trader, to: router, data: uniCall('router', 'removeLiquidity', [tka.address, usdx.address, lpHeld / 2n, 0n, 0n, trader, NO_DEADLINE]) },
    { kind: 'remove-liquidity', pools: [pairs.tkaUsdx] },
  );
  // One ether for 1,000 TKA where the pool wants about half an ether: the router refunds the rest.
  const addLiquidityEth = await mine(
    { from: trader, to: router, value: toHex(parseEther('1')), data: uniCall('router', 'addLiquidityETH', [tka.address, parseUnits('1000', 18), 0n, 0n, trader, NO_DEADLINE]) },
    { kind: 'add-liquidity', pools: [pairs.tkaWeth] },
  );
  const wrap = await mine({ from: trader, to: weth.address, value: toHex(parseEther('2')), data: uniCall('weth', 'deposit') }, { kind: 'wrap' });
  const unwrap = await mine({ from: trader, to: weth.address, data: uniCall('weth', 'withdraw', [parseEther('1')]) }, { kind: 'unwrap' });
  const tokenTransfer = await mine({ from: trader, to: usdx.address, data: uniCall('token', 'transfer', [recipient, parseUnits('100', 6)]) }, { kind: 'transfer' });
  const ethTransfer = await mine({ from: trader, to: recipient, value: toHex(parseEther('1.5')) }, { kind: 'transfer' });
  const deploy = await mine(
    { from: trader, data: encodeDeployData({ ...UNISWAP_ARTIFACTS.token, args: ['Token C', 'TKC', 8n, parseUnits('1000000', 8)] }) },
    { kind: 'deploy' },
  );
  // One unit more than the pool gives: the router refuses after the pair has been asked nothing.
  const slippageData = uniCall('router', 'swapExactETHForTokens', [(await quote(rpc, uni, ethIn, [weth.address, tka.address])) + 1n, [weth.address, tka.address], trader, NO_DEADLINE]);
  const slippage = await mine(
    { from: trader, to: router, value: toHex(ethIn), data: slippageData },
    { kind: 'failed', reason: 'UniswapV2Router: INSUFFICIENT_OUTPUT_AMOUNT', pools: [] },
  );
  /** @type {(mined: Fact, data: Hex) => CallInputs} */
  const simulation = (fact, data) => ({ to: router, from: trader, data, value: ethIn.toString(), block: fact.blockNumber - 1, mined: fact });
  return {
    ethForTokens,
    approveUnlimited,
    tokenForToken,
    tokenForEth,
    addLiquidity,
    removeLiquidity,
    addLiquidityEth,
    wrap,
    unwrap,
    tokenTransfer,
    ethTransfer,
    deploy,
    slippage,
    simulations: { ethForTokens: simulation(ethForTokens, ethForTokensData), slippage: simulation(slippage, slippageData) },
  };
}

/** Send `txs` ({ tx, meta }) in one block; returns that block's facts, after checking every one landed in it in the order sent. */
async function mineTogether(rpc, uni, txs) {
  const hashes = await inOneBlock(rpc, async () => {
    const sent = [];
    for (const { tx } of txs) sent.push(lower(await send(rpc, gassed(tx))));
    return sent;
  });
  const first = await receipt(rpc, hashes[0]);
  const block = await readBlock(rpc, Number(first.blockNumber), uni.tokens.weth.address, new Map(hashes.map((h, i) => [h, txs[i].meta])));
  if (block.transactions.length !== hashes.length) throw new Error(`block ${block.number} holds ${block.transactions.length} of the ${hashes.length} transactions sent`);
  return { block, hashes };
}

/** Fees for a transaction whose place in the block is set by its tip (anvil orders a block by priority fee). */
const tipped = (tipGwei) => ({ maxFeePerGas: toHex(parseGwei('100')), maxPriorityFeePerGas: toHex(parseGwei(String(tipGwei))) });

/**
 * A busy block: 100 transactions from the four `crowd` senders, 25 each — ETH, TKA and USDX transfers to
 * new holders, WETH wraps and unwraps, USDX approvals, and 12 that revert with known reasons
 * ('ERC20_INSUFFICIENT_BALANCE', 'UniswapV2Router: EXPIRED', 'UniswapV2Router: INSUFFICIENT_OUTPUT_AMOUNT',
 * and the Hopper's custom error 'BadPath') — with tips of 1 to 3 gwei, so the fee recipient's tips vary.
 * Nothing in it is MEV: no one trades a pool.
 * @param {(method: string, params?: unknown[]) => Promise<any>} rpc
 * @param {Uniswap} uni
 * @returns {Promise<BlockFacts>}
 */
export async function busyBlock(rpc, uni) {
  const { router, hopper: hopperAddress } = uni;
  const { weth, tka, usdx } = uni.tokens;
  const crowd = uni.accounts.crowd;
  for (const sender of crowd) {
    await mined(rpc, { to: tka.address, data: uniCall('token', 'transfer', [sender, parseUnits('10000', 18)]) });
    await mined(rpc, { to: usdx.address, data: uniCall('token', 'transfer', [sender, parseUnits('10000', 6)]) });
  }
  const failures = [
    { to: tka.address, data: uniCall('token', 'transfer', [BUILDER, parseUnits('1000000000000', 18)]), reason: 'ERC20_INSUFFICIENT_BALANCE' },
    { to: router, value: toHex(parseEther('0.01')), data: uniCall('router', 'swapExactETHForTokens', [0n, [weth.address, tka.address], BUILDER, 1n]), reason: 'UniswapV2Router: EXPIRED' },
    { to: router, value: toHex(parseEther('0.01')), data: uniCall('router', 'swapExactETHForTokens', [maxUint256, [weth.address, tka.address], BUILDER, NO_DEADLINE]), reason: 'UniswapV2Router: INSUFFICIENT_OUTPUT_AMOUNT' },
    { to: hopperAddress, data: uniCall('hopper', 'hop', [[], [], 0n, 0n]), reason: 'BadPath' },
  ];
  const txs = [];
  for (let s = 0; s < crowd.length; s++) {
    for (let j = 0; j < 25; j++) {
      const from = crowd[s];
      const holder = lower(`0x${(0xb10c0000 + s * 100 + j).toString(16).padStart(40, '0')}`);
      const fees = tipped(1 + ((s + j) % 3));
      const one = (tx, meta, gas) => txs.push({ tx: { from, gas: toHex(gas), ...fees, ...tx }, meta });
      const amount = BigInt(j + 1);
      if (j % 5 === 0) one({ to: holder, value: toHex(amount * parseEther('0.001')) }, { kind: 'transfer' }, 21_000);
      else if (j % 5 === 1) one({ to: tka.address, data: uniCall('token', 'transfer', [holder, amount * parseUnits('1', 18)]) }, { kind: 'transfer' }, 100_000);
      else if (j % 5 === 2) one({ to: usdx.address, data: uniCall('token', 'transfer', [holder, amount * parseUnits('1', 6)]) }, { kind: 'transfer' }, 100_000);
      // Each sender's wrap (j = 3, 13, 23) comes before its unwrap (j = 8, 18) by nonce, whatever the tips.
      else if (j % 10 === 3) one({ to: weth.address, value: toHex(parseEther('0.01')), data: uniCall('weth', 'deposit') }, { kind: 'wrap' }, 100_000);
      else if (j % 10 === 8) one({ to: weth.address, data: uniCall('weth', 'withdraw', [parseEther('0.01')]) }, { kind: 'unwrap' }, 100_000);
      else if (j % 10 === 9) one({ to: usdx.address, data: uniCall('token', 'approve', [router, amount * parseUnits('100', 6)]) }, { kind: 'approve' }, 100_000);
      else {
        const { reason, ...tx } = failures[(s + j) % failures.length];
        one(tx, { kind: 'failed', reason }, 300_000);
      }
    }
  }
  return (await mineTogether(rpc, uni, txs)).block;
}

/** The senders' net movements over several transactions together (see Net). */
function netOver(facts) {
  const deltas = new Map();
  for (const fact of facts) {
    for (const m of fact.net.sent) deltas.set(m.asset, (deltas.get(m.asset) ?? 0n) - BigInt(m.amount));
    for (const m of fact.net.received) deltas.set(m.asset, (deltas.get(m.asset) ?? 0n) + BigInt(m.amount));
  }
  return netOf(deltas);
}

/**
 * @typedef {object} Sandwich
 * @property {Hex} front  the attacker's buy of TKA with WETH through the Hopper, straight on the pair
 * @property {Hex[]} victims  the victim's buy of TKA with ETH through the router
 * @property {Hex} back  the attacker's sale of what it bought, paying the fee recipient `payment` on the way
 * @property {Hex} attacker
 * @property {Hex} victim
 * @property {Hex} pool  the TKA/WETH pair
 * @property {Net} profit  the attacker's net movements over the front and back runs together (WETH in, the payment out)
 * @property {bigint} payment
 */

/**
 * A sandwich on the TKA/WETH pair, in one block: the attacker buys TKA with 20 WETH, the victim buys TKA
 * with 10 ETH through the router (accepting 10% slippage), the attacker sells exactly the TKA it bought
 * and pays the fee recipient 0.01 ETH. Tips of 3, 2 and 1 gwei put them in that order.
 * @param {(method: string, params?: unknown[]) => Promise<any>} rpc
 * @param {Uniswap} uni
 * @returns {Promise<BlockFacts & { sandwich: Sandwich }>}
 */
export async function sandwichBlock(rpc, uni) {
  const { router, hopper: hopperAddress, pairs } = uni;
  const { weth, tka } = uni.tokens;
  const { attacker, victim } = uni.accounts;
  await mined(rpc, { from: attacker, to: weth.address, value: toHex(parseEther('100')), data: uniCall('weth', 'deposit') });
  for (const token of [weth.address, tka.address]) await mined(rpc, { from: attacker, to: token, data: uniCall('token', 'approve', [hopperAddress, maxUint256]) });
  const frontIn = parseEther('20');
  const victimIn = parseEther('10');
  const bought = await quote(rpc, uni, frontIn, [weth.address, tka.address]);
  const victimMin = ((await quote(rpc, uni, victimIn, [weth.address, tka.address])) * 90n) / 100n;
  const payment = parseEther('0.01');
  const pools = [pairs.tkaWeth];
  const { block, hashes } = await mineTogether(rpc, uni, [
    { tx: { from: attacker, to: hopperAddress, gas: toHex(300_000), ...tipped(3), data: uniCall('hopper', 'hop', [pools, [weth.address, tka.address], frontIn, 0n]) }, meta: { kind: 'swap', pools } },
    { tx: { from: victim, to: router, gas: toHex(300_000), ...tipped(2), value: toHex(victimIn), data: uniCall('router', 'swapExactETHForTokens', [victimMin, [weth.address, tka.address], victim, NO_DEADLINE]) }, meta: { kind: 'swap', pools } },
    { tx: { from: attacker, to: hopperAddress, gas: toHex(300_000), ...tipped(1), value: toHex(payment), data: uniCall('hopper', 'hop', [pools, [tka.address, weth.address], bought, 0n]) }, meta: { kind: 'swap', pools } },
  ]);
  const [front, middle, back] = hashes;
  const order = block.transactions.map((t) => t.hash).join();
  if (order !== [front, middle, back].join()) throw new Error(`the sandwich was mined out of order: ${order}`);
  const [frontFact, , backFact] = block.transactions;
  return { ...block, sandwich: { front, victims: [middle], back, attacker, victim, pool: pairs.tkaWeth, profit: netOver([frontFact, backFact]), payment } };
}

/**
 * A sandwich on the TKA/WETH pair by a searcher that trades through the router with ether: the front-run
 * buys TKA with 5 ETH (the router wraps it: WETH9 mints without a Transfer), the victim buys TKA with 2
 * ETH, the back-run sells exactly the TKA bought for ETH (the router unwraps: WETH9 burns without a
 * Transfer). Mined only where a test asks for it (`makeUniswapScenarios` leaves it out): the searcher is
 * the `recipient` account, the victim the third `crowd` sender.
 * @param {(method: string, params?: unknown[]) => Promise<any>} rpc
 * @param {Uniswap} uni
 * @returns {Promise<BlockFacts & { sandwich: Omit<Sandwich, 'payment'> }>}
 */
export async function unwrappingSandwichBlock(rpc, uni) {
  const { router, pairs } = uni;
  const { weth, tka } = uni.tokens;
  const attacker = uni.accounts.recipient;
  const victim = uni.accounts.crowd[2];
  await mined(rpc, { from: attacker, to: tka.address, data: uniCall('token', 'approve', [router, maxUint256]) });
  const frontIn = parseEther('5');
  const bought = await quote(rpc, uni, frontIn, [weth.address, tka.address]);
  const pools = [pairs.tkaWeth];
  const { block, hashes } = await mineTogether(rpc, uni, [
    { tx: { from: attacker, to: router, gas: toHex(300_000), ...tipped(3), value: toHex(frontIn), data: uniCall('router', 'swapExactETHForTokens', [0n, [weth.address, tka.address], attacker, NO_DEADLINE]) }, meta: { kind: 'swap', pools } },
    { tx: { from: victim, to: router, gas: toHex(300_000), ...tipped(2), value: toHex(parseEther('2')), data: uniCall('router', 'swapExactETHForTokens', [0n, [weth.address, tka.address], victim, NO_DEADLINE]) }, meta: { kind: 'swap', pools } },
    { tx: { from: attacker, to: router, gas: toHex(300_000), ...tipped(1), data: uniCall('router', 'swapExactTokensForETH', [bought, 0n, [tka.address, weth.address], attacker, NO_DEADLINE]) }, meta: { kind: 'swap', pools } },
  ]);
  const [front, middle, back] = hashes;
  if (block.transactions.map((t) => t.hash).join() !== hashes.join()) throw new Error(`the sandwich was mined out of order`);
  return { ...block, sandwich: { front, victims: [middle], back, attacker, victim, pool: pairs.tkaWeth, profit: netOver([block.transactions[0], block.transactions[2]]) } };
}

/**
 * @typedef {object} Arbitrage
 * @property {Hex} hash
 * @property {Hex} actor  the arbitrageur, who sends the transaction and ends with more TKA
 * @property {Hex[]} pools  TKA/USDX, USDX/WETH, TKA/WETH, in the order traded
 * @property {Hex} token  TKA, where the cycle starts and ends
 * @property {bigint} profit  TKA, base units
 */

/**
 * An arbitrage in one transaction, alone in its block: the arbitrageur sends 1,000 TKA round the cycle
 * TKA → USDX → WETH → TKA through the Hopper (which reverts unless more comes back than went in).
 * @param {(method: string, params?: unknown[]) => Promise<any>} rpc
 * @param {Uniswap} uni
 * @returns {Promise<BlockFacts & { arbitrage: Arbitrage }>}
 */
export async function arbitrageBlock(rpc, uni) {
  const { hopper: hopperAddress, pairs } = uni;
  const { weth, tka, usdx } = uni.tokens;
  const { arbitrageur } = uni.accounts;
  await mined(rpc, { to: tka.address, data: uniCall('token', 'transfer', [arbitrageur, parseUnits('1000', 18)]) });
  await mined(rpc, { from: arbitrageur, to: tka.address, data: uniCall('token', 'approve', [hopperAddress, maxUint256]) });
  const amountIn = parseUnits('1000', 18);
  const pools = [pairs.tkaUsdx, pairs.usdxWeth, pairs.tkaWeth];
  const path = [tka.address, usdx.address, weth.address, tka.address];
  const { block, hashes } = await mineTogether(rpc, uni, [
    { tx: { from: arbitrageur, to: hopperAddress, gas: toHex(500_000), data: uniCall('hopper', 'hop', [pools, path, amountIn, amountIn + 1n]) }, meta: { kind: 'swap', pools } },
  ]);
  const fact = block.transactions[0];
  if (fact.status !== 'success') throw new Error(`the arbitrage ${fact.hash} reverted: the pools no longer pay the cycle`);
  const profit = fact.net.received.find((m) => m.asset === tka.address);
  return { ...block, arbitrage: { hash: hashes[0], actor: arbitrageur, pools, token: tka.address, profit: BigInt(profit?.amount ?? '0') } };
}

/**
 * A plain block, with trades that are neither a sandwich nor an arbitrage: one crowd sender buys TKA with
 * ETH and another sells TKA for ETH on the same pair (different senders, opposite directions, both
 * through the router), a third sends ETH, the fourth USDX.
 * @param {(method: string, params?: unknown[]) => Promise<any>} rpc
 * @param {Uniswap} uni
 * @returns {Promise<BlockFacts>}
 */
export async function plainBlock(rpc, uni) {
  const { router, pairs } = uni;
  const { weth, tka, usdx } = uni.tokens;
  const [buyer, seller, payer, tokenPayer] = uni.accounts.crowd;
  await mined(rpc, { to: tka.address, data: uniCall('token', 'transfer', [seller, parseUnits('5000', 18)]) });
  await mined(rpc, { to: usdx.address, data: uniCall('token', 'transfer', [tokenPayer, parseUnits('500', 6)]) });
  await mined(rpc, { from: seller, to: tka.address, data: uniCall('token', 'approve', [router, maxUint256]) });
  const pools = [pairs.tkaWeth];
  const gas = toHex(300_000);
  const { block } = await mineTogether(rpc, uni, [
    { tx: { from: buyer, to: router, gas, value: toHex(parseEther('2')), data: uniCall('router', 'swapExactETHForTokens', [0n, [weth.address, tka.address], buyer, NO_DEADLINE]) }, meta: { kind: 'swap', pools } },
    { tx: { from: seller, to: router, gas, data: uniCall('router', 'swapExactTokensForETH', [parseUnits('3000', 18), 0n, [tka.address, weth.address], seller, NO_DEADLINE]) }, meta: { kind: 'swap', pools } },
    { tx: { from: payer, to: uni.accounts.recipient, gas: toHex(21_000), value: toHex(parseEther('0.5')) }, meta: { kind: 'transfer' } },
    { tx: { from: tokenPayer, to: usdx.address, gas: toHex(100_000), data: uniCall('token', 'transfer', [uni.accounts.recipient, parseUnits('250', 6)]) }, meta: { kind: 'transfer' } },
  ]);
  return block;
}

/**
 * Everything above on one node, in this order: the deployment, the single actions, the busy block, the
 * sandwich, the arbitrage and the plain block.
 * @param {(method: string, params?: unknown[]) => Promise<any>} rpc
 */
export async function makeUniswapScenarios(rpc) {
  const uni = await deployUniswap(rpc);
  const actions = await actionScenarios(rpc, uni);
  const busy = await busyBlock(rpc, uni);
  const sandwich = await sandwichBlock(rpc, uni);
  const arbitrage = await arbitrageBlock(rpc, uni);
  const plain = await plainBlock(rpc, uni);
  return { uni, actions, blocks: { busy, sandwich, arbitrage, plain } };
}

/** The custom error a reverted Hopper call's output names (for facts a test checks against the trace). */
export function hopperError(output) {
  return decodeErrorResult({ abi: UNISWAP_ARTIFACTS.hopper.abi, data: output }).errorName;
}
