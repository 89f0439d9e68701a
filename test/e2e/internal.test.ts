/**
 * --internal: the Solidity internal functions each frame ran, on a project (test/fixtures/internal)
 * compiled in the set-up with solc from npm (the optimizer off, on, and via-IR) and deployed on one
 * anvil started with --steps-tracing. The expected calls come from an independent walk of anvil's own
 * opcode trace with the source maps and ASTs (test/support/internalWalk.ts); the definitions' lines are
 * checked against the sources' text.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { encodeDeployData, encodeFunctionData, type Abi } from 'viem';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { startAnvil } from '../../scripts/lib/anvil.mjs';
import { launchBrowser } from '../../scripts/lib/browser.mjs';
import { DEV, receipt, send } from '../../scripts/lib/scenarios.mjs';
import { foundryDebug } from '../../src/decode/loadDebug.js';
import { internalCallsOf } from '../../src/locate/internalCallsOf.js';
import { jumpsOfSteps } from '../../src/locate/jumpsOfSteps.js';
import { openAt } from '../../src/locate/openAt.js';
import type { InternalCall, InternalItem } from '../../src/model/types.js';
import { type Built, readBuilt, type StructLog, walkInternal, type WalkedCall } from '../support/internalWalk.js';
import { forward, startRpcServer } from '../support/rpcServer.js';
import { jsonOf, runTxray } from '../support/runTxray.js';
import { schemaErrors } from '../support/schema.js';
import { type Compiled, writeFoundryProject, writeHardhatProject } from '../support/sourceProject.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/internal', import.meta.url));
type Kind = 'plain' | 'optimized' | 'viaIR';
const KINDS: readonly Kind[] = ['plain', 'optimized', 'viaIR'];
const dirs: Record<Kind, string> = { plain: mkdtempSync(join(tmpdir(), 'txray-internal-plain-')), optimized: mkdtempSync(join(tmpdir(), 'txray-internal-opt-')), viaIR: mkdtempSync(join(tmpdir(), 'txray-internal-ir-')) };
const noAst = mkdtempSync(join(tmpdir(), 'txray-internal-noast-'));
const noAstOptimized = mkdtempSync(join(tmpdir(), 'txray-internal-noast-opt-'));
const noAstEdited = mkdtempSync(join(tmpdir(), 'txray-internal-noast-edited-'));
const hardhat = mkdtempSync(join(tmpdir(), 'txray-internal-hh-'));
const elsewhere = mkdtempSync(join(tmpdir(), 'txray-internal-none-'));
let anvil: Awaited<ReturnType<typeof startAnvil>>;
const built = {} as Record<Kind, Built>;
const names = {} as Record<Kind, Map<string, string>>;
const bank = {} as Record<Kind, string>;
const tx = {} as Record<Kind, Record<string, string>>;
let bankAbi: Abi;

const CASES: Array<[string, string, unknown[]]> = [
  ['withdraw', 'withdraw', [50n]],
  ['overLimit', 'withdraw', [5000n]],
  ['fact', 'fact', [5n]],
  ['both', 'both', [7n]],
  ['settle', 'settle', [300n]],
  ['many', 'many', [12n]],
  ['underflow', 'withdraw', [990n]],
];

beforeAll(async () => {
  anvil = await startAnvil(['--steps-tracing']);
  for (const kind of KINDS) {
    const compiled: Record<string, Compiled> = writeFoundryProject(dirs[kind], { fixture: FIXTURE, ast: true, optimizer: kind !== 'plain', viaIR: kind === 'viaIR' });
    built[kind] = readBuilt(dirs[kind]);
    bankAbi = compiled.Bank!.abi as Abi;
    const deploy = async (name: string, args: unknown[] = []): Promise<string> => {
      const hash = await send(anvil.rpc, { data: encodeDeployData({ abi: compiled[name]!.abi as Abi, bytecode: compiled[name]!.bytecode as `0x${string}`, args }) });
      return (await receipt(anvil.rpc, hash)).contractAddress;
    };
    const oracle = await deploy('Oracle');
    bank[kind] = await deploy('Bank', [oracle]);
    names[kind] = new Map([[oracle.toLowerCase(), 'Oracle'], [bank[kind].toLowerCase(), 'Bank']]);
    await receipt(anvil.rpc, await send(anvil.rpc, { to: bank[kind], data: encodeFunctionData({ abi: bankAbi, functionName: 'deposit' }), value: '0x3e8' }));
    tx[kind] = {};
    for (const [key, fn, args] of CASES) {
      const hash = await send(anvil.rpc, { to: bank[kind], data: encodeFunctionData({ abi: bankAbi, functionName: fn, args }), gas: '0x100000' });
      await receipt(anvil.rpc, hash);
      tx[kind][key] = hash;
    }
  }
  // Hardhat's layout of the optimized build (the same settings: the same code), its ASTs in the build-info.
  writeHardhatProject(hardhat, FIXTURE);
  // The same builds without ASTs (forge build's default), one with every source edited since, and a folder with no project at all.
  for (const [from, to] of [[dirs.plain, noAst], [dirs.optimized, noAstOptimized], [dirs.plain, noAstEdited]] as const) {
    cpSync(from, to, { recursive: true });
    for (const folder of readdirSync(join(to, 'out')).filter((f) => f.endsWith('.sol'))) {
      for (const file of readdirSync(join(to, 'out', folder))) {
        const path = join(to, 'out', folder, file);
        const { ast: _, ...doc } = JSON.parse(readFileSync(path, 'utf8'));
        writeFileSync(path, JSON.stringify(doc));
      }
    }
  }
  for (const file of readdirSync(join(noAstEdited, 'src')).filter((f) => f.endsWith('.sol'))) writeFileSync(join(noAstEdited, 'src', file), `${readFileSync(join(noAstEdited, 'src', file), 'utf8')}\n// edited\n`);
}, 120_000);
afterAll(async () => {
  await anvil?.stop();
});

const run = (args: string[], cwd: string) => runTxray([...args, '-r', anvil.url], {}, undefined, cwd);

/** The struct-log walk of a transaction of build `kind`, by traceAddress. */
async function expectedOf(kind: Kind, hash: string): Promise<Map<string, WalkedCall[]>> {
  const trace = (await anvil.rpc('debug_traceTransaction', [hash, { enableMemory: false }])) as { structLogs: StructLog[] };
  return walkInternal(trace.structLogs, built[kind], (a) => names[kind].get(a), bank[kind]);
}

/** Each call node's internalCalls, by traceAddress. */
function internalOf(doc: Record<string, any>): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const walk = (n: Record<string, any>): void => {
    if (n.internalCalls !== undefined) out.set(n.traceAddress.join(','), n.internalCalls);
    for (const c of n.children) walk(c);
  };
  walk(doc.calls);
  return out;
}

/** The calls' names, nested as "a(b(c),d)". */
const shape = (calls: readonly WalkedCall[]): string => calls.map((c) => `${c.name}${c.children.length > 0 ? `(${shape(c.children)})` : ''}`).join(',');

/** `calls` with gasUsed as --json spells it. */
const jsonShape = (calls: readonly WalkedCall[]): unknown[] => calls.map((c) => ({ ...c, gasUsed: c.gasUsed.toString(), children: jsonShape(c.children) }));

describe('--internal on a mined transaction', () => {
  for (const kind of ['plain', 'optimized'] as const) {
    test.each(CASES.map(([key]) => key))(`${kind}: %s — every frame's internal calls as the opcode trace has them`, async (key) => {
      const expected = await expectedOf(kind, tx[kind]![key]!);
      const r = await run([tx[kind]![key]!, '--json', '--internal'], dirs[kind]);
      expect(r.code).toBe(key === 'overLimit' || key === 'underflow' ? 1 : 0);
      const doc = jsonOf(r);
      expect(schemaErrors(doc)).toBe('');
      const got = internalOf(doc);
      expect([...got.keys()].sort()).toEqual([...expected.keys()].sort());
      for (const [at, calls] of expected) expect(got.get(at), `frame [${at}]`).toEqual(jsonShape(calls));
    });
  }

  test('the plain build lists every internal call the sources make, nested, at their definitions\' lines', async () => {
    const sources = new Map(['Bank', 'Oracle', 'SafeMathLib'].map((n) => [`src/${n}.sol`, readFileSync(join(FIXTURE, 'src', `${n}.sol`), 'utf8').split('\n')]));
    const seen: Record<string, string> = {};
    for (const [key] of CASES) {
      const expected = await expectedOf('plain', tx.plain[key]!);
      seen[key] = [...expected.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([at, calls]) => `[${at}] ${shape(calls)}`).join(' ');
      const check = (calls: readonly WalkedCall[]): void => {
        for (const c of calls) {
          expect(sources.get(c.file)![c.line - 1]).toContain(`function ${c.name}(`);
          check(c.children);
        }
      };
      for (const calls of expected.values()) check(calls);
    }
    expect(seen).toEqual({
      withdraw: '[] _checkLimit(_fee),_debit(sub)',
      overLimit: '[] _checkLimit',
      fact: '[] _fact(_fact(_fact(_fact(_fact))))',
      both: '[] twice [0] ',
      settle: '[] _settle(_notify,_fee) [0] _bump',
      many: `[] ${Array(12).fill('_fee').join(',')}`,
      underflow: '[] _checkLimit(_fee),_debit(sub)',
    });
  });

  test('a custom error inside an internal call: the running one is marked reverted', async () => {
    const doc = jsonOf(await run([tx.plain.overLimit!, '--json', '--internal'], dirs.plain));
    expect(doc.calls.internalCalls).toEqual([expect.objectContaining({ name: '_checkLimit', contract: 'Bank', file: 'src/Bank.sol', reverted: true, children: [] })]);
    expect(doc.calls.revert).toMatchObject({ kind: 'custom', name: 'OverLimit' });
  });

  test('a require failing two internal calls deep: both running calls are marked', async () => {
    const doc = jsonOf(await run([tx.plain.underflow!, '--json', '--internal'], dirs.plain));
    const [check, debit] = doc.calls.internalCalls;
    expect(check.reverted).toBeUndefined();
    expect(debit).toMatchObject({ name: '_debit', reverted: true, children: [{ name: 'sub', contract: 'SafeMathLib', file: 'src/SafeMathLib.sol', line: 5, reverted: true }] });
  });

  test('an external call made inside an internal function is under it (its index in children)', async () => {
    const doc = jsonOf(await run([tx.plain.settle!, '--json', '--internal'], dirs.plain));
    const notify = doc.calls.internalCalls[0].children[0];
    expect(notify).toMatchObject({ name: '_notify', calls: [0] });
    expect(doc.calls.children[0].internalCalls).toEqual([expect.objectContaining({ name: '_bump', contract: 'Oracle', file: 'src/Oracle.sol' })]);
  });

  test('via-IR: the recursion solc cannot inline is listed as the plain build lists it; nothing listed is false', async () => {
    // solc's via-IR pipeline inlines most internal functions (no jumps to see: an empty list there is
    // true), but not a recursive one: _fact's five nested calls are there to be read.
    const flat = (calls: readonly { name: string; children: any[] }[]): string[] => calls.flatMap((c) => [c.name, ...flat(c.children)]);
    const listedOf = new Map<string, string[]>();
    const realOf = new Map<string, string[]>();
    for (const [key] of CASES) {
      const truth = (await expectedOf('plain', tx.plain[key]!)).get('')!;
      const doc = jsonOf(await run([tx.viaIR[key]!, '--json', '--internal'], dirs.viaIR));
      // The code matched its artifact: nothing was said of --internal (no "no call ran code that matches").
      expect(doc.warnings.filter((w: string) => w.startsWith('--internal')), key).toEqual([]);
      const listed = flat(doc.calls.internalCalls ?? []);
      const real = flat(truth);
      listedOf.set(key, listed);
      realOf.set(key, real);
      let at = 0;
      for (const name of listed) {
        while (at < real.length && real[at] !== name) at++;
        expect(at, `${key}: ${listed.join(',')} within ${real.join(',')}`).toBeLessThan(real.length);
        at++;
      }
    }
    expect(realOf.get('fact')).toEqual(['_fact', '_fact', '_fact', '_fact', '_fact']);
    expect(listedOf.get('fact')).toEqual(realOf.get('fact'));
  });

  test('without --internal nothing changes: no internalCalls', async () => {
    const doc = jsonOf(await run([tx.plain.withdraw!, '--json'], dirs.plain));
    expect(JSON.stringify(doc)).not.toContain('internalCalls');
  });

  test('a Hardhat project (artifacts → X.dbg.json → build-info with the ASTs): the same internal calls', async () => {
    for (const key of ['withdraw', 'settle']) {
      const foundry = jsonOf(await run([tx.optimized[key]!, '--json', '--internal'], dirs.optimized));
      const hh = jsonOf(await run([tx.optimized[key]!, '--json', '--internal'], hardhat));
      expect(hh.calls.internalCalls, key).toEqual(foundry.calls.internalCalls);
      expect(hh.calls.internalCalls.length, key).toBeGreaterThan(0);
    }
  });

  test('no matching artifact: nothing listed, the exit by the status', async () => {
    const r = await run([tx.plain.overLimit!, '--json', '--internal'], elsewhere);
    expect(r.code).toBe(1);
    expect(JSON.stringify(jsonOf(r))).not.toContain('internalCalls');
    // Said, in JSON and text alike, so that nothing listed is not read as no internal function ran.
    expect(jsonOf(r).warnings).toContain("--internal: no call ran code that matches an artifact with a source map here (the project's out/ or artifacts/, --abi build-info, Sourcify with --online): no internal calls to list.");
    const text = await run([tx.plain.overLimit!, '--internal'], elsewhere);
    expect(text.stderr + text.stdout).toContain('--internal: no call ran code that matches an artifact with a source map here');
  });

  test('artifacts without ASTs (forge build without --ast): the functions read from the sources the build compiled, the same internal calls as with the ASTs', async () => {
    for (const [kind, dir] of [['plain', noAst], ['optimized', noAstOptimized]] as const) {
      for (const [key] of CASES) {
        const withAst = await run([tx[kind]![key]!, '--json', '--internal'], dirs[kind]);
        const without = await run([tx[kind]![key]!, '--json', '--internal'], dir);
        expect(without.code, `${kind} ${key}`).toBe(withAst.code);
        expect(internalOf(jsonOf(without)), `${kind} ${key}`).toEqual(internalOf(jsonOf(withAst)));
        expect(jsonOf(without).warnings.join('\n')).not.toContain('forge build --ast');
      }
      expect(JSON.stringify(jsonOf(await run([tx[kind]!.fact!, '--json', '--internal'], dir)))).toContain('"internalCalls"');
    }
  });

  test('without ASTs, sources edited since the build: nothing listed, and a warning says how to get them', async () => {
    const r = await run([tx.plain.withdraw!, '--json', '--internal'], noAstEdited);
    expect(r.code).toBe(0);
    const doc = jsonOf(r);
    expect(JSON.stringify(doc)).not.toContain('internalCalls');
    expect(doc.warnings.join('\n')).toContain('forge build --ast');
    // The count in words: "1 call ran", "2 calls ran".
    const [, count, noun] = /--internal: (\d+) (calls?) ran code whose build carries no AST/.exec(doc.warnings.join('\n')) ?? [];
    expect(noun).toBe(count === '1' ? 'call' : 'calls');
  });
});

describe('txray debug: locals by the build', () => {
  test('at the failure of withdraw(5000) inside _checkLimit: its argument by name where the optimizer was off; where it was on, or the build went via IR, not known and why — never a value', async () => {
    const at = (kind: Kind) => run(['debug', tx[kind]!.overLimit!, '--at', 'failure', '--json'], dirs[kind]).then(jsonOf);
    const [plain, optimized, viaIR] = await Promise.all([at('plain'), at('optimized'), at('viaIR')]);
    expect(plain.callStack.at(-1)).toBe('Bank._checkLimit');
    expect(plain.locals).toEqual({ known: true, function: 'Bank._checkLimit', variables: [{ name: 'amount', type: 'uint256', kind: 'parameter', value: '5000', stackIndex: expect.any(Number) }] });
    expect(optimized.locals).toEqual({ known: false, reason: 'built with the optimizer: variables have no fixed stack slots' });
    expect(viaIR.locals).toEqual({ known: false, reason: 'built via IR: variables have no fixed stack slots' });
  });
});

describe('the pure stage on a step log (what a debugger reads)', () => {
  test('jumpsOfSteps + internalCallsOf on anvil\'s struct logs give --json\'s calls and gas; openAt names the ones open at a step', async () => {
    const trace = (await anvil.rpc('debug_traceTransaction', [tx.plain.withdraw!, { enableMemory: false }])) as { structLogs: StructLog[] };
    const logs = trace.structLogs;
    const steps = { pc: logs.map((l) => l.pc), op: logs.map((l) => (l.op === 'JUMP' ? 0x56 : 0)), depth: logs.map((l) => l.depth), gas: logs.map((l) => l.gas) };
    const file = join(dirs.plain, 'out', 'Bank.sol', 'Bank.json');
    const debug = foundryDebug(file, JSON.parse(readFileSync(file, 'utf8')))!.runtime()!;
    const code = (await anvil.rpc('eth_getCode', [bank.plain, 'latest'])) as `0x${string}`;
    const jumps = jumpsOfSteps(steps, 0);
    const items = internalCallsOf(code, debug, jumps, { gas: logs.at(-1)!.gas, reverted: false, at: jumps.end, callsAt: [] })!;
    const calls = (xs: readonly InternalItem[]): InternalCall[] => xs.filter((x): x is InternalCall => typeof x === 'object' && !('event' in x));
    const view = (xs: readonly InternalItem[]): unknown[] => calls(xs).map((c) => ({ name: c.name, gasUsed: String(c.gasUsed), children: view(c.inside) }));
    const doc = jsonOf(await run([tx.plain.withdraw!, '--json', '--internal'], dirs.plain));
    const fromJson = (xs: any[]): unknown[] => xs.map((c) => ({ name: c.name, gasUsed: c.gasUsed, children: fromJson(c.children) }));
    expect(view(items)).toEqual(fromJson(doc.calls.internalCalls));
    const [check, debit] = calls(items);
    const fee = calls(check!.inside)[0]!;
    // Positions are step indexes: the steps from each jump in to its jump out.
    expect(logs[fee.from]!.op).toBe('JUMP');
    expect(openAt(items, fee.from + 1).map((c) => c.name)).toEqual(['_checkLimit', '_fee']);
    expect(openAt(items, fee.to + 1).map((c) => c.name)).toEqual(['_checkLimit']);
    expect(openAt(items, debit!.to - 1).map((c) => c.name)).toEqual(['_debit']);
    expect(openAt(items, 0)).toEqual([]);
  });
});

describe('--internal in the views', () => {
  test('text: internal calls under their call, marked ◦, an external call and an event under the internal function that made them', async () => {
    // geth's callTracer places the events inside the tree (trace_transaction does not say which frame emitted which).
    const r = await run([tx.plain.settle!, '--internal', '--tracer', 'geth'], dirs.plain);
    expect(r.code).toBe(0);
    const tree = r.stdout.split('\n').filter((l) => /◦|call |event #/.test(l)).map((l) => l.replace(/ · [\d,]+ gas.*$/, '').trimEnd());
    expect(tree.slice(-7)).toEqual([
      '  └─ ◦ Bank._settle',
      '     ├─ ◦ Bank._notify',
      expect.stringMatching(/^ {5}│ {2}└─ call Oracle::ping\(x: 300\)$/),
      '     │     └─ ◦ Oracle._bump',
      expect.stringMatching(/^ {5}│ {8}└─ event #0 Oracle Bumped\(by: 300\)$/),
      expect.stringMatching(/^ {5}├─ event #1 Bank Settled\(amount: 300\)$/),
      '     └─ ◦ Bank._fee',
    ]);
  });

  test('a long run of alike internal calls folds into one line, as the tree\'s calls do; --full shows each', async () => {
    const doc = jsonOf(await run([tx.plain.many!, '--json', '--internal'], dirs.plain));
    const total = doc.calls.internalCalls.reduce((n: bigint, c: { gasUsed: string }) => n + BigInt(c.gasUsed), 0n);
    const folded = await run([tx.plain.many!, '--internal'], dirs.plain);
    expect(folded.stdout).toContain(`└─ 12 × ◦ Bank._fee · ${total.toLocaleString('en-US')} gas in all`);
    const full = await run([tx.plain.many!, '--internal', '--full'], dirs.plain);
    expect(full.stdout.split('\n').filter((l) => l.includes('◦ Bank._fee · '))).toHaveLength(12);
  });

  test('--gas-out: internal frames in the stacks, the same total as without --internal', async () => {
    const a = join(elsewhere, 'with.folded');
    const b = join(elsewhere, 'without.folded');
    await run([tx.plain.withdraw!, '--internal', '--gas-out', a], dirs.plain);
    await run([tx.plain.withdraw!, '--gas-out', b], dirs.plain);
    const sum = (path: string): bigint => readFileSync(path, 'utf8').trim().split('\n').reduce((n, l) => n + BigInt(l.split(' ').at(-1)!), 0n);
    expect(sum(a)).toBe(sum(b));
    const stacks = readFileSync(a, 'utf8');
    expect(stacks).toMatch(/::withdraw;Bank\._checkLimit;Bank\._fee \d+\n/);
    expect(stacks).toMatch(/::withdraw;Bank\._debit;SafeMathLib\.sub \d+\n/);
    // --gas's table keeps one row per contract and function called (docs/options.md says so): no internal rows.
    const table = (await run([tx.plain.withdraw!, '--internal', '--gas'], dirs.plain)).stdout.split('Gas profile')[1]!;
    expect(table).toMatch(/::withdraw/);
    expect(table).not.toMatch(/_checkLimit|_fee|_debit/);
  });

  test('txray call --internal: the simulated call\'s internal calls', async () => {
    const r = await run(['call', bank.plain, 'withdraw(uint256)', '50', '--from', DEV.sender, '--json', '--internal'], dirs.plain);
    expect(r.code).toBe(0);
    const doc = jsonOf(r);
    expect(shape(doc.calls.internalCalls)).toBe('_checkLimit(_fee),_debit(sub)');
  });

  test('--html: the tree shows the internal calls where they ran, and the flame graph a bar for each', async () => {
    const file = join(elsewhere, 'settle.html');
    const r = await run([tx.plain.settle!, '--internal', '--html', file, '--quiet'], dirs.plain);
    expect(r.code).toBe(0);
    const browser = await launchBrowser(inject('chromiumPath'));
    try {
      const page = await browser.newPage({ viewport: { width: 1300, height: 1000 } });
      const problems: string[] = [];
      page.on('pageerror', (e) => problems.push(e.message));
      page.on('console', (m) => void (m.type() === 'error' && problems.push(m.text())));
      await page.goto(`file://${file}`);
      await page.waitForSelector('html[data-ready="true"]');
      expect(problems).toEqual([]);
      // In order, nested: _settle holds _notify (which holds the call to the Oracle, which holds _bump) and _fee.
      const rows = await page.locator('.tree li.internal > .line .name, .tree li.call > .line .name').allTextContents();
      expect(rows.slice(1).map((t) => t.replace(/^.*::/, ''))).toEqual(['Bank._settle', 'Bank._notify', 'ping(x: 300)', 'Oracle._bump', 'Bank._fee']);
      expect(await page.locator('.tree li.internal li.internal li.call li.internal .name').allTextContents()).toEqual(['Oracle._bump']);
      const bars = await page.locator('.flame g.internal title').allTextContents();
      const doc = jsonOf(await run([tx.plain.settle!, '--internal', '--json'], dirs.plain));
      const settle = doc.calls.internalCalls[0];
      expect(bars).toContain(`◦ Bank._settle · ${BigInt(settle.gasUsed).toLocaleString('en-US')} gas`);
      expect(bars.map((b) => b.replace(/ · .*$/, '')).sort()).toEqual(['◦ Bank._fee', '◦ Bank._notify', '◦ Bank._settle', '◦ Oracle._bump']);
    } finally {
      await browser.close();
    }
  });
});

describe('--internal recorded, replayed in an empty folder with no project', () => {
  test('the same internal calls, text and JSON, with no node; the recording holds the function definitions it read', async () => {
    // The node behind a front closed before the replays: nothing answers at the recorded endpoint.
    const front = await startRpcServer(({ method, params }) => forward(anvil.url, method, params));
    const work = mkdtempSync(join(tmpdir(), 'txray-internal-rec-'));
    const empty = mkdtempSync(join(tmpdir(), 'txray-internal-replay-'));
    const keys = ['settle', 'overLimit'] as const;
    const live = new Map<string, Array<Awaited<ReturnType<typeof runTxray>>>>();
    try {
      for (const key of keys) {
        const args = [tx.plain[key]!, '--internal', '-r', front.url];
        const plain = await runTxray([...args, '--record', join(work, `${key}.rec`)], {}, undefined, dirs.plain);
        live.set(key, [plain, await runTxray([...args, '--json'], {}, undefined, dirs.plain)]);
      }
    } finally {
      await front.close();
    }
    for (const key of keys) {
      const [text, json] = live.get(key)!;
      // Live, with --record as without it: the opcode trace's internal calls.
      const expected = await expectedOf('plain', tx.plain[key]!);
      expect(expected.size).toBeGreaterThan(0);
      const got = internalOf(jsonOf(json!));
      for (const [at, calls] of expected) expect(got.get(at), `${key} [${at}]`).toEqual(jsonShape(calls));
      expect(text!.stdout).toContain('◦');
      const file = join(work, `${key}.rec`);
      const again = await runTxray(['replay', file], {}, undefined, empty);
      expect(again.stdout, key).toBe(text!.stdout);
      expect(again.code).toBe(text!.code);
      const againJson = await runTxray(['replay', file, '--json'], {}, undefined, empty);
      expect(againJson.stdout, key).toBe(json!.stdout);
      // What the replay had of the ASTs was the recording's: each listed function's definition is in it.
      const doc = JSON.parse(gunzipSync(readFileSync(file)).toString('utf8'));
      const recorded = JSON.stringify(doc.disk.artifacts.map((a: any) => a.debug?.runtime?.asts ?? null));
      const names = new Set<string>();
      const each = (calls: readonly WalkedCall[]): void => {
        for (const c of calls) {
          names.add(c.name);
          each(c.children);
        }
      };
      for (const calls of expected.values()) each(calls);
      for (const name of names) expect(recorded).toContain(`"nodeType":"FunctionDefinition","kind":"function","name":"${name}"`);
    }
  });

  test('txray call --tx <hash> --internal: the mined transaction\'s internal calls, as the opcode trace has them; recorded, the same in a replay', async () => {
    const work = mkdtempSync(join(tmpdir(), 'txray-internal-calltx-'));
    const empty = mkdtempSync(join(tmpdir(), 'txray-internal-calltx-replay-'));
    for (const key of ['settle', 'overLimit'] as const) {
      const expected = await expectedOf('plain', tx.plain[key]!);
      const file = join(work, `${key}.rec`);
      const r = await run(['call', '--tx', tx.plain[key]!, '--internal', '--json', '--record', file], dirs.plain);
      expect(r.code, r.stderr).toBe(key === 'overLimit' ? 1 : 0);
      const got = internalOf(jsonOf(r));
      expect([...got.keys()].sort(), key).toEqual([...expected.keys()].sort());
      for (const [at, calls] of expected) expect(got.get(at), `${key} [${at}]`).toEqual(jsonShape(calls));
      const again = await runTxray(['replay', file, '--json'], {}, undefined, empty);
      expect(again.stdout, key).toBe(r.stdout);
    }
  });
});
