/**
 * `txray call --tx`: a mined transaction run again, unchanged and changed. A Foundry project with a real
 * bug (test/fixtures/rerun: Bank's withdrawal limit divides basis points by 100,000, so a withdrawal of
 * 30% of a balance reverts with OverLimit) compiled with solc from npm, the buggy build deployed on a
 * real anvil; the fixed build is the project in the working directory. Expected values come from the
 * node: the receipts, and anvil's own debug_traceCall with the same state overrides.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Abi, encodeAbiParameters, getAddress, encodeDeployData, encodeFunctionData, type Hex, keccak256 } from 'viem';
import { describe, expect, test } from 'vitest';
import { DEV, inOneBlock, receipt, send } from '../../scripts/lib/scenarios.mjs';
import { forward, startRpcServer } from '../support/rpcServer.js';
import { jsonOf, type RunResult, runTxray } from '../support/runTxray.js';
import { type Anvil, withAnvil } from '../support/scenarioNode.js';
import { schemaErrors } from '../support/schema.js';
import { writeFoundryProject } from '../support/sourceProject.js';
import { withReport } from '../support/withReport.js';

const fixture = (which: string): string => new URL(`../fixtures/rerun/${which}`, import.meta.url).pathname;
const buggyDir = mkdtempSync(join(tmpdir(), 'txray-rerun-buggy-'));
const fixedDir = mkdtempSync(join(tmpdir(), 'txray-rerun-fixed-'));
const buggy = writeFoundryProject(buggyDir, { fixture: fixture('buggy') });
writeFoundryProject(fixedDir, { fixture: fixture('fixed') });
const FIXED_ARTIFACT = join(fixedDir, 'out', 'Bank.sol', 'Bank.json');
const fixedArtifact = JSON.parse(readFileSync(FIXED_ARTIFACT, 'utf8'));
const abi = buggy.Bank!.abi as Abi;
const BPS = 5000n;
const ETHER = 10n ** 18n;

/** The fixed runtime code as deployed with the buggy one's constructor arguments: its immutables written where solc says. */
function fixedRuntime(owner: string): Hex {
  let code = (fixedArtifact.deployedBytecode.object as string).slice(2);
  const refs = fixedArtifact.deployedBytecode.immutableReferences as Record<string, Array<{ start: number; length: number }>>;
  // The AST ids of limitBps and owner, in declaration order (the fixed build's own ids).
  const [bpsId, ownerId] = Object.keys(refs).map(Number).sort((a, b) => a - b);
  const put = (id: number, word: string): void => {
    for (const { start } of refs[String(id)]!) code = code.slice(0, start * 2) + word + code.slice(start * 2 + 64);
  };
  put(bpsId!, BPS.toString(16).padStart(64, '0'));
  put(ownerId!, owner.slice(2).toLowerCase().padStart(64, '0'));
  return `0x${code}`;
}

const FRESH = '0x000000000000000000000000000000000000beef';
/** Where Bank keeps balanceOf[who] (its mapping at slot 0). */
const balanceSlot = (who: string): Hex => keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [who as Hex, 0n]));

let anvil: Anvil;
let bank: string;
let created: string;
let failed: string;
let dependent: string;
let pending: string;
withAnvil(
  async (rpc) => {
    const deploy = await send(rpc, { data: encodeDeployData({ abi, bytecode: buggy.Bank!.bytecode as Hex, args: [BPS] }) });
    const at = (await receipt(rpc, deploy)).contractAddress as string;
    await receipt(rpc, await send(rpc, { to: at, value: `0x${ETHER.toString(16)}`, data: encodeFunctionData({ abi, functionName: 'deposit' }) }));
    const hash = await send(rpc, { to: at, gas: '0x30000', data: encodeFunctionData({ abi, functionName: 'withdraw', args: [(3n * ETHER) / 10n] }) });
    await receipt(rpc, hash);
    // DEV.other deposits and withdraws in one block: the withdrawal succeeds only after the deposit.
    const later = await inOneBlock(rpc, async () => {
      await rpc('eth_sendTransaction', [{ from: DEV.other, to: at, gas: '0x30000', value: `0x${ETHER.toString(16)}`, data: encodeFunctionData({ abi, functionName: 'deposit' }) }]);
      return rpc('eth_sendTransaction', [{ from: DEV.other, to: at, gas: '0x30000', data: encodeFunctionData({ abi, functionName: 'withdraw', args: [ETHER / 100n] }) }]);
    });
    await receipt(rpc, later);
    // Later, DEV.sender deposits 9 ether more: at the latest block the buggy limit (5%) lets 0.3 ether out.
    await receipt(rpc, await send(rpc, { to: at, value: `0x${(9n * ETHER).toString(16)}`, data: encodeFunctionData({ abi, functionName: 'deposit' }) }));
    // One that stays pending: automine off from here on.
    await rpc('evm_setAutomine', [false]);
    const waiting = await send(rpc, { to: at, gas: '0x30000', data: encodeFunctionData({ abi, functionName: 'withdraw', args: [1n] }) });
    return { bank: at, created: deploy, failed: hash, dependent: later, pending: waiting };
  },
  (s) => {
    ({ anvil, bank, created, failed, dependent, pending } = s);
  },
);

type Trace = { gasUsed: Hex; value?: Hex; error?: string; output?: Hex; logs?: Array<{ address: string; topics: string[]; data: string }>; calls?: Trace[] };

/** anvil's own debug_traceCall (callTracer with logs) of the mined transaction's call at `block`, with `overrides`. */
async function anvilTrace(hash: string, block: string, overrides: Record<string, unknown> | null, change: Record<string, unknown> = {}): Promise<Trace> {
  const tx = await anvil.rpc('eth_getTransactionByHash', [hash]);
  const call = { from: tx.from, to: tx.to, gas: tx.gas, value: tx.value, data: tx.input, ...change };
  return anvil.rpc('debug_traceCall', [call, block, { tracer: 'callTracer', tracerConfig: { withLog: true }, ...(overrides === null ? {} : { stateOverrides: overrides }) }]);
}

/** Every log of a trace, in the order emitted (a failed frame's are none: they never reach a receipt). */
function logsOf(t: Trace): Array<{ address: string; topics: string[]; data: string }> {
  if (t.error !== undefined) return [];
  return [...(t.logs ?? []).map((l) => ({ address: l.address.toLowerCase(), topics: l.topics, data: l.data })), ...(t.calls ?? []).flatMap(logsOf)];
}

const parentOf = async (hash: string): Promise<string> => `0x${(BigInt((await anvil.rpc('eth_getTransactionByHash', [hash])).blockNumber) - 1n).toString(16)}`;
const txray = (args: string[], cwd = fixedDir) => runTxray(['call', ...args, '--rpc-url', anvil.url], {}, undefined, cwd);

describe('txray call --tx: unchanged, it reproduces the receipt', () => {
  test('the failed withdrawal: the same revert and gas as the receipt and anvil\'s own trace, said so; exit 1', async () => {
    const mined = await anvil.rpc('eth_getTransactionReceipt', [failed]);
    const trace: Trace = await anvil.rpc('debug_traceTransaction', [failed, { tracer: 'callTracer' }]);
    const r = await txray(['--tx', failed, '--json']);
    expect(r.code).toBe(1);
    const doc = jsonOf(r);
    expect(schemaErrors(doc)).toBe('');
    expect(doc.replayOf).toMatchObject({ hash: failed, blockNumber: BigInt(mined.blockNumber).toString(), transactionIndex: 0, at: 'position', changed: false, reproduced: true, differences: [] });
    expect(doc.comparison.mined).toEqual({ status: 'reverted', gasUsed: BigInt(mined.gasUsed).toString(), revert: doc.comparison.now.revert, logs: 0 });
    expect(doc.comparison.now).toMatchObject({ status: 'reverted', gasUsed: BigInt(mined.gasUsed).toString(), logs: 0 });
    const limit = ((ETHER * BPS) / 100_000n).toString();
    expect(doc.comparison.now.revert).toMatchObject({ kind: 'custom', name: 'OverLimit', data: trace.output });
    expect(doc.comparison.now.revert.args.map((a: { value: string }) => a.value)).toEqual([((3n * ETHER) / 10n).toString(), limit]);
    const text = (await txray(['--tx', failed])).stdout;
    expect(text).toContain(`Re-run of ${failed} at its position in block ${BigInt(mined.blockNumber)} (index 0): nothing was sent`);
    expect(text).toMatch(/Compared with the mined transaction[^\n]*\n {2}Status +✘ reverted → ✘ reverted \(same\)\n/);
    expect(text).toContain(`Gas used     ${BigInt(mined.gasUsed).toLocaleString('en-US')} → ${BigInt(mined.gasUsed).toLocaleString('en-US')} (same)`);
    expect(text).toContain('Reproduces the receipt: the same status, gas used and logs (address, topics, data, order)');
  });

  test('a contract creation: its init code runs again, the same gas and status as its receipt', async () => {
    const mined = await anvil.rpc('eth_getTransactionReceipt', [created]);
    const doc = jsonOf(await txray(['--tx', created, '--json']));
    expect(doc.replayOf).toMatchObject({ changed: false, reproduced: true });
    expect(doc.comparison.now).toMatchObject({ status: 'success', gasUsed: BigInt(mined.gasUsed).toString(), logs: 0 });
    const r = await txray(['--tx', created, 'withdraw', '1']);
    expect([r.code, r.stderr]).toEqual([2, 'txray: --tx: that transaction creates a contract; its init code runs as it is (no new input).\n']);
  });

  test('one that depends on an earlier transaction of its block: reproduced only by replaying it; on the parent block alone it reverts', async () => {
    const mined = await anvil.rpc('eth_getTransactionReceipt', [dependent]);
    expect(Number(mined.transactionIndex)).toBe(1);
    const doc = jsonOf(await txray(['--tx', dependent, '--json']));
    expect(doc.replayOf).toMatchObject({ at: 'position', reproduced: true, replayedBefore: 1 });
    const text = (await txray(['--tx', dependent])).stdout;
    expect(text).toContain(`at its position in block ${BigInt(mined.blockNumber)} (index 1, after 1 earlier transaction): nothing was sent`);
    expect(text).toContain('Reproduces the receipt: the same status, gas used and logs (address, topics, data, order), after the block\'s earlier transaction\n');
    expect(doc.comparison.now).toEqual({ status: 'success', gasUsed: BigInt(mined.gasUsed).toString(), revert: null, logs: mined.logs.length });
    expect(doc.logs.map((l: { address: string; topics: string[]; data: string }) => [l.address.toLowerCase(), l.topics, l.data])).toEqual(mined.logs.map((l: { address: string; topics: string[]; data: string }) => [l.address.toLowerCase(), l.topics, l.data]));
    // The state before its block has no deposit of DEV.other: the withdrawal is over a limit of 0, as anvil says too.
    const parent = await parentOf(dependent);
    const there = await anvilTrace(dependent, parent, null);
    const r = await txray(['--tx', dependent, '--block', String(BigInt(parent)), '--json']);
    expect(r.code).toBe(1);
    const atParent = jsonOf(r);
    expect(atParent.replayOf).toMatchObject({ at: String(BigInt(parent)), reproduced: null });
    expect(atParent.comparison.now).toMatchObject({ status: 'reverted', gasUsed: BigInt(there.gasUsed).toString(), revert: { name: 'OverLimit', data: there.output } });
    expect(atParent.comparison.mined.status).toBe('success');
  });
});

describe('the failed transaction looked up after the fix was built', () => {
  test('its Bank is said not to match the rebuilt artifact (the same functions and compiler, other code), text and JSON; from the build that deployed it, nothing is said', async () => {
    const warning = `Bank at ${getAddress(bank)} does not match out/Bank.sol/Bank.json (its functions and compiler do; rebuilt since it was deployed?)`;
    const fixed = await runTxray([failed, '--rpc-url', anvil.url], {}, undefined, fixedDir);
    expect(fixed.code).toBe(1);
    expect(fixed.stderr).toContain(`txray: warning: ${warning}\n`);
    expect(jsonOf(await runTxray([failed, '--rpc-url', anvil.url, '--json'], {}, undefined, fixedDir)).warnings).toContain(warning);
    const same = await runTxray([failed, '--rpc-url', anvil.url], {}, undefined, buggyDir);
    expect(same.code).toBe(1);
    expect(same.stdout).toMatch(/ {2}at src\/Bank\.sol:\d+:\d+\n/);
    expect(same.stderr).not.toContain('does not match');
  });
});

describe('txray call --tx with the fixed contract', () => {
  /** The forms of --override-code that all name the fixed build: its Foundry artifact, a Hardhat artifact, a hex file, its name in the project. */
  function forms(): Array<[string, string]> {
    const dir = mkdtempSync(join(tmpdir(), 'txray-rerun-forms-'));
    const hardhat = join(dir, 'Bank.hardhat.json');
    const d = fixedArtifact.deployedBytecode;
    writeFileSync(hardhat, JSON.stringify({ _format: 'hh-sol-artifact-1', contractName: 'Bank', sourceName: 'contracts/Bank.sol', abi: fixedArtifact.abi, bytecode: fixedArtifact.bytecode.object, deployedBytecode: d.object, linkReferences: {}, deployedLinkReferences: {} }));
    const hexFile = join(dir, 'bank.hex');
    writeFileSync(hexFile, `${fixedRuntime(DEV.sender)}\n`);
    return [['a Foundry artifact', FIXED_ARTIFACT], ['a Hardhat artifact', hardhat], ['a file of hex', hexFile], ['its name in the project', 'Bank']];
  }

  test.each(forms())('as %s: it would have succeeded; gas and logs equal anvil\'s debug_traceCall with the same override', async (_form, code) => {
    const want = await anvilTrace(failed, await parentOf(failed), { [bank]: { code: fixedRuntime(DEV.sender) } });
    expect(want.error).toBeUndefined();
    const r = await txray(['--tx', failed, '--override-code', `${bank}:${code}`, '--json']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const doc = jsonOf(r);
    expect(schemaErrors(doc)).toBe('');
    expect(doc.simulation.overrides[bank.toLowerCase()].code).toBe(fixedRuntime(DEV.sender));
    expect(doc.replayOf).toMatchObject({ at: 'position', changed: true, reproduced: null });
    expect(doc.comparison.mined).toMatchObject({ status: 'reverted', revert: { name: 'OverLimit' } });
    expect(doc.comparison.now).toEqual({ status: 'success', gasUsed: BigInt(want.gasUsed).toString(), revert: null, logs: logsOf(want).length });
    expect(doc.logs.map((l: { address: string; topics: string[]; data: string }) => ({ address: l.address.toLowerCase(), topics: l.topics, data: l.data }))).toEqual(logsOf(want));
    // The net changes that differ: the ether the fixed withdrawal paid out (anvil's inner call's value); the mined one moved none.
    const paid = BigInt(want.calls![0]!.value!);
    const differ = doc.comparison.netChanges.map((n: { holder: string; asset: string; mined: string; now: string }) => [n.holder.toLowerCase(), n.asset, n.mined, n.now]);
    expect(differ.sort()).toEqual([[DEV.sender, 'ETH', '0', paid.toString()], [bank.toLowerCase(), 'ETH', '0', (-paid).toString()]].sort());
    // Names from the fixed build: the target and its event.
    expect(doc.labels[bank.toLowerCase()]).toBe('Bank');
    expect(doc.logs[0].event.name).toBe('Withdrawn');
  });

  test('text: the comparison section, mined → now; names and the failing line from the fix', async () => {
    const text = (await txray(['--tx', failed, '--override-code', `${bank}:Bank`])).stdout;
    expect(text).toMatch(/\nCompared with the mined transaction 0x[0-9a-f]{8}…[0-9a-f]{6} \(block \d+, index 0\)\n {2}Status +✘ reverted → ✔ success\n/);
    expect(text).toMatch(/ {2}Revert +OverLimit\(amount: 300000000000000000 \[3e17\], limit: 50000000000000000 \[5e16\]\) → none\n {2}Logs +0 → 1\n {2}Net changes +0xf39F…2266: none → \+0\.3 ETH\n {15}0x5FbD…0aa3 \(now: Bank\): none → −0\.3 ETH\n/);
    // The mined code is the buggy build, which the fixed project's build does not name: the row names the new run's side only.
    expect(text).toContain(`To             Bank(${bank}`.replace(bank, (await anvil.rpc('eth_getTransactionByHash', [failed])).to.replace(/^0x/, '0x')).slice(0, 20));
    // A new input that the fixed limit still refuses: the revert placed in the fixed source.
    const source = readFileSync(join(fixedDir, 'src', 'Bank.sol'), 'utf8').split('\n');
    const line = source.findIndex((l) => l.includes('revert OverLimit(amount, limit);')) + 1;
    const r = await txray(['--tx', failed, '--override-code', `${bank}:Bank`, 'withdraw', '0.6ether', '--json']);
    expect(r.code).toBe(1);
    const doc = jsonOf(r);
    expect(doc.failure.sourceLocation).toMatchObject({ file: 'src/Bank.sol', line });
    expect(doc.comparison.now.revert.args.map((a: { value: string }) => a.value)).toEqual([((6n * ETHER) / 10n).toString(), ((ETHER * BPS) / 10_000n).toString()]);
    const shown = (await txray(['--tx', failed, '--override-code', `${bank}:Bank`, 'withdraw', '0.6ether'])).stdout;
    expect(shown).toContain(`src/Bank.sol:${line}`);
  });

  test('a gas limit too low: out of gas, as anvil says with the same limit and override', async () => {
    const want = await anvilTrace(failed, await parentOf(failed), { [bank]: { code: fixedRuntime(DEV.sender) } }, { gas: '0x7530' });
    expect(want.error).toBeDefined();
    const r = await txray(['--tx', failed, '--override-code', `${bank}:Bank`, '--gas-limit', '30000', '--json']);
    expect(r.code).toBe(1);
    const doc = jsonOf(r);
    expect(doc.comparison.now).toMatchObject({ status: 'reverted', gasUsed: BigInt(want.gasUsed).toString(), logs: 0 });
    expect(doc.failure.error).toMatch(/out of gas/i);
  });
});

describe('txray call --tx: the other changes', () => {
  test('the mined side as its own lookup says it: an override\'s contract name only for the new run, the mined revert decoded as `txray <hash>` decodes it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'txray-rerun-names-'));
    // Sink: code that stops at once, in a Hardhat artifact of its own name.
    const sink = join(dir, 'Sink.json');
    writeFileSync(sink, JSON.stringify({ _format: 'hh-sol-artifact-1', contractName: 'Sink', sourceName: 'contracts/Sink.sol', abi: [], bytecode: '0x6000', deployedBytecode: '0x00', linkReferences: {}, deployedLinkReferences: {} }));
    // From the buggy project, whose build names the mined code.
    const lookedUp = jsonOf(await runTxray([dependent, '--json', '--rpc-url', anvil.url], {}, undefined, buggyDir));
    const minedName = lookedUp.labels[bank.toLowerCase()];
    expect(minedName).toBe('Bank');
    const doc = jsonOf(await txray(['--tx', dependent, '--override-code', `${bank}:${sink}`, '--json'], buggyDir));
    expect(schemaErrors(doc)).toBe('');
    expect(doc.labels[bank.toLowerCase()]).toBe('Sink');
    const row = doc.comparison.netChanges.find((n: { holder: string }) => n.holder.toLowerCase() === bank.toLowerCase());
    expect(row.names).toEqual({ mined: minedName, now: 'Sink' });
    const text = (await txray(['--tx', dependent, '--override-code', `${bank}:${sink}`], buggyDir)).stdout;
    const short = `${getAddress(bank).slice(0, 6)}…${getAddress(bank).slice(-4)}`;
    expect(text).toMatch(new RegExp(` {2}${short} \\(mined: ${minedName}, now: Sink\\): −[\\d.]+ ETH → none\\n`));
    expect(text.split('Compared with the mined transaction')[1]!.split('\nLogs (')[0]).not.toContain(`Sink(${short})`);
    // A Hardhat artifact of the fix (its ABI loaded as --abi's are): the mined revert's names still come from the project, as the plain lookup's.
    const hardhat = join(dir, 'Bank.hardhat.json');
    writeFileSync(hardhat, JSON.stringify({ _format: 'hh-sol-artifact-1', contractName: 'Bank', sourceName: 'contracts/Bank.sol', abi: fixedArtifact.abi, bytecode: fixedArtifact.bytecode.object, deployedBytecode: fixedArtifact.deployedBytecode.object, linkReferences: {}, deployedLinkReferences: {} }));
    const plain = jsonOf(await runTxray([failed, '--json', '--rpc-url', anvil.url], {}, undefined, fixedDir)).failure.revert;
    const rerun = jsonOf(await txray(['--tx', failed, '--override-code', `${bank}:${hardhat}`, '--json'])).comparison.mined.revert;
    expect({ source: rerun.source, contract: rerun.contract, name: rerun.name }).toEqual({ source: plain.source, contract: plain.contract, name: plain.name });
    expect(plain.source).toBe('project');
  });

  test('a successful one with too little gas: the comparison says out of gas, as the failure does (text and JSON)', async () => {
    const r = await txray(['--tx', dependent, '--gas-limit', '30000', '--json']);
    expect(r.code).toBe(1);
    const doc = jsonOf(r);
    expect(schemaErrors(doc)).toBe('');
    expect(doc.failure).toMatchObject({ error: expect.stringMatching(/out of gas/i), revert: null });
    expect(doc.comparison.mined).toMatchObject({ status: 'success', revert: null });
    expect(doc.comparison.mined.error).toBeUndefined();
    expect(doc.comparison.now).toMatchObject({ status: 'reverted', revert: null, error: doc.failure.error });
    const text = (await txray(['--tx', dependent, '--gas-limit', '30000'])).stdout;
    expect(text).toContain(`Failed: ${doc.failure.error}`);
    expect(text).toMatch(new RegExp(`\\n {2}Revert +none → ${doc.failure.error}\\n`));
    expect(text).not.toContain('not known');
  });

  test('--state at its position: the fixed withdrawal\'s storage change, as anvil\'s prestateTracer with the same override', async () => {
    const overrides = { [bank]: { code: fixedRuntime(DEV.sender) } };
    const tx = await anvil.rpc('eth_getTransactionByHash', [failed]);
    const diff = await anvil.rpc('debug_traceCall', [{ from: tx.from, to: tx.to, gas: tx.gas, data: tx.input }, await parentOf(failed), { tracer: 'prestateTracer', tracerConfig: { diffMode: true }, stateOverrides: overrides }]);
    const slot = balanceSlot(DEV.sender);
    const key = Object.keys(diff.post).find((a) => a.toLowerCase() === bank.toLowerCase())!;
    const doc = jsonOf(await txray(['--tx', failed, '--override-code', `${bank}:Bank`, '--state', '--json']));
    const change = doc.storageChanges.find((c: { address: string; slot: string }) => c.address.toLowerCase() === bank.toLowerCase() && c.slot === slot);
    expect([BigInt(change.before), BigInt(change.after)]).toEqual([BigInt(diff.pre[key].storage[slot]), BigInt(diff.post[key].storage[slot])]);
  });

  test('--block latest after the state changed: the later deposit lets it through, as anvil\'s debug_traceCall at latest says', async () => {
    const latest = await anvil.rpc('eth_blockNumber', []);
    const want = await anvilTrace(failed, latest, null);
    const doc = jsonOf(await txray(['--tx', failed, '--block', 'latest', '--json']));
    expect(doc.replayOf).toMatchObject({ at: String(BigInt(latest)), changed: false, reproduced: null });
    expect(doc.simulation.method).toBe('debug_traceCall');
    expect(doc.comparison.now).toEqual({ status: want.error === undefined ? 'success' : 'reverted', gasUsed: BigInt(want.gasUsed).toString(), revert: null, logs: logsOf(want).length });
    expect(doc.comparison.now.status).toBe('success');
  });

  test('--override-state-diff and the same as --state-override\'s file: a larger balance lifts the limit; equal to anvil with the same overrides', async () => {
    const slot = balanceSlot(DEV.sender);
    const stateDiff = { [slot]: `0x${(10n * ETHER).toString(16).padStart(64, '0')}` };
    const want = await anvilTrace(failed, await parentOf(failed), { [bank]: { stateDiff } });
    const viaOption = jsonOf(await txray(['--tx', failed, '--override-state-diff', `${bank}:${slot}:10ether`, '--json']));
    const file = join(mkdtempSync(join(tmpdir(), 'txray-rerun-state-')), 'state.json');
    writeFileSync(file, JSON.stringify({ [bank]: { stateDiff } }));
    const viaFile = jsonOf(await txray(['--tx', failed, '--state-override', file, '--json']));
    for (const doc of [viaOption, viaFile]) {
      expect(doc.comparison.now).toEqual({ status: 'success', gasUsed: BigInt(want.gasUsed).toString(), revert: null, logs: logsOf(want).length });
      expect(doc.simulation.overrides).toEqual({ [bank.toLowerCase()]: { stateDiff } });
    }
  });

  test('--from another sender with --override-balance and --override-nonce (and --state-override\'s state): as anvil runs it', async () => {
    const overrides = { [FRESH]: { balance: '0xde0b6b3a7640000', nonce: '0x7' } };
    const want = await anvilTrace(failed, await parentOf(failed), overrides, { from: FRESH });
    const r = await txray(['--tx', failed, '--from', FRESH, '--override-balance', `${FRESH}:1ether`, '--override-nonce', `${FRESH}:7`, '--json']);
    const doc = jsonOf(r);
    expect(doc.transaction.from.toLowerCase()).toBe(FRESH);
    expect(doc.comparison.now).toMatchObject({ status: want.error === undefined ? 'success' : 'reverted', gasUsed: BigInt(want.gasUsed).toString(), revert: { name: 'OverLimit', data: want.output } });
    // `state` replaces the whole storage: the sender's balance reads as zero, so does its limit.
    const file = join(mkdtempSync(join(tmpdir(), 'txray-rerun-state-')), 'state.json');
    writeFileSync(file, JSON.stringify({ [bank]: { state: {} } }));
    const cleared = await anvilTrace(failed, await parentOf(failed), { [bank]: { state: {} } });
    const doc2 = jsonOf(await txray(['--tx', failed, '--state-override', file, '--json']));
    expect(doc2.comparison.now).toMatchObject({ status: 'reverted', gasUsed: BigInt(cleared.gasUsed).toString(), revert: { name: 'OverLimit', data: cleared.output } });
  });

  test('--value and a new input with --data: the new call runs, as anvil runs it', async () => {
    const data = encodeFunctionData({ abi, functionName: 'deposit' });
    const want = await anvilTrace(failed, await parentOf(failed), null, { data, value: '0x64' });
    const doc = jsonOf(await txray(['--tx', failed, '--data', data, '--value', '100', '--json']));
    expect(doc.comparison.now).toEqual({ status: 'success', gasUsed: BigInt(want.gasUsed).toString(), revert: null, logs: logsOf(want).length });
    expect(doc.transaction.value).toBe('0x64');
  });
});

describe('the new override forms in a plain txray call', () => {
  test('--override-code <addr>:<name> and --state-override: the call runs the fixed build, as anvil\'s debug_traceCall with the same overrides', async () => {
    const latest = await anvil.rpc('eth_blockNumber', []);
    const data = encodeFunctionData({ abi, functionName: 'withdraw', args: [ETHER] });
    const slot = balanceSlot(DEV.sender);
    const overrides = { [bank.toLowerCase()]: { code: fixedRuntime(DEV.sender), stateDiff: { [slot]: `0x${(2n * ETHER).toString(16).padStart(64, '0')}` } } };
    const want: Trace = await anvil.rpc('debug_traceCall', [{ from: DEV.sender, to: bank, data }, latest, { tracer: 'callTracer', tracerConfig: { withLog: true }, stateOverrides: overrides }]);
    const file = join(mkdtempSync(join(tmpdir(), 'txray-rerun-plain-')), 'state.json');
    writeFileSync(file, JSON.stringify({ [bank]: { stateDiff: overrides[bank.toLowerCase()]!.stateDiff } }));
    const r = await txray([bank, 'withdraw', '1ether', '--from', DEV.sender, '--block', String(BigInt(latest)), '--override-code', `${bank}:Bank`, '--state-override', file, '--json']);
    const doc = jsonOf(r);
    expect(doc.simulation.overrides).toEqual(overrides);
    expect(doc.replayOf).toBeUndefined();
    expect([r.code, doc.status, doc.simulation.gasUsed]).toEqual([want.error === undefined ? 0 : 1, want.error === undefined ? 'success' : 'reverted', BigInt(want.gasUsed).toString()]);
    expect(doc.labels[bank.toLowerCase()]).toBe('Bank');
  });
});

describe('txray call --tx on an endpoint that serves no trace or debug methods', () => {
  test('the same re-runs, unchanged and fixed: run here, the mined revert from a local run of the mined transaction', async () => {
    const bare = await startRpcServer(({ method, params }) => (/^(debug|trace)_/.test(method) ? { error: { code: -32601, message: 'Method not found' } } : forward(anvil.url, method, params)));
    try {
      const through = (args: string[]) => runTxray(['call', ...args, '--rpc-url', bare.url, '--json'], {}, undefined, fixedDir);
      const direct = (args: string[]) => runTxray(['call', ...args, '--rpc-url', anvil.url, '--json'], {}, undefined, fixedDir);
      for (const args of [['--tx', failed], ['--tx', failed, '--override-code', `${bank}:Bank`], ['--tx', failed, '--block', 'latest']]) {
        const [a, b] = [await through(args), await direct(args)];
        expect(a.code).toBe(b.code);
        expect(jsonOf(a).comparison).toEqual(jsonOf(b).comparison);
        expect(jsonOf(a).replayOf).toEqual(jsonOf(b).replayOf);
      }
      expect(bare.requests.some((r) => r.method === 'debug_traceTransaction')).toBe(true);
    } finally {
      await bare.close();
    }
  });
});

describe('txray call --tx --record, replayed with no node, no network and no project', () => {
  test('unchanged, and with --override-code from an artifact file and from a project name: the same text, JSON and comparison', async () => {
    // The node behind a front that is closed before the replays: nothing answers at the recorded endpoint.
    const front = await startRpcServer(({ method, params }) => forward(anvil.url, method, params));
    const work = mkdtempSync(join(tmpdir(), 'txray-rerun-record-'));
    // The artifact in a folder removed after recording: the replay can only take its code from the recording.
    mkdirSync(join(work, 'art'));
    const artifact = join(work, 'art', 'Bank.json');
    copyFileSync(FIXED_ARTIFACT, artifact);
    const empty = mkdtempSync(join(tmpdir(), 'txray-rerun-empty-'));
    const cases: Array<[string, string[]]> = [
      ['unchanged', ['--tx', failed]],
      ['an artifact file', ['--tx', failed, '--override-code', `${bank}:${artifact}`]],
      ['a project contract name', ['--tx', failed, '--override-code', `${bank}:Bank`]],
    ];
    const live = new Map<string, RunResult[]>();
    try {
      for (const [name, args] of cases) {
        const file = join(work, `${name}.rec`);
        const text = await runTxray(['call', ...args, '--rpc-url', front.url, '--record', file], {}, undefined, fixedDir);
        const json = await runTxray(['call', ...args, '--rpc-url', front.url, '--json'], {}, undefined, fixedDir);
        live.set(name, [text, json]);
      }
    } finally {
      await front.close();
    }
    rmSync(join(work, 'art'), { recursive: true });
    const closed = `http://127.0.0.1:${front.port}`;
    const offline = { HTTP_PROXY: closed, HTTPS_PROXY: closed, http_proxy: closed, https_proxy: closed };
    for (const [name] of cases) {
      const file = join(work, `${name}.rec`);
      const [text, json] = live.get(name)!;
      // The live runs went as the tests above say: the mined revert compared with the run now.
      // Unchanged, the mined Bank's code ran in the fixed project: said, as the lookup says it.
      const rebuilt = `txray: warning: Bank at ${getAddress(bank)} does not match out/Bank.sol/Bank.json (its functions and compiler do; rebuilt since it was deployed?)\n`;
      expect([text!.code, text!.stderr], name).toEqual(name === 'unchanged' ? [1, rebuilt] : [0, '']);
      expect(text!.stdout).toContain('Compared with the mined transaction');
      expect(jsonOf(json!).comparison.mined.status).toBe('reverted');
      const again = await runTxray(['replay', file], offline, undefined, empty);
      expect(again.stdout, name).toBe(text!.stdout);
      expect(again.code).toBe(text!.code);
      expect(again.stderr).toMatch(/^txray: replayed from .*, recorded \S+\n/);
      expect(again.stderr.replace(/^.*\n/, '')).toBe(text!.stderr);
      const againJson = await runTxray(['replay', file, '--json'], offline, undefined, empty);
      expect(againJson.stdout, name).toBe(json!.stdout);
      expect(againJson.code).toBe(json!.code);
      expect(jsonOf(againJson).comparison).toEqual(jsonOf(json!).comparison);
    }
    // The fixed build's code, named from its artifact, ran in the replays as live.
    expect(jsonOf(live.get('an artifact file')![1]!).comparison.now.status).toBe('success');
  });
});

describe('txray call --tx: the report', () => {
  test('--html shows the comparison, mined → now, in a real Chromium', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'txray-rerun-html-')), 'rerun.html');
    const r = await txray(['--tx', failed, '--override-code', `${bank}:Bank`, '--html', file, '--quiet']);
    expect(r.code).toBe(0);
    await withReport(file, async (page, problems) => {
      const section = page.locator('section', { has: page.locator('h2', { hasText: 'Compared with the mined transaction' }) });
      const rows = await section.locator('tbody tr').allInnerTexts();
      expect(rows.map((t) => t.split('\t').map((c) => c.trim()))).toEqual([
        ['status', '✘ reverted', '✔ success'],
        ['gas used', expect.stringMatching(/^[\d,]+$/), expect.stringMatching(/^[\d,]+$/)],
        ['revert', expect.stringMatching(/^OverLimit\(/), 'none'],
        ['logs', '0', '1'],
        ['net change 0xf39F…2266', 'none', '+0.3 ETH'],
        ['net change 0x5FbD…0aa3 (now: Bank)', 'none', '−0.3 ETH'],
      ]);
      expect(await page.locator('header').innerText()).toMatch(new RegExp(`re-run of\\s+${failed} at its position in block \\d+ \\(index 0\\), changed: nothing was sent`));
      expect(problems).toEqual([]);
    });
  });
});

describe('txray call --tx: errors', () => {
  const NOWHERE = 'http://127.0.0.1:9';
  const offline = (args: string[]) => runTxray(['call', ...args, '--rpc-url', NOWHERE], {}, undefined, fixedDir);

  test('an unknown hash is exit 3, one line', async () => {
    const r = await txray(['--tx', `0x${'ab'.repeat(32)}`]);
    expect([r.code, r.stdout]).toEqual([3, '']);
    expect(r.stderr).toMatch(/^txray: .* does not know transaction 0x(ab){32}: wrong chain, not broadcast yet, or dropped; nothing was run\.\n$/);
  });

  test('a pending one has no position: a clear line; at --block pending it runs, with nothing mined to compare', async () => {
    const r = await txray(['--tx', pending]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^txray: transaction 0x[0-9a-f]{8}…[0-9a-f]{6} is pending: it has no position in a block yet; run it on the pending state with --block pending\.\n$/);
    const waiting = await anvil.rpc('eth_getBlockByNumber', ['pending', false]);
    expect((await txray(['--tx', pending, '--block', 'pending'])).stdout).toContain(`on the pending state (block ${BigInt(waiting.number)}, not mined yet): nothing was sent`);
    const doc = jsonOf(await txray(['--tx', pending, '--block', 'pending', '--json']));
    expect(doc.replayOf).toMatchObject({ hash: pending, blockNumber: null, transactionIndex: null });
    expect(doc.comparison).toBeNull();
  });

  test('refused at its position (no funds for its fee, a nonce, a gas limit under its intrinsic gas): exit 5, one line in the node\'s words', async () => {
    const tx = await anvil.rpc('eth_getTransactionByHash', [failed]);
    // anvil's debug_traceCall refuses the same call, priced as it was mined, on a zero balance.
    await expect(anvilTrace(failed, await parentOf(failed), { [tx.from]: { balance: '0x0' } }, { gasPrice: tx.gasPrice })).rejects.toThrow(/insufficient funds for gas \* price \+ value/i);
    const cases: Array<[string[], RegExp]> = [
      [['--tx', failed, '--override-balance', `${tx.from}:0`], /^txray: --tx: insufficient funds for gas \* price \+ value at its position: the sender 0x[0-9a-f]{40} has 0 wei and it needs [\d,]+ wei; nothing was run\.\n$/],
      [['--tx', failed, '--override-nonce', `${tx.from}:99`], new RegExp(`^txray: --tx: nonce too low at its position: the sender 0x[0-9a-f]{40} is at nonce 99 and the transaction has ${BigInt(tx.nonce)}; nothing was run\\.\\n$`)],
      [['--tx', created, '--gas-limit', '30000'], /^txray: --tx: intrinsic gas too low at its position: the gas limit is 30,000 and it needs at least [\d,]+; nothing was run\.\n$/],
    ];
    for (const [args, message] of cases) {
      const r = await txray(args);
      expect([r.code, r.stdout]).toEqual([5, '']);
      expect(r.stderr).toMatch(message);
    }
  });

  test.each([
    ['a missing artifact file', ['--override-code', `${FRESH}:./build/Nope.json`], /^txray: --override-code \.\/build\/Nope\.json: no such file\.\n$/],
    ['a contract name the project lacks', ['--override-code', `${FRESH}:Vault`], /^txray: --override-code: the project in the working directory has no contract Vault with runtime code in its build/],
    ['a contract name a typo away from the project\'s', ['--override-code', `${FRESH}:Bnak`], /^txray: --override-code: the project in the working directory has no contract Bnak with runtime code in its build; did you mean Bank\?\n$/],
    ['an address and a colon with nothing after it', ['--override-code', `${FRESH}:`], /^txray: --override-code takes <address>:<code>, the code as runtime hex \(0x…\), an artifact file \(Foundry or Hardhat\), a file of hex, or the name of a contract of the project, not '0x[0-9a-f]{40}:'\.\n$/],
    ['an address and nothing after it', ['--override-code', FRESH], /^txray: --override-code takes <address>:<code>, the code as runtime hex \(0x…\), an artifact file \(Foundry or Hardhat\), a file of hex, or the name of a contract of the project, not '0x[0-9a-f]{40}'\.\n$/],
    ['bad hex', ['--override-code', `${FRESH}:0xzz`], /^txray: --override-code takes runtime code as hex bytes/],
    ['an artifact without deployed bytecode', ['--override-code', `${FRESH}:ABI`], /^txray: --override-code .*ABI\.json: the artifact has no deployed bytecode/],
    ['a state-override file with state and stateDiff', ['--state-override', 'BOTH'], /^txray: --state-override .*both\.json: 0x0{36}beef has both state and stateDiff/],
    ['a state-override file that is not JSON', ['--state-override', 'NOTJSON'], /^txray: --state-override .*bad\.json: not valid JSON\.\n$/],
    ['--tx with --raw', ['--raw', '0x02'], /^txray: --tx runs a mined transaction again: it takes no --raw\.\n$/],
  ])('%s: exit 2, one line naming it, before any request', async (_what, extra, message) => {
    const dir = mkdtempSync(join(tmpdir(), 'txray-rerun-bad-'));
    const files: Record<string, string> = { ABI: join(dir, 'ABI.json'), BOTH: join(dir, 'both.json'), NOTJSON: join(dir, 'bad.json') };
    writeFileSync(files.ABI!, JSON.stringify({ abi: fixedArtifact.abi }));
    writeFileSync(files.BOTH!, JSON.stringify({ [FRESH]: { state: {}, stateDiff: {} } }));
    writeFileSync(files.NOTJSON!, '{ nope');
    const r = await offline(['--tx', failed, ...extra.map((a) => a.replace(/ABI|BOTH|NOTJSON/, (k) => files[k]!))]);
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.split('\n').length).toBe(2);
  });
});
