/**
 * L2 chains read by their own rules. Recorded receipts of real OP Stack (Base Sepolia, Unichain Sepolia)
 * and Arbitrum (Arbitrum Sepolia) transactions, served from a loopback JSON-RPC server as recorded
 * (test/fixtures/l2): the type named, the fee with the L1 data fee exact to the wei, the chain family said,
 * the answers handed back unchanged. And a real OP Stack node (anvil --network optimism): deposits and
 * ordinary transactions, contract calls, --state and txray call, with no false alarm.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { formatUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { startAnvil } from '../../scripts/lib/anvil.mjs';
import { launchBrowser } from '../../scripts/lib/browser.mjs';
import { call, deploy, DEV, receipt } from '../../scripts/lib/scenarios.mjs';
import { type RpcServer, startRpcServer } from '../support/rpcServer.js';
import { jsonOf, runTxray } from '../support/runTxray.js';
import { schemaErrors } from '../support/schema.js';

const L2 = fileURLToPath(new URL('../fixtures/l2/', import.meta.url));
interface Recorded {
  readonly chain: string;
  readonly family: 'OP Stack' | 'Arbitrum';
  readonly receipt: Record<string, any>;
}
const recorded: Recorded[] = readdirSync(L2)
  .sort()
  .flatMap((dir) => {
    const meta = JSON.parse(readFileSync(join(L2, dir, 'meta.json'), 'utf8'));
    const receipts = JSON.parse(readFileSync(join(L2, dir, 'receipts.json'), 'utf8')) as Record<string, any>[];
    return receipts.map((r) => ({ chain: meta.chain as string, family: meta.family, receipt: r }));
  });
const byHash = new Map(recorded.map((r) => [String(r.receipt.transactionHash).toLowerCase(), r]));

let server: RpcServer;
beforeAll(async () => {
  // Only the receipts were recorded: no transaction object, no trace, no state.
  server = await startRpcServer(({ method, params }) => {
    const r = byHash.get(String(params[0]).toLowerCase());
    if (method === 'eth_getTransactionReceipt') return r === undefined ? undefined : { result: r.receipt };
    if (method === 'eth_getTransactionByHash') return r === undefined ? undefined : { result: null };
    return { error: { code: -32601, message: `the method ${method} does not exist/is not available` } };
  });
});
afterAll(async () => {
  expect(server.unexpected).toEqual([]);
  await server.close();
});

describe('recorded L2 receipts (real testnet transactions)', () => {
  test('there are OP Stack and Arbitrum receipts to read', () => {
    expect(recorded.filter((r) => r.family === 'OP Stack').length).toBeGreaterThanOrEqual(10);
    expect(recorded.filter((r) => r.family === 'Arbitrum').length).toBeGreaterThanOrEqual(5);
  });

  test.each(recorded.map((r) => [`${r.chain} ${r.receipt.transactionHash}`, r] as const))('%s: the type named, the fee as the chain charges it, exact to the wei', async (_name, r) => {
    const hash = r.receipt.transactionHash as string;
    const rc = r.receipt;
    const execution = BigInt(rc.gasUsed) * BigInt(rc.effectiveGasPrice);
    const paid = r.family === 'OP Stack' ? execution + BigInt(rc.l1Fee) : execution;

    const doc = jsonOf(await runTxray([hash, '-r', server.url, '--json']));
    expect(schemaErrors(doc)).toBe('');
    expect(doc.status).toBe(rc.status === '0x1' ? 'success' : 'reverted');
    // Handed back as the node sent it.
    expect(doc.receipt).toEqual(rc);
    expect(doc.fee.paid).toBe(paid.toString());
    if (r.family === 'OP Stack') {
      expect(doc.fee).toMatchObject({ rules: 'op-stack', execution: execution.toString(), l1Fee: BigInt(rc.l1Fee).toString(), mint: null });
      for (const key of ['l1Fee', 'l1GasUsed', 'l1GasPrice', 'l1BaseFeeScalar', 'l1BlobBaseFee', 'l1BlobBaseFeeScalar']) {
        if (rc[key] !== undefined) expect(doc.fee.l1[key]).toBe(rc[key]);
      }
    } else {
      expect(doc.fee).toMatchObject({ rules: 'arbitrum', gasUsedForL1: BigInt(rc.gasUsedForL1).toString(), burned: null, tip: null });
    }

    const text = await runTxray([hash, '-r', server.url, '--no-color']);
    expect(text.code).toBe(rc.status === '0x1' ? 0 : 1);
    expect(text.stdout).toMatch(/^ {2}Type {11}EIP-1559 \(0x2\)$/m);
    expect(text.stdout).toMatch(new RegExp(`^  Chain {10}${r.family === 'OP Stack' ? 'an OP Stack chain' : 'an Arbitrum chain'}$`, 'm'));
    if (r.family === 'OP Stack') expect(text.stdout).toMatch(/^ {2}Fee {12}[\d.]+ ETH .*= L2 execution [\d.]+ ETH .*\+ L1 data fee [\d.]+ ETH/m);
    else expect(text.stdout).toMatch(/^ {2}Fee {12}[\d.]+ ETH .*\(of which L1 calldata: [\d,]+ gas, [\d.]+ ETH/m);
    // No false alarm: only what is true of this node (no transaction object, no trace).
    for (const line of text.stderr.trim().split('\n')) expect(line).toMatch(/no transaction object|serves no call tracer|not re-executed|cannot be re-executed/);
  });
});

test('the HTML report gives the same fee, L1 data fee included (headless Chromium)', async () => {
  const r = recorded.find((x) => x.family === 'OP Stack')!;
  const file = join(mkdtempSync(join(tmpdir(), 'txray-l2-')), 'op.html');
  const made = await runTxray([r.receipt.transactionHash, '-r', server.url, '--html', file, '--quiet']);
  expect(made.code).toBe(0);
  const browser = await launchBrowser(inject('chromiumPath'));
  try {
    const page = await browser.newPage();
    await page.goto(`file://${file}`);
    await page.waitForSelector('html[data-ready="true"]');
    const fee = await page.evaluate(() => Array.from(document.querySelectorAll('table.kv tr')).find((tr) => tr.firstElementChild?.textContent === 'fee')?.lastElementChild?.textContent ?? null);
    expect(fee).toMatch(/ \(L2 execution .+ \+ L1 data fee .+\)$/);
    const paid = BigInt(r.receipt.gasUsed) * BigInt(r.receipt.effectiveGasPrice) + BigInt(r.receipt.l1Fee);
    const shown = fee!.replace(/ \(L2 execution.*$/, '');
    expect(shown).toBe(`${formatUnits(paid, 18)} ETH`);
  } finally {
    await browser.close();
  }
});

describe('an OP Stack node (anvil --network optimism)', () => {
  let op: Awaited<ReturnType<typeof startAnvil>>;
  let deposit: string;
  let transfer: string;
  let showcase: string;
  let run: string;
  const MINT = 10n ** 18n;
  beforeAll(async () => {
    op = await startAnvil(['--network', 'optimism']);
    transfer = (await op.rpc('eth_sendTransaction', [{ from: DEV.sender, to: DEV.other, value: '0x1000' }])) as string;
    deposit = (await op.rpc('eth_sendTransaction', [
      { from: DEV.other, to: DEV.sender, value: '0x5', gas: '0x30000', type: '0x7e', sourceHash: `0x${'11'.repeat(32)}`, mint: `0x${MINT.toString(16)}`, isSystemTx: false },
    ])) as string;
    await receipt(op.rpc, deposit);
    ({ showcase } = await deploy(op.rpc));
    run = (await op.rpc('eth_sendTransaction', [{ from: DEV.sender, to: showcase, value: '0xa', gas: '0x2dc6c0', data: call('Showcase', 'run', [3n]) }])) as string;
    await receipt(op.rpc, run);
  }, 60_000);
  afterAll(async () => {
    await op?.stop();
  });

  test('a deposit: its type and fields, no fee, and --state sums to what it minted, with no warning', async () => {
    const r = await runTxray([deposit, '-r', op.url, '--state', '--no-color']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^ {2}Type {11}deposit \(OP Stack\) \(0x7e\)$/m);
    expect(r.stdout).toMatch(/^ {2}Minted {9}1 ETH /m);
    expect(r.stdout).toMatch(/^ {2}Source hash {4}0x(11){32}$/m);
    expect(r.stdout).toMatch(/^ {2}Fee {12}none \(a deposit pays for its gas on L1\)$/m);
    expect(r.stdout).toContain('Sum  1 ETH = the ETH the deposit minted ✔');
    expect(r.stdout).not.toContain('✘');
    const doc = jsonOf(await runTxray([deposit, '-r', op.url, '--state', '--json']));
    expect(schemaErrors(doc)).toBe('');
    expect(doc.warnings).toEqual([]);
    expect(doc.fee).toMatchObject({ rules: 'op-stack', paid: '0', mint: MINT.toString(), l1Fee: '0' });
    const sum = (doc.balanceChanges as Array<{ asset: string; delta: string }>).filter((b) => b.asset === 'ETH').reduce((n, b) => n + BigInt(b.delta), 0n);
    expect(sum).toBe(MINT);
  });

  test.each(['transfer', 'contract call'])('an ordinary %s: the base fee to the BaseFeeVault (named), nothing burned, --state sums to 0, no warning', async (which) => {
    const hash = which === 'transfer' ? transfer : run;
    const r = await runTxray([hash, '-r', op.url, '--state', '--no-color']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^ {2}BaseFeeVault\(0x4200000000000000000000000000000000000019\)/m);
    expect(r.stdout).toMatch(/Fee {2}[\d.]+ ETH.*: base fee part [\d.]+ ETH.* \(base fee [\d.]+ gwei\) to BaseFeeVault\(0x4200…0019\), [\d.]+ ETH.* to the sequencer .*; nothing burned/);
    expect(r.stdout).toContain('Sum  0 ETH = 0: an OP Stack chain burns nothing ✔');
    expect(r.stdout).not.toMatch(/burned \(base fee|✘|leaves the fee out/);
    const doc = jsonOf(await runTxray([hash, '-r', op.url, '--state', '--json']));
    expect(doc.warnings).toEqual([]);
    expect(doc.fee.rules).toBe('op-stack');
    expect(doc.fee.burned).toBe('0');
    expect(BigInt(doc.fee.toBaseFeeVault) + BigInt(doc.fee.tip)).toBe(BigInt(doc.fee.paid));
    const vault = (doc.balanceChanges as Array<{ address: string; delta: string }>).find((b) => b.address === '0x4200000000000000000000000000000000000019');
    expect(vault?.delta).toBe(doc.fee.toBaseFeeVault);
    expect(doc.labels).toMatchObject({ '0x4200000000000000000000000000000000000019': 'BaseFeeVault' });
  });

  test('txray call on it: simulated, named, no warning', async () => {
    const r = await runTxray(['call', showcase, 'run(uint256)', '3', '--value', '10', '--from', DEV.sender, '-r', op.url, '--no-color']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('would succeed');
    expect(r.stdout).toMatch(/Call tree \(14 entries/);
  });
});
