/**
 * `txray debug`: the step debugger over txray's own EVM, checked against the node's own opcode trace
 * (anvil's struct logs, --steps-tracing) and the compiler's source maps (read by the test's own
 * reader), on a multi-file project built with the optimizer off. The full-screen view is driven
 * through a real pseudo-terminal: tmux (send-keys, capture-pane), waiting for screen content with a
 * generous deadline, never for a fixed time.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { type Abi, encodeFunctionData, toFunctionSelector } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildStepLog } from '../../src/debug/buildStepLog.js';
import { localsAt } from '../../src/debug/localsAt.js';
import type { DebugStepLog } from '../../src/debug/types.js';
import { foundryDebug } from '../../src/decode/loadDebug.js';
import { checksumAddress } from '../../src/decode/keccak.js';
import { stepJson } from '../../src/debug/stepJson.js';
import { createRpcClient, type RpcClient } from '../../src/rpc/createRpcClient.js';
import { checkedMined } from '../../src/localRun/checkedMined.js';
import { runMined } from '../../src/localRun/runMined.js';
import { createLocalRuns } from '../../src/localRun/localRuns.js';
import { DEV, type DebugScene, debugScene, type StructLog } from '../support/debugProject.js';
import { type DebugReferences, debugReferences, FAILING } from '../support/debugReferences.js';
import type { WalkedSpan } from '../support/internalWalk.js';
import type { Reference } from '../support/referenceSteps.js';
import { forward, startRpcServer } from '../support/rpcServer.js';
import { BIN, jsonOf, runTxray } from '../support/runTxray.js';

const dir = mkdtempSync(join(tmpdir(), 'txray-debug-'));
let scene: DebugScene;
let logs: DebugReferences['logs'];
let failing: Reference;
let deposit: Reference;
let spans: WalkedSpan[];

/** The call stack at step i as the walk says it: each depth's external frame, then the internal calls open in it, outermost first. */
function stackOf(names: readonly string[], i: number): string[] {
  return names.slice(0, logs.failing[i]!.depth).flatMap((name, d) => [name, ...spans.filter((s) => s.depth === d + 1 && s.from < i && i <= s.to).sort((a, b) => a.from - b.from).map((s) => s.name)]);
}

beforeAll(async () => {
  scene = await debugScene(dir);
  ({ logs, failing, deposit, spans } = await debugReferences(scene, dir));
});

afterAll(async () => {
  await scene?.anvil.stop();
});

/** A step of a struct log as `--at … --json` writes it: the stack top first, memory whole. */
const asStep = (l: StructLog) => ({ pc: l.pc, op: l.op, depth: l.depth, stack: [...(l.stack ?? [])].reverse(), memory: `0x${(l.memory ?? []).map((w) => w.replace(/^0x/, '')).join('')}` });

const ajv = new Ajv2020({ allErrors: true, strict: false });
const validate = ajv.compile(JSON.parse(readFileSync(new URL('../../schema/debug.schema.json', import.meta.url), 'utf8')));

/** `txray debug <hash> --at <at> --json`; a document it prints is checked against the shipped schema. */
async function debugAt(hash: string, at: string) {
  const r = await runTxray(['debug', hash, '--rpc-url', scene.anvil.url, '--at', at, '--json'], {}, undefined, dir);
  if (r.stdout !== '') expect(validate(JSON.parse(r.stdout)), ajv.errorsText(validate.errors)).toBe(true);
  return r;
}

/** The line of `text` in the fixture file (1-based). */
const lineOf = (file: string, text: string): number => readFileSync(join(dir, file), 'utf8').split('\n').findIndex((l) => l.includes(text)) + 1;

/** A mined transaction's run in txray's EVM with its steps, in-process. */
async function minedRun(client: RpcClient, hash: string) {
  const tx = (await client.call('eth_getTransactionByHash', [hash], AbortSignal.timeout(20_000))) as Record<string, unknown>;
  const receipt = (await client.call('eth_getTransactionReceipt', [hash], AbortSignal.timeout(20_000))) as Record<string, unknown>;
  const checked = checkedMined(tx, receipt, hash as `0x${string}`);
  if ('pending' in checked) throw new Error(`${hash} is not mined`);
  return runMined(client, checked.mined, AbortSignal.timeout(20_000), { steps: true }, null, null);
}

/**
 * The step log of a mined transaction (its hash) or of a call run on the latest state, as txray's EVM records
 * it, in-process; `matched`: its frames matched to the project's artifacts (Teller, Bank) as the CLI matches them.
 */
async function stepLogOf(what: string | { readonly to: string; readonly data: string }, matched: boolean): Promise<DebugStepLog> {
  const client = await createRpcClient({ url: new URL(scene.anvil.url), headers: [], timeoutMs: 20_000, maxResponseBytes: 1 << 26 });
  try {
    const call = typeof what === 'string' ? null : { kind: 'call' as const, call: { from: DEV.sender, ...what }, block: 'latest', overrides: null };
    const local = call === null ? await minedRun(client, what as string) : await createLocalRuns(client, { config: () => Promise.resolve({ steps: true }), timeoutMs: 20_000 }).of(call, AbortSignal.timeout(20_000)).result();
    if (!matched) return buildStepLog(local.steps!, local.calls.tree.root, new Map(), []);
    const artifacts = ['Teller', 'Bank'].map((name) => {
      const file = join(dir, 'out', `${name}.sol`, `${name}.json`);
      const doc = JSON.parse(readFileSync(file, 'utf8'));
      return { name, abi: doc.abi, bytecode: doc.bytecode.object, deployedBytecode: doc.deployedBytecode.object, debug: foundryDebug(file, doc) };
    });
    const codes = new Map<string, `0x${string}`>();
    for (const a of [scene.teller, scene.bank]) codes.set(a.toLowerCase(), await scene.anvil.rpc('eth_getCode', [a, 'latest']));
    return buildStepLog(local.steps!, local.calls.tree.root, codes, artifacts);
  } finally {
    await client.close();
  }
}

describe('the recording equals the node\'s struct logs', () => {
  test.each(['failing', 'deposit'] as const)('%s: every step (pc, opcode, depth, gas, stack, memory; storage at each SLOAD and SSTORE)', async (which) => {
    const hash = scene[which];
    const rec = await stepLogOf(hash, false);
    const expected = logs[which];
    expect(rec.steps.count).toBe(expected.length);
    expected.forEach((l, i) => {
      const mine = stepJson(rec, i, hash);
      expect({ pc: mine.pc, op: mine.op, depth: mine.depth, stack: mine.stack, memory: mine.memory, gas: mine.gas }, `step ${i + 1}`).toEqual({ ...asStep(l), gas: l.gas });
      if (l.storage !== undefined) expect(mine.storage, `storage at step ${i + 1}`).toEqual(l.storage);
    });
    expect(expected.some((l) => l.storage !== undefined)).toBe(true);
  });
});

describe('--at … --json', () => {
  test('failure: the REVERT of the frame where the failure began (not the teller\'s re-revert), at the custom error\'s line', async () => {
    const r = await debugAt(scene.failing, 'failure');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const j = jsonOf(r);
    const reverts = logs.failing.flatMap((l, i) => (l.op === 'REVERT' ? [i] : []));
    expect(reverts.length).toBe(2);
    // The innermost frame's REVERT: the deeper one.
    const origin = reverts.reduce((a, b) => (logs.failing[b]!.depth > logs.failing[a]!.depth ? b : a));
    expect(j.step).toBe(origin + 1);
    expect(j.steps).toBe(logs.failing.length);
    expect(j).toMatchObject(asStep(logs.failing[origin]!));
    expect(j.source).toEqual({ file: 'src/lib/Rules.sol', line: lineOf('src/lib/Rules.sol', 'revert Insufficient(') });
    expect(failing.place(origin)).toEqual(j.source);
    expect([j.contract, j.function, j.traceAddress]).toEqual(['Bank', 'withdraw', [0]]);
    // The internal functions open there, as the walk of the struct logs says: the failure is two deep (_take, then Rules.check).
    expect(j.callStack).toEqual(stackOf(FAILING, origin));
    expect(j.callStack.length).toBe(4);
  });

  test('a build that kept no ASTs (forge build\'s default): the internal functions read from the sources it compiled, the same call stack as with the ASTs; its sources edited since: the external frames only', async () => {
    const bare = mkdtempSync(join(tmpdir(), 'txray-debug-noast-'));
    cpSync(dir, bare, { recursive: true });
    for (const folder of readdirSync(join(bare, 'out')).filter((f) => f.endsWith('.sol'))) {
      for (const file of readdirSync(join(bare, 'out', folder))) {
        const doc = JSON.parse(readFileSync(join(bare, 'out', folder, file), 'utf8'));
        delete doc.ast;
        writeFileSync(join(bare, 'out', folder, file), JSON.stringify(doc));
      }
    }
    const r = await runTxray(['debug', scene.failing, '--rpc-url', scene.anvil.url, '--at', 'failure', '--json'], {}, undefined, bare);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const j = jsonOf(r);
    expect(j.step).toBe(logs.failing.findIndex((l) => l.op === 'REVERT') + 1);
    // The frame still matched its artifact and map: only the ASTs are missing.
    expect([j.contract, j.source?.file]).toEqual(['Bank', 'src/lib/Rules.sol']);
    expect(j.callStack).toEqual(stackOf(FAILING, j.step - 1));
    expect(j.callStack.length).toBe(4);
    // The functions read from the text have no parameters' types: no locals.
    expect(j.locals).toEqual({ known: false, reason: 'the build kept no AST (forge build --ast)' });
    // Edited since the build: no source of it is read, so no internal function is named.
    for (const file of ['src/Bank.sol', 'src/lib/Rules.sol']) writeFileSync(join(bare, file), `${readFileSync(join(bare, file), 'utf8')}\n// edited\n`);
    const edited = jsonOf(await runTxray(['debug', scene.failing, '--rpc-url', scene.anvil.url, '--at', 'failure', '--json'], {}, undefined, bare));
    expect(edited.callStack).toEqual(FAILING);
  });

  test('<file>:<line> by a tail of the path: the first step the source map puts on that line; its state is the struct log\'s', async () => {
    const line = lineOf('src/Bank.sol', 'balances[msg.sender] += msg.value;');
    const r = await debugAt(scene.deposit, `Bank.sol:${line}`);
    expect(r.code).toBe(0);
    const j = jsonOf(r);
    const expected = logs.deposit.findIndex((_, i) => deposit.place(i)?.file === 'src/Bank.sol' && deposit.place(i)?.line === line);
    expect(expected).toBeGreaterThan(0);
    expect(j.step).toBe(expected + 1);
    expect(j).toMatchObject({ ...asStep(logs.deposit[expected]!), source: { file: 'src/Bank.sol', line }, contract: 'Bank', function: 'deposit' });
    // The same with the whole path.
    expect(jsonOf(await debugAt(scene.deposit, `src/Bank.sol:${line}`)).step).toBe(j.step);
  });

  test('step:<i> in code no artifact matches: no source, no contract name; its SSTORE\'s storage is the struct log\'s', async () => {
    const i = logs.deposit.findIndex((l) => l.depth === 2 && l.op === 'SSTORE');
    expect(i).toBeGreaterThan(0);
    const j = jsonOf(await debugAt(scene.deposit, `step:${i + 1}`));
    expect(j).toMatchObject({ ...asStep(logs.deposit[i]!), source: null, contract: null, function: null, traceAddress: [0], address: scene.ledger.toLowerCase() });
    expect(j.storage).toEqual(logs.deposit[i]!.storage);
  });

  test('a loop of more than 200,000 steps: every one counted, the last is the struct log\'s last', async () => {
    const trace = await scene.anvil.rpc('debug_traceTransaction', [scene.loop, { disableStack: true, disableStorage: true, enableMemory: false }]);
    const n = trace.structLogs.length;
    expect(n).toBeGreaterThan(200_000);
    const j = jsonOf(await debugAt(scene.loop, `step:${n}`));
    expect([j.step, j.steps, j.pc, j.op, j.truncated]).toEqual([n, n, trace.structLogs[n - 1].pc, trace.structLogs[n - 1].op, false]);
  });

  test('no step matches: one line, exit 3; a bad hash: exit 2; an unknown one: exit 3; a bad --at: exit 2; each with its error document on stdout', async () => {
    /** The error document --json prints (checked against the schema by debugAt): the stderr line's message. */
    const errorOf = (r: { stdout: string; stderr: string }, hash: string | null, code: string) => {
      expect(JSON.parse(r.stdout)).toEqual({ schemaVersion: 1, hash, error: { code, message: r.stderr.trim().replace(/^txray: /, '') } });
    };
    const none = await debugAt(scene.failing, 'Bank.sol:1');
    expect(none.code).toBe(3);
    expect(none.stderr.trim().split('\n')).toEqual(['txray: no step ran src/Bank.sol:1']);
    errorOf(none, scene.failing, 'not_found');
    const past = await debugAt(scene.failing, `step:${logs.failing.length + 1}`);
    expect(past.code).toBe(3);
    errorOf(past, scene.failing, 'not_found');
    const succeeded = await debugAt(scene.deposit, 'failure');
    expect(succeeded.code).toBe(3);
    errorOf(succeeded, scene.deposit, 'not_found');
    const bad = await debugAt('0x1234', 'failure');
    expect(bad.code).toBe(2);
    errorOf(bad, null, 'usage');
    const unknown = await debugAt(`0x${'ab'.repeat(32)}`, 'failure');
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toContain('does not know');
    errorOf(unknown, `0x${'ab'.repeat(32)}`, 'not_found');
    expect((await debugAt(scene.failing, 'nowhere')).code).toBe(2);
    expect((await debugAt(scene.failing, 'Nope.sol:3')).code).toBe(3);
  });

  test('a plain transfer ran no code: no step (exit 3 for --at; the view says there is nothing to show)', async () => {
    const trace = await scene.anvil.rpc('debug_traceTransaction', [scene.transfer, {}]);
    expect(trace.structLogs).toEqual([]);
    const r = await debugAt(scene.transfer, 'step:1');
    expect([r.code, r.stderr.trim()]).toEqual([3, 'txray: the transaction ran 0 steps; there is no step 1']);
  });
});

describe('locals by name', () => {
  // cashOut(1000) by the dev account, after its deposit of 100: withdraw(who, 1000) → fee = _fee(1000) = 10 → _take(who, 1010) → have = 100 → Rules.check(100, 1010).
  const WHO = checksumAddress(DEV.sender);
  const EXPECTED: Record<string, Record<string, string>> = {
    'Teller.cashOut': { amount: '1000' },
    'Bank.withdraw': { who: WHO, amount: '1000', fee: '10' },
    'Bank._fee': { amount: '1000' },
    'Bank._take': { who: WHO, amount: '1010', have: '100' },
    'Rules.check': { have: '100', want: '1010' },
  };

  test('inside _take at Rules.check(have, amount): its arguments (known from the transaction\'s input) and the local computed before that line, each at its word of the struct log\'s stack', async () => {
    const line = lineOf('src/Bank.sol', 'Rules.check(have, amount);');
    const j = jsonOf(await debugAt(scene.failing, `Bank.sol:${line}`));
    expect(j.callStack.at(-1)).toBe('Bank._take');
    expect(j.locals).toEqual({
      known: true,
      function: 'Bank._take',
      variables: [
        { name: 'who', type: 'address', kind: 'parameter', value: WHO, stackIndex: 2 },
        { name: 'amount', type: 'uint256', kind: 'parameter', value: '1010', stackIndex: 1 },
        { name: 'have', type: 'uint256', kind: 'local', value: '100', stackIndex: 0 },
      ],
    });
    const stack = asStep(logs.failing[j.step - 1]!).stack;
    expect(j.locals.variables.map((v: { stackIndex: number }) => BigInt(stack[v.stackIndex]!))).toEqual([BigInt(DEV.sender), 1010n, 100n]);
    // On the line that computes it, the local is not there yet (its slot is, holding 0): only the arguments.
    const before = jsonOf(await debugAt(scene.failing, `Bank.sol:${line - 1}`));
    expect(before.locals.variables.map((v: { name: string }) => v.name)).toEqual(['who', 'amount']);
  });

  test('every step of the failing withdraw: what is known is what the arguments make it, never a slot not yet written; the external functions\' and each internal one\'s', async () => {
    const rec = await stepLogOf(scene.failing, true);
    const seen = new Set<string>();
    let unknown = 0;
    for (let i = 0; i < rec.steps.count; i++) {
      const l = localsAt(rec, i);
      if (!l.known) {
        unknown++;
        continue;
      }
      const stack = asStep(logs.failing[i]!).stack;
      for (const v of l.variables) {
        expect([l.function, v.name, v.value], `step ${i + 1}`).toEqual([l.function, v.name, EXPECTED[l.function]?.[v.name]]);
        expect(BigInt(stack[v.stackIndex]!), `step ${i + 1} ${v.name}`).toBe(v.type === 'address' ? BigInt(DEV.sender) : BigInt(v.value));
        seen.add(`${l.function}.${v.name}`);
      }
    }
    expect([...seen].sort()).toEqual(Object.entries(EXPECTED).flatMap(([f, vars]) => Object.keys(vars).map((n) => `${f}.${n}`)).sort());
    // The dispatchers, the ABI decoding, the compiler's helpers and Ledger-less frames say why instead.
    expect(unknown).toBeGreaterThan(0);
    // A caller's variables at its call (the jump into the callee: what an editor shows for a frame up the stack).
    const bank = rec.frames.findIndex((f) => f.contract === 'Bank');
    const calls = (rec.internal.calls[bank] ?? []).filter((c) => typeof c === 'object' && 'name' in c);
    expect(calls.map((c) => c.name)).toEqual(['_fee', '_take']);
    for (const c of calls) expect(localsAt(rec, c.from)).toMatchObject({ known: true, function: 'Bank.withdraw' });
    expect(localsAt(rec, 0)).toEqual({ known: false, reason: 'not inside a function\'s body yet (the dispatcher, the ABI decoding)' });
  });

  test('a loop (spin(40), as a call): n is its argument, and s is the sum of the i before it (or with i, between s += i and i++); after the loop, the sum of 0..n-1', async () => {
    const rec = await stepLogOf({ to: scene.bank, data: encodeFunctionData({ abi: scene.compiled.Bank!.abi as Abi, functionName: 'spin', args: [40n] }) }, true);
    const t = (k: bigint): bigint => (k * (k - 1n)) / 2n;
    /** Whether `s` is t(k) for a k in 0..n. */
    const sum = (s: bigint): boolean => {
      const k = (1n + BigInt(Math.round(Math.sqrt(Number(1n + 8n * s))))) / 2n;
      return t(k) === s && k <= 40n;
    };
    let checked = 0;
    let last: bigint | undefined;
    for (let i = 0; i < rec.steps.count; i++) {
      const l = localsAt(rec, i);
      if (!l.known) continue;
      const v = Object.fromEntries(l.variables.map((x) => [x.name, BigInt(x.value)]));
      expect([l.function, v.n], `step ${i + 1}`).toEqual(['Bank.spin', 40n]);
      // Where the step's range is the whole for statement (its jumps), i is not shown: s still is.
      if (v.i !== undefined) expect([t(v.i), t(v.i + 1n)], `step ${i + 1}`).toContain(v.s);
      else if (v.s !== undefined) expect(sum(v.s), `step ${i + 1}: ${v.s}`).toBe(true);
      last = v.s ?? last;
      checked++;
    }
    // Most of a loop's steps run the compiler's checked arithmetic: no line of the function, not known.
    expect(checked).toBeGreaterThan(400);
    expect(last).toBe(t(40n));
  });

  test('a frame no artifact matched (the ledger): not known, and why', async () => {
    const i = logs.deposit.findIndex((l) => l.depth === 2);
    expect(jsonOf(await debugAt(scene.deposit, `step:${i + 1}`)).locals).toEqual({ known: false, reason: 'no source map matched this frame\'s code' });
  });
});

describe('txray debug call', () => {
  test('a simulated call takes txray call\'s words: the failing withdraw, steps and the failing step as debug_traceCall\'s struct logs have them', async () => {
    const sender = DEV.sender.toLowerCase();
    const r = await runTxray(['debug', 'call', scene.bank, 'withdraw(address,uint256)', sender, '1000', '--from', sender, '--rpc-url', scene.anvil.url, '--at', 'failure', '--json'], {}, undefined, dir);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const j = jsonOf(r);
    expect(validate(j), ajv.errorsText(validate.errors)).toBe(true);
    const call = { from: sender, to: scene.bank, data: encodeFunctionData({ abi: scene.compiled.Bank!.abi as Abi, functionName: 'withdraw', args: [sender, 1000n] }) };
    const trace = await scene.anvil.rpc('debug_traceCall', [call, 'latest', { enableMemory: true }]);
    const expected: StructLog[] = trace.structLogs;
    const revert = expected.findIndex((l) => l.op === 'REVERT');
    expect([j.hash, j.steps, j.step]).toEqual([null, expected.length, revert + 1]);
    expect(j).toMatchObject({ ...asStep(expected[revert]!), contract: 'Bank', function: 'withdraw', source: { file: 'src/lib/Rules.sol', line: lineOf('src/lib/Rules.sol', 'revert Insufficient(') } });
  });
});

describe('txray debug call: --override-code by a project contract\'s name, and --tx', () => {
  test('a name of the project is its code at that address (an account without code before), as debug_traceCall runs it with that code', async () => {
    const sender = DEV.sender.toLowerCase();
    const fresh = '0x00000000000000000000000000000000000b0a4c';
    const r = await runTxray(['debug', 'call', fresh, 'withdraw(address,uint256)', sender, '1000', '--from', sender, '--override-code', `${fresh}:Bank`, '--rpc-url', scene.anvil.url, '--at', 'failure', '--json'], {}, undefined, dir);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const j = jsonOf(r);
    const code = await scene.anvil.rpc('eth_getCode', [scene.bank, 'latest']);
    const call = { from: sender, to: fresh, data: encodeFunctionData({ abi: scene.compiled.Bank!.abi as Abi, functionName: 'withdraw', args: [sender, 1000n] }) };
    const trace = await scene.anvil.rpc('debug_traceCall', [call, 'latest', { enableMemory: true, stateOverrides: { [fresh]: { code } } }]);
    const expected: StructLog[] = trace.structLogs;
    const revert = expected.findIndex((l) => l.op === 'REVERT');
    expect(revert).toBeGreaterThan(0);
    expect([j.steps, j.step, j.contract]).toEqual([expected.length, revert + 1, 'Bank']);
    expect(j).toMatchObject(asStep(expected[revert]!));
  });

  test('a mined transaction the node gives no receipt for is the node\'s fault (exit 5), not "not mined yet"', async () => {
    const front = await startRpcServer(({ method, params }) => (method === 'eth_getTransactionReceipt' ? { result: null } : forward(scene.anvil.url, method, params)));
    try {
      const r = await runTxray(['debug', scene.failing, '--rpc-url', front.url, '--at', 'failure', '--json'], {}, undefined, dir);
      expect(r.code).toBe(5);
      expect(r.stderr).toContain(`the node gave no receipt for the mined transaction ${scene.failing}`);
      expect(r.stderr).not.toContain('not mined');
    } finally {
      await front.close();
    }
  });

  test('--debug: the node\'s requests are logged as the lookup logs them (its client is the same front door\'s), for txray debug and txray debug call', async () => {
    const lookup = await runTxray([scene.failing, '--rpc-url', scene.anvil.url, '--tracer', 'none', '--debug', '--quiet'], {}, undefined, dir);
    const debug = await runTxray(['debug', scene.failing, '--rpc-url', scene.anvil.url, '--at', 'failure', '--json', '--debug'], {}, undefined, dir);
    const sender = DEV.sender.toLowerCase();
    const call = await runTxray(['debug', 'call', scene.bank, 'withdraw(address,uint256)', sender, '1000', '--from', sender, '--rpc-url', scene.anvil.url, '--at', 'failure', '--json', '--debug'], {}, undefined, dir);
    const requests = (stderr: string): string[] => [...stderr.matchAll(/^txray: debug: (eth_\w+): \d+ ms, \d+ bytes$/gm)].map((m) => m[1]!);
    expect(requests(lookup.stderr)).toContain('eth_getTransactionByHash');
    expect([debug.code, requests(debug.stderr)]).toEqual([0, expect.arrayContaining(['eth_getTransactionByHash', 'eth_getTransactionReceipt'])]);
    expect(jsonOf(debug).contract).toBe('Bank');
    expect(call.code).toBe(0);
    expect(requests(call.stderr).length).toBeGreaterThan(0);
    // Without --debug, nothing of it.
    const quiet = await runTxray(['debug', scene.failing, '--rpc-url', scene.anvil.url, '--at', 'failure', '--json'], {}, undefined, dir);
    expect(quiet.stderr).toBe('');
  });

  test('--tx is refused by name: one line, exit 2, pointing to txray debug <hash>', async () => {
    const r = await runTxray(['debug', 'call', '--tx', scene.failing, '--rpc-url', scene.anvil.url, '--at', 'failure', '--json'], {}, undefined, dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^txray: txray debug call takes no --tx: to step through a mined transaction where it ran, use txray debug <hash>\.\n$/);
  });
});

/** tmux, on a server of the test's own (its own socket, no user configuration). */
const TMUX = ['-L', `txray-debug-${process.pid}`, '-f', '/dev/null'];
const hasTmux = spawnSync('tmux', ['-V']).status === 0;
const tmux = (...args: string[]): string => execFileSync('tmux', [...TMUX, ...args], { encoding: 'utf8' });
const pane = (): string => tmux('capture-pane', '-p', '-t', 'dbg');
const statusOf = (screen: string): string => screen.trimEnd().split('\n').at(-1)!.trim();

/** Wait until the pane shows what `fits` wants (a generous deadline: the machine is busy), else fail showing the pane. */
async function waitFor(what: string, fits: (screen: string) => boolean): Promise<string> {
  const deadline = Date.now() + 30_000;
  let screen = pane();
  while (!fits(screen)) {
    if (Date.now() > deadline) throw new Error(`the terminal never showed ${what}; it shows:\n${screen}`);
    await new Promise((r) => setTimeout(r, 50));
    screen = pane();
  }
  return screen;
}

/** Press `keys` and wait for the status line of step `i` (0-based). */
async function press(ref: Reference, keys: string[], i: number): Promise<string> {
  tmux('send-keys', '-t', 'dbg', ...keys);
  return waitFor(`the status line '${ref.status(i)}' after ${keys.join(' ')}`, (s) => statusOf(s) === ref.status(i));
}

function openDebugger(hash: string, extra = ''): void {
  // A session an earlier failed test left behind goes first.
  spawnSync('tmux', [...TMUX, 'kill-session', '-t', 'dbg']);
  // The shell line after it says how it ended; the shell stays so that the pane can be read after `q`.
  tmux('new-session', '-d', '-s', 'dbg', '-x', '150', '-y', '40', '-c', dir, `${process.execPath} ${BIN} debug ${hash} --rpc-url ${scene.anvil.url} ${extra}; echo "debugger ended: $?"; exec sleep 600`);
}

describe('the full-screen debugger, through a real pseudo-terminal (tmux)', () => {
  afterAll(() => {
    if (hasTmux) spawnSync('tmux', [...TMUX, 'kill-server']);
  });

  test('tmux is on this machine (the tests below drive the debugger through it)', () => {
    expect(hasTmux, 'tmux is missing: install it (apt-get install tmux) to run the pseudo-terminal tests').toBe(true);
  });

  test('the failing withdraw: opens at the failure; n s o p j k g G f c b : ? land where the struct logs and the source map say; q restores the terminal', async () => {
    if (!hasTmux) throw new Error('tmux is missing: the pseudo-terminal test cannot run');
    const ref = failing;
    openDebugger(scene.failing);
    const origin = logs.failing.findIndex((l) => l.op === 'REVERT');
    let at = origin;
    const opened = await waitFor('the status line at the failure', (s) => statusOf(s) === ref.status(at));
    expect(opened).toContain('revert Insufficient(have, want);');
    await press(ref, ['g'], (at = 0));
    await press(ref, ['n'], (at = ref.over(at)));
    const onCall = await press(ref, ['n'], (at = ref.over(at)));
    // A source comment holding an escape sequence is shown escaped, never run.
    expect(onCall).toContain('a comment that holds a terminal command: \\x1b[2J');
    for (let k = 0; k < 4; k++) await press(ref, ['s'], (at = ref.into(at)));
    expect(logs.failing[at]!.depth).toBe(2);
    await press(ref, ['n'], (at = ref.over(at)));
    await press(ref, ['p'], (at = ref.back(at)));
    await press(ref, ['p'], (at = ref.back(at)));
    await press(ref, ['j'], (at += 1));
    await press(ref, ['k'], (at -= 1));
    await press(ref, ['o'], (at = ref.out(at)));
    await press(ref, ['G'], (at = ref.n - 1));
    await press(ref, ['f'], (at = origin));
    const rulesLine = lineOf('src/lib/Rules.sol', 'if (have < want)');
    tmux('send-keys', '-t', 'dbg', ':break Rules.sol:', String(rulesLine), 'Enter');
    await waitFor('the breakpoint set', (s) => s.includes(`breakpoint at src/lib/Rules.sol:${rulesLine}`));
    await press(ref, ['g'], (at = 0));
    await press(ref, ['c'], (at = ref.toBreakpoint(0, 'src/lib/Rules.sol', rulesLine)));
    expect(ref.place(at)).toEqual({ file: 'src/lib/Rules.sol', line: rulesLine });
    // b here removes that breakpoint: c then runs to the end.
    tmux('send-keys', '-t', 'dbg', 'b');
    await waitFor('the breakpoint removed', (s) => s.includes(`removed the breakpoint at src/lib/Rules.sol:${rulesLine}`));
    await press(ref, ['g'], (at = 0));
    await press(ref, ['c'], (at = ref.n - 1));
    // b on a line sets one: c from the start stops at its first arrival.
    await press(ref, ['g'], (at = 0));
    await press(ref, ['n'], (at = ref.over(at)));
    const tellerLine = ref.place(at)!;
    tmux('send-keys', '-t', 'dbg', 'b');
    await waitFor('the breakpoint set by b', (s) => s.includes(`breakpoint at ${tellerLine.file}:${tellerLine.line}`));
    await press(ref, ['G'], (at = ref.n - 1));
    await press(ref, ['g'], (at = 0));
    await press(ref, ['c'], (at = ref.toBreakpoint(0, tellerLine.file, tellerLine.line)));
    tmux('send-keys', '-t', 'dbg', ':step 7', 'Enter');
    await waitFor('step 7', (s) => statusOf(s) === ref.status(6));
    tmux('send-keys', '-t', 'dbg', '?');
    await waitFor('the help', (s) => s.includes('continue to the next breakpoint'));
    tmux('send-keys', '-t', 'dbg', 'Escape');
    await waitFor('the help closed', (s) => !s.includes('continue to the next breakpoint') && statusOf(s) === ref.status(6));
    tmux('send-keys', '-t', 'dbg', 'q');
    const after = await waitFor('the shell again', (s) => s.includes('debugger ended: 0'));
    // The main screen is back as it was: none of the debugger's lines are left on it.
    expect(after).not.toContain('step ');
    expect(after).not.toContain('Teller::cashOut');
    const cursor = tmux('display-message', '-p', '-t', 'dbg', '#{cursor_flag}').trim();
    expect(cursor).toBe('1');
    tmux('kill-session', '-t', 'dbg');
  });

  test('internal functions: the call stack at the failure lists those the struct-log walk finds open; n steps over _fee, o out of it to the caller\'s next line, p back over it', async () => {
    if (!hasTmux) throw new Error('tmux is missing: the pseudo-terminal test cannot run');
    const ref = failing;
    openDebugger(scene.failing);
    const origin = logs.failing.findIndex((l) => l.op === 'REVERT');
    const opened = await waitFor('the status line at the failure', (s) => statusOf(s) === ref.status(origin));
    const shown = stackOf(FAILING, origin);
    expect(shown.length).toBeGreaterThan(FAILING.length);
    // The calls pane lists them in order, the innermost marked.
    const pane = opened.split('\n').map((l) => l.match(/([ >]) ((?:Teller|Bank|Rules)[:.][:\w]+)\s*$/)).filter((m) => m !== null);
    expect(pane.map((m) => m![2])).toEqual(shown);
    expect(pane.at(-1)![1]).toBe('>');
    // The locals pane: Rules.check's parameters by name, as its caller passed them (have = 100, amount + fee = 1010).
    const locals = (screen: string): string[] => {
      const right = screen.split('\n').map((l) => l.split(' │ ')[1]?.trimEnd() ?? '');
      const from = right.indexOf('locals');
      return right.slice(from + 1, right.findIndex((l) => l.startsWith('stack, top first')));
    };
    expect(locals(opened)).toEqual(['  have = 100', '  want = 1010']);
    const feeLine = lineOf('src/Bank.sol', 'uint256 fee = _fee(amount);');
    const takeLine = lineOf('src/Bank.sol', '_take(who, amount + fee);');
    const on = (i: number, line: number, depth = 2) => logs.failing[i]!.depth === depth && ref.place(i)?.file === 'src/Bank.sol' && ref.place(i)?.line === line;
    const feeAt = logs.failing.findIndex((_, i) => on(i, feeLine));
    expect(feeAt).toBeGreaterThan(0);
    tmux('send-keys', '-t', 'dbg', `:step ${feeAt + 1}`, 'Enter');
    await waitFor('the fee line', (s) => statusOf(s) === ref.status(feeAt));
    // n: over _fee (its body's steps are one level deeper), to the next line of withdraw.
    let at = ref.over(feeAt);
    const onTake = await press(ref, ['n'], at);
    expect(on(at, takeLine)).toBe(true);
    // On the line after it, fee is there by name, computed.
    expect(locals(onTake)).toEqual([`  who = ${checksumAddress(DEV.sender)}`, '  amount = 1000', '  fee = 10']);
    // p: back over _fee, to the first step of the fee line.
    await press(ref, ['p'], (at = ref.back(at)));
    expect(at).toBe(feeAt);
    // o from inside _fee: to the caller's next line.
    const body = logs.failing.findIndex((_, i) => on(i, lineOf('src/Bank.sol', 'return amount / 100;')));
    expect(body).toBeGreaterThan(feeAt);
    tmux('send-keys', '-t', 'dbg', `:step ${body + 1}`, 'Enter');
    const inFee = await waitFor('the body of _fee', (s) => statusOf(s) === ref.status(body));
    expect(inFee).toContain('> Bank._fee');
    await press(ref, ['o'], (at = ref.out(body)));
    expect(on(at, takeLine)).toBe(true);
    // n over _take, which reverts inside: out of Bank, to the teller.
    await press(ref, ['n'], (at = ref.over(at)));
    expect(logs.failing[at]!.depth).toBe(1);
    tmux('send-keys', '-t', 'dbg', 'q');
    await waitFor('the shell again', (s) => s.includes('debugger ended: 0'));
    tmux('kill-session', '-t', 'dbg');
  });

  test('o inside an internal function that never returns (Rules.check reverts): where its frame ends, not the transaction\'s last step; o again leaves the frame', async () => {
    if (!hasTmux) throw new Error('tmux is missing: the pseudo-terminal test cannot run');
    const ref = failing;
    openDebugger(scene.failing);
    const origin = logs.failing.findIndex((l) => l.op === 'REVERT');
    await waitFor('the status line at the failure', (s) => statusOf(s) === ref.status(origin));
    // A step in check's body, before the REVERT: the walk of the struct logs has Rules.check open there.
    const inCheck = logs.failing.findIndex((l, i) => i < origin && l.depth === 2 && ref.place(i)?.file === 'src/lib/Rules.sol' && stackOf(FAILING, i).at(-1) === 'Rules.check');
    expect(inCheck).toBeGreaterThan(0);
    // The bank's frame ends at the failing REVERT: its last step at depth 2.
    const bankLast = logs.failing.findLastIndex((l) => l.depth === 2);
    expect(bankLast).toBe(origin);
    expect(bankLast).toBeLessThan(logs.failing.length - 1);
    tmux('send-keys', '-t', 'dbg', `:step ${inCheck + 1}`, 'Enter');
    await waitFor('the body of check', (s) => statusOf(s) === ref.status(inCheck));
    await press(ref, ['o'], bankLast);
    // From the frame's end, o leaves the frame: the teller's next line.
    await press(ref, ['o'], ref.out(bankLast));
    tmux('send-keys', '-t', 'dbg', 'q');
    await waitFor('the shell again', (s) => s.includes('debugger ended: 0'));
    tmux('kill-session', '-t', 'dbg');
  });

  test('the deposit: opens at step 1; into the ledger no artifact matches (`-` and its opcodes), out to the bank\'s next line; Ctrl-C restores the terminal', async () => {
    if (!hasTmux) throw new Error('tmux is missing: the pseudo-terminal test cannot run');
    const ref = deposit;
    openDebugger(scene.deposit);
    let at = 0;
    await waitFor('the status line of step 1', (s) => statusOf(s) === ref.status(0));
    const firstLedger = logs.deposit.findIndex((l) => l.depth === 2);
    tmux('send-keys', '-t', 'dbg', `:step ${firstLedger + 1}`, 'Enter');
    const inLedger = await waitFor('the ledger\'s first step', (s) => statusOf(s) === ref.status((at = firstLedger)));
    expect(statusOf(inLedger).split(' · ')[1]).toBe('-');
    // The lookup of the same hash names the ledger's call as the status line does.
    const lookup = jsonOf(await runTxray([scene.deposit, '--rpc-url', scene.anvil.url, '--json'], {}, undefined, dir));
    const call = lookup.calls.children.find((c: { to: string }) => c.to.toLowerCase() === scene.ledger.toLowerCase());
    expect([call.function.name, call.function.signature]).toEqual(['record', 'record(address,uint256)']);
    expect(toFunctionSelector('record(address,uint256)')).toBe(call.input.slice(0, 10));
    expect(inLedger).toContain('no source map matched this code: its opcodes');
    await press(ref, ['s'], (at = ref.into(at)));
    expect(at).toBe(firstLedger + 1);
    await press(ref, ['n'], (at = ref.over(at)));
    await press(ref, ['o'], (at = ref.out(at)));
    expect(logs.deposit[at]!.depth).toBe(1);
    expect(ref.place(at)).not.toBeNull();
    tmux('send-keys', '-t', 'dbg', 'C-c');
    // Ctrl-C is an interruption: exit 130, as README's exit codes say (q is 0).
    const after = await waitFor('the shell again', (s) => s.includes('debugger ended: 130'));
    expect(after).not.toContain('Bank::deposit');
    tmux('kill-session', '-t', 'dbg');
  });

  test('--at without --json opens the debugger at that step', async () => {
    if (!hasTmux) throw new Error('tmux is missing: the pseudo-terminal test cannot run');
    const line = lineOf('src/Bank.sol', 'total += msg.value;');
    openDebugger(scene.deposit, `--at Bank.sol:${line}`);
    const expected = logs.deposit.findIndex((_, i) => deposit.place(i)?.file === 'src/Bank.sol' && deposit.place(i)?.line === line);
    await waitFor('the status line of that step', (s) => statusOf(s) === deposit.status(expected));
    tmux('send-keys', '-t', 'dbg', 'q');
    await waitFor('the shell again', (s) => s.includes('debugger ended: 0'));
    tmux('kill-session', '-t', 'dbg');
  });

  test('SIGTERM ends the view with exit 130 and restores the terminal', async () => {
    if (!hasTmux) throw new Error('tmux is missing: the pseudo-terminal test cannot run');
    openDebugger(scene.failing);
    await waitFor('the debugger', (s) => statusOf(s) === failing.status(logs.failing.findIndex((l) => l.op === 'REVERT')));
    // The debugger is the pane shell's child (the one process this test started there).
    const shell = tmux('display-message', '-p', '-t', 'dbg', '#{pane_pid}').trim();
    const child = execFileSync('pgrep', ['-P', shell], { encoding: 'utf8' }).trim().split('\n')[0]!;
    process.kill(Number(child), 'SIGTERM');
    const after = await waitFor('the shell again', (s) => s.includes('debugger ended: 130'));
    expect(after).not.toContain('Teller::cashOut');
    expect(tmux('display-message', '-p', '-t', 'dbg', '#{cursor_flag}').trim()).toBe('1');
    tmux('kill-session', '-t', 'dbg');
  });

  test('a plain transfer: no view opens; one line says there is no step, exit 0', async () => {
    if (!hasTmux) throw new Error('tmux is missing: the pseudo-terminal test cannot run');
    openDebugger(scene.transfer);
    const screen = await waitFor('the shell again', (s) => s.includes('debugger ended: 0'));
    // (the line wraps at the pane's width)
    expect(screen.replace(/\n/g, '')).toContain(`txray: transaction ${scene.transfer} ran no code (a plain transfer, or a call to an account without code): there is no step to show.`);
    tmux('kill-session', '-t', 'dbg');
  });

  test('--record: refused by name, one line, exit 2, no file written, before any request', async () => {
    const file = join(dir, 'debug.rec');
    for (const record of [['--record', file], [`--record=${file}`]]) {
      const r = await runTxray(['debug', scene.failing, ...record, '--rpc-url', 'http://127.0.0.1:9'], {}, undefined, dir);
      expect([r.code, r.stdout]).toEqual([2, '']);
      expect(r.stderr.trim().split('\n')).toEqual(['txray: txray debug takes no --record: a recording replays a lookup, a call or a block (txray <hash> --record <file>), not the debugger.']);
      expect(() => readFileSync(file), 'no file written').toThrow(/ENOENT/);
    }
  });

  test('without a terminal and without --json: a clear one-line error, exit 2, before any request', async () => {
    const r = await runTxray(['debug', scene.failing, '--rpc-url', 'http://127.0.0.1:9'], {}, undefined, dir);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual(['txray: txray debug opens a full-screen view and needs a terminal; to script it, use --at <file>:<line> | step:<i> | failure --json.']);
  });
});
