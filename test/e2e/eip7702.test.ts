/**
 * EIP-7702 and nested call data on a real anvil (--hardfork prague), with the published bytecode of
 * @account-abstraction/contracts (Simple7702Account, EntryPoint v0.8): an EOA delegates to
 * Simple7702Account and batches token calls through itself in one type-4 transaction, beside an
 * authorization with a wrong nonce and a revocation; an authorization whose nonce is right only after an
 * earlier transaction of the same block; envelopes' call data (handleOps, aggregate3) read by txray call.
 * Every expected value comes from the node: the transaction's authorizationList, eth_getCode,
 * eth_getTransactionCount, the token's Transfer events.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Abi } from 'abitype';
import { encodeFunctionData, getAddress, parseAbi, parseGwei } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { launchBrowser } from '../../scripts/lib/browser.mjs';
import { call, DEV, deployData, FRESH, inOneBlock, receipt, send, writeFoundryProject } from '../../scripts/lib/scenarios.mjs';
import { type Anvil, withAnvil } from '../support/scenarioNode.js';
import { jsonOf, runTxray } from '../support/runTxray.js';
import { schemaErrors } from '../support/schema.js';

const AA = new URL('../../node_modules/@account-abstraction/contracts/artifacts/', import.meta.url);
const SIMPLE_PATH = new URL('Simple7702Account.json', AA).pathname;
const artifact = (name: string): { abi: Abi; bytecode: `0x${string}` } => JSON.parse(readFileSync(new URL(`${name}.json`, AA), 'utf8'));
const SIMPLE = artifact('Simple7702Account');
const ENTRY_POINT = artifact('EntryPoint');

// anvil's default accounts #1 to #5 (public test keys of its default mnemonic).
const eoa = privateKeyToAccount(DEV.otherKey as `0x${string}`);
const late = privateKeyToAccount('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a');
const revoker = privateKeyToAccount('0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6');
const busy = privateKeyToAccount('0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a');
const selfish = privateKeyToAccount('0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba');
const sponsor = privateKeyToAccount(DEV.senderKey as `0x${string}`);

const hex = (n: bigint | number): string => `0x${BigInt(n).toString(16)}`;
const FEES = { maxFeePerGas: parseGwei('20'), maxPriorityFeePerGas: parseGwei('1') };

const project = mkdtempSync(join(tmpdir(), 'txray-7702-'));
writeFoundryProject(project);

async function make(rpc: Anvil['rpc']) {
  const chainId = Number(await rpc('eth_chainId'));
  const nonceOf = async (a: string): Promise<number> => Number(await rpc('eth_getTransactionCount', [a, 'pending']));
  const simple = (await receipt(rpc, await send(rpc, { data: SIMPLE.bytecode, gas: hex(5_000_000) }))).contractAddress as string;
  const entryPoint = (await receipt(rpc, await send(rpc, { data: ENTRY_POINT.bytecode, gas: hex(15_000_000) }))).contractAddress as string;
  const token = (await receipt(rpc, await send(rpc, { data: deployData('Token', [10n ** 24n]), gas: hex(3_000_000) }))).contractAddress as string;
  await receipt(rpc, await send(rpc, { to: token, data: call('Token', 'transfer', [eoa.address, 1000n]) }));

  // The EOA delegates to Simple7702Account and batches through itself: its own authorization carries
  // its nonce + 1 (its nonce is bumped as the sender first). Beside it, one signed with a nonce 5 too
  // high (not applied) and a revocation (to the zero address, any chain).
  const n = await nonceOf(eoa.address);
  const batch = encodeFunctionData({
    abi: SIMPLE.abi,
    functionName: 'executeBatch',
    args: [[
      { target: token, value: 0n, data: call('Token', 'transfer', [FRESH, 5n]) },
      { target: token, value: 0n, data: call('Token', 'approve', [DEV.sender, 7n]) },
    ]],
  });
  const authorizationList = [
    await eoa.signAuthorization({ chainId, contractAddress: simple as `0x${string}`, nonce: n + 1 }),
    await late.signAuthorization({ chainId, contractAddress: simple as `0x${string}`, nonce: (await nonceOf(late.address)) + 5 }),
    await revoker.signAuthorization({ chainId: 0, contractAddress: '0x0000000000000000000000000000000000000000', nonce: await nonceOf(revoker.address) }),
  ];
  const raw = await eoa.signTransaction({ type: 'eip7702', chainId, nonce: n, to: eoa.address, data: batch, gas: 500_000n, ...FEES, authorizationList });
  const delegation = await rpc('eth_sendRawTransaction', [raw]);
  await receipt(rpc, delegation);
  // Then, in an ordinary (type-2) transaction, the delegated EOA batches through itself again.
  const again = encodeFunctionData({ abi: SIMPLE.abi, functionName: 'executeBatch', args: [[{ target: token, value: 0n, data: call('Token', 'transfer', [FRESH, 2n]) }]] });
  const later = await rpc('eth_sendRawTransaction', [await eoa.signTransaction({ type: 'eip1559', chainId, nonce: await nonceOf(eoa.address), to: eoa.address, data: again, gas: 200_000n, ...FEES })]);
  await receipt(rpc, later);

  // In one block: `busy` sends a transaction, then a sponsor's type-4 transaction carries busy's
  // authorization at the nonce busy has only after that transaction.
  const before = await nonceOf(busy.address);
  const sameBlock = await inOneBlock(rpc, async () => {
    await rpc('eth_sendRawTransaction', [await busy.signTransaction({ type: 'eip1559', chainId, nonce: before, to: DEV.sender as `0x${string}`, value: 1n, gas: 21_000n, ...FEES })]);
    const authorization = await busy.signAuthorization({ chainId, contractAddress: simple as `0x${string}`, nonce: before + 1 });
    const signed = await sponsor.signTransaction({ type: 'eip7702', chainId, nonce: await nonceOf(sponsor.address), to: busy.address, data: '0x', gas: 100_000n, ...FEES, authorizationList: [authorization] });
    return rpc('eth_sendRawTransaction', [signed]);
  });
  await receipt(rpc, sameBlock);
  // A type-4 transaction whose only effect is its own authorization: to itself, no data, no value.
  const own = await nonceOf(selfish.address);
  const selfAuthorization = await selfish.signAuthorization({ chainId, contractAddress: simple as `0x${string}`, nonce: own + 1 });
  const selfDelegation = await rpc('eth_sendRawTransaction', [await selfish.signTransaction({ type: 'eip7702', chainId, nonce: own, to: selfish.address, data: '0x', gas: 100_000n, ...FEES, authorizationList: [selfAuthorization] })]);
  await receipt(rpc, selfDelegation);
  return { simple, entryPoint, token, delegation: delegation as string, later: later as string, sameBlock: sameBlock as string, busyBefore: before, selfDelegation: selfDelegation as string };
}

let anvil: Anvil;
let s: Awaited<ReturnType<typeof make>>;
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser(inject('chromiumPath'));
});
afterAll(async () => {
  await browser?.close();
});
withAnvil(make, (ready) => {
  anvil = ready.anvil;
  s = ready;
});

const txray = (args: readonly string[], columns = '200') => runTxray([...args, '--rpc-url', anvil.url, '--abi', SIMPLE_PATH], { COLUMNS: columns }, undefined, project);
const short = (a: string): string => `${getAddress(a).slice(0, 6)}…${getAddress(a).slice(-4)}`;

describe('EIP-7702 on anvil', () => {
  test('authorizations: signers recovered, applied or not as the state says, the revocation said; the delegate named; the batch decoded', async () => {
    const tx = await anvil.rpc('eth_getTransactionByHash', [s.delegation]);
    const list = tx.authorizationList as Array<{ chainId: string; address: string; nonce: string }>;
    // The node's facts: the EOA now runs Simple7702Account's code; the second authority's nonce is not the one signed.
    expect(await anvil.rpc('eth_getCode', [eoa.address, 'latest'])).toBe(`0xef0100${s.simple.slice(2).toLowerCase()}`);
    expect(await anvil.rpc('eth_getCode', [late.address, 'latest'])).toBe('0x');
    const lateNonce = BigInt(await anvil.rpc('eth_getTransactionCount', [late.address, 'latest']));
    expect(BigInt(list[1]!.nonce)).not.toBe(lateNonce);

    const r = await txray([s.delegation, '--json']);
    expect(r.code).toBe(0);
    const doc = jsonOf(r);
    expect(schemaErrors(doc)).toBe('');
    expect(doc.transaction).toEqual(tx);
    expect(doc.authorizations).toEqual([
      { chainId: BigInt(list[0]!.chainId).toString(), address: getAddress(list[0]!.address), nonce: BigInt(list[0]!.nonce).toString(), authority: eoa.address, applied: true, reason: null, revocation: false },
      { chainId: BigInt(list[1]!.chainId).toString(), address: getAddress(list[1]!.address), nonce: BigInt(list[1]!.nonce).toString(), authority: late.address, applied: false, reason: `nonce ${BigInt(list[1]!.nonce)}, the authority's was ${lateNonce}`, revocation: false },
      { chainId: '0', address: '0x0000000000000000000000000000000000000000', nonce: BigInt(list[2]!.nonce).toString(), authority: revoker.address, applied: true, reason: null, revocation: true },
    ]);
    expect(doc.delegations[eoa.address.toLowerCase()]).toBe(s.simple.toLowerCase());
    expect(doc.labels[s.simple.toLowerCase()]).toBe('Simple7702Account');
    // The batch's calls, decoded under its argument as the token's events say they ran.
    const transfers = doc.transfers.filter((t: { kind: string }) => t.kind === 'ERC-20');
    expect(transfers).toEqual([expect.objectContaining({ from: eoa.address.toLowerCase(), to: FRESH, amount: '5' })]);
    expect(doc.function).toMatchObject({ name: 'executeBatch', contract: 'Simple7702Account' });
    expect(doc.function.args[0].calls).toMatchObject([
      { path: '[0].data', call: { name: 'transfer', contract: 'Token', args: [{ value: getAddress(FRESH) }, { value: '5' }] } },
      { path: '[1].data', call: { name: 'approve', contract: 'Token', args: [{ value: getAddress(DEV.sender) }, { value: '7' }] } },
    ]);

    const text = await txray([s.delegation]);
    expect(text.code).toBe(0);
    const out = text.stdout;
    expect(out).toContain(`To             ${eoa.address} (delegated to Simple7702Account)`);
    expect(out).toMatch(/Authorizations 3\n/);
    expect(out).toContain(`${eoa.address} → Simple7702Account(${short(s.simple)})  chain 31337  nonce ${BigInt(list[0]!.nonce)}\n`);
    expect(out).toContain(`${late.address} → Simple7702Account(${short(s.simple)})  chain 31337  nonce ${BigInt(list[1]!.nonce)}  ✗ not applied: nonce ${BigInt(list[1]!.nonce)}, the authority's was ${lateNonce}\n`);
    expect(out).toContain(`${revoker.address} → revoked (its delegation cleared)  chain 0  nonce ${BigInt(list[2]!.nonce)}\n`);
    expect(out).toMatch(/\n {17}calls\[0\]\.data → transfer\(to: 0x0000…bEEF, amount: 5\) \(project Token\)\n {17}calls\[1\]\.data → approve\(spender: 0xf39F…2266, amount: 7\) \(project Token\)\n/);
  });

  test('the HTML report (headless Chromium): the authorizations, the delegated account by its delegate, the batch\'s calls under the input', async () => {
    const file = join(project, 'delegation.html');
    expect((await txray([s.delegation, '--html', file, '--quiet'])).code).toBe(0);
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => void (m.type() === 'error' && problems.push(m.text())));
    try {
      await page.goto(`file://${file}`);
      await page.waitForSelector('html[data-ready="true"]');
      expect(problems).toEqual([]);
      const section = page.locator('section', { has: page.locator('h2', { hasText: 'Authorizations (3)' }) });
      const rows = await section.locator('tbody tr').allTextContents();
      const list = (await anvil.rpc('eth_getTransactionByHash', [s.delegation])).authorizationList as Array<{ nonce: string }>;
      const lateNonce = BigInt(await anvil.rpc('eth_getTransactionCount', [late.address, 'latest']));
      expect(rows).toEqual([
        `${eoa.address}Simple7702Account(${short(s.simple)})31337${BigInt(list[0]!.nonce)}applied`,
        `${late.address}Simple7702Account(${short(s.simple)})31337${BigInt(list[1]!.nonce)}not applied: nonce ${BigInt(list[1]!.nonce)}, the authority's was ${lateNonce}`,
        `${revoker.address}revoked (its delegation cleared)0${BigInt(list[2]!.nonce)}applied`,
      ]);
      expect(await page.locator('header').textContent()).toContain(`${eoa.address} (delegated to Simple7702Account)`);
      expect(await page.locator('header .nested li').allTextContents()).toEqual(['calls[0].data → transfer(to: 0x0000…bEEF, amount: 5)', `calls[1].data → approve(spender: ${short(DEV.sender)}, amount: 7)`]);
    } finally {
      await page.close();
    }
  });

  test('a later ordinary transaction to the delegated EOA: named by its delegate, its batch decoded by the delegate\'s ABI', async () => {
    expect(await anvil.rpc('eth_getCode', [eoa.address, 'latest'])).toBe(`0xef0100${s.simple.slice(2).toLowerCase()}`);
    const doc = jsonOf(await txray([s.later, '--json']));
    expect(schemaErrors(doc)).toBe('');
    expect(doc.authorizations).toEqual([]);
    expect(doc.delegations).toEqual({ [eoa.address.toLowerCase()]: s.simple.toLowerCase() });
    expect(doc.function).toMatchObject({ name: 'executeBatch', contract: 'Simple7702Account' });
    const text = await txray([s.later]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`To             ${eoa.address} (delegated to Simple7702Account)\n`);
    expect(text.stdout).toContain('calls[0].data → transfer(to: 0x0000…bEEF, amount: 2) (project Token)\n');
    expect(text.stdout).not.toContain('Authorizations');
  });

  test('"at that point": an authority whose nonce is right only after an earlier transaction of the same block is applied', async () => {
    const tx = await anvil.rpc('eth_getTransactionByHash', [s.sameBlock]);
    expect(Number(tx.transactionIndex)).toBeGreaterThan(0);
    expect(BigInt(tx.authorizationList[0].nonce)).toBe(BigInt(s.busyBefore) + 1n);
    expect(await anvil.rpc('eth_getCode', [busy.address, 'latest'])).toBe(`0xef0100${s.simple.slice(2).toLowerCase()}`);
    const doc = jsonOf(await txray([s.sameBlock, '--json']));
    expect(doc.authorizations).toMatchObject([{ authority: busy.address, applied: true, reason: null }]);
  });

  test('a type-4 transaction whose only effect is its authorization: the Action says the delegation, not a cancel (its own, and a sponsor\'s)', async () => {
    expect(await anvil.rpc('eth_getCode', [selfish.address, 'latest'])).toBe(`0xef0100${s.simple.slice(2).toLowerCase()}`);
    const own = jsonOf(await txray([s.selfDelegation, '--json']));
    expect(schemaErrors(own)).toBe('');
    expect(own.authorizations).toMatchObject([{ authority: selfish.address, applied: true }]);
    expect(own.action).toMatchObject({ kind: 'delegate', summary: 'Delegated its account to Simple7702Account (EIP-7702)', actor: selfish.address.toLowerCase(), sent: [], received: [] });
    expect((await txray([s.selfDelegation])).stdout).toContain(`  Action         ${own.action.summary}\n`);
    // A sponsor's transaction to the account it delegates: the account named as the views name it.
    const sponsored = jsonOf(await txray([s.sameBlock, '--json']));
    expect(sponsored.action.kind).toBe('delegate');
    expect(sponsored.action.summary).toBe(`Delegated ${short(busy.address)} to Simple7702Account (EIP-7702)`);
    expect(sponsored.action.summary).not.toMatch(/itself|cancel/);
  });

  test('txray call to a delegated account: named by its delegate, its batch decoded', async () => {
    const data = encodeFunctionData({ abi: SIMPLE.abi, functionName: 'executeBatch', args: [[{ target: s.token as `0x${string}`, value: 0n, data: call('Token', 'transfer', [FRESH, 1n]) }]] });
    const r = await txray(['call', eoa.address, '--from', eoa.address, '--data', data]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`To             ${eoa.address} (delegated to Simple7702Account)`);
    expect(r.stdout).toContain('calls[0].data → transfer(to: 0x0000…bEEF, amount: 1) (project Token)');
  });
});

describe('nested call data of envelopes, read by txray call', () => {
  const erc20 = parseAbi(['function transfer(address to, uint256 amount)']);
  const multicall = parseAbi(['function aggregate3((address target, bool allowFailure, bytes callData)[] calls) payable returns ((bool success, bytes returnData)[] returnData)']);

  // The simulated op fails validation (no signature), so the token is never called: its address is not
  // read for a name, but its ABI (the project's) still names the call, and the sender's delegate its batch.
  test('handleOps to EntryPoint v0.8: each op\'s callData as the account\'s executeBatch, its calls in turn; text and JSON', async () => {
    const inner = encodeFunctionData({ abi: SIMPLE.abi, functionName: 'executeBatch', args: [[{ target: s.token as `0x${string}`, value: 0n, data: encodeFunctionData({ abi: erc20, args: [FRESH, 3n] }) }]] });
    const op = { sender: eoa.address, nonce: 0n, initCode: '0x', callData: inner, accountGasLimits: `0x${'00'.repeat(32)}`, preVerificationGas: 0n, gasFees: `0x${'00'.repeat(32)}`, paymasterAndData: '0x', signature: '0x' } as const;
    const data = encodeFunctionData({ abi: ENTRY_POINT.abi, functionName: 'handleOps', args: [[op], DEV.sender as `0x${string}`] });
    const json = await txray(['call', s.entryPoint, '--data', data, '--json']);
    const doc = jsonOf(json);
    expect(schemaErrors(doc)).toBe('');
    expect(doc.function.name).toBe('handleOps');
    expect(doc.function.args[0].calls).toMatchObject([{ path: '[0].callData', call: { name: 'executeBatch', contract: 'Simple7702Account', args: [{ calls: [{ path: '[0].data', call: { name: 'transfer', args: [{ value: getAddress(FRESH) }, { value: '3' }] } }] }] } }]);
    const text = await txray(['call', s.entryPoint, '--data', data]);
    expect(text.stdout).toMatch(/\n {17}ops\[0\]\.callData → executeBatch\(calls: \[\(target: 0x[0-9a-fA-F]{4}…[0-9a-fA-F]{4}, value: 0, data: 0xa9059cbb…[0-9a-f]{8} \(68 bytes\)\)\]\) \(abi Simple7702Account\)\n {19}calls\[0\]\.data → transfer\(to: 0x0000…bEEF, amount: 3\) \(project Token\)\n/);
    // A narrow terminal: each nested line is cut to the width, marked with …
    const narrow = await txray(['call', s.entryPoint, '--data', data], '80');
    for (const line of narrow.stdout.split('\n').filter((l) => l.includes('→ executeBatch'))) expect(line.length).toBeLessThanOrEqual(80);
  });

  test('aggregate3: a call that decodes is shown, one with a byte too many stays hex', async () => {
    const good = encodeFunctionData({ abi: erc20, args: [FRESH, 4n] });
    const data = encodeFunctionData({ abi: multicall, args: [[{ target: s.token as `0x${string}`, allowFailure: true, callData: good }, { target: s.token as `0x${string}`, allowFailure: true, callData: `${good}00` }]] });
    const doc = jsonOf(await txray(['call', FRESH, '--data', data, '--json']));
    expect(schemaErrors(doc)).toBe('');
    expect(doc.function.args[0].calls).toEqual([{ path: '[0].callData', call: expect.objectContaining({ name: 'transfer', contract: 'Token' }) }]);
  });
});
