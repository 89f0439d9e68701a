/**
 * The action of real mainnet transactions (test/fixtures/actions: Erigon's recorded answers, see
 * test/fixtures/README.md), served as recorded: no chain state, so no eth_call — a token's symbol and
 * decimals are known only where the shipped address book knows the token, and without a recorded trace
 * the only ether txray sees is the transaction's own value (and, for mainnet WETH, the ether its
 * Deposit/Withdrawal moved). Each expected sentence was worked out from the logs, written beside it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startRpcServer, type RpcServer } from '../support/rpcServer.js';
import { jsonOf, runTxray } from '../support/runTxray.js';
import { schemaErrors } from '../support/schema.js';

const DIR = fileURLToPath(new URL('../fixtures/actions/', import.meta.url));
const read = (dir: string, file: string): any => (existsSync(join(dir, file)) ? JSON.parse(readFileSync(join(dir, file), 'utf8')) : undefined);

interface Recorded {
  readonly hash: string;
  readonly tx: any;
  readonly receipt: any;
  readonly trace: any[] | undefined;
}

const recorded = new Map<string, Recorded>();
for (const name of readdirSync(DIR)) {
  const dir = join(DIR, name);
  const meta = read(dir, 'meta.json');
  if (meta?.hash === undefined) continue; // README.md, blocks/
  recorded.set(name, { hash: meta.hash, tx: read(dir, 'tx.json'), receipt: read(dir, 'receipt.json'), trace: read(dir, 'trace.json') });
}
const byHash = new Map([...recorded.values()].map((c) => [c.hash.toLowerCase(), c]));

let server: RpcServer;
beforeAll(async () => {
  server = await startRpcServer(({ method, params }) => {
    if (['eth_chainId', 'eth_getBlockByNumber', 'eth_getBlockByHash', 'eth_createAccessList', 'eth_getBalance', 'eth_getTransactionCount', 'eth_getCode', 'eth_getStorageAt', 'eth_call'].includes(method)) {
      return { error: { code: -32000, message: 'not recorded: these fixtures hold no chain state' } };
    }
    const c = byHash.get(String(params[0]).toLowerCase());
    if (c === undefined) return undefined;
    if (method === 'eth_getTransactionByHash') return { result: c.tx ?? null };
    if (method === 'eth_getTransactionReceipt') return { result: c.receipt };
    if (method === 'trace_transaction' && c.trace !== undefined) return { result: c.trace };
    if (method === 'trace_transaction' || method === 'debug_traceTransaction') return { error: { code: -32601, message: 'Method not found' } };
    return undefined;
  });
});
afterAll(async () => {
  expect(server.unexpected).toEqual([]);
  await server.close();
});

type Amount = { asset: string; amount: string; tokenId?: string };
const amounts = (xs: ReadonlyArray<Record<string, any>>): Amount[] =>
  xs.map((x) => ({ asset: x.asset, amount: x.amount, ...(x.tokenId !== undefined ? { tokenId: x.tokenId } : {}) })).sort((a, b) => (`${a.asset}${a.tokenId ?? ''}` < `${b.asset}${b.tokenId ?? ''}` ? -1 : 1));

async function actionOf(name: string): Promise<Record<string, any>> {
  const c = recorded.get(name)!;
  const doc = jsonOf(await runTxray([c.hash, '-r', server.url, '--json']));
  expect(schemaErrors(doc)).toBe('');
  expect(doc.action.actor).toBe(c.receipt.from);
  return doc.action;
}

const ETH = 'ETH';
const WETH = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2';
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const USDT = '0xdac17f958d2ee523a2206206994597c13d831ec7';

describe('lending: Aave v2 and v3 from their pools', () => {
  test('Aave v3 borrow (block 18,000,000): the Pool Borrow event, 8,000 USDC out of aEthUSDC to the sender, its debt token minted', async () => {
    // Logs: variableDebtEthUSDC (0x72e9…) Transfer 0x0 → sender 8,000,000,000; USDC Transfer aEthUSDC → sender
    // 8,000,000,000; Aave v3 Pool (0x8787…) Borrow(reserve USDC, onBehalfOf sender) amount 8,000,000,000, mode 2.
    const a = await actionOf('aave-v3-borrow');
    expect(a).toMatchObject({ kind: 'borrow', summary: 'Borrowed 8,000 USDC from Aave v3', protocols: ['Aave v3'] });
    expect(amounts(a.sent)).toEqual([]);
    expect(amounts(a.received)).toEqual(amounts([{ asset: '0x72e95b8931767c79ba4eee721354d6e99a61d004', amount: '8000000000' }, { asset: USDC, amount: '8000000000' }]));
  });

  test('Aave v2 withdraw (block 15,000,000): aUSDT burned from the sender, the same USDT back to it', async () => {
    // Logs: aUSDT (0x3ed3…) Transfer sender → 0x0 939,179,941 (and a mint of 4,805,039 to the treasury, not
    // the sender's); USDT Transfer aUSDT → sender 939,179,941; Aave v2 LendingPool Withdraw(USDT, sender, sender) 939,179,941.
    const a = await actionOf('aave-v2-withdraw');
    expect(a).toMatchObject({ kind: 'withdraw', summary: 'Withdrew ~939.17 USDT from Aave v2', protocols: ['Aave v2'] });
    expect(amounts(a.sent)).toEqual([{ asset: '0x3ed3b47dd13ec9a98b44e6204a523e766b225811', amount: '939179941' }]);
    expect(amounts(a.received)).toEqual([{ asset: USDT, amount: '939179941' }]);
  });
});

describe('NFT sales on Seaport', () => {
  test('bought with ETH (block 15,997,674): the ERC-721 came to the sender, the ether is the transaction value', async () => {
    // tx.value 0.0099 ETH to Seaport 1.1; logs: OrderFulfilled, the collection's Transfer of token 0x2350
    // (9040) from the offerer to the sender. No trace was recorded: how Seaport split the ether is not known.
    const a = await actionOf('seaport-nft-buy');
    expect(a).toMatchObject({ kind: 'nft-trade', summary: 'Bought 0xc3cd…9758 #9040 for 0.0099 ETH', protocols: [] });
    expect(amounts(a.sent)).toEqual([{ asset: ETH, amount: '9900000000000000' }]);
    expect(amounts(a.received)).toEqual([{ asset: '0xc3cd69649394bf1a18a7a0c7f90e4d0e4f1a9758', amount: '1', tokenId: '9040' }]);
  });

  test('an offer accepted for WETH (block 18,000,000): the sender sold token 8924, WETH net of the fees came back', async () => {
    // Logs: Transfer of token 0x22dc (8924) sender → offerer; WETH Transfers from the offerer: 0.00089 and
    // 0.000356 to the fee takers, 0.034354 to the sender.
    const a = await actionOf('seaport-offer-accepted');
    expect(a).toMatchObject({ kind: 'nft-trade', summary: 'Sold 0x3333…13be #8924 for ~0.03435 WETH', protocols: [] });
    expect(amounts(a.sent)).toEqual([{ asset: '0x33333333333371718a3c2bb63e5f3b94c9bc13be', amount: '1', tokenId: '8924' }]);
    expect(amounts(a.received)).toEqual([{ asset: WETH, amount: '34354000000000000' }]);
  });
});

describe('swaps and wrapped ether', () => {
  test('ETH for a fee-on-transfer token through Uniswap v2 Router02 (block 18,000,000): what reached the sender, not the pair\'s figure', async () => {
    // tx.value 0.5 ETH; logs: WETH Deposit(router) 0.5; WETH router → pair 0.5; the token (0x2de6…, unknown to
    // the address book) pair → token contract 6,157,597,210,335 (its tax) and pair → sender 609,602,123,823,169;
    // the pair's Swap says 615,759,721,033,504 out, before the tax.
    const a = await actionOf('uniswap-v2-eth-for-tokens');
    expect(a).toMatchObject({
      kind: 'swap',
      summary: 'Swapped 0.5 ETH for 609,602,123,823,169 base units of 0x2de6…c6b7 on Uniswap v2 (via Uniswap v2 Router02)',
      protocols: ['Uniswap v2'],
    });
    expect(amounts(a.sent)).toEqual([{ asset: ETH, amount: '500000000000000000' }]);
    expect(amounts(a.received)).toEqual([{ asset: '0x2de6b0e3947a35aa897d0cb7e4e5c25aba89c6b7', amount: '609602123823169' }]);
  });

  test('WETH withdraw() with no trace recorded (block 18,000,000): an unwrap, its ether from the Withdrawal itself', async () => {
    // One log: WETH Withdrawal(sender, 0.025 ETH). WETH9 sends that ether to the holder before it emits.
    const a = await actionOf('weth-unwrap');
    expect(a).toMatchObject({ kind: 'unwrap', summary: 'Unwrapped 0.025 ETH', protocols: [] });
    expect(amounts(a.sent)).toEqual([{ asset: WETH, amount: '25000000000000000' }]);
    expect(amounts(a.received)).toEqual([{ asset: ETH, amount: '25000000000000000' }]);
  });
});

/*
 * Bridges are named by the address book (the L2s' L1StandardBridge and Arbitrum's Inbox); several NFTs of
 * one collection for one payment are one trade; Lido's stETH is a built-in name, so its Submitted event is
 * trusted. The movements are exact in every case.
 */
describe('bridges, sweeps and staking from receipts alone: the movements still exact', () => {
  test('an ETH deposit into the Base bridge with only the receipt (block 18,100,010): bridged, the amount from its own event', async () => {
    // Logs: L1StandardBridge (0x3154…) ETHDepositInitiated(sender → 0xeff4…) 4 ETH, the portal's
    // TransactionDeposited, the messenger's SentMessage. The 4 ETH is tx.value, which was not recorded.
    const a = await actionOf('base-bridge-eth-deposit');
    // The bridge is named by the address book (viem's chain definitions); the 4 ETH is its event's figure.
    expect(a).toMatchObject({ kind: 'bridge', summary: 'Bridged 4 ETH to Base', protocols: ['Base bridge'], sent: [], received: [] });
  });

  test('an Arbitrum Inbox message with only the receipt (block 15,000,000): a message to Arbitrum One, no amount claimed', async () => {
    // Logs: the Bridge's MessageDelivered and the Inbox's InboxMessageDelivered; no token moved.
    const a = await actionOf('arbitrum-inbox-deposit');
    // The Inbox is named by @arbitrum/sdk's networks; the ether sent (tx.value) is in no recorded answer, so none is said.
    expect(a).toMatchObject({ kind: 'bridge', summary: 'Sent a message to Arbitrum One through its bridge', protocols: ['Arbitrum One bridge'], sent: [], received: [] });
  });

  test('a Wyvern purchase of 12 NFTs with its trace (block 10,000,000): 1.4 ETH out, the 12 tokens in', async () => {
    // Trace: sender → Wyvern 1.4 ETH, Wyvern → seller 1.4 ETH; logs: 12 ERC-721 Transfers seller → sender, OrdersMatched price 1.4 ETH.
    const a = await actionOf('wyvern-nft-sale');
    const ids = ['8092', '8093', '8114', '8115', '8151', '8156', '8169', '8176', '8188', '8199', '8200', '8217'];
    expect(amounts(a.sent)).toEqual([{ asset: ETH, amount: '1400000000000000000' }]);
    expect(amounts(a.received)).toEqual(amounts(ids.map((tokenId) => ({ asset: '0x2594d80da5f2e4f742d1e479eb9408aad132d0bd', amount: '1', tokenId }))));
    // Twelve tokens of one collection for one payment: a sweep, said once.
    expect(a.kind).toBe('nft-trade');
    expect(a.summary).toMatch(/^Bought 12 × \S+ for 1\.4 ETH/);
  });

  test('a Blur sale of 2 NFTs for Blur Pool ETH with only the receipt (block 17,000,000): both tokens out, 0.199 in', async () => {
    // Logs: two OrdersMatched; tokens 0x2603 (9731) and 0x24f5 (9461) from the sender to two bidders; Blur Pool
    // (0x0000…87ac) Transfers of 0.0995 from each bidder to the sender (and 0.0005 each to the fee taker).
    const a = await actionOf('blur-nft-sale');
    expect(amounts(a.sent)).toEqual(amounts(['9731', '9461'].map((tokenId) => ({ asset: '0xda60730e1feaa7d8321f62ffb069edd869e57d02', amount: '1', tokenId }))));
    expect(amounts(a.received)).toEqual([{ asset: '0x0000000000a39bb272e79075ade125fd351887ac', amount: '199000000000000000' }]);
    expect(a.kind).toBe('nft-trade');
    expect(a.summary).toMatch(/^Sold 2 × \S+ for /);
  });

  test('Lido submit with only the receipt (block 18,100,026): the stETH minted to the sender, one wei under the Submitted amount', async () => {
    // Logs: stETH Submitted(sender) 163,250,237,517,540,494 wei; stETH Transfer 0x0 → sender 163,250,237,517,540,493
    // (shares round down); TransferShares. The ether sent is tx.value, not recorded.
    const a = await actionOf('lido-submit');
    expect(amounts(a.sent)).toEqual([]);
    expect(amounts(a.received)).toEqual([{ asset: '0xae7ab96520de3a18e5e111b5eaab095312d7fe84', amount: '163250237517540493' }]);
    // stETH is a built-in name, so its Submitted event is trusted: the ether staked is the event's (163,250,237,517,540,494 wei).
    expect(a).toMatchObject({ kind: 'stake', summary: 'Staked ~0.1632 ETH with Lido', protocols: ['Lido'] });
  });
});
