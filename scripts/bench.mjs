// `npm run bench`: txray against `cast run` (the @foundry-rs/cast platform binary) on the same
// transaction, alternately, after a warm-up: median wall time and peak RSS of each, and the ratio.
// Run against anvil directly (loopback) and through a loopback proxy that adds 40 ms per request,
// as a hosted endpoint does; and `txray call` against `cast call --trace` on the same simulated calls.
// Both tools run from an empty folder (see NEUTRAL). A benchmark, not a test: it prints figures and
// asserts nothing. Every row with a goal is printed again at the end, in one table with its goal, whether
// this run met it, and the machine named (scripts/lib/goalTable.mjs): the README's table comes from it.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { foundryBinary, startAnvil } from './lib/anvil.mjs';
import { launchBrowser } from './lib/browser.mjs';
import { startHardhat } from './lib/hardhat.mjs';
import { call, crowdedBlock, deploy, deployData, DEV, receipt, send } from './lib/scenarios.mjs';
import { writeInternalProject } from './lib/internalProject.mjs';
import { delayProxy } from './lib/delayProxy.mjs';
import { castVersion, compareGoal, machineLine, printGoals, ratioGoal, timeGoal } from './lib/goalTable.mjs';
import { encodeDeployData, encodeFunctionData } from 'viem';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
// BENCH_ONLY=q: only row (q), for a quick look on a busy machine (the rest of the bench takes minutes);
// BENCH_ONLY=r: only (r), --record and replay; BENCH_ONLY=i: only (i), --internal; BENCH_ONLY=v: only (v), --storage; BENCH_ONLY=t: only the rows (t), txray call --tx against cast run;
// BENCH_ONLY=h: only the two Hardhat rows (h); BENCH_ONLY=p: only the rows (p) and (q), a node without traces 40 ms away.
// Each prints the goal table of its rows.
const ONLY = process.env.BENCH_ONLY;
const bin = fileURLToPath(new URL('../bin/txray.cjs', import.meta.url));
// (b)'s floor: node:http asking the same three questions and JSON.parsing the answers, nothing more.
const FLOOR = fileURLToPath(new URL('./bench-floor.cjs', import.meta.url));
// The same with the trace asked for and parsed in a worker thread (the two-thread design's floor), and
// with nothing parsed at all (what the node's three answers cost on their own).
const FLOOR_WORKER = fileURLToPath(new URL('./bench-floor-worker.cjs', import.meta.url));
const cast = foundryBinary('cast');
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;

// Every command is measured from an empty folder of its own, as from a folder that is not a project: run
// from a folder with a large node_modules (this repository's; a small one costs it nothing), cast looks
// through it at start-up (foundry's library and remapping detection), which about doubles a short
// `cast run` (docs/speed.md). The bench prints that difference for (a) once; the rows
// compare the two tools where neither pays it.
const NEUTRAL = mkdtempSync(join(os.tmpdir(), 'txray-bench-cwd-'));
process.on('exit', () => rmSync(NEUTRAL, { recursive: true, force: true }));
const REPO = fileURLToPath(new URL('..', import.meta.url));

/** Run a command, discard stdout through a pipe, return wall ms and peak RSS (MB, when /usr/bin/time exists). */
function measure(cmd, args, env = process.env, cwd = NEUTRAL) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const full = TIME ? [TIME, ['-f', '%M', cmd, ...args]] : [cmd, args];
    const child = spawn(full[0], full[1], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...env, NO_COLOR: '1' }, cwd });
    let err = '';
    child.stdout.on('data', () => undefined);
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const rss = TIME ? Number(err.trim().split('\n').pop()) / 1024 : NaN;
      resolve({ ms, rss, code });
    });
  });
}

// This machine's environment sets NODE_EXTRA_CA_CERTS, which makes every Node start-up load a CA
// bundle (about 50-100 ms here); a user without it does not pay that. txray is measured both ways.
const PLAIN_ENV = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NODE_EXTRA_CA_CERTS'));
const HAS_CA = process.env.NODE_EXTRA_CA_CERTS !== undefined;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * (b) as an HTML report, opened from disk in headless Chromium: its size against --json, the time from
 * asking for the page to the painted tree, and from a click on the root's toggle to the collapsed tree.
 */
async function measureReport(hash, url) {
  const dir = mkdtempSync(join(os.tmpdir(), 'txray-bench-report-'));
  const file = join(dir, 'b.html');
  const json = join(dir, 'b.json');
  const made = spawnSync(process.execPath, [bin, hash, '-r', url, '--html', file, '--json'], { stdio: ['ignore', openSync(json, 'w'), 'ignore'] });
  if (made.status !== 0) throw new Error(`--html exited ${made.status}`);
  const browser = await launchBrowser();
  const paint = [];
  const collapse = [];
  let domNodes = 0;
  let heap = 0;
  const runs = 5;
  try {
    for (let i = 0; i < runs; i++) {
      const page = await browser.newPage({ viewport: { width: 1300, height: 1000 } });
      const t0 = performance.now();
      await page.goto(`file://${file}`);
      await page.waitForSelector('.tree [data-trace-address=""]');
      const t1 = performance.now();
      await page.click('.tree [data-trace-address=""] > .line > button');
      await page.waitForSelector('.tree [data-trace-address=""][aria-expanded="false"]');
      const t2 = performance.now();
      paint.push(t1 - t0);
      collapse.push(t2 - t1);
      await page.click('.tree [data-trace-address=""] > .line > button');
      domNodes = await page.evaluate(() => document.getElementsByTagName('*').length);
      heap = await page.evaluate(() => performance.memory?.usedJSHeapSize ?? 0);
      await page.close();
    }
  } finally {
    await browser.close();
  }
  const mb = (p) => statSync(p).size / 2 ** 20;
  const result = { htmlMB: mb(file), jsonMB: mb(json), paintMs: median(paint), collapseMs: median(collapse), domNodes, heapMB: heap / 2 ** 20, runs };
  rmSync(dir, { recursive: true, force: true });
  return result;
}

/** How many of the block's earlier transactions txray replayed to re-execute `hash` (its --json's reexecution.replayed). */
async function replayedBefore(hash, url) {
  // Not spawnSync: the proxy it goes through runs in this process.
  const child = spawn(process.execPath, [bin, hash, '-r', url, '--json'], { stdio: ['ignore', 'pipe', 'ignore'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  await new Promise((resolve) => child.on('close', resolve));
  try {
    return JSON.parse(out).reexecution?.replayed ?? 'n/a';
  } catch {
    return 'n/a';
  }
}

/** txray against `cast run` on a mined transaction (with (b)'s floors when asked). */
function compare(label, hash, url, extra = [], floor = false) {
  return compareRuns(label, [hash, '-r', url, '--no-color', ...extra], ['run', hash, '--rpc-url', url], floor ? { hash, url } : null);
}

/** `txray call` against `cast call --trace` on the same call: both simulate it at the latest block. */
function compareCall(label, words, url) {
  return compareRuns(label, ['call', ...words, '-r', url, '--no-color'], ['call', '--trace', ...words, '--rpc-url', url], null);
}

/** `txray call --tx` against `cast run` on the same mined transaction: both run it again where it stood in its block. */
function compareRerun(label, hash, url) {
  return compareRuns(label, ['call', '--tx', hash, '-r', url, '--no-color'], ['run', hash, '--rpc-url', url], null);
}

/** (t): the (a) showcase and (c)'s index 100 of 101, re-run with txray call --tx; goal: as fast as cast run or faster. */
async function rerunRows(a, cHash, url, slowUrl) {
  return [
    { ...(await compareRerun('(t) call --tx: 14 calls, loopback', a, url)), goal: 1 },
    { ...(await compareRerun('(t) call --tx: 14 calls, +40 ms/request', a, slowUrl)), goal: 1 },
    { ...(await compareRerun('(t) call --tx: index 100 of 101, +40 ms/request', cHash, slowUrl)), goal: 1 },
  ];
}

async function compareRuns(label, txrayArgs, castArgs, floor) {
  const t = [];
  const p = [];
  const c = [];
  const fl = [];
  const fw = [];
  const fn = [];
  const txray = (env) => measure(process.execPath, [bin, ...txrayArgs], env);
  const castRun = () => measure(cast, castArgs);
  await txray(process.env);
  await castRun();
  for (let i = 0; i < RUNS; i++) {
    t.push(await txray(process.env));
    if (HAS_CA) p.push(await txray(PLAIN_ENV));
    c.push(await castRun());
    if (floor) {
      fl.push(await measure(process.execPath, [FLOOR, floor.hash, floor.url], PLAIN_ENV));
      fw.push(await measure(process.execPath, [FLOOR_WORKER, floor.hash, floor.url], PLAIN_ENV));
      fn.push(await measure(process.execPath, [FLOOR_WORKER, floor.hash, floor.url, '--no-parse'], PLAIN_ENV));
    }
  }
  // A simulated revert is exit 1 for txray (cast call --trace prints the failure and exits 0): each
  // tool must answer the same way every run, and neither may fail.
  const inconsistent = [...t, ...p].some((r) => r.code !== t[0].code) || c.some((r) => r.code !== c[0].code);
  const bad = inconsistent ? { code: 'not the same in every run' } : ([...t, ...p, ...c].find((r) => r.code > 1) ?? [...fl, ...fw, ...fn].find((r) => r.code !== 0));
  if (bad) throw new Error(`${label}: a run exited with ${bad.code}`);
  const row = {
    case: label,
    txrayMs: median(t.map((r) => r.ms)),
    plainMs: HAS_CA ? median(p.map((r) => r.ms)) : NaN,
    castMs: median(c.map((r) => r.ms)),
    txrayMB: median(t.map((r) => r.rss)),
    castMB: median(c.map((r) => r.rss)),
    floorMs: floor ? median(fl.map((r) => r.ms)) : NaN,
    floorMB: floor ? median(fl.map((r) => r.rss)) : NaN,
    workerFloorMs: floor ? median(fw.map((r) => r.ms)) : NaN,
    workerFloorMB: floor ? median(fw.map((r) => r.rss)) : NaN,
    answersMs: floor ? median(fn.map((r) => r.ms)) : NaN,
  };
  return row;
}

/**
 * (q): index 100 of a block whose 100 earlier transactions are token transfers from the same sender to
 * the same holder (busy senders mostly look like this: cast run fetches few slots), on the endpoint
 * 40 ms away without trace_* and debug_*, against cast run on the same endpoint.
 */
async function sameHolderRow(anvil) {
  const token = (await receipt(anvil.rpc, await send(anvil.rpc, { data: deployData('Token', [10n ** 24n]) }))).contractAddress;
  const { hash, index } = await crowdedBlock(anvil.rpc, token, 100, true);
  if (index !== 100) throw new Error(`(q) landed at index ${index}, not 100`);
  const noTraces = await delayProxy(anvil.url, 40, true);
  try {
    const label = `(q) no traces, +40 ms/request: index 100 of 101, the 100 before it to one holder, re-executed locally after replaying ${await replayedBefore(hash, noTraces.url)} earlier`;
    return { ...(await compare(label, hash, noTraces.url)), goal: 0.6 };
  } finally {
    await noTraces.close();
  }
}

/**
 * (h): Hardhat, which serves no call tracer: txray re-executes the transaction in its own EVM (goals:
 * the route as fast as cast run, the 200-deep chain at most 1.3× of it).
 */
async function hardhatRows() {
  const hardhat = await startHardhat();
  try {
    const { showcase: hs } = await deploy(hardhat.rpc);
    const hRoute = await send(hardhat.rpc, { to: hs, value: '0xa', gas: '0x2dc6c0', data: call('Showcase', 'run', [3n]) });
    const hDeep = await send(hardhat.rpc, { to: hs, gas: '0x1c9c380', data: call('Showcase', 'recurse', [200n]) });
    await receipt(hardhat.rpc, hDeep);
    return [
      { ...(await compare('(h) Hardhat: 14 calls, re-executed locally', hRoute, hardhat.url)), goal: 1 },
      { ...(await compare('(h) Hardhat: a 200-deep chain, re-executed locally', hDeep, hardhat.url)), goal: 1.3 },
    ];
  } finally {
    await hardhat.stop();
  }
}

/** (p): an endpoint 40 ms away that refuses trace_* and debug_* (in front of the same anvil): the showcase (`a`), and (c)'s index 100 of 101. */
async function noTraceRows(anvil, a, cHash) {
  const noTraces = await delayProxy(anvil.url, 40, true);
  try {
    return [
      { ...(await compare('(p) no traces, +40 ms/request: 14 calls, re-executed locally', a, noTraces.url)), goal: 0.5 },
      { ...(await compare(`(p) no traces, +40 ms/request: index 100 of 101, re-executed locally after replaying ${await replayedBefore(cHash, noTraces.url)} earlier`, cHash, noTraces.url)), goal: 0.6 },
    ];
  } finally {
    await noTraces.close();
  }
}

/** `node -e 0` without the CA bundle, median of RUNS: the floor of any Node program here, in the same run. */
async function bareNode() {
  const bare = [];
  for (let i = 0; i < RUNS; i++) bare.push((await measure(process.execPath, ['-e', '0'], PLAIN_ENV)).ms);
  return median(bare);
}

/** The goal rows of (i) or (v), (r): their own tables' verdicts. */
const internalGoal = (r) => ratioGoal(r.case, `${r.withMs.toFixed(0)} ms with, ${r.withoutMs.toFixed(0)} without`, r.ratio, r.goal, 'of without');
function recordGoal(r) {
  const row = ratioGoal('(r) 14 calls, loopback, --record then txray replay', `${r.replayMs.toFixed(0)} ms replayed, ${r.liveMs.toFixed(0)} live; ${r.bytes} bytes`, r.replayMs / r.liveMs, 1.1, 'of live');
  return { ...row, goal: `${row.goal}, < 1 MB`, met: row.met && r.bytes < 1024 * 1024 };
}

/** A showcase transaction (a) and (c)'s index 100 of 101 on `anvil`, for the rows that need them alone. */
async function showcaseAndCrowded(anvil) {
  const { showcase } = await deploy(anvil.rpc);
  const a = await send(anvil.rpc, { to: showcase, value: '0xa', gas: '0x2dc6c0', data: call('Showcase', 'run', [3n]) });
  await receipt(anvil.rpc, a);
  const token = (await receipt(anvil.rpc, await send(anvil.rpc, { data: deployData('Token', [10n ** 24n]) }))).contractAddress;
  const { hash: cHash } = await crowdedBlock(anvil.rpc, token, 100);
  return { a, cHash };
}

/** BENCH_ONLY's rows, as goal rows (their own tables printed on the way where they have one). */
async function onlyGoals(only, anvil, proxy) {
  const best = (r) => (HAS_CA ? r.plainMs : r.txrayMs);
  if (only === 'i' || only === 'v') {
    const r = await internalRow(anvil, only === 'i' ? '--internal' : '--storage');
    printInternalRow(r);
    return [internalGoal(r)];
  }
  if (only === 'r') {
    const { a } = await showcaseAndCrowded(anvil);
    const r = await recordRow(a, anvil.url);
    printRecordRow(r);
    return [recordGoal(r)];
  }
  if (only === 'q') return [await sameHolderRow(anvil)].map((r) => compareGoal(r, best(r)));
  if (only === 'h') return (await hardhatRows()).map((r) => compareGoal(r, best(r)));
  const { a, cHash } = await showcaseAndCrowded(anvil);
  if (only === 't') return (await rerunRows(a, cHash, anvil.url, proxy.url)).map((r) => compareGoal(r, best(r)));
  if (only === 'p') return [...(await noTraceRows(anvil, a, cHash)), await sameHolderRow(anvil)].map((r) => compareGoal(r, best(r)));
  throw new Error(`BENCH_ONLY=${only}: one of q, r, i, v, t, h, p`);
}

/**
 * (i) --internal: a lookup with it against the same lookup without it, in a project whose contracts
 * match (test/fixtures/internal, built with ASTs), on anvil; goal: at most 1.5× the time. (v) --storage:
 * the same lookup with --storage against it without (goal: at most 1.3×).
 */
async function internalRow(anvil, option = '--internal') {
  const dir = mkdtempSync(join(os.tmpdir(), 'txray-bench-internal-'));
  const built = writeInternalProject(dir);
  const deployed = async (name, args) => (await receipt(anvil.rpc, await send(anvil.rpc, { data: encodeDeployData({ abi: built[name].abi, bytecode: built[name].bytecode, args }) }))).contractAddress;
  const bank = await deployed('Bank', [await deployed('Oracle', [])]);
  const hash = await send(anvil.rpc, { to: bank, gas: '0x100000', data: encodeFunctionData({ abi: built.Bank.abi, functionName: 'settle', args: [300n] }) });
  await receipt(anvil.rpc, hash);
  const args = [bin, hash, '-r', anvil.url];
  const [with_, without] = [[], []];
  await measure(process.execPath, [...args, option], PLAIN_ENV, dir);
  for (let i = 0; i < RUNS; i++) {
    without.push(await measure(process.execPath, args, PLAIN_ENV, dir));
    with_.push(await measure(process.execPath, [...args, option], PLAIN_ENV, dir));
  }
  rmSync(dir, { recursive: true, force: true });
  if ([...with_, ...without].some((r) => r.code !== 0)) throw new Error(`${option}: a run did not exit 0`);
  const ms = (runs) => median(runs.map((r) => r.ms));
  const row = option === '--internal' ? { case: '(i) --internal: 4 internal calls in 2 frames, loopback', goal: 1.5 } : { case: `(v) ${option}: Bank.settle's reads and writes in 2 frames, loopback`, goal: 1.3 };
  return { ...row, option, withMs: ms(with_), withoutMs: ms(without), ratio: ms(with_) / ms(without) };
}

/** Row (i) or (v) as a line of its own table. */
function printInternalRow(r) {
  console.log(`| case | txray ${r.option} ms | without ms | ratio | goal | met |`);
  console.log('|---|---|---|---|---|---|');
  console.log(`| ${r.case} | ${r.withMs.toFixed(0)} | ${r.withoutMs.toFixed(0)} | ${r.ratio.toFixed(2)}× | ≤ ${r.goal}× | ${r.ratio <= r.goal ? 'yes' : 'no'} |`);
}

/**
 * (r) --record and txray replay on the 14-call showcase: the recording's size (gzip, and its JSON), and
 * the replay's wall time against the live lookup's on loopback, alternately (goal: ≤ 1.1×, a replay asks nothing).
 */
async function recordRow(hash, url) {
  const dir = mkdtempSync(join(os.tmpdir(), 'txray-bench-record-'));
  const file = join(dir, 'a.rec');
  try {
    const made = await measure(process.execPath, [bin, hash, '-r', url, '--record', file], PLAIN_ENV);
    if (made.code !== 0) throw new Error(`--record exited ${made.code}`);
    const json = gunzipSync(readFileSync(file)).length;
    const live = [];
    const replayed = [];
    for (let i = 0; i < RUNS; i++) {
      live.push((await measure(process.execPath, [bin, hash, '-r', url], PLAIN_ENV)).ms);
      replayed.push((await measure(process.execPath, [bin, 'replay', file], PLAIN_ENV)).ms);
    }
    return { bytes: statSync(file).size, json, liveMs: median(live), replayMs: median(replayed) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function printRecordRow(r) {
  const ratio = r.replayMs / r.liveMs;
  console.log('| case | recording bytes (gzip) | its JSON bytes | live ms, no extra CA | replay ms, no extra CA | replay / live | goal | met |');
  console.log('|---|---|---|---|---|---|---|---|');
  console.log(`| (r) 14 calls, loopback, --record then txray replay | ${r.bytes} | ${r.json} | ${r.liveMs.toFixed(0)} | ${r.replayMs.toFixed(0)} | ${ratio.toFixed(2)}× | < 1 MB, ≤ 1.1× | ${r.bytes < 1024 * 1024 && ratio <= 1.1 ? 'yes' : 'no'} |`);
}

const anvil = await startAnvil(['--gas-limit', '300000000']);
const proxy = await delayProxy(anvil.url, 40);
try {
  if (ONLY !== undefined) {
    const goals = await onlyGoals(ONLY, anvil, proxy);
    printGoals(`Goals of this run (BENCH_ONLY=${ONLY})`, machineLine({ runs: RUNS, bareMs: await bareNode(), cast: castVersion(cast), only: ONLY }), goals);
    // The rest of the bench is skipped: stop what it started here, as the finally below would.
    await proxy.close();
    await anvil.stop();
    process.exit(0);
  }
  const { showcase } = await deploy(anvil.rpc);
  // (a) the 14-call showcase.
  const a = await send(anvil.rpc, { to: showcase, value: '0xa', gas: '0x2dc6c0', data: call('Showcase', 'run', [3n]) });
  // (b) 20,000 internal calls and 20,000 logs.
  const fanout = (await receipt(anvil.rpc, await send(anvil.rpc, { data: deployData('Fanout') }))).contractAddress;
  const b = await send(anvil.rpc, { to: fanout, gas: `0x${(250_000_000).toString(16)}`, data: call('Fanout', 'many', [20_000n]) });
  // (c) at index 100 of a block that holds 100 token transfers from the same sender before it, each to
  // a new holder (cast run replays them all; so does txray where the node serves no trace).
  const token = (await receipt(anvil.rpc, await send(anvil.rpc, { data: deployData('Token', [10n ** 24n]) }))).contractAddress;
  const { hash: cHash, index: cIndex } = await crowdedBlock(anvil.rpc, token, 100);
  if (cIndex !== 100) throw new Error(`(c) landed at index ${cIndex}, not 100`);

  const rows = [
    { ...(await compare('(a) 14 calls, loopback', a, anvil.url)), goal: 1 },
    { ...(await compare('(a) 14 calls, +40 ms/request', a, proxy.url)), goal: 0.2 },
    { ...(await compare('(b) 20,000 calls + logs, loopback', b, anvil.url, [], true)), goal: 0.9, memoryGoal: 1.3 },
    { ...(await compare('(c) index 100 of 101, +40 ms/request', cHash, proxy.url)), goal: 0.3 },
    // --state: one more read (anvil: the prestateTracer in diff mode) and the block header.
    { ...(await compare('(a) with --state, loopback', a, anvil.url, ['--state'])) },
    { ...(await compare('(b) with --state, loopback', b, anvil.url, ['--state'])) },
  ];
  // (k) txray block on (c)'s block, 40 ms away, against cast run of its last transaction (goal: a
  // quarter of it); and beside it, txray given the block's hashes in one process.
  const kBlock = await anvil.rpc('eth_getBlockByHash', [(await receipt(anvil.rpc, cHash)).blockHash, false]);
  const kLabel = `(k) block of ${kBlock.transactions.length} (${Number(kBlock.size).toLocaleString('en')} bytes), +40 ms/request, vs cast run of its last`;
  rows.push({ ...(await compareRuns(kLabel, ['block', kBlock.number, '-r', proxy.url, '--no-color'], ['run', cHash, '--rpc-url', proxy.url], null)), goal: 0.25 });
  const kHashes = [];
  for (let i = 0; i < RUNS; i++) kHashes.push((await measure(process.execPath, [bin, ...kBlock.transactions, '-r', proxy.url, '--quiet'], PLAIN_ENV)).ms);
  // Simulations: txray call against cast call --trace on the showcase call (14 calls) and a token
  // transfer that would revert with a custom error, at the latest block. Goal: as fast or faster.
  const runWords = [showcase, 'run(uint256)', '3', '--value', '10', '--from', DEV.sender];
  const failWords = [token, 'transfer(address,uint256)', DEV.other, '100000000ether', '--from', DEV.sender];
  // Nodes without a call tracer: Hardhat (txray re-executes the transaction here), and an endpoint 40 ms
  // away that refuses trace_* and debug_* (in front of the same anvil).
  const untraced = [...(await hardhatRows()), ...(await noTraceRows(anvil, a, cHash)), await sameHolderRow(anvil)];
  const simulations = [
    { ...(await compareCall('(s) call: 14 calls, loopback', runWords, anvil.url)), goal: 1 },
    { ...(await compareCall('(s) call: 14 calls, +40 ms/request', runWords, proxy.url)), goal: 1 },
    { ...(await compareCall('(s) call: a revert with a custom error, loopback', failWords, anvil.url)), goal: 1 },
  ];
  const internal = await internalRow(anvil);
  const storage = await internalRow(anvil, '--storage');
  const reruns = await rerunRows(a, cHash, anvil.url, proxy.url);
  const bJson = [];
  for (let i = 0; i < RUNS; i++) bJson.push(await measure(process.execPath, [bin, b, '-r', anvil.url, '--json'], PLAIN_ENV));
  const report = await measureReport(b, anvil.url);
  const help = [];
  const helpPlain = [];
  const usage = [];
  for (let i = 0; i < RUNS; i++) {
    help.push((await measure(process.execPath, [bin, '--help'])).ms);
    helpPlain.push((await measure(process.execPath, [bin, '--help'], PLAIN_ENV)).ms);
    usage.push((await measure(process.execPath, [bin, '0x12'], PLAIN_ENV)).ms);
  }

  // Batch: 300 hashes in one run against one process per hash (a sample of single runs, median).
  const batch = [];
  for (let i = 0; i < 300; i++) batch.push(await send(anvil.rpc, { to: showcase, gas: '0x100000', data: call('Showcase', 'recurse', [BigInt(i % 5)]) }));
  await receipt(anvil.rpc, batch.at(-1));
  const batchRuns = [];
  for (let i = 0; i < 3; i++) batchRuns.push((await measure(process.execPath, [bin, ...batch, '-r', anvil.url, '--quiet'])).ms);
  const singles = [];
  for (let i = 0; i < RUNS; i++) singles.push((await measure(process.execPath, [bin, batch[i * 7], '-r', anvil.url, '--quiet'])).ms);
  const perHashBatch = median(batchRuns) / batch.length;
  const perHashSingle = median(singles);

  const f = (n) => (Number.isFinite(n) ? n.toFixed(0) : 'n/a');
  const r2 = (n) => (Number.isFinite(n) ? `${n.toFixed(2)}×` : 'n/a');
  const probe = await new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, a, '-r', anvil.url, '--debug'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('close', () => resolve(/code cache (\w+)/.exec(err)?.[1] ?? 'unknown'));
  });
  console.log(`\nmachine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; median of ${RUNS} runs`);
  const bare = [];
  const barePlain = [];
  for (let i = 0; i < RUNS; i++) {
    bare.push((await measure(process.execPath, ['-e', '0'])).ms);
    barePlain.push((await measure(process.execPath, ['-e', '0'], PLAIN_ENV)).ms);
  }
  console.log(`node -e 0 here: ${f(median(bare))} ms as configured, ${f(median(barePlain))} ms without NODE_EXTRA_CA_CERTS; txray's code cache: ${probe}`);
  // cast run (a) from this repository's folder against from the empty folder every row runs in (see NEUTRAL).
  const [castHere, castNeutral] = [[], []];
  for (let i = 0; i < RUNS; i++) {
    castHere.push((await measure(cast, ['run', a, '--rpc-url', anvil.url], process.env, REPO)).ms);
    castNeutral.push((await measure(cast, ['run', a, '--rpc-url', anvil.url])).ms);
  }
  console.log(`cast run (a) from this repository's folder (it reads node_modules at start-up): ${f(median(castHere))} ms; from an empty folder, where every row below runs: ${f(median(castNeutral))} ms\n`);
  // "met" judges the figure without NODE_EXTRA_CA_CERTS when the environment sets it (a user's Node does not pay it).
  const best = (r) => (HAS_CA ? r.plainMs : r.txrayMs);
  // The --state rows are judged against the same case without --state: (b) with it ≤ 1.5× (b) without.
  const withoutState = (r) => rows.find((x) => x.case.startsWith(r.case.slice(0, 4)) && x.case.endsWith('loopback') && !x.case.includes('--state'));
  const met = (r) => {
    if (r.goal === undefined) {
      const ratio = best(r) / best(withoutState(r));
      return `${r2(ratio)} of the same without --state${r.case.startsWith('(b)') ? (ratio <= 1.5 ? ' (goal ≤ 1.5×: yes)' : ' (goal ≤ 1.5×: no)') : ''}`;
    }
    const wall = best(r) / r.castMs <= r.goal;
    if (r.memoryGoal === undefined) return wall ? 'yes' : 'no';
    const ratio = r.txrayMB / r.castMB;
    return `wall ${wall ? 'yes' : 'no'}, memory ${ratio <= r.memoryGoal ? 'yes' : 'no'} (${r2(ratio)})`;
  };
  const goal = (r) => (r.goal === undefined ? '' : `≤ ${r.goal}×${r.memoryGoal !== undefined ? `, ≤ ${r.memoryGoal}× memory` : ''}`);
  console.log('| case | txray ms | txray ms, no NODE_EXTRA_CA_CERTS | cast run ms | txray / cast | same, no extra CA | txray MB | cast MB | goal | met |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  /** One side-by-side row: txray's times with and without the CA bundle, cast's, their ratios, memory, the goal. */
  const compareRow = (r) => `| ${r.case} | ${f(r.txrayMs)} | ${f(r.plainMs)} | ${f(r.castMs)} | ${r2(r.txrayMs / r.castMs)} | ${r2(r.plainMs / r.castMs)} | ${f(r.txrayMB)} | ${f(r.castMB)} | ${goal(r)} | ${met(r)} |`;
  for (const r of rows) console.log(compareRow(r));
  const kRow = rows.find((r) => r.case.startsWith('(k)'));
  console.log(`\n(k) txray block: ${f(best(kRow))} ms, ${f(kRow.txrayMB)} MB for a block of ${Number(kBlock.size).toLocaleString('en')} bytes; txray with its ${kBlock.transactions.length} hashes in one process: ${f(median(kHashes))} ms (block / hashes ${r2(best(kRow) / median(kHashes))})\n`);
  const bRow = rows.find((r) => Number.isFinite(r.floorMs));
  if (bRow) {
    console.log(`| (b) floor: node:http, the 3 answers read and parsed, no extra CA | | ${f(bRow.floorMs)} | ${f(bRow.castMs)} | | ${r2(bRow.floorMs / bRow.castMs)} | ${f(bRow.floorMB)} | | | |`);
    console.log(`| (b) floor, two threads: the trace read and parsed in a worker, no extra CA | | ${f(bRow.workerFloorMs)} | ${f(bRow.castMs)} | | ${r2(bRow.workerFloorMs / bRow.castMs)} | ${f(bRow.workerFloorMB)} | | | |`);
    console.log(`| (b) the node's 3 answers alone: read whole, nothing parsed, no extra CA | | ${f(bRow.answersMs)} | ${f(bRow.castMs)} | | ${r2(bRow.answersMs / bRow.castMs)} | | | | |`);
  }
  console.log(`| (b) txray --json, no extra CA | ${f(median(bJson.map((x) => x.ms)))} | | | | | ${f(median(bJson.map((x) => x.rss)))} | | | |`);
  const helpMs = HAS_CA ? median(helpPlain) : median(help);
  console.log(`| txray --help | ${f(median(help))} | ${f(median(helpPlain))} | | | | | | < 100 ms | ${helpMs < 100 ? 'yes' : 'no'} |`);
  console.log(`| usage error (bad hash), no extra CA | | ${f(median(usage))} | | | | | | < 100 ms | ${median(usage) < 100 ? 'yes' : 'no'} |`);
  console.log(`\n(b) as an HTML report in headless Chromium: ${f(report.htmlMB)} MB against ${f(report.jsonMB)} MB of --json (${r2(report.htmlMB / report.jsonMB)}, goal ≤ 3×); the tree painted ${f(report.paintMs)} ms after the page was asked for, a collapse of the root ${f(report.collapseMs)} ms more (goals: paint < 1.5 s, collapse < 1 s: ${report.paintMs < 1500 && report.collapseMs < 1000 ? 'yes' : 'no'}); ${f(report.domNodes)} DOM elements, JS heap ${f(report.heapMB)} MB (medians of ${report.runs})`);
  console.log(`\nbatch: 300 hashes in one run ${f(median(batchRuns))} ms = ${perHashBatch.toFixed(1)} ms per hash; one process per hash ${f(perHashSingle)} ms; ratio ${(perHashBatch / perHashSingle).toFixed(3)} (goal ≤ 0.1)`);
  console.log('\n| node without a call tracer | txray ms | no NODE_EXTRA_CA_CERTS | cast run ms | txray / cast | same, no extra CA | txray MB | cast MB | goal | met |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const r of untraced) console.log(compareRow(r));
  console.log('\n| simulation | txray call ms | no NODE_EXTRA_CA_CERTS | cast call --trace ms | txray / cast | same, no extra CA | txray MB | cast MB | goal | met |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const r of simulations) console.log(compareRow(r));
  console.log('\n| re-run | txray call --tx ms | no NODE_EXTRA_CA_CERTS | cast run ms | txray / cast | same, no extra CA | txray MB | cast MB | goal | met |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const r of reruns) console.log(compareRow(r));
  console.log('');
  printInternalRow(internal);
  console.log('');
  printInternalRow(storage);
  console.log('');
  const recorded = await recordRow(a, anvil.url);
  printRecordRow(recorded);
  // Every row with a goal, gathered from the tables above, under the machine that ran them.
  const bState = rows.find((r) => r.case.startsWith('(b) with --state'));
  const goals = [
    ...[...rows, ...untraced, ...simulations, ...reruns].filter((r) => r.goal !== undefined).map((r) => compareGoal(r, best(r))),
    ratioGoal('(b) with --state, loopback', `${Math.round(best(bState)).toLocaleString('en')} ms`, best(bState) / best(withoutState(bState)), 1.5, 'of (b) without'),
    internalGoal(internal),
    internalGoal(storage),
    recordGoal(recorded),
    ratioGoal('batch: 300 hashes in one run', `${perHashBatch.toFixed(1)} ms a hash, ${f(perHashSingle)} one process each`, perHashBatch / perHashSingle, 0.1, 'per hash of one process each'),
    timeGoal('(b) as HTML, the tree painted in headless Chromium', report.paintMs, 2000),
    timeGoal('txray --help', helpMs, 100),
    timeGoal('usage error (bad hash)', median(usage), 100),
  ];
  printGoals('Goals of this run (issue 61)', machineLine({ runs: RUNS, bareMs: median(barePlain), cast: castVersion(cast) }), goals);
} finally {
  await proxy.close();
  await anvil.stop();
}
