/**
 * A real Hardhat node (npm hardhat@2, started and stopped here like anvil), which serves no call tracer:
 * every scenario transaction is re-executed locally and shows what anvil's own callTracer shows for the
 * same transaction (the two nodes run the same scenarios from the same accounts), matched against
 * Hardhat's receipts; a deep chain, 1,000 calls (and the node still answering), --state, a 7702
 * transaction, txray call, --html and --gas. Run from a Foundry project so that errors have names.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startAnvil } from '../../scripts/lib/anvil.mjs';
import { startHardhat } from '../../scripts/lib/hardhat.mjs';
import { call, crowdedBlock, DEV, deployData, dependentRevert, makeScenarios, receipt, send, writeFoundryProject } from '../../scripts/lib/scenarios.mjs';
import { jsonOf, runTxray } from '../support/runTxray.js';
import { schemaErrors } from '../support/schema.js';

type Node = Awaited<ReturnType<typeof startAnvil>>;
type Scenarios = Awaited<ReturnType<typeof makeScenarios>>;
let hardhat: Node;
let anvil: Node;
let onHardhat: Scenarios;
let onAnvil: Scenarios;
let fanout: string;

beforeAll(async () => {
  [hardhat, anvil] = await Promise.all([startHardhat(), startAnvil()]);
  onHardhat = await makeScenarios(hardhat.rpc, { skip: ['destroyOld'] });
  onAnvil = await makeScenarios(anvil.rpc);
  fanout = (await receipt(hardhat.rpc, await send(hardhat.rpc, { data: deployData('Fanout') }))).contractAddress;
}, 120_000);
afterAll(async () => {
  await Promise.all([hardhat?.stop(), anvil?.stop()]);
});

const project = mkdtempSync(join(tmpdir(), 'txray-hardhat-'));
writeFoundryProject(project);
const run = (args: string[]) => runTxray(args, {}, undefined, project);

type Frame = { type: string; callType?: string; from: string; to: string; value: string | null; input: string; output: string | null; error: string | null; logs?: number[]; children: Frame[] };
const shape = (n: Frame): unknown => ({
  type: n.type,
  callType: n.callType,
  from: n.from,
  to: n.to,
  input: n.input,
  output: n.error !== null && n.output === null ? null : n.output,
  failed: n.error !== null,
  logs: n.logs,
  children: n.children.map(shape),
});

const NAMES = ['showcase', 'reason', 'panicIndex', 'overflow', 'custom', 'deep', 'outOfGas', 'invalid', 'evil', 'recursion', 'setCode', 'creation', 'legacyTransfer', 'tokenTransfer', 'tokenFail', 'receive', 'stateShow'];

describe('Hardhat: no call tracer, every transaction re-executed here', () => {
  test.each(NAMES)('%s: the tree anvil\'s callTracer gives for the same transaction, matched to Hardhat\'s receipt', async (name) => {
    const hh = (onHardhat.hashes as Record<string, string>)[name]!;
    const r = await run([hh, '-r', hardhat.url, '--json']);
    const doc = jsonOf(r);
    expect(schemaErrors(doc)).toBe('');
    expect(doc.traceSource).toBe('local');
    expect(doc.warnings).toEqual([]);
    const reference = jsonOf(await run([(onAnvil.hashes as Record<string, string>)[name]!, '-r', anvil.url, '--tracer', 'geth', '--json']));
    expect(doc.status).toBe(reference.status);
    expect(r.code).toBe(doc.status === 'success' ? 0 : 1);
    expect(shape(doc.calls)).toEqual(shape(reference.calls));
    expect(doc.failure?.revert ?? null).toEqual(reference.failure?.revert ?? null);
  });

  test('text: the reason, the custom error by name, events inside their frames, and one line that says how', async () => {
    const r = await run([(onHardhat.hashes as Record<string, string>).tokenFail!, '-r', hardhat.url]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('InsufficientBalance(who: 0xf39F…2266');
    expect(r.stdout).toMatch(/re-executed locally on the node's state at block \d+ \(http:\/\/127\.0\.0\.1:\d+ serves no call tracer\); it matched the receipt/);
    const show = await run([(onHardhat.hashes as Record<string, string>).showcase!, '-r', hardhat.url]);
    expect(show.stdout).toMatch(/├─ call Child\(0x[0-9a-fA-F]{4}…[0-9a-fA-F]{4}\)::ping\(x: 7\) · 2 wei · [\d,]+ gas ← 8\n {2}│ {2}└─ event #0 Child\(0x[0-9a-fA-F]{4}…[0-9a-fA-F]{4}\) Pinged/);
  });

  test('a transfer that reverted only because an earlier one in its block spent the balance: replayed after it, the revert anvil\'s tracer gives, matched to Hardhat\'s receipt', async () => {
    const [hh, av] = await Promise.all([dependentRevert(hardhat.rpc, onHardhat.token), dependentRevert(anvil.rpc, onAnvil.token)]);
    expect((await receipt(hardhat.rpc, hh.second)).status).toBe('0x0');
    const r = await run([hh.second, '-r', hardhat.url, '--json']);
    expect(r.code).toBe(1);
    const doc = jsonOf(r);
    expect(doc.warnings).toEqual([]);
    expect(doc.traceSource).toBe('local');
    expect(doc.reexecution).toMatchObject({ replayed: 1, matchedReceipt: true, differences: [] });
    const reference = jsonOf(await run([av.second, '-r', anvil.url, '--tracer', 'geth', '--json']));
    expect(shape(doc.calls)).toEqual(shape(reference.calls));
    expect(doc.failure.revert).toEqual(reference.failure.revert);
    expect(doc.failure.revert).toMatchObject({ name: 'InsufficientBalance' });
    const text = await run([hh.second, '-r', hardhat.url]);
    expect(text.stdout).toMatch(/Why it failed\n {2}InsufficientBalance\(who: 0x7099…79C8, have: 1, want: 2\)/);
    expect(text.stdout).toMatch(/after the block's 1 earlier transaction \(http:\/\/127\.0\.0\.1:\d+ serves no call tracer\); it matched the receipt/);
  });

  test('the last of a crowded block (its sender\'s 100 earlier transactions: the nonce is ahead of the parent\'s state): replayed after them, as anvil\'s tracer shows it', async () => {
    const [hh, av] = [await crowdedBlock(hardhat.rpc, onHardhat.token, 100), await crowdedBlock(anvil.rpc, onAnvil.token, 100)];
    expect(hh.index).toBe(100);
    const doc = jsonOf(await run([hh.hash, '-r', hardhat.url, '--json']));
    expect(doc.warnings).toEqual([]);
    expect(doc.reexecution).toMatchObject({ replayed: 100, matchedReceipt: true });
    const reference = jsonOf(await run([av.hash, '-r', anvil.url, '--tracer', 'geth', '--json']));
    expect(shape(doc.calls)).toEqual(shape(reference.calls));
  });

  test('1,000 calls with 1,000 events: the whole tree, and the node still answers afterwards', async () => {
    const hash = await send(hardhat.rpc, { to: fanout, gas: '0x2000000', data: call('Fanout', 'many', [1000n]) });
    expect((await receipt(hardhat.rpc, hash)).status).toBe('0x1');
    const doc = jsonOf(await run([hash, '-r', hardhat.url, '--json']));
    expect(doc.traceSource).toBe('local');
    expect(doc.warnings).toEqual([]);
    expect(doc.calls.children).toHaveLength(1000);
    expect(doc.logs).toHaveLength(1000);
    expect(await hardhat.rpc('eth_blockNumber', [])).toMatch(/^0x[0-9a-f]+$/);
  });

  test('--state: the balance, storage and account changes anvil\'s prestateTracer gives', async () => {
    const hh = jsonOf(await run([(onHardhat.hashes as Record<string, string>).stateShow!, '-r', hardhat.url, '--state', '--json']));
    const reference = jsonOf(await run([(onAnvil.hashes as Record<string, string>).stateShow!, '-r', anvil.url, '--tracer', 'geth', '--state', '--json']));
    expect(hh.stateSource).toBe('local');
    expect(hh.warnings).toEqual([]);
    const sorted = (rows: unknown[]) => rows.map((x) => JSON.stringify(x)).sort();
    expect(sorted(hh.storageChanges)).toEqual(sorted(reference.storageChanges));
    // Token rows are the same; ETH rows differ only by the fee each node charged (their base fees differ).
    expect(sorted(hh.balanceChanges.filter((b: any) => b.asset !== 'ETH'))).toEqual(sorted(reference.balanceChanges.filter((b: any) => b.asset !== 'ETH')));
  });

  test('txray call: simulated on Hardhat\'s state by txray\'s own EVM, the custom error by name, the state diff', async () => {
    const fail = await run(['call', onHardhat.token, 'transfer', DEV.other, '100000000ether', '--from', DEV.sender, '-r', hardhat.url, '--json']);
    expect(fail.code).toBe(1);
    const doc = jsonOf(fail);
    expect(schemaErrors(doc)).toBe('');
    expect(doc.simulation.method).toBe('local');
    expect(doc.failure.revert.name).toBe('InsufficientBalance');
    const ok = jsonOf(await run(['call', onHardhat.token, 'transfer(address,uint256)', DEV.other, '2', '--from', DEV.sender, '-r', hardhat.url, '--state', '--json']));
    expect(ok.status).toBe('success');
    expect(ok.stateSource).toBe('local');
    expect(ok.logs[0].event.name).toBe('Transfer');
    const overridden = await run(['call', '0x00000000000000000000000000000000000000aa', '--value', '1ether', '--from', '0x00000000000000000000000000000000000c0ffe', '--override-balance', '0x00000000000000000000000000000000000c0ffe:2ether', '-r', hardhat.url, '--json']);
    expect(jsonOf(overridden).transfers).toEqual([expect.objectContaining({ kind: 'ETH', amount: '1000000000000000000' })]);
  });

  test('--html and --gas work the same', async () => {
    const file = join(project, 'hardhat.html');
    const hash = (onHardhat.hashes as Record<string, string>).showcase!;
    const r = await run([hash, '-r', hardhat.url, '--gas', '--html', file]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Gas profile \(\d+ functions, \d+ calls\)/);
    const embedded = /<script type="application\/json" id="txray-data">(.*)<\/script>$/m.exec(readFileSync(file, 'utf8'));
    expect(JSON.parse(embedded![1]!)).toEqual(jsonOf(await run([hash, '-r', hardhat.url, '--json'])));
  });
});
