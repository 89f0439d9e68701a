/**
 * A Foundry developer's own contracts, as forge lays them out (contracts/Bank.sol compiled into out/ in
 * the set-up: MyToken with custom errors, and Bank, which keeps the token and its owner as immutables),
 * on a real anvil. What txray says of them must be right: named wherever they appear, their storage
 * named by the layout.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startAnvil } from '../../scripts/lib/anvil.mjs';
import { bankCall, deployBank, DEV, receipt, send, writeBankProject } from '../../scripts/lib/scenarios.mjs';
import { displayWidth } from '../../src/raw/escape.js';
import { jsonOf, runTxray } from '../support/runTxray.js';

let anvil: Awaited<ReturnType<typeof startAnvil>>;
let token: string;
let bank: string;
let deposit: string;
let creation: string;
let refused: string;
let plainValue: string;
let starved: string;
let unapproved: string;
const project = mkdtempSync(join(tmpdir(), 'txray-bank-'));

beforeAll(async () => {
  writeBankProject(project);
  anvil = await startAnvil();
  ({ token, bank, bankCreation: creation } = await deployBank(anvil.rpc));
  await receipt(anvil.rpc, await send(anvil.rpc, { to: token, data: bankCall('MyToken', 'approve', [bank, 10n ** 21n]) }));
  deposit = await send(anvil.rpc, { to: bank, gas: '0x40000', data: bankCall('Bank', 'deposit', [100n * 10n ** 18n]) });
  expect((await receipt(anvil.rpc, deposit)).status).toBe('0x1');
  // DEV.other has nothing in the Bank: NothingToWithdraw(who).
  refused = (await anvil.rpc('eth_sendTransaction', [{ from: DEV.other, to: bank, gas: '0x30000', data: bankCall('Bank', 'withdraw', [1n]) }])) as string;
  // 1 wei with no data to MyToken, which has neither receive() nor fallback().
  plainValue = await send(anvil.rpc, { to: token, value: '0x1', gas: '0x30000' });
  // A deposit with 40,000 gas: MyToken.transferFrom runs out, and Bank re-reverts without data.
  starved = await send(anvil.rpc, { to: bank, gas: '0x9c40', data: bankCall('Bank', 'deposit', [100n]) });
  // DEV.other deposits without an allowance: MyToken.transferFrom reverts with InsufficientAllowance.
  unapproved = (await anvil.rpc('eth_sendTransaction', [{ from: DEV.other, to: bank, gas: '0x30000', data: bankCall('Bank', 'deposit', [123456789n * 10n ** 18n]) }])) as string;
  expect((await receipt(anvil.rpc, refused)).status).toBe('0x0');
  expect((await receipt(anvil.rpc, plainValue)).status).toBe('0x0');
});
afterAll(async () => {
  await anvil?.stop();
});

const run = (args: string[], cwd = project) => runTxray([...args, '-r', anvil.url], {}, undefined, cwd);

describe('a contract with immutables', () => {
  test('is named by its artifact (the bytes its immutables fill in are skipped when code is compared), in text and JSON', async () => {
    const text = await run([deposit]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/To {13}Bank\(0x[0-9a-fA-F]{40}\)/);
    expect(text.stdout).toMatch(/call Bank::deposit\(amount: 100000000000000000000/);
    const doc = jsonOf(await run([deposit, '--json']));
    expect(doc.labels[bank.toLowerCase()]).toBe('Bank');
    expect(doc.labels[token.toLowerCase()]).toBe('MyToken');
  });

  test('--state names its storage by the layout', async () => {
    const r = await run([deposit, '--state']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Bank\(0x[0-9a-fA-F]{40}\) · names from Bank's storage layout\n {6}accounts\[0xf39F…2266\]\.deposited: 0 → 100000000000000000000/);
    const doc = jsonOf(await run([deposit, '--state', '--json']));
    const paths = (doc.storageChanges as Array<{ address: string; variables?: Array<{ path: string }> }>).filter((c) => c.address === bank.toLowerCase()).flatMap((c) => (c.variables ?? []).map((v) => v.path));
    expect(paths).toEqual(['accounts[0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266].deposited', 'accounts[0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266].since']);
  });
});

describe('what else a developer sees of their own contracts', () => {
  test('from a subfolder of the project (src/), the project is found upwards, as forge finds it', async () => {
    const r = await run([deposit], join(project, 'src'));
    expect(r.stdout).toMatch(/To {13}Bank\(0x[0-9a-fA-F]{40}\)/);
  });

  test('a creation\'s input is init code and its constructor, never a selector', async () => {
    const r = await run([creation]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Input +[\d,]+ bytes: constructor\(token_: 0x5FbD…0aa3\) \(init code, Bank, project\)\n/);
    expect(r.stdout).not.toContain('selector');
    expect(jsonOf(await run([creation, '--json'])).function).toMatchObject({ name: 'constructor', contract: 'Bank' });
  });

  test('value with no data to a contract whose ABI has neither receive() nor fallback(): no receive() is made up', async () => {
    const r = await run([plainValue]);
    expect(r.code).toBe(1);
    expect(r.stdout).not.toContain('receive()');
    expect(r.stdout).not.toContain('fallback()');
    expect(r.stdout).toMatch(/call MyToken\(0x5FbDB2315678afecb367f032d93F642f64180aa3\) · 1 wei · \(no data\) · 21,043 gas ✗ Reverted\n/);
    expect(jsonOf(await run([plainValue, '--json'])).calls.function).toBeUndefined();
  });

  test('the summary table of several hashes names a custom error as the single view does', async () => {
    const r = await run([deposit, refused]);
    expect(r.code).toBe(1);
    const row = r.stdout.split('\n').find((l) => l.includes(refused.slice(0, 10)))!;
    expect(row).toContain('NothingToWithdraw(who: 0x7099…79C8)');
    expect(row).not.toContain('custom error 0x');
    // A plain ETH send is not a call to a function named "transfer".
    const sent = (await run([deposit, plainValue])).stdout.split('\n').find((l) => l.includes(plainValue.slice(0, 10)))!;
    expect(sent).toMatch(/│ \(ETH send\) +│/);
  });
});

describe('out of gas in a nested call', () => {
  test('a mined transaction: "out of gas in MyToken.transferFrom", not "reverted without data"; JSON names that frame as the origin and its cause in the same words', async () => {
    expect((await receipt(anvil.rpc, starved)).status).toBe('0x0');
    const r = await run([starved]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/Why it failed\n {2}out of gas in MyToken\.transferFrom \(gas used [\d,]+ of 40,000\)\n/);
    expect(r.stdout).not.toContain('reverted without data');
    const doc = jsonOf(await run([starved, '--json']));
    // The origin frame's own error is the node's word for running out of gas; failure names it, as the text does.
    expect(doc.calls.children[0].error).toMatch(/out of gas/i);
    // raisedIn in the text's words: its "raised in" line.
    const said = r.stdout.split('\n').find((l) => l.startsWith('  raised in '))!;
    expect(doc.failure).toEqual({ error: 'Reverted', revert: { kind: 'empty' }, origin: [0], reason: 'out of gas in MyToken.transferFrom', raisedIn: said.slice('  raised in '.length).trim().replace(/\s+/g, ' ') });
    // The action's sentence and the summary table of several hashes say it in the same words.
    expect(doc.action.summary).toBe('Failed: out of gas in MyToken.transferFrom');
    const row = (await run([deposit, starved])).stdout.split('\n').find((l) => l.includes(starved.slice(0, 10)))!;
    expect(row).toContain('out of gas in MyToken.transferFrom');
  });

  test('txray call --gas-limit says the same before it is sent', async () => {
    const r = await run(['call', bank, 'deposit(uint256)', '100', '--from', DEV.sender, '--gas-limit', '40000']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/Why it would revert\n {2}out of gas in MyToken\.transferFrom \(gas used [\d,]+ of 40,000\)\n/);
    expect(jsonOf(await run(['call', bank, 'deposit(uint256)', '100', '--from', DEV.sender, '--gas-limit', '40000', '--json'])).failure.origin).toEqual([0]);
  });
});

describe('a tree line cut to the terminal', () => {
  test('at 80 columns the arguments give way, never the outcome: gas and the custom error stay', async () => {
    expect((await receipt(anvil.rpc, unapproved)).status).toBe('0x0');
    const r = await runTxray([unapproved, '-r', anvil.url], { COLUMNS: '80' }, undefined, project);
    const line = r.stdout.split('\n').find((l) => l.includes('MyToken::transferFrom'))!;
    // Cut, the outcome drops the word "Reverted" before its reason, and both calls keep their closing parenthesis.
    expect(line, line).toMatch(/└─ call MyToken::transferFrom\(.*\) · [\d,]+ gas ✗ InsufficientAllowance\(.*…\)$/);
    expect(displayWidth(line), line).toBeLessThanOrEqual(80);
  });
});

describe('a bare function name several loaded ABIs have', () => {
  test('the target\'s own ABI (its code matched) decides; else the only one the values fit; else one line that lists them (exit 2)', async () => {
    // Another ABI with a deposit of one argument, of another type: "deposit 100" fits both.
    const other = join(project, 'Other.abi.txt');
    writeFileSync(other, 'deposit(int256 value)\ndeposit(string memo)\n');
    const r = await run(['call', bank, 'deposit', '100', '--from', DEV.sender, '--abi', other]);
    expect(r.stdout).toMatch(/Input +36 bytes: deposit\(amount: 100\) \(0xb6b55f25, project\)/);
    // To MyToken, which has no deposit: its code does not tell, so it stays ambiguous, and no call is simulated.
    const unsure = await run(['call', token, 'deposit', '100', '--from', DEV.sender, '--abi', other]);
    expect(unsure.code).toBe(2);
    expect(unsure.stderr).toMatch(/^txray: deposit with 1 argument is ambiguous \(.*\); give the signature instead\.\n$/);
    // Only one of them takes 'hello': chosen by the value's type, with no request.
    const fits = await run(['call', token, 'deposit', 'hello', '--from', DEV.sender, '--abi', other, '--json']);
    expect(jsonOf(fits).function).toMatchObject({ name: 'deposit', signature: 'deposit(string)' });
  });
});

describe('token amounts', () => {
  test('a transfer shows the token\'s own decimals and symbol (100 MTK, as --state does); JSON keeps the base units beside them', async () => {
    const r = await run([deposit]);
    expect(r.stdout).toMatch(/Transfers \(1\)\n {2}0xf39F…2266 → Bank\(0xe7f1…0512\) {2}100 MTK ERC-20 MyToken\(0x5FbD…0aa3\)\n/);
    const doc = jsonOf(await run([deposit, '--json']));
    expect(doc.transfers).toEqual([expect.objectContaining({ kind: 'ERC-20', amount: '100000000000000000000', symbol: 'MTK', decimals: 18 })]);
    expect((await run([deposit, '--state'])).stdout).toMatch(/-100 MTK/);
  });
});

describe('one convention for the root line\'s gas', () => {
  test('the transaction\'s gas used, as the receipt says it, whatever the tracer (trace_transaction leaves the intrinsic gas out of its root, the callTracer counts it); a revert is "Reverted" in both', async () => {
    const used = BigInt((await receipt(anvil.rpc, unapproved)).gasUsed).toLocaleString('en-US');
    for (const tracer of ['parity', 'geth', 'local']) {
      const r = await run([unapproved, '--tracer', tracer]);
      const root = r.stdout.split('\n').find((l) => l.startsWith('  call Bank::deposit'))!;
      expect(root, tracer).toContain(` · ${used} gas ✗ Reverted: InsufficientAllowance(`);
    }
  });
});
