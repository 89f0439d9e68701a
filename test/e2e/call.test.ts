/**
 * `txray call` end to end: simulations on a real anvil (debug_traceCall with the callTracer and the
 * prestateTracer, state overrides), run from a Foundry project so that custom errors have names; a
 * Parity-shaped stand-in in front of the same anvil for trace_call; nodes that lack the methods; and
 * bad input of every kind, which must fail before any request.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeAbiParameters, keccak256, parseEther, parseGwei } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { call, DEV, deployData, writeFoundryProject } from '../../scripts/lib/scenarios.mjs';
import { startParityStandIn } from '../support/parityStandIn.js';
import { forward, type RpcServer, startRpcServer } from '../support/rpcServer.js';
import { type Anvil, withScenarioNode } from '../support/scenarioNode.js';
import { jsonOf, type RunResult, runTxray } from '../support/runTxray.js';
import { schemaErrors } from '../support/schema.js';

let anvil: Anvil;
let token: string;
let showcase: string;
let tokenTransferBlock: bigint;
withScenarioNode(async (s) => {
  anvil = s.anvil;
  token = s.token;
  showcase = s.showcase;
  tokenTransferBlock = BigInt(((await anvil.rpc('eth_getTransactionReceipt', [(s.hashes as Record<string, string>).tokenTransfer])) as { blockNumber: string }).blockNumber);
});

const project = mkdtempSync(join(tmpdir(), 'txray-call-'));
writeFoundryProject(project);

const POOR = '0x00000000000000000000000000000000000c0ffe';
const txray = (args: readonly string[], url = anvil.url): Promise<RunResult> => runTxray(['call', ...args, '--rpc-url', url], {}, undefined, project);
const rpc = async (method: string, params: unknown[]): Promise<any> => {
  const r = await forward(anvil.url, method, params);
  if ('error' in r) throw new Error(r.error.message);
  return r.result;
};
/** Token's balanceOf sits at slot 3 (name, symbol, totalSupply before it): the slot of one holder's balance. */
const balanceSlot = (holder: string): string => keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [holder as `0x${string}`, 3n]));

describe('txray call on anvil', () => {
  test('a transfer that would succeed: exit 0, said to be a simulation at the block, the event and the return value', async () => {
    const head = BigInt(await rpc('eth_blockNumber', []));
    const r = await txray([token, 'transfer(address,uint256)', DEV.other, '1.5ether', '--from', DEV.sender]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(new RegExp(`^Simulation at block ${head} \\(latest\\): not a mined transaction, nothing was sent\\n`));
    expect(r.stdout).toContain('✔ would succeed');
    expect(r.stdout).toContain('Simulated by   debug_traceCall');
    // The scenarios' type-4 transaction delegated `other` to Logic: an account running a delegate's code is named by it.
    const delegated = String(await rpc('eth_getCode', [DEV.other, 'latest'])).startsWith('0xef0100');
    const other = delegated ? '0x7099…79C8 \\(delegated to Logic\\)' : '0x7099…79C8';
    expect(r.stdout).toMatch(new RegExp(`transfer\\(to: ${other}, amount: 1500000000000000000 \\[1\\.5e18\\]\\)`));
    expect(r.stdout).toMatch(new RegExp(`└─ event #0 Token Transfer\\(from: 0xf39F…2266, to: ${other}, value: 1500000000000000000`));
    const doc = jsonOf(await txray([token, 'transfer(address,uint256)', DEV.other, '1.5ether', '--from', DEV.sender, '--json']));
    expect(schemaErrors(doc)).toBe('');
    expect(doc.status).toBe('success');
    expect(doc.hash).toBeNull();
    expect(doc.receipt).toBeNull();
    expect(doc.traceSource).toBe('debug_traceCall');
    expect(doc.transaction).toMatchObject({ from: DEV.sender, to: token, value: '0x0' });
    expect(doc.simulation).toMatchObject({ method: 'debug_traceCall', block: { number: String(head), asked: 'latest' }, overrides: null, signed: false });
    expect(doc.simulation.output).toBe(`0x${'0'.repeat(63)}1`);
    expect(BigInt(doc.simulation.gasUsed)).toBe(BigInt(doc.calls.gasUsed));
    expect(doc.simulation.gasEstimate).not.toBeNull();
    expect(doc.logs).toHaveLength(1);
    expect(doc.logs[0].event.name).toBe('Transfer');
    expect(doc.transfers).toEqual([{ kind: 'ERC-20', from: DEV.sender, to: DEV.other, amount: '1500000000000000000', token }].map((t) => expect.objectContaining({ kind: t.kind, amount: t.amount })));
  });

  test('a transfer that would revert with a custom error: exit 1, the error by name with its arguments', async () => {
    const r = await txray([token, 'transfer', DEV.other, '100000000ether', '--from', DEV.sender]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('✘ would revert');
    expect(r.stdout).toMatch(/Why it would revert\n {2}InsufficientBalance\(who: 0xf39F…2266, have: \d+.*, want: 100000000000000000000000000/);
    const doc = jsonOf(await txray([token, 'transfer', DEV.other, '100000000ether', '--from', DEV.sender, '--json']));
    expect(schemaErrors(doc)).toBe('');
    expect(doc.status).toBe('reverted');
    expect(doc.failure.revert).toMatchObject({ kind: 'custom', name: 'InsufficientBalance' });
    expect(doc.logs).toEqual([]);
    expect(doc.simulation.gasEstimate).toBeNull();
    expect(doc.simulation.gasEstimateError).toMatch(/revert/);
  });

  test('--state of a simulation: the token and ETH deltas, the sender\'s nonce, nothing written to the chain', async () => {
    const before = await rpc('eth_getBalance', [POOR, 'latest']);
    const r = await txray([POOR, '--value', '3gwei', '--from', DEV.sender, '--state', '--json']);
    expect(r.code).toBe(0);
    const doc = jsonOf(r);
    expect(schemaErrors(doc)).toBe('');
    expect(doc.stateSource).toBe('debug_traceCall');
    const eth = doc.balanceChanges.filter((b: any) => b.asset === 'ETH');
    expect(eth).toContainEqual(expect.objectContaining({ address: DEV.sender, delta: String(-parseGwei('3')) }));
    expect(eth).toContainEqual(expect.objectContaining({ address: POOR, delta: String(parseGwei('3')) }));
    expect(eth.map((b: any) => BigInt(b.delta)).reduce((a: bigint, b: bigint) => a + b, 0n)).toBe(0n); // no gas price: no fee, value only moves
    expect(doc.accountChanges).toContainEqual(expect.objectContaining({ address: DEV.sender, roles: ['sender'] }));
    const tokens = jsonOf(await txray([token, 'transfer(address,uint256)', POOR, '2ether', '--from', DEV.sender, '--state', '--json']));
    expect(tokens.balanceChanges.filter((b: any) => b.asset === token)).toEqual([
      expect.objectContaining({ address: DEV.sender, delta: String(-parseEther('2')), symbol: 'TT', decimals: 18 }),
      expect.objectContaining({ address: POOR, delta: String(parseEther('2')) }),
    ]);
    expect(await rpc('eth_getBalance', [POOR, 'latest'])).toBe(before);
    expect(BigInt(await rpc('eth_call', [{ to: token, data: call('Token', 'balanceOf', [POOR]) }, 'latest']))).toBe(0n);
  });

  test('state overrides make an impossible call possible: balance, storage, code, nonce', async () => {
    const broke = await txray([DEV.other, '--value', '1ether', '--from', POOR]);
    expect(broke.code).toBe(5);
    expect(broke.stdout).toBe('');
    expect(broke.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^txray: debug_traceCall: the node answered error -?\d+: Insufficient funds/i)]);
    const funded = await txray(['0x00000000000000000000000000000000000000aa', '--value', '1ether', '--from', POOR, '--override-balance', `${POOR}:2ether`, '--json']);
    expect(funded.code).toBe(0);
    const doc = jsonOf(funded);
    expect(doc.simulation.overrides).toEqual({ [POOR]: { balance: `0x${parseEther('2').toString(16)}` } });
    expect(doc.transfers).toEqual([expect.objectContaining({ kind: 'ETH', from: POOR, amount: String(parseEther('1')) })]);

    const noTokens = await txray([token, 'transfer(address,uint256)', DEV.sender, '5', '--from', POOR]);
    expect(noTokens.code).toBe(1);
    const slot = balanceSlot(POOR);
    const given = await txray([token, 'transfer(address,uint256)', DEV.sender, '5', '--from', POOR, '--override-state-diff', `${token}:${slot}:100`, '--override-nonce', `${POOR}:7`, '--json']);
    expect(given.code).toBe(0);
    expect(jsonOf(given).simulation.overrides).toEqual({ [token]: { stateDiff: { [slot]: `0x${'0'.repeat(62)}64` } }, [POOR]: { nonce: '0x7' } });
    expect(jsonOf(given).logs[0].event.args.map((a: any) => a.value)).toEqual([expect.stringMatching(/c0FFe$/i), expect.any(String), '5']);

    // Code: the token's runtime code placed at an empty address, called there.
    const code = await rpc('eth_getCode', [token, 'latest']);
    const empty = '0x00000000000000000000000000000000000f00d0';
    const placed = await txray([empty, 'symbol()', '--override-code', `${empty}:${code}`, '--json']);
    expect(placed.code).toBe(0);
    expect(jsonOf(placed).calls.output.length).toBeGreaterThan(2);
    expect(jsonOf(await txray([empty, 'symbol()', '--json'])).calls.output).toBe('0x');
  });

  test('--block in the past gives that block\'s answer', async () => {
    const args = [token, 'transfer(address,uint256)', DEV.sender, '1ether', '--from', DEV.other];
    const now = await txray(args);
    expect(now.code).toBe(0);
    const then = await txray([...args, '--block', String(tokenTransferBlock - 1n), '--json']);
    expect(then.code).toBe(1);
    const doc = jsonOf(then);
    expect(doc.simulation.block).toMatchObject({ number: String(tokenTransferBlock - 1n), asked: `0x${(tokenTransferBlock - 1n).toString(16)}` });
    expect(doc.failure.revert.name).toBe('InsufficientBalance');
    const byHash = (await rpc('eth_getBlockByNumber', [`0x${(tokenTransferBlock - 1n).toString(16)}`, false])).hash;
    expect(jsonOf(await txray([...args, '--block', byHash, '--json'])).simulation.block.number).toBe(String(tokenTransferBlock - 1n));
    const future = await txray([...args, '--block', '99999999']);
    expect(future.code).toBe(5);
    expect(future.stderr).toMatch(/^txray: http:\/\/127\.0\.0\.1:\d+ has no block 99999999; nothing was simulated\.\n$/);
  });

  test('--raw: a signed transaction simulated exactly, its hash told, never broadcast', async () => {
    const account = privateKeyToAccount(DEV.senderKey as `0x${string}`);
    const nonce = Number(await rpc('eth_getTransactionCount', [DEV.sender, 'latest']));
    const block = await rpc('eth_blockNumber', []);
    const raw = await account.signTransaction({
      chainId: 31337,
      type: 'eip1559',
      nonce,
      to: token as `0x${string}`,
      data: call('Token', 'transfer', [DEV.other, 1000n]) as `0x${string}`,
      gas: 100_000n,
      maxFeePerGas: parseGwei('20'),
      maxPriorityFeePerGas: parseGwei('1'),
    });
    const r = await txray(['--raw', raw]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Hash if sent   ${keccak256(raw)}`);
    expect(r.stdout).toMatch(/Simulation at block \d+ \(pending\)/);
    expect(r.stdout).toContain('Type           EIP-1559 (0x2)');
    expect(r.stdout).toMatch(/Fee if mined {3}0\.\d+ ETH/);
    const doc = jsonOf(await txray(['--raw', raw, '--state', '--json']));
    expect(schemaErrors(doc)).toBe('');
    expect(doc.hash).toBe(keccak256(raw));
    expect(doc.simulation).toMatchObject({ signed: true, block: { asked: 'pending' } });
    expect(doc.transaction).toMatchObject({ from: DEV.sender, nonce: `0x${nonce.toString(16)}`, type: '0x2', gas: '0x186a0' });
    expect(doc.warnings).toEqual([]); // the fee split adds up: the diff's ETH changes are minus the burned fee
    // The chain did not move: same head, same nonce, and the node has never heard of the transaction.
    expect(await rpc('eth_blockNumber', [])).toBe(block);
    expect(Number(await rpc('eth_getTransactionCount', [DEV.sender, 'latest']))).toBe(nonce);
    expect(await rpc('eth_getTransactionByHash', [keccak256(raw)])).toBeNull();
  });

  test('--raw checks what the node would: a nonce already used is exit 5 (nothing simulated), a nonce ahead a warning, another chain exit 5', async () => {
    const account = privateKeyToAccount(DEV.senderKey as `0x${string}`);
    const pending = Number(await rpc('eth_getTransactionCount', [DEV.sender, 'pending']));
    expect(pending).toBeGreaterThan(0);
    const signed = (nonce: number, chainId = 31337) =>
      account.signTransaction({ chainId, type: 'eip1559', nonce, to: token as `0x${string}`, data: call('Token', 'transfer', [DEV.other, 1n]) as `0x${string}`, gas: 100_000n, maxFeePerGas: parseGwei('20'), maxPriorityFeePerGas: parseGwei('1') });
    const stale = await txray(['--raw', await signed(0)]);
    expect(stale.code).toBe(5);
    expect(stale.stdout).toBe('');
    expect(stale.stderr).toBe(`txray: --raw: nonce 0 is too low: the account is at ${pending} (pending); the node would refuse it as sent, so nothing was simulated.\n`);
    const ahead = await txray(['--raw', await signed(pending + 3), '--json']);
    expect(ahead.code).toBe(0);
    expect(jsonOf(ahead).warnings).toEqual([`--raw: nonce ${pending + 3} is ahead of the account's ${pending} (pending): the 3 transactions before it must land first; simulated on today's state as if they had changed nothing.`]);
    const elsewhere = await txray(['--raw', await signed(pending, 1)]);
    expect(elsewhere.code).toBe(5);
    expect(elsewhere.stderr).toMatch(/^txray: --raw: the transaction is signed for chain 1, and http:\/\/127\.0\.0\.1:\d+ is chain 31337; nothing was simulated\.\n$/);
  });

  test('a typed signature is an ABI: it names the call without any ABI loaded, and its return types decode the result, as cast call does', async () => {
    const bare = mkdtempSync(join(tmpdir(), 'txray-no-project-'));
    const r = await runTxray(['call', showcase, 'run(uint256)(uint256)', '3', '--value', '10', '--from', DEV.sender, '--rpc-url', anvil.url], {}, undefined, bare);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Input {10}36 bytes: run\(3\) \(0xa444f5e9, signature\)/);
    expect(r.stdout, r.stdout).toMatch(/call 0x[0-9a-fA-F…]+::run\(3\) · 10 wei · [\d,]+ gas ← \d+\n/);
    const doc = jsonOf(await runTxray(['call', showcase, 'run(uint256)(uint256)', '3', '--value', '10', '--from', DEV.sender, '--rpc-url', anvil.url, '--json'], {}, undefined, bare));
    expect(doc.function).toMatchObject({ name: 'run', signature: 'run(uint256)', source: 'signature' });
    expect(doc.calls.outputs).toEqual([expect.objectContaining({ type: 'uint256', value: expect.stringMatching(/^\d+$/) })]);
  });

  test('ether sent to a function its matched artifact says is nonpayable: said so in text, JSON and the action, for a simulation and a mined transaction; not where only a generic ABI names it', async () => {
    const args = [token, 'transfer(address,uint256)', DEV.other, '1', '--value', '1ether', '--from', DEV.sender];
    const words = 'transfer(address,uint256) is not payable, but the call sends 1 ETH';
    const r = await txray(args);
    expect(r.code).toBe(1);
    const why = r.stdout.slice(r.stdout.indexOf('Why it would revert'));
    expect(why).toContain(`  ${words} (reverted without data; Token's ABI says nonpayable)\n`);
    expect(r.stdout).toContain(`Action         Failed: ${words}`);
    const doc = jsonOf(await txray([...args, '--json']));
    expect(schemaErrors(doc)).toBe('');
    // The node's own answer: the call reverts with no data.
    expect(doc.failure.revert).toEqual({ kind: 'empty' });
    expect(doc.failure.notPayable).toEqual({ contract: 'Token', function: 'transfer(address,uint256)', stateMutability: 'nonpayable', value: parseEther('1').toString(), message: words });
    // Mined: the same words.
    const hash = await rpc('eth_sendTransaction', [{ from: DEV.sender, to: token, value: `0x${parseEther('1').toString(16)}`, gas: '0x30000', data: call('Token', 'transfer', [DEV.other, 1n]) }]);
    let mined = null;
    for (let i = 0; i < 100 && mined === null; i++) mined = await rpc('eth_getTransactionReceipt', [hash]);
    expect(mined.status).toBe('0x0');
    const lookup = await runTxray([hash, '--rpc-url', anvil.url], {}, undefined, project);
    expect(lookup.code).toBe(1);
    expect(lookup.stdout.slice(lookup.stdout.indexOf('Why it failed'))).toContain(`  ${words} (reverted without data; Token's ABI says nonpayable)\n`);
    // No project: the built-in ERC-20 ABI names transfer, but nothing says this code is that ABI's.
    const bare = mkdtempSync(join(tmpdir(), 'txray-no-project-'));
    const plain = await runTxray([hash, '--rpc-url', anvil.url, '--json'], {}, undefined, bare);
    expect(jsonOf(plain).failure.notPayable).toBeUndefined();
    expect((await runTxray([hash, '--rpc-url', anvil.url], {}, undefined, bare)).stdout).toContain('reverted without data');
  });

  test("a view: a Returns row in the head, decoded as cast call prints it, the same value as the JSON root call and the node's eth_call", async () => {
    const data = call('Token', 'balanceOf', [DEV.sender]);
    const expected = BigInt(await rpc('eth_call', [{ to: token, data }, 'latest']));
    const r = await txray([token, 'balanceOf', DEV.sender]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const head = r.stdout.slice(0, r.stdout.indexOf('Call tree'));
    expect(head, r.stdout).toMatch(new RegExp(`\\n  Returns +${expected}( \\[[\\d.e]+\\])?\\n`));
    const doc = jsonOf(await txray([token, 'balanceOf', DEV.sender, '--json']));
    expect(doc.calls.outputs).toEqual([expect.objectContaining({ type: 'uint256', value: expected.toString() })]);
    expect(BigInt(doc.simulation.output)).toBe(expected);
    // No ABI for the function: the bytes, said to be not decoded.
    const bare = mkdtempSync(join(tmpdir(), 'txray-no-project-'));
    const raw = await runTxray(['call', showcase, '--data', call('Showcase', 'lastChild'), '--rpc-url', anvil.url], {}, undefined, bare);
    expect(raw.stdout, raw.stdout).toMatch(/\n {2}Returns +0x[0-9a-f]+…?[0-9a-f]* \(not decoded\)\n/);
  });

  test('a call with data to an address without code: it ran nothing, and one warning says so (cast call refuses it)', async () => {
    const nobody = '0x00000000000000000000000000000000000c0de5';
    const r = await txray([nobody, 'foo()(uint256)', '--from', DEV.sender, '--json']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(jsonOf(r).warnings).toEqual([expect.stringMatching(new RegExp(`^${nobody} has no code at block \\d+: the call ran nothing and returned no data \\(cast call refuses such a call\\)\\.$`))]);
    // With code put there by --override-code, nothing to say.
    const overridden = await txray([nobody, 'foo()', '--from', DEV.sender, '--override-code', `${nobody}:0x00`, '--json']);
    expect(jsonOf(overridden).warnings).toEqual([]);
  });

  test('--create: a creation with constructor arguments; the new contract and its events', async () => {
    const bytecode = deployData('Token');
    const r = await txray(['--create', bytecode, 'constructor(uint256)', '1000', '--from', DEV.sender, '--json']);
    expect(r.code).toBe(0);
    const doc = jsonOf(r);
    expect(doc.calls.type).toBe('create');
    expect(doc.calls.to).toMatch(/^0x[0-9a-f]{40}$/);
    expect(doc.logs[0].event).toMatchObject({ name: 'Transfer' });
    expect(doc.logs[0].event.args[2].value).toBe('1000');
  });

  test('--gas and --gas-out on a simulation: the profile of what would run', async () => {
    const out = join(project, 'sim.folded');
    const r = await txray([showcase, 'run(uint256)', '3', '--value', '10', '--from', DEV.sender, '--gas', '--gas-out', out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Gas profile \(\d+ functions, \d+ calls\)/);
    expect(r.stdout).toMatch(/│ Showcase::run +│ +1 │/);
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(out, 'utf8')).toMatch(/^Showcase::run \d+$/m);
  });

  test('--tracer none: eth_simulateV1, the outcome, its events and the decoded revert, no tree, said plainly', async () => {
    const r = await txray([token, 'transfer', DEV.other, '100000000ether', '--from', DEV.sender, '--tracer', 'none', '--json']);
    expect(r.code).toBe(1);
    const doc = jsonOf(r);
    expect(schemaErrors(doc)).toBe('');
    expect(doc.calls).toBeNull();
    expect(doc.simulation.method).toBe('eth_simulateV1');
    expect(doc.failure.revert.name).toBe('InsufficientBalance');
    expect(doc.warnings).toEqual(['simulated with eth_simulateV1 (as --tracer none asked): the outcome and its events only, no call tree.']);
    const ok = jsonOf(await txray([token, 'transfer(address,uint256)', DEV.other, '7', '--from', DEV.sender, '--tracer', 'none', '--json']));
    expect(ok.status).toBe('success');
    expect(ok.logs.map((l: any) => l.event?.name)).toEqual(['Transfer']);
    expect(BigInt(ok.simulation.gasUsed)).toBeGreaterThan(21_000n);
    const view = jsonOf(await txray([token, 'balanceOf(address)', DEV.other, '--tracer', 'none', '--json']));
    expect(BigInt(view.simulation.output)).toBeGreaterThan(0n);
  });
});

describe('txray call on other nodes', () => {
  let parity: RpcServer;
  let bare: RpcServer;
  let none: RpcServer;
  let callOnly: RpcServer;
  beforeAll(async () => {
    // No tracer and no eth_simulateV1: eth_call alone.
    callOnly = await startRpcServer(({ method, params }) =>
      /^(debug_|trace_)/.test(method) || method === 'eth_simulateV1' ? { error: { code: -32601, message: 'Method not found' } } : forward(anvil.url, method, params),
    );
    parity = await startParityStandIn(anvil.url);
    // Only blocks and eth_call: no tracer of any kind.
    bare = await startRpcServer(({ method, params }) =>
      method.startsWith('debug_') || method.startsWith('trace_') ? { error: { code: -32601, message: 'the method does not exist/is not available' } } : forward(anvil.url, method, params),
    );
    // Not even eth_call.
    none = await startRpcServer(({ method, params }) => (method === 'eth_getBlockByNumber' ? forward(anvil.url, method, params) : { error: { code: -32601, message: 'Method not found' } }));
  });
  afterAll(async () => {
    await Promise.all([parity?.close(), bare?.close(), none?.close(), callOnly?.close()]);
  });

  test('a Parity-only node: trace_call gives the tree and the state diff', async () => {
    const r = await txray([showcase, 'run(uint256)', '3', '--value', '10', '--from', DEV.sender, '--state', '--json'], parity.url);
    expect(r.code).toBe(0);
    const doc = jsonOf(r);
    expect(schemaErrors(doc)).toBe('');
    expect(doc.traceSource).toBe('trace_call');
    expect(doc.simulation.method).toBe('trace_call');
    expect(doc.stateSource).toBe('trace_call');
    expect(doc.calls.children.length).toBeGreaterThan(3);
    expect(doc.balanceChanges.some((b: any) => b.address === DEV.sender && b.asset === 'ETH')).toBe(true);
    expect(doc.warnings).toContain('trace_call does not report events, so none are listed, and its gas used leaves out the intrinsic gas.');
    expect(parity.requests.map((q) => q.method)).toContain('trace_call');
    const text = await txray([token, 'transfer', DEV.other, '100000000ether', '--from', DEV.sender], parity.url);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('Simulated by   trace_call');
    expect(text.stdout).toMatch(/InsufficientBalance\(who: 0xf39F…2266/);
  });

  test('a node without tracers: simulated by txray\'s own EVM on its state, said plainly; the revert decoded', async () => {
    const r = await txray([token, 'transfer', DEV.other, '100000000ether', '--from', DEV.sender], bare.url);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain("Simulated by   txray's own EVM on the node's state (the node has no call tracer)");
    expect(r.stdout).toMatch(/simulated locally on the node's state \(http:\/\/127\.0\.0\.1:\d+ serves no debug_traceCall and no trace_call\)/);
    expect(r.stdout).toMatch(/InsufficientBalance\(who: 0xf39F…2266/);
    // The same call with --tracer none on a node without eth_simulateV1: eth_call, the outcome only, said so.
    const plain = await txray([token, 'transfer', DEV.other, '100000000ether', '--from', DEV.sender, '--tracer', 'none'], callOnly.url);
    expect(plain.code).toBe(1);
    expect(plain.stdout).toContain('Simulated by   eth_call (the outcome only: no call tree)');
    expect(plain.stdout).toMatch(/InsufficientBalance\(who: 0xf39F…2266/);
    expect(plain.stderr).toBe('txray: warning: simulated with eth_call (as --tracer none asked): the outcome only, no call tree.\n');
  });

  test('a node that cannot run a call at all: exit 5 and its message in one line', async () => {
    const r = await txray([token, 'transfer', DEV.other, '1', '--from', DEV.sender], none.url);
    expect(r.code).toBe(5);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('txray: eth_call: the node answered error -32601: Method not found\n');
    const doc = jsonOf(await txray([token, 'transfer', DEV.other, '1', '--from', DEV.sender, '--json'], none.url));
    expect(schemaErrors(doc)).toBe('');
    expect(doc).toMatchObject({ status: 'error', error: { code: 'rpc-error' }, simulation: null });
  });
});

describe('txray call: bad input is exit 2 with one line, before any request', () => {
  let counting: RpcServer;
  beforeAll(async () => {
    counting = await startRpcServer(({ method, params }) => forward(anvil.url, method, params));
  });
  afterAll(async () => {
    await counting?.close();
  });
  const A = '0x0000000000000000000000000000000000000001';
  const cases: Array<[string, string[], RegExp]> = [
    ['no target', [], /needs the address to call/],
    ['a target that is not an address', ['0x12', 'f()'], /the target '0x12' is not an address/],
    ['a signature that does not parse', [A, 'transfer(address,'], /is not a function signature/],
    ['a name no ABI knows', [A, 'frobnicate', '1'], /no loaded ABI has a function named frobnicate/],
    ['an address argument that is not one', [A, 'transfer(address,uint256)', '0x1234', '1'], /argument 1 of transfer\(address,uint256\), '0x1234', does not fit address/],
    ['a negative uint', [A, 'transfer(address,uint256)', A, '-1'], /argument 2 .* does not fit uint256: out of range/],
    ['a uint8 too big', [A, 'f(uint8)', '256'], /does not fit uint8: out of range/],
    ['a fraction without a unit', [A, 'f(uint256)', '1.5'], /does not fit uint256: expected an integer/],
    ['too many arguments', [A, 'f(uint256)', '1', '2'], /f\(uint256\) takes 1 argument, got 2/],
    ['a tuple of the wrong size', [A, 'f((uint256,bool))', '(1,true,3)'], /expected a tuple of 2, got 3 items/],
    ['an array with a bad item', [A, 'f(address[])', `[${A},nope]`], /does not fit address\[\]: expected an address/],
    ['a bool that is not one', [A, 'f(bool)', 'yes'], /expected true or false/],
    ['a malformed raw transaction', ['--raw', '0x02f8'], /--raw: not a signed transaction txray can read/],
    ['raw hex that is not hex', ['--raw', 'zz'], /--raw takes hex bytes/],
    ['raw with a target', ['--raw', '0x02', A], /--raw simulates the signed transaction exactly as it is: it takes no target/],
    ['a bad block', [A, '--block', 'yesterday'], /--block takes a block number, a tag/],
    ['a bad value', [A, '--value', '1.5 pounds'], /--value takes a whole amount in wei/],
    ['a bad override', [A, '--override-balance', 'nope'], /--override-balance takes <address>:<value>/],
    ['a bad override slot', [A, '--override-state-diff', `${A}:xyz:1`], /--override-state-diff slot 'xyz' is not a 32-byte word/],
    ['--data and a signature', [A, 'f()', '--data', '0x12'], /give either --data or a signature/],
    ['odd --data', [A, '--data', '0x123'], /--data takes hex bytes/],
    ['an unknown option', [A, '--frm', A], /unknown option '--frm' \(Did you mean --from\?\); see txray call --help\./],
  ];
  for (const [name, args, message] of cases) {
    test(name, async () => {
      const before = counting.requests.length;
      const r = await txray(args, counting.url);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      const lines = r.stderr.trimEnd().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(message);
      expect(counting.requests.length).toBe(before);
    });
  }
  test('--json: the error document, status error, exit 2', async () => {
    const r = await txray([A, 'f(uint8)', '300', '--json'], counting.url);
    expect(r.code).toBe(2);
    const doc = jsonOf(r);
    expect(schemaErrors(doc)).toBe('');
    expect(doc).toMatchObject({ status: 'error', hash: null, error: { code: 'usage' } });
  });
  test('txray call --help lists the call options and the exit codes', async () => {
    const r = await runTxray(['call', '--help']);
    expect(r.code).toBe(0);
    for (const option of ['--from', '--value', '--data', '--create', '--raw', '--block', '--gas-limit', '--override-balance', '--override-nonce', '--override-code', '--override-state-diff', '--state', '--html', '--gas']) expect(r.stdout).toContain(option);
    expect(r.stdout).toContain('1    the call would revert');
    // Off a terminal commander lays help out in 80 columns: the options' descriptions wrap there too.
    const options = r.stdout.slice(r.stdout.indexOf('Arguments:'), r.stdout.indexOf('Examples:'));
    expect(options.split('\n').length).toBeGreaterThan(40);
    expect(options.split('\n').filter((l) => l.length > 80)).toEqual([]);
  });
});
