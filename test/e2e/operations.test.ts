/**
 * Operations inside envelopes, on a real anvil with published bytecode (test/support/operationsNode.ts):
 * ERC-4337 bundles through EntryPoint v0.8, Safe 1.4.1 execTransaction (a failure inside, a MultiSend),
 * Multicall3 aggregate3 with an allowed failure, and a lookalike EntryPoint. Every expected value is read
 * back from the node: the receipts' events (decoded with the published ABIs), eth_call, trace_transaction.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Abi, decodeErrorResult, decodeEventLog, getAddress, type Hex, parseAbi } from 'viem';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { withReport } from '../support/withReport.js';
import { writeFoundryProject } from '../../scripts/lib/scenarios.mjs';
import { jsonOf, runTxray } from '../support/runTxray.js';
import { makeOperations, MULTICALL3, type OperationsNode, RECIPIENT } from '../support/operationsNode.js';
import { type Anvil, withAnvil } from '../support/scenarioNode.js';
import { schemaErrors } from '../support/schema.js';
import { writeFoundryProject as writeSourceProject } from '../support/sourceProject.js';

const require = createRequire(import.meta.url);
const entryPointAbi = (JSON.parse(readFileSync(join(dirname(require.resolve('@account-abstraction/contracts/package.json')), 'artifacts', 'EntryPoint.json'), 'utf8')) as { abi: Abi }).abi;
const tokenErrors = parseAbi(['error InsufficientBalance(address who, uint256 have, uint256 want)']);
const safeEvents = parseAbi(['event ExecutionSuccess(bytes32 indexed txHash, uint256 payment)', 'event ExecutionFailure(bytes32 indexed txHash, uint256 payment)']);

let s: OperationsNode & { anvil: Anvil };
let project: string;
/** The same contracts built from contracts/Scenarios.sol with source maps: the token's failures are placed in it. */
let sourced: string;
const SCENARIOS = fileURLToPath(new URL('../../contracts/Scenarios.sol', import.meta.url));
withAnvil(makeOperations, (ready) => {
  s = ready;
});
beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'txray-ops-'));
  writeFoundryProject(project);
  const fixture = mkdtempSync(join(tmpdir(), 'txray-ops-src-'));
  mkdirSync(join(fixture, 'src'));
  copyFileSync(SCENARIOS, join(fixture, 'src', 'Scenarios.sol'));
  sourced = mkdtempSync(join(tmpdir(), 'txray-ops-sourced-'));
  writeSourceProject(sourced, { fixture });
  rmSync(fixture, { recursive: true, force: true });
});
afterAll(() => {
  rmSync(project, { recursive: true, force: true });
  rmSync(sourced, { recursive: true, force: true });
});

const txray = (hash: string, ...extra: string[]) => runTxray([hash, '-r', s.anvil.url, ...extra], {}, undefined, project);
const lower = (a: string): string => a.toLowerCase();
const short = (a: string): string => `${getAddress(a).slice(0, 6)}…${getAddress(a).slice(-4)}`;

type Log = { address: string; topics: [Hex, ...Hex[]]; data: Hex };
type TraceEntry = { action: { from: string; to: string; input: string; callType?: string }; traceAddress: number[]; error?: string; type: string };

/** The node's own facts: the receipt's UserOperationEvents and revert reasons (decoded by the EntryPoint's ABI), the trace. */
async function facts(hash: string) {
  const r = await s.anvil.rpc('eth_getTransactionReceipt', [hash]);
  const trace = (await s.anvil.rpc('trace_transaction', [hash])) as TraceEntry[];
  const events = (r.logs as Log[]).flatMap((l) => {
    try {
      return [{ address: lower(l.address), ...decodeEventLog({ abi: entryPointAbi, data: l.data, topics: l.topics }) }];
    } catch {
      return [];
    }
  }) as Array<{ address: string; eventName: string; args: Record<string, any> }>;
  return { receipt: r, trace, ops: events.filter((e) => e.eventName === 'UserOperationEvent'), reasons: events.filter((e) => e.eventName === 'UserOperationRevertReason') };
}

/** The EntryPoint's call to an account that ran its call data (execute/executeBatch), by the node's trace. */
const executionPaths = (trace: TraceEntry[], entryPoint: string, account: string): number[][] =>
  trace.filter((t) => t.type === 'call' && lower(t.action.from) === lower(entryPoint) && lower(t.action.to) === lower(account) && !['0x19822f7c'].includes(t.action.input.slice(0, 10))).map((t) => t.traceAddress);

describe('ERC-4337 user operations', () => {
  test('a bundle whose second op reverts with a token custom error: partial, exit 6, each op as its event says', async () => {
    const f = await facts(s.hashes.partialBundle);
    expect(f.receipt.status).toBe('0x1');
    const r = await txray(s.hashes.partialBundle, '--json');
    expect(r.code).toBe(6);
    const doc = jsonOf(r);
    expect(schemaErrors(doc)).toBe('');
    expect(doc.outcome).toBe('partial');
    const ops = doc.operations.filter((o: any) => o.kind === 'userOperation');
    expect(ops).toHaveLength(f.ops.length);
    f.ops.forEach((e, i) => {
      const o = ops[i];
      expect(o).toMatchObject({
        account: lower(e.args.sender),
        entryPoint: lower(s.entryPoint),
        userOpHash: e.args.userOpHash,
        nonce: e.args.nonce.toString(),
        success: e.args.success,
        paymaster: null,
        actualGasCost: e.args.actualGasCost.toString(),
        actualGasUsed: e.args.actualGasUsed.toString(),
      });
      expect(o.traceAddress).toEqual(executionPaths(f.trace, s.entryPoint, e.args.sender)[0]);
    });
    // The failed op's reason, decoded by the token's ABI as the node's revert reason event carries it.
    const reason = decodeErrorResult({ abi: tokenErrors, data: f.reasons[0]!.args.revertReason });
    expect(ops[1].success).toBe(false);
    expect(ops[1].revert).toMatchObject({ kind: 'custom', name: reason.errorName, args: [{ value: reason.args[0] }, { value: String(reason.args[1]) }, { value: String(reason.args[2]) }] });
    expect(ops[0].action.summary).toBe(`Sent 5 TT to ${short('0x000000000000000000000000000000000000c0de')}`);
    expect(ops[0].action.actor).toBe(lower(s.accounts[0]));
    expect(ops[1].action.kind).toBe('failed');
    expect(doc.action.summary).toMatch(new RegExp(`^2 user operations: ${short(s.accounts[0])}: sent 5 TT to .*; ${short(s.accounts[1])}: failed, InsufficientBalance\\(`));
  });

  test('the text: the Status line counts the failed op, one entry per op with its reason and gas cost', async () => {
    const r = await txray(s.hashes.partialBundle);
    expect(r.code).toBe(6);
    expect(r.stdout).toMatch(/Status +✔ success · 1 of 2 user operations failed/);
    expect(r.stdout).toContain('User operations (2)');
    expect(r.stdout).toMatch(/#2 0x[0-9a-fA-F]{4}…[0-9a-fA-F]{4} · nonce 0 · ✘ failed: InsufficientBalance\(/);
    expect(r.stdout).toMatch(/Action +2 user operations: /);
  });

  test('--as an operation\'s account: its own operation\'s action, not the bundle sentence', async () => {
    const doc = jsonOf(await txray(s.hashes.partialBundle, '--json', '--as', s.accounts[0]));
    const op = doc.operations.find((o: any) => o.account === lower(s.accounts[0]));
    expect(doc.action).toEqual(op.action);
    expect(doc.action.actor).toBe(lower(s.accounts[0]));
    expect(doc.action.summary).toMatch(/^Sent 5 TT to /);
    const failed = jsonOf(await txray(s.hashes.partialBundle, '--json', '--as', s.accounts[1]));
    expect(failed.action.summary).toMatch(/^Failed: InsufficientBalance\(/);
  });

  test('a bundle where every op succeeds: exit 0; the executeBatch op listed with its batch of calls', async () => {
    const f = await facts(s.hashes.fullBundle);
    const r = await txray(s.hashes.fullBundle, '--json');
    expect(r.code).toBe(0);
    const doc = jsonOf(r);
    expect(schemaErrors(doc)).toBe('');
    expect(doc.outcome).toBe('success');
    const ops = doc.operations.filter((o: any) => o.kind === 'userOperation');
    expect(ops.map((o: any) => [o.account, o.success, o.actualGasCost])).toEqual(f.ops.map((e) => [lower(e.args.sender), true, e.args.actualGasCost.toString()]));
    const batch = doc.operations.find((o: any) => o.kind === 'batchCall');
    const path = executionPaths(f.trace, s.entryPoint, s.accounts[1])[0];
    expect(batch).toMatchObject({ via: 'executeBatch', account: lower(s.accounts[1]), success: true, traceAddress: path });
    // The account is a proxy: its calls are made under the frame that delegatecalled its implementation.
    const under = (t: TraceEntry): boolean => t.traceAddress.length > path!.length && path!.every((p, i) => t.traceAddress[i] === p);
    const calls = f.trace.filter((t) => under(t) && t.type === 'call' && t.action.callType === 'call' && lower(t.action.from) === lower(s.accounts[1]));
    expect(calls).toHaveLength(2);
    expect(batch.calls.map((c: any) => [c.to, c.function, c.success])).toEqual(calls.map((c) => [lower(c.action.to), 'transfer', c.error === undefined]));
    expect(ops[0].action.summary).toMatch(/^Sent 3 TT to /);
    // The batch op's own action: what its account sent, the sum of the batch's transfers as the receipt's events say.
    const transfers = (f.receipt.logs as Log[]).filter((l) => l.topics.length === 3 && lower(`0x${l.topics[1]!.slice(26)}`) === lower(s.accounts[1]));
    const sent = transfers.reduce((sum, l) => sum + BigInt(l.data), 0n);
    expect(ops[1].action.sent).toEqual([{ asset: lower(s.token), standard: 'ERC-20', amount: sent.toString(), symbol: 'TT', decimals: 18 }]);
    // Paid to two addresses: said so, not the whole amount to the largest one.
    const recipients = new Set(transfers.map((l) => l.topics[2]));
    expect(recipients.size).toBe(2);
    expect(ops[1].action.summary).toBe(`Sent ${sent / 10n ** 18n} TT to 2 addresses`);
  });

  test('without a trace: the events alone give success, traceAddress is null, still exit 6', async () => {
    const f = await facts(s.hashes.partialBundle);
    const r = await txray(s.hashes.partialBundle, '--json', '--tracer', 'none');
    expect(r.code).toBe(6);
    const ops = jsonOf(r).operations;
    expect(ops.map((o: any) => [o.account, o.success, o.traceAddress])).toEqual(f.ops.map((e) => [lower(e.args.sender), e.args.success, null]));
  });

  test('a lookalike EntryPoint emitting a UserOperationEvent is not read as a user operation', async () => {
    const r = await s.anvil.rpc('eth_getTransactionReceipt', [s.hashes.lookalike]);
    expect(r.logs[0].address.toLowerCase()).toBe(lower(s.lookalike));
    const run = await txray(s.hashes.lookalike, '--json');
    expect(run.code).toBe(0);
    const doc = jsonOf(run);
    expect(doc.operations).toEqual([]);
    expect(doc.outcome).toBe('success');
    expect(doc.action.actor).toBe(lower(r.from));
    expect(doc.warnings.join('\n')).toContain('not read as user operations');
  });
});

describe('Safe transactions', () => {
  test('execTransaction whose inner call fails: ExecutionFailure, exit 6, the inner revert decoded', async () => {
    const r = await s.anvil.rpc('eth_getTransactionReceipt', [s.hashes.safeFailure]);
    const event = (r.logs as Log[]).filter((l) => lower(l.address) === lower(s.safe)).map((l) => decodeEventLog({ abi: safeEvents, data: l.data, topics: l.topics }))[0]!;
    expect(event.eventName).toBe('ExecutionFailure');
    const trace = (await s.anvil.rpc('trace_transaction', [s.hashes.safeFailure])) as TraceEntry[];
    const inner = trace.find((t) => lower(t.action.from) === lower(s.safe) && lower(t.action.to) === lower(s.token))!;
    const run = await txray(s.hashes.safeFailure, '--json');
    expect(run.code).toBe(6);
    const doc = jsonOf(run);
    expect(schemaErrors(doc)).toBe('');
    expect(doc.outcome).toBe('partial');
    expect(doc.operations).toHaveLength(1);
    expect(doc.operations[0]).toMatchObject({ kind: 'safeTransaction', account: lower(s.safe), success: false, safeTxHash: event.args.txHash, traceAddress: inner.traceAddress, revert: { kind: 'custom', name: 'InsufficientBalance' } });
    const text = await txray(s.hashes.safeFailure);
    expect(text.stdout).toMatch(/Status +✔ success · its Safe transaction failed/);
    expect(text.stdout).toContain('Safe transaction\n');
    // Without a trace: the event alone says it failed; no frame, no inner revert.
    const untraced = await txray(s.hashes.safeFailure, '--json', '--tracer', 'none');
    expect(untraced.code).toBe(6);
    expect(jsonOf(untraced).operations).toMatchObject([{ kind: 'safeTransaction', success: false, traceAddress: null, revert: null, safeTxHash: event.args.txHash }]);
    // ExecutionFailure never carries a reason: without the tree it is not known, not absent.
    const untracedText = (await txray(s.hashes.safeFailure, '--tracer', 'none')).stdout;
    expect(untracedText).toContain('✘ failed: reason not known (no call tree)');
    expect(untracedText).not.toContain('no revert reason emitted');
  });

  test('execTransaction through MultiSend: exit 0, the batch unpacked with each call as the trace ran it', async () => {
    const trace = (await s.anvil.rpc('trace_transaction', [s.hashes.safeMultiSend])) as TraceEntry[];
    const run = await txray(s.hashes.safeMultiSend, '--json');
    expect(run.code).toBe(0);
    const doc = jsonOf(run);
    expect(schemaErrors(doc)).toBe('');
    expect(doc.operations.map((o: any) => o.kind)).toEqual(['safeTransaction', 'batchCall']);
    const batch = doc.operations[1];
    const sends = trace.filter((t) => lower(t.action.from) === lower(s.safe) && lower(t.action.to) === lower(s.token));
    expect(batch).toMatchObject({ via: 'multiSend', account: lower(s.safe) });
    expect(batch.calls.map((c: any) => [c.to, c.value, c.function, c.success])).toEqual(sends.map((t) => [lower(t.action.to), '0', 'transfer', t.error === undefined]));
    const text = await txray(s.hashes.safeMultiSend);
    expect(text.stdout).toContain('Batch (2 calls) multiSend by');
  });
});

describe('Multicall3', () => {
  test('the deployed code is the real one (3,808 bytes at its address)', async () => {
    const code = (await s.anvil.rpc('eth_getCode', [MULTICALL3, 'latest'])) as string;
    expect((code.length - 2) / 2).toBe(3808);
  });

  test('aggregate3 with an allowed failure: exit 0, the failure shown as allowed', async () => {
    const trace = (await s.anvil.rpc('trace_transaction', [s.hashes.aggregate3])) as TraceEntry[];
    const children = trace.filter((t) => t.traceAddress.length === 1);
    const run = await txray(s.hashes.aggregate3, '--json');
    expect(run.code).toBe(0);
    const doc = jsonOf(run);
    expect(schemaErrors(doc)).toBe('');
    expect(doc.outcome).toBe('success');
    const batch = doc.operations[0];
    expect(batch).toMatchObject({ kind: 'batchCall', via: 'aggregate3', account: lower(MULTICALL3), success: true, traceAddress: [] });
    expect(batch.calls.map((c: any) => [c.to, c.success, c.allowFailure])).toEqual(children.map((t, i) => [lower(t.action.to), t.error === undefined, i === 0]));
    expect(batch.calls.map((c: any) => c.function)).toEqual(['transfer', 'balanceOf']);
    const text = await txray(s.hashes.aggregate3);
    expect(text.stdout).toMatch(/Status +✔ success\n/);
    expect(text.stdout).toContain('✘ failed (allowed)');
    // Each call with its arguments, never empty parentheses that read as "no arguments".
    const to = `${getAddress(RECIPIENT).slice(0, 6)}…${getAddress(RECIPIENT).slice(-4)}`;
    expect(text.stdout).toMatch(new RegExp(`  1\\. \\S+\\.transfer\\(\\w+: ${to}, \\w+: 1\\)  ✘ failed \\(allowed\\): InsufficientBalance\\(.*\\)\n`));
    expect(text.stdout).toMatch(new RegExp(`  2\\. \\S+\\.balanceOf\\((\\w+: )?${to}\\)  ✔\n`));
    expect(text.stdout).not.toMatch(/\.\w+\(\) {2}/);
    expect(batch.calls.map((c: any) => c.args.map((a: any) => String(a.value).toLowerCase()))).toEqual([[lower(RECIPIENT), '1'], [lower(RECIPIENT)]]);
    // Without a trace an allowed failure is not known either way; a call that must succeed did, as the batch did.
    const untraced = jsonOf(await txray(s.hashes.aggregate3, '--json', '--tracer', 'none'));
    expect(untraced.operations[0].traceAddress).toBeNull();
    expect(untraced.operations[0].calls.map((c: any) => c.success)).toEqual([null, true]);
  });
});

describe('txray call and txray block', () => {
  test('the bundle simulated at the block before it: the same two ops, the second failing, exit 6', async () => {
    const tx = await s.anvil.rpc('eth_getTransactionByHash', [s.hashes.partialBundle]);
    const before = String(BigInt(tx.blockNumber) - 1n);
    const r = await runTxray(['call', tx.to, '--data', tx.input, '--from', tx.from, '--block', before, '--gas-limit', '5000000', '-r', s.anvil.url, '--json'], {}, undefined, project);
    expect(r.code).toBe(6);
    const doc = jsonOf(r);
    expect(doc.outcome).toBe('partial');
    const f = await facts(s.hashes.partialBundle);
    expect(doc.operations.map((o: any) => [o.kind, o.account, o.success])).toEqual(f.ops.map((e) => ['userOperation', lower(e.args.sender), e.args.success]));
  });

  test('a block row says partial, in JSON and in text', async () => {
    const tx = await s.anvil.rpc('eth_getTransactionByHash', [s.hashes.partialBundle]);
    const json = await runTxray(['block', String(BigInt(tx.blockNumber)), '-r', s.anvil.url, '--json'], {}, undefined, project);
    expect(json.code).toBe(0);
    const doc = jsonOf(json);
    expect(doc.transactions.find((t: any) => t.hash === s.hashes.partialBundle)).toMatchObject({ status: 'success', outcome: 'partial' });
    const text = await runTxray(['block', String(BigInt(tx.blockNumber)), '-r', s.anvil.url], {}, undefined, project);
    expect(text.stdout).toMatch(/◐/);
  });
});

describe('a batch that reverted, and call data that ran nothing', () => {
  test('an executeBatch that reverted at its second call: the first is said rolled back, the batch reverted, the reason the wrapped error', async () => {
    const receipt = await s.anvil.rpc('eth_getTransactionReceipt', [s.hashes.rolledBack]);
    // The node's facts: the op failed, and no Transfer of the token is in the receipt (the first was undone).
    const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
    expect(receipt.logs.filter((l: { address: string; topics: string[] }) => l.address.toLowerCase() === s.token.toLowerCase() && l.topics[0] === TRANSFER)).toEqual([]);
    const doc = jsonOf(await txray(s.hashes.rolledBack, '--json'));
    expect(doc.outcome).toBe('partial');
    const batch = doc.operations.find((o: { kind: string }) => o.kind === 'batchCall');
    expect(batch.success).toBe(false);
    expect(batch.calls.map((c: { success: boolean | null; rolledBack?: boolean }) => [c.success, c.rolledBack ?? false])).toEqual([[true, true], [false, false]]);
    const op = doc.operations.find((o: { kind: string }) => o.kind === 'userOperation');
    expect(op.revert.name).toBe('ExecuteError');
    expect(op.revert.args.find((a: { type: string }) => a.type === 'bytes').revert).toMatchObject({ kind: 'custom', name: 'InsufficientBalance' });
    const text = (await txray(s.hashes.rolledBack)).stdout;
    expect(text).toMatch(/Batch \(2 calls\) executeBatch by .* ✘ reverted/);
    expect(text).toContain('✔ rolled back (the batch reverted)');
    expect(text).toMatch(/failed: ExecuteError\(index: 1, error: InsufficientBalance\(.*\) \(revert data\)\)/);
  });

  test('executeBatch call data sent to an address without code is no batch: nothing ran', async () => {
    const tx = await s.anvil.rpc('eth_getTransactionByHash', [s.hashes.notRun]);
    expect(await s.anvil.rpc('eth_getCode', [tx.to, tx.blockNumber])).toBe('0x');
    const doc = jsonOf(await txray(s.hashes.notRun, '--json'));
    expect(doc.operations).toEqual([]);
    expect((await txray(s.hashes.notRun)).stdout).not.toContain('Batch (');
  });
});

describe('many hashes', () => {
  test('the summary marks the partial one and counts it apart; the exit code is 6', async () => {
    const r = await runTxray([s.hashes.partialBundle, s.hashes.aggregate3, '-r', s.anvil.url], {}, undefined, project);
    expect(r.code).toBe(6);
    const lines = r.stdout.trimEnd().split('\n');
    const row = lines.find((l) => l.includes(s.hashes.partialBundle.slice(0, 10)))!;
    expect(row).toContain('◐ partial');
    // The failed operation's reason in the first-error column.
    expect(row).toMatch(/InsufficientBalance\(/);
    expect(lines.find((l) => l.includes(s.hashes.aggregate3.slice(0, 10)))).toContain('✔ success');
    expect(lines.at(-1)).toBe('2 transactions: 1 succeeded, 1 partial, 0 reverted, 0 pending, 0 not found, 0 failed to inspect');
  });

  test('a partial hash beside one the node does not know: the more severe code, 3 (partial ranks just above 0)', async () => {
    const unknown = `0x${'00'.repeat(31)}01`;
    const r = await runTxray([s.hashes.partialBundle, unknown, '-r', s.anvil.url], {}, undefined, project);
    expect(r.code).toBe(3);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toMatch(/1 partial, .*1 not found/);
  });
});

describe('the HTML report', () => {
  test('shows the user operations as the text does: the partial status, each op with its outcome and action', async () => {
    const file = join(project, 'bundle.html');
    const made = await txray(s.hashes.partialBundle, '--html', file, '--quiet');
    expect(made.code).toBe(6);
    const doc = jsonOf(await txray(s.hashes.partialBundle, '--json'));
    await withReport(file, async (page, problems) => {
      expect(problems).toEqual([]);
      const section = page.locator('section', { has: page.locator('h2', { hasText: 'User operations (2)' }) });
      const rows = await section.locator('tbody tr').allTextContents();
      expect(rows).toHaveLength(2);
      doc.operations.filter((o: any) => o.kind === 'userOperation').forEach((o: any, i: number) => {
        expect(rows[i]).toContain(o.action.summary);
        expect(rows[i]).toContain(o.success ? 'succeeded' : 'failed: InsufficientBalance(');
      });
      expect(await page.locator('header').textContent()).toContain('partial: 1 of 2 user operations failed');
      // Not a plain success at a glance either: the badge says partial.
      expect(await page.locator('header h1 .status').textContent()).toBe('partial');
    });
  });
});

/** The token's `revert InsufficientBalance(…)` line in contracts/Scenarios.sol (the only one there). */
const insufficientLine = (): number => readFileSync(SCENARIOS, 'utf8').split('\n').findIndex((l) => l.includes('revert InsufficientBalance(')) + 1;
const inSourced = (args: readonly string[]) => runTxray([...args, '-r', s.anvil.url], {}, undefined, sourced);

describe('the cause behind an envelope', () => {
  test('Multicall3 aggregate3 without allowFailure: the failed call\'s cause and place first, then what Multicall3 made of it; the batch row gives its reason', async () => {
    const hash = s.hashes.multicallFailure;
    const r = await s.anvil.rpc('eth_getTransactionReceipt', [hash]);
    expect(r.status).toBe('0x0');
    const trace = (await s.anvil.rpc('trace_transaction', [hash])) as Array<TraceEntry & { result?: { output?: Hex } }>;
    // The node's facts: Multicall3 reverted with its own words; its second call (the transfer) with the token's error.
    expect(decodeErrorResult({ abi: parseAbi(['error Error(string)']), data: (trace[0] as any).result?.output ?? (trace[0] as any).output ?? '0x' }).args[0]).toBe('Multicall3: call failed');
    const second = trace.find((t) => t.traceAddress.length === 1 && t.traceAddress[0] === 1)!;
    expect(second.error).toBeDefined();
    const line = insufficientLine();
    const text = await inSourced([hash]);
    expect(text.code).toBe(1);
    const why = new RegExp(`Why it failed\\n  InsufficientBalance\\(who: Multicall3\\(0xcA11…CA11\\), have: 0, want: 1\\) at src/Scenarios\\.sol:${line} — made Multicall3's call 2 fail\\n`);
    expect(text.stdout).toMatch(why);
    expect(text.stdout).toMatch(new RegExp(`  2\\. \\S+\\.transfer\\(\\w+: 0x0000…c0DE, \\w+: 1\\)  ✘ failed: InsufficientBalance\\(.*\\) at src/Scenarios\\.sol:${line}\\n`));
    const doc = jsonOf(await inSourced([hash, '--json']));
    expect(schemaErrors(doc)).toBe('');
    expect(doc.failure.reason).toMatch(new RegExp(`^InsufficientBalance\\(.*\\) at src/Scenarios\\.sol:${line} — made Multicall3's call 2 fail$`));
    expect(doc.operations[0].calls.map((c: any) => [c.success, c.reason ?? null])).toEqual([[true, null], [false, expect.stringMatching(/^InsufficientBalance\(/)]]);
  });

  test('a Safe\'s GS013 (safeTxGas and gasPrice 0): the inner call\'s cause first, GS013 said in words', async () => {
    const hash = s.hashes.safeGs013;
    const trace = (await s.anvil.rpc('trace_transaction', [hash])) as Array<TraceEntry & { result?: { output?: Hex } }>;
    expect(trace[0]!.error).toBeDefined();
    expect(decodeErrorResult({ abi: parseAbi(['error Error(string)']), data: (trace[0] as any).result?.output ?? '0x' }).args[0]).toBe('GS013');
    const text = await inSourced([hash]);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(new RegExp(`Why it failed\\n  InsufficientBalance\\(.*\\) at src/Scenarios\\.sol:${insufficientLine()} — made the Safe's transaction fail \\(GS013: a Safe reverts the whole transaction when its inner call fails and neither safeTxGas nor gasPrice was set\\)\\n`));
  });
});

describe('a failed user operation\'s place in the source', () => {
  test('text, JSON and the call tree agree: the token\'s revert line', async () => {
    const line = insufficientLine();
    const doc = jsonOf(await inSourced([s.hashes.partialBundle, '--json']));
    expect(schemaErrors(doc)).toBe('');
    const failed = doc.operations.find((o: any) => o.kind === 'userOperation' && !o.success);
    expect(failed.sourceLocation).toMatchObject({ file: 'src/Scenarios.sol', line });
    // The call tree's innermost failing frame under the op's frame has the same place.
    const under = (c: any): any[] => [c, ...(c.children ?? []).flatMap(under)];
    const placed = under(doc.calls).filter((c: any) => c.sourceLocation !== undefined);
    expect(placed.map((c: any) => [c.sourceLocation.file, c.sourceLocation.line])).toContainEqual(['src/Scenarios.sol', line]);
    const succeeded = doc.operations.find((o: any) => o.kind === 'userOperation' && o.success);
    expect(succeeded.sourceLocation).toBeUndefined();
    const text = await inSourced([s.hashes.partialBundle]);
    expect(text.stdout).toMatch(new RegExp(`#2 0x[0-9a-fA-F]{4}…[0-9a-fA-F]{4} · nonce 0 · ✘ failed: InsufficientBalance\\(.*\\) at src/Scenarios\\.sol:${line}\\n`));
    const file = join(sourced, 'bundle.html');
    expect((await inSourced([s.hashes.partialBundle, '--html', file, '--quiet'])).code).toBe(6);
    await withReport(file, async (page, problems) => {
      expect(problems).toEqual([]);
      const section = page.locator('section', { has: page.locator('h2', { hasText: 'User operations (2)' }) });
      expect((await section.locator('tbody tr').allTextContents())[1]).toContain(`at src/Scenarios.sol:${line}`);
    });
  });
});

describe('txray debug on envelopes', () => {
  test('--at failure on a bundle whose second op failed: the token\'s REVERT under that op, not "nothing failed"', async () => {
    const f = await facts(s.hashes.partialBundle);
    const opFrame = executionPaths(f.trace, s.entryPoint, f.ops[1]!.args.sender)[0]!;
    // The innermost failed frame under it, by the node's trace.
    const failed = f.trace.filter((t) => t.error !== undefined && opFrame.every((p, i) => t.traceAddress[i] === p)).sort((a, b) => b.traceAddress.length - a.traceAddress.length)[0]!;
    expect(lower(failed.action.to)).toBe(lower(s.token));
    const r = await runTxray(['debug', s.hashes.partialBundle, '-r', s.anvil.url, '--at', 'failure', '--json'], {}, undefined, sourced);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const j = jsonOf(r);
    expect(j.op).toBe('REVERT');
    expect(j.traceAddress).toEqual(failed.traceAddress);
    expect(j.source).toEqual({ file: 'src/Scenarios.sol', line: insufficientLine() });

    // The call stack names the frames as the lookup does: the EntryPoint's handleOps by the decoder's ABIs, not its selector.
    const lookup = jsonOf(await inSourced([s.hashes.partialBundle, '--json']));
    expect(lookup.calls.function.name).toBe('handleOps');
    expect(j.callStack[0]).toBe(`${lower(s.entryPoint).slice(0, 6)}…${lower(s.entryPoint).slice(-4)}::handleOps`);
    // A bundle where every op succeeded still has nothing to go to.
    const none = await runTxray(['debug', s.hashes.fullBundle, '-r', s.anvil.url, '--at', 'failure', '--json'], {}, undefined, sourced);
    expect(none.code).toBe(3);
  });
});

test('txray debug names frames as the lookup does: Multicall3 (the address book) and aggregate3 (the built-in ABIs), not 0xca11…::0x82ad56cb', async () => {
  const lookup = jsonOf(await inSourced([s.hashes.aggregate3, '--json']));
  expect(lookup.calls.function.name).toBe('aggregate3');
  expect(lookup.labels[lower(MULTICALL3)]).toBe('Multicall3');
  const r = await runTxray(['debug', s.hashes.aggregate3, '-r', s.anvil.url, '--at', 'step:1', '--json'], {}, undefined, sourced);
  expect(r.code).toBe(0);
  const j = jsonOf(r);
  expect(j.callStack).toEqual(['Multicall3::aggregate3']);
  // The artifact-only fields stay as they were: no artifact matched Multicall3's code.
  expect([j.contract, j.function]).toEqual([null, null]);
});

test('a bundle sent through Multicall3, without a trace: its input\'s aggregate3 calls handleOps, so the EntryPoint\'s events are read as user operations', async () => {
  const f = await facts(s.hashes.viaMulticall);
  expect(f.receipt.status).toBe('0x1');
  expect(f.ops).toHaveLength(1);
  const traced = jsonOf(await txray(s.hashes.viaMulticall, '--json'));
  const untraced = jsonOf(await txray(s.hashes.viaMulticall, '--json', '--tracer', 'none'));
  expect(schemaErrors(untraced)).toBe('');
  const ops = (d: any) => d.operations.filter((o: any) => o.kind === 'userOperation').map((o: any) => [o.account, o.success, o.userOpHash, o.actualGasCost]);
  expect(ops(untraced)).toEqual(f.ops.map((e) => [lower(e.args.sender), true, e.args.userOpHash, e.args.actualGasCost.toString()]));
  expect(ops(untraced)).toEqual(ops(traced));
  expect(untraced.warnings.join('\n')).not.toContain('not read as user operations');
});
