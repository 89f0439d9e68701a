/**
 * `txray debug --dap`: the editor's debugger, driven over stdio by the tests' own Debug Adapter Protocol
 * client (test/support/dapClient.ts) against the terminal debugger's project on one anvil with
 * --steps-tracing. Where each request stops is checked against the same reference as the terminal's
 * keys (the node's struct logs and the compiler's source maps, read by the tests' own readers), the
 * stopped event's description being the terminal's status line; the Stack, Memory and Storage scopes
 * against the struct log at that step.
 */
import { appendFileSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toFunctionSelector } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { checksumAddress } from '../../src/decode/keccak.js';
import { DapClient, type DapEvent } from '../support/dapClient.js';
import { runTxray } from '../support/runTxray.js';
import { type DebugScene, debugScene, DEV } from '../support/debugProject.js';
import { type DebugReferences, debugReferences } from '../support/debugReferences.js';
import type { WalkedSpan } from '../support/internalWalk.js';
import type { Reference } from '../support/referenceSteps.js';

const dir = mkdtempSync(join(tmpdir(), 'txray-dap-'));
let scene: DebugScene;
let logs: DebugReferences['logs'];
let failing: Reference;
let deposit: Reference;
let spans: WalkedSpan[];
const clients: DapClient[] = [];

beforeAll(async () => {
  scene = await debugScene(dir, { storageLayout: true });
  ({ logs, failing, deposit, spans } = await debugReferences(scene, dir));
});

afterAll(async () => {
  for (const c of clients) c.kill();
  await scene?.anvil.stop();
});

/** An adapter started in the project, initialized (linesStartAt1 as given). */
async function adapter(args: string[] = [], lines1 = true): Promise<DapClient> {
  const c = new DapClient(['debug', ...args, '--dap', '--rpc-url', scene.anvil.url], dir);
  clients.push(c);
  const init = await c.request('initialize', { adapterID: 'txray', linesStartAt1: lines1, columnsStartAt1: true });
  expect(init.success).toBe(true);
  await c.nextEvent('initialized');
  return c;
}

/** The line of `text` in the project's file (1-based). */
const lineOf = (file: string, text: string): number => readFileSync(join(dir, file), 'utf8').split('\n').findIndex((l) => l.includes(text)) + 1;

/** Every arrival at any of `lines` (file, line), in order, as the reference says: a step on such a line after a step of another line (steps without a place passed over). */
function arrivalsAt(ref: Reference, lines: ReadonlyArray<{ file: string; line: number }>): number[] {
  const out: number[] = [];
  let was: string | null = null;
  for (let j = 0; j < ref.n; j++) {
    const k = ref.key(j);
    if (k === null || k === was) continue;
    was = k;
    if (lines.some((b) => ref.place(j)?.file === b.file && ref.place(j)?.line === b.line)) out.push(j);
  }
  return out;
}

/** Disconnect: answered, and the process ends with exit 0; stdout held framed messages only. */
async function disconnect(c: DapClient): Promise<void> {
  expect((await c.request('disconnect', { terminateDebuggee: true })).success).toBe(true);
  expect(await c.exited).toEqual({ code: 0, signal: null });
  expect(c.stray).toBe('');
}

/** A scope's variables at the current stop (the innermost frame unless given). */
async function scope(c: DapClient, name: string, frameId = 0): Promise<Array<{ name: string; value: string; type?: string }>> {
  const scopes = (await c.request('scopes', { frameId })).body.scopes as Array<{ name: string; variablesReference: number }>;
  const ref = scopes.find((s) => s.name === name)!.variablesReference;
  return (await c.request('variables', { variablesReference: ref })).body.variables;
}

describe('txray debug --dap', () => {
  test('initialize → capabilities, initialized; bad input is answered and the session keeps serving; launch with stopOnEntry stops at step 1; disconnect exits 0', async () => {
    const c = new DapClient(['debug', '--dap', '--rpc-url', scene.anvil.url], dir);
    clients.push(c);
    const init = await c.request('initialize', { adapterID: 'txray' });
    expect(init.body).toMatchObject({ supportsConfigurationDoneRequest: true, supportsStepBack: true, supportsEvaluateForHovers: true, exceptionBreakpointFilters: [expect.objectContaining({ filter: 'failure' })] });
    await c.nextEvent('initialized');
    // A body that is not JSON, and one over the size cap: error responses (no request to name: request_seq 0).
    c.write('Content-Length: 9\r\n\r\nnot json!');
    const notJson = await c.waitFor('an error for the body that is not JSON', (m): m is any => m.type === 'response' && !m.success && /not JSON/.test(m.message ?? ''));
    expect(notJson.request_seq).toBe(0);
    c.write(`Content-Length: ${5 * 1024 * 1024}\r\n\r\n${'x'.repeat(5 * 1024 * 1024)}`);
    await c.waitFor('an error for the oversize message', (m): m is any => m.type === 'response' && !m.success && /over the limit/.test(m.message ?? ''));
    const unknown = await c.request('frobnicate', {});
    expect([unknown.success, unknown.message]).toEqual([false, "txray's adapter does not know the request 'frobnicate'"]);
    const nobody = await c.request('launch', { hash: `0x${'ab'.repeat(32)}` });
    expect(nobody.success).toBe(false);
    expect(nobody.message).toContain('does not know');
    const bad = await c.request('launch', { hash: '0x1234' });
    expect(bad.success).toBe(false);
    expect(bad.message).toContain('not a transaction hash');
    expect((await c.request('stackTrace', { threadId: 1 })).success).toBe(false);
    // Still serving: the failing withdraw, from step 1.
    expect((await c.request('launch', { hash: scene.failing, stopOnEntry: true, cwd: dir })).success).toBe(true);
    expect((await c.request('configurationDone')).success).toBe(true);
    const entry = await c.nextEvent('stopped');
    expect(entry.body).toMatchObject({ reason: 'entry', threadId: 1, description: failing.status(0) });
    expect((await c.request('threads')).body.threads).toEqual([{ id: 1, name: `transaction ${scene.failing}` }]);
    expect(c.stderr).toContain('not JSON');
    await disconnect(c);
  });

  test('breakpoints are verified as the source map says (a comment line moved to the next statement, a line that never ran not verified); continue and reverseContinue stop at each arrival, past the end terminated', async () => {
    const c = await adapter();
    const teller = join(dir, 'src/Teller.sol');
    const rules = join(dir, 'src/lib/Rules.sol');
    const comment = lineOf('src/Teller.sol', '// a comment that holds');
    const check = lineOf('src/lib/Rules.sol', 'if (have < want)');
    const never = lineOf('src/Bank.sol', 'total -= amount;');
    // Set before the launch (as some clients do): not verified yet, then verified by a `breakpoint` event once loaded.
    const early = await c.request('setBreakpoints', { source: { path: teller }, breakpoints: [{ line: comment }] });
    expect(early.body.breakpoints).toEqual([expect.objectContaining({ verified: false, line: comment })]);
    await c.request('setExceptionBreakpoints', { filters: [] });
    expect((await c.request('launch', { hash: scene.failing })).success).toBe(true);
    const changed = await c.nextEvent('breakpoint');
    const ran = (file: string, line: number) => logs.failing.some((_, i) => failing.place(i)?.file === file && failing.place(i)?.line === line);
    expect(ran('src/Teller.sol', comment)).toBe(false);
    expect(ran('src/Teller.sol', comment + 1)).toBe(true);
    expect(changed.body.breakpoint).toMatchObject({ id: early.body.breakpoints[0].id, verified: true, line: comment + 1 });
    const inRules = await c.request('setBreakpoints', { source: { path: rules }, breakpoints: [{ line: check }] });
    expect(inRules.body.breakpoints).toEqual([expect.objectContaining({ verified: ran('src/lib/Rules.sol', check), line: check })]);
    expect(ran('src/lib/Rules.sol', check)).toBe(true);
    const bank = await c.request('setBreakpoints', { source: { path: join(dir, 'src/Bank.sol') }, breakpoints: [{ line: never }] });
    expect(ran('src/Bank.sol', never)).toBe(false);
    expect(bank.body.breakpoints).toEqual([expect.objectContaining({ verified: false, line: never, message: expect.stringContaining('withdraw') })]);
    const lines = [{ file: 'src/Teller.sol', line: comment + 1 }, { file: 'src/lib/Rules.sol', line: check }];
    const arrivals = arrivalsAt(failing, lines);
    expect(arrivals.length).toBeGreaterThanOrEqual(3);
    expect((await c.request('configurationDone')).success).toBe(true);
    let stopped: DapEvent = await c.nextEvent('stopped');
    expect(stopped.body).toMatchObject({ reason: 'breakpoint', description: failing.status(arrivals[0]!) });
    for (const at of arrivals.slice(1)) {
      stopped = await c.move('continue');
      expect(stopped.body, `continue to step ${at + 1}`).toMatchObject({ reason: 'breakpoint', description: failing.status(at) });
    }
    // Back: the latest earlier arrival, then the one before; from the first, step 1.
    for (const at of arrivals.slice(0, -1).reverse()) expect((await c.move('reverseContinue')).body).toMatchObject({ reason: 'breakpoint', description: failing.status(at) });
    expect((await c.move('reverseContinue')).body).toMatchObject({ reason: 'step', description: failing.status(0) });
    for (const at of arrivals) expect((await c.move('continue')).body.description).toBe(failing.status(at));
    expect((await c.move('continue')).event).toBe('terminated');
    await disconnect(c);
  });

  test('next, stepIn, stepOut, stepBack land where the terminal\'s n, s, o, p land; the stack trace names the frames innermost first at their lines; a step onto the last step is stopped', async () => {
    const c = await adapter();
    await c.request('launch', { hash: scene.failing, stopOnEntry: true });
    await c.request('configurationDone');
    await c.nextEvent('stopped');
    const ref = failing;
    let at = 0;
    const go = async (command: string, to: number) => {
      const e = await c.move(command);
      expect(e.body, `${command} to step ${to + 1}`).toMatchObject({ reason: 'step', description: ref.status(to) });
      at = to;
    };
    await go('next', ref.over(at));
    await go('next', ref.over(at));
    for (let k = 0; k < 4; k++) await go('stepIn', ref.into(at));
    expect(logs.failing[at]!.depth).toBe(2);
    await go('next', ref.over(at));
    await go('stepBack', ref.back(at));
    await go('stepBack', ref.back(at));
    // Into _fee's body, then out of it to the caller's next line.
    const body = logs.failing.findIndex((_, i) => ref.place(i)?.line === lineOf('src/Bank.sol', 'return amount / 100;') && ref.place(i)?.file === 'src/Bank.sol');
    while (at < body) await go('stepIn', ref.into(at));
    expect(at).toBe(body);
    const trace = (await c.request('stackTrace', { threadId: 1 })).body;
    const open = spans.filter((s) => s.from < at && at <= s.to).sort((a, b) => a.from - b.from).map((s) => s.name);
    expect(trace.stackFrames.map((f: { name: string }) => f.name)).toEqual(['Teller.cashOut', 'Bank.withdraw', ...open].reverse());
    expect(trace.stackFrames[0]).toMatchObject({ line: ref.place(at)!.line, column: 1, source: { path: join(dir, 'src/Bank.sol') } });
    // A caller's line is its call site: withdraw at the line that calls _fee, cashOut at the line that calls withdraw.
    expect(trace.stackFrames[1]).toMatchObject({ line: lineOf('src/Bank.sol', 'uint256 fee = _fee(amount);'), source: { path: join(dir, 'src/Bank.sol') } });
    expect(trace.stackFrames.at(-1)).toMatchObject({ line: lineOf('src/Teller.sol', 'bank.withdraw(msg.sender, amount);'), source: { path: join(dir, 'src/Teller.sol') } });
    await go('stepOut', ref.out(at));
    // To the end: next until the last step, which is a stop like any other.
    while (at < ref.n - 1) await go('next', ref.over(at));
    await go('next', ref.n - 1);
    await disconnect(c);
  });

  test('the failure filter stops where the failure began (the REVERT two internal calls deep, not the teller\'s re-revert); Stack and Memory equal the struct log there; stack[0] evaluates to the top; Locals and evaluate give each frame\'s parameters and locals by name', async () => {
    const c = await adapter();
    await c.request('setExceptionBreakpoints', { filters: ['failure'] });
    await c.request('launch', { hash: scene.failing });
    await c.request('configurationDone');
    const stopped = await c.nextEvent('stopped');
    const reverts = logs.failing.flatMap((l, i) => (l.op === 'REVERT' ? [i] : []));
    const origin = reverts.reduce((a, b) => (logs.failing[b]!.depth > logs.failing[a]!.depth ? b : a));
    // Its text is the revert's, read from the REVERT's stack and memory (the custom error by its selector), not only that it reverted.
    expect(stopped.body).toMatchObject({ reason: 'exception', description: failing.status(origin), text: `custom error ${toFunctionSelector('Insufficient(uint256,uint256)')}` });
    const l = logs.failing[origin]!;
    expect((await scope(c, 'Stack')).map((v) => v.value)).toEqual([...(l.stack ?? [])].reverse());
    expect((await scope(c, 'Stack'))[0]!.name).toBe('stack[0]');
    expect((await scope(c, 'Memory')).map((v) => v.value.slice(2)).join('')).toBe((l.memory ?? []).map((w) => w.replace(/^0x/, '')).join(''));
    expect((await c.request('evaluate', { expression: 'stack[0]', frameId: 0, context: 'hover' })).body.result).toBe(l.stack!.at(-1));
    // Locals by name (cashOut(1000) after a deposit of 100: withdraw → fee = 10 → _take(who, 1010) → have = 100 →
    // Rules.check(100, 1010)): the innermost function's parameters, and in its caller (_take, standing at its call)
    // the arguments and the local computed before that line, each with its type.
    const trace = (await c.request('stackTrace', { threadId: 1 })).body.stackFrames as Array<{ id: number; name: string }>;
    expect(trace.slice(0, 2).map((f) => f.name)).toEqual(['Rules.check', 'Bank._take']);
    expect((await scope(c, 'Locals', trace[0]!.id)).map((v) => [v.name, v.value, v.type])).toEqual([['have', '100', 'uint256'], ['want', '1010', 'uint256']]);
    const take = await scope(c, 'Locals', trace[1]!.id);
    expect(take.map((v) => [v.name, v.value])).toEqual([['who', checksumAddress(DEV.sender)], ['amount', '1010'], ['have', '100']]);
    expect((await c.request('evaluate', { expression: 'want', frameId: trace[0]!.id })).body).toMatchObject({ result: '1010', type: 'uint256' });
    expect((await c.request('evaluate', { expression: 'amount', frameId: trace[1]!.id })).body.result).toBe('1010');
    // want is Rules.check's, not _take's: not found there, said so.
    expect((await c.request('evaluate', { expression: 'want', frameId: trace[1]!.id })).success).toBe(false);
    // A state variable whose slot the run has not touched by then: said, not guessed.
    const total = await c.request('evaluate', { expression: 'total', frameId: 0 });
    expect([total.success, total.message]).toEqual([false, expect.stringContaining('has not read or written')]);
    // A mapping (whose entry _take read just before): its own slot is never read; said so, not "not read yet".
    const balances = await c.request('evaluate', { expression: 'balances', frameId: 0 });
    expect([balances.success, balances.message]).toEqual([false, expect.stringContaining('balances is a mapping: its entries sit at slots hashed from their keys')]);
    expect((await c.request('evaluate', { expression: 'nothing_here', frameId: 0 })).success).toBe(false);
    // Nothing else fails after it: continue runs past the end.
    expect((await c.move('continue')).event).toBe('terminated');
    await disconnect(c);
  });

  test('the deposit: a breakpoint after the balance is written; Stack, Memory and Storage equal the struct log there; a state variable by name once written; lines counted from 0 where the client says so', async () => {
    const c = await adapter([scene.deposit], false);
    const line = lineOf('src/Bank.sol', 'ledger.record(msg.sender, msg.value);');
    const set = await c.request('setBreakpoints', { source: { path: join(dir, 'src/Bank.sol') }, lines: [line - 1] });
    expect(set.body.breakpoints[0]).toMatchObject({ line: line - 1 });
    // The hash is the command line's: the launch names none.
    expect((await c.request('launch', {})).success).toBe(true);
    expect((await c.nextEvent('breakpoint')).body.breakpoint).toMatchObject({ verified: true, line: line - 1 });
    await c.request('configurationDone');
    const at = logs.deposit.findIndex((_, i) => deposit.place(i)?.file === 'src/Bank.sol' && deposit.place(i)?.line === line);
    expect((await c.nextEvent('stopped')).body).toMatchObject({ reason: 'breakpoint', description: deposit.status(at) });
    expect((await c.request('stackTrace', { threadId: 1 })).body.stackFrames[0]).toMatchObject({ name: 'Bank.deposit', line: line - 1 });
    const l = logs.deposit[at]!;
    expect((await scope(c, 'Stack')).map((v) => v.value)).toEqual([...(l.stack ?? [])].reverse());
    expect((await scope(c, 'Memory')).map((v) => v.value.slice(2)).join('')).toBe((l.memory ?? []).map((w) => w.replace(/^0x/, '')).join(''));
    // The struct log's storage as last shown in this frame (at its SSTOREs), before this step.
    const last = logs.deposit.findLastIndex((s, i) => i <= at && s.depth === 1 && s.storage !== undefined);
    expect(last).toBeGreaterThan(0);
    const storage = Object.fromEntries((await scope(c, 'Storage')).map((v) => [v.name, v.value]));
    const expected = Object.fromEntries(Object.entries(logs.deposit[last]!.storage!).map(([k, v]) => [`0x${k.replace(/^0x/, '')}`, `0x${v.replace(/^0x/, '')}`]));
    expect(storage).toEqual(expected);
    // Bank's layout names its slot 2 (total) beside it; the mapping's entry stays a slot.
    expect((await scope(c, 'Storage')).find((v) => v.name === `0x${'2'.padStart(64, '0')}`)?.type).toBe('total: uint256');
    // total was written just before (the deposit's value).
    const total = await c.request('evaluate', { expression: 'total', frameId: 0 });
    expect(total.body).toMatchObject({ result: '100', type: 'uint256' });
    await disconnect(c);
  });

  test('launch\'s rpcUrl may be an alias of the foundry.toml of the project launch\'s cwd names (over the command line\'s node)', async () => {
    appendFileSync(join(dir, 'foundry.toml'), `\n[rpc_endpoints]\ndapnode = "${scene.anvil.url}"\n`);
    const c = new DapClient(['debug', '--dap', '--rpc-url', 'http://127.0.0.1:9'], tmpdir());
    clients.push(c);
    await c.request('initialize', { adapterID: 'txray' });
    // configurationDone before launch (as some clients order them): the session starts once the launch has loaded.
    expect((await c.request('configurationDone')).success).toBe(true);
    expect((await c.request('launch', { hash: scene.deposit, rpcUrl: 'dapnode', cwd: dir, stopOnEntry: true })).success).toBe(true);
    expect((await c.nextEvent('stopped')).body.description).toBe(deposit.status(0));
    // The project's files by their absolute paths, though the adapter runs elsewhere.
    expect((await c.request('stackTrace', { threadId: 1 })).body.stackFrames[0].source.path).toBe(join(dir, deposit.place(0)!.file));
    await disconnect(c);
  });

  test('an adapter started in a folder inside the project (src/): the frames\' files are the project\'s, by the compiler\'s paths from foundry.toml\'s folder; a launch\'s cwd that is no folder is refused', async () => {
    const c = new DapClient(['debug', '--dap', '--rpc-url', scene.anvil.url], join(dir, 'src'));
    clients.push(c);
    await c.request('initialize', { adapterID: 'txray' });
    const missing = await c.request('launch', { hash: scene.deposit, cwd: join(dir, 'no-such-folder') });
    expect([missing.success, missing.message]).toEqual([false, expect.stringContaining(`launch's cwd ${join(dir, 'no-such-folder')} is not a folder`)]);
    // A path through a file: the same answer, not an internal error.
    const throughFile = await c.request('launch', { hash: scene.deposit, cwd: join(dir, 'foundry.toml', 'x') });
    expect([throughFile.success, throughFile.message]).toEqual([false, expect.stringContaining('is not a folder')]);
    expect((await c.request('launch', { hash: scene.deposit, stopOnEntry: true })).success).toBe(true);
    await c.request('configurationDone');
    await c.nextEvent('stopped');
    expect((await c.request('stackTrace', { threadId: 1 })).body.stackFrames[0].source.path).toBe(join(dir, deposit.place(0)!.file));
    await disconnect(c);
  });

  test('an adapter started through a link to the project (its working directory the real folder): a breakpoint in the file by the link\'s path is verified and stops', async () => {
    const link = `${dir}-link`;
    symlinkSync(dir, link);
    const c = new DapClient(['debug', '--dap', '--rpc-url', scene.anvil.url], link);
    clients.push(c);
    await c.request('initialize', { adapterID: 'txray' });
    expect((await c.request('launch', { hash: scene.deposit })).success).toBe(true);
    const line = lineOf('src/Bank.sol', 'ledger.record(msg.sender, msg.value);');
    const set = await c.request('setBreakpoints', { source: { path: join(link, 'src/Bank.sol') }, breakpoints: [{ line }] });
    expect(set.body.breakpoints).toEqual([expect.objectContaining({ verified: true, line })]);
    await c.request('configurationDone');
    expect((await c.nextEvent('stopped')).body).toMatchObject({ reason: 'breakpoint', description: expect.stringContaining(` · src/Bank.sol:${line} · `) });
    // The frame's file as the editor named it (through the link), so that it opens the buffer it has, not a second one.
    expect((await c.request('stackTrace', { threadId: 1 })).body.stackFrames[0].source.path).toBe(join(link, 'src/Bank.sol'));
    await disconnect(c);
  });

  test('a launch whose cwd holds no project: the frames have no source (the stack trace names them by pc and opcode); next moves an opcode, and stepBack an opcode back, not to step 1', async () => {
    const c = await adapter();
    const bare = mkdtempSync(join(tmpdir(), 'txray-dap-bare-'));
    expect((await c.request('launch', { hash: scene.deposit, cwd: bare, stopOnEntry: true })).success).toBe(true);
    await c.request('configurationDone');
    await c.nextEvent('stopped');
    const at = async (step: number) => expect((await c.request('stackTrace', { threadId: 1 })).body.stackFrames).toEqual([expect.objectContaining({ name: expect.stringContaining(`(pc ${logs.deposit[step]!.pc} ${logs.deposit[step]!.op})`), line: 0 })]);
    for (const [command, step] of [['next', 1], ['next', 2], ['stepBack', 1], ['stepBack', 0]] as const) {
      expect((await c.move(command)).body.description, `${command} to step ${step + 1}`).toMatch(new RegExp(`^step ${step + 1}/${logs.deposit.length} · - · `));
      await at(step);
    }
    await disconnect(c);
  });

  test('a bad hash on the command line, or --dap with --at or --json: one line, exit 2 (with --json its error document), before anything is served', async () => {
    const bad = await runTxray(['debug', '0x1234', '--dap', '--rpc-url', 'http://127.0.0.1:9'], {}, undefined, dir);
    expect([bad.code, bad.stdout, bad.stderr.trim().split('\n').length]).toEqual([2, '', 1]);
    expect(bad.stderr).toContain('not a transaction hash');
    const message = 'txray debug --dap takes no --at or --json: the editor says where to stop.';
    const at = await runTxray(['debug', scene.failing, '--dap', '--at', 'failure', '--rpc-url', 'http://127.0.0.1:9'], {}, undefined, dir);
    expect([at.code, at.stdout, at.stderr]).toEqual([2, '', `txray: ${message}\n`]);
    // With --json, the error document every --json run writes.
    const json = await runTxray(['debug', scene.failing, '--dap', '--at', 'failure', '--json', '--rpc-url', 'http://127.0.0.1:9'], {}, undefined, dir);
    expect([json.code, JSON.parse(json.stdout)]).toEqual([2, { schemaVersion: 1, hash: scene.failing, error: { code: 'usage', message } }]);
  });

  test('an editor that goes away (stdin closed, no disconnect): the adapter ends, exit 0', async () => {
    const c = await adapter();
    c.end();
    expect(await c.exited).toEqual({ code: 0, signal: null });
    expect(c.stray).toBe('');
  });

  test('txray debug call … --dap: the call of the command line, from step 1', async () => {
    const sender = DEV.sender.toLowerCase();
    const c = new DapClient(['debug', 'call', scene.bank, 'withdraw(address,uint256)', sender, '1000', '--from', sender, '--rpc-url', scene.anvil.url, '--dap'], dir);
    clients.push(c);
    await c.request('initialize', { adapterID: 'txray' });
    expect((await c.request('launch', { hash: scene.failing })).message).toContain('names no hash');
    // A configuration made for transactions names a node and a folder: the call's are the command line's, and the debug console says so.
    expect((await c.request('launch', { stopOnEntry: true, rpcUrl: 'http://127.0.0.1:9', cwd: tmpdir() })).success).toBe(true);
    await c.request('configurationDone');
    const entry = await c.nextEvent('stopped');
    // Sent with the launch's answer, before the stop.
    expect(c.messages.filter((m) => m.type === 'event' && m.event === 'output').map((m) => m.body.output)).toEqual(["warning: launch's rpcUrl and cwd not used: txray debug call … --dap runs the call of its command line on its node, in its folder\n"]);
    expect(entry.body.description).toMatch(/^step 1\/\d+ · src\/Bank.sol:\d+ · Bank::withdraw · pc 0 PUSH1$/);
    expect((await c.request('threads')).body.threads[0].name).toBe('the call');
    await disconnect(c);
  });
});
