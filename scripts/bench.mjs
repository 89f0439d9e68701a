// `npm run bench`: txray against `cast run` (the @foundry-rs/cast platform binary) on the same
// transaction, alternately, after a warm-up: median wall time and peak RSS of each, and the ratio.
// Run against anvil directly (loopback) and through a loopback proxy that adds 40 ms per request,
// as a hosted endpoint does. A benchmark, not a test: it prints figures and asserts nothing.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { foundryBinary, startAnvil } from './lib/anvil.mjs';
import { call, deploy, send } from './lib/scenarios.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const bin = fileURLToPath(new URL('../bin/txray.js', import.meta.url));
const cast = foundryBinary('cast');
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;

/** Run a command, discard stdout through a pipe, return wall ms and peak RSS (MB, when /usr/bin/time exists). */
function measure(cmd, args) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const full = TIME ? [TIME, ['-f', '%M', cmd, ...args]] : [cmd, args];
    const child = spawn(full[0], full[1], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
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

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** A loopback proxy that waits `delayMs` before forwarding each request. */
async function delayProxy(target, delayMs) {
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      await new Promise((r) => setTimeout(r, delayMs));
      const upstream = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.concat(chunks) });
      res.writeHead(upstream.status, { 'content-type': 'application/json' });
      res.end(Buffer.from(await upstream.arrayBuffer()));
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) };
}

async function compare(label, hash, url) {
  const t = [];
  const c = [];
  await measure(process.execPath, [bin, hash, '-r', url, '--no-color']);
  await measure(cast, ['run', hash, '--rpc-url', url]);
  for (let i = 0; i < RUNS; i++) {
    t.push(await measure(process.execPath, [bin, hash, '-r', url, '--no-color']));
    c.push(await measure(cast, ['run', hash, '--rpc-url', url]));
  }
  const bad = [...t, ...c].find((r) => r.code !== 0);
  if (bad) throw new Error(`${label}: a run exited with ${bad.code}`);
  const row = {
    case: label,
    txrayMs: median(t.map((r) => r.ms)),
    castMs: median(c.map((r) => r.ms)),
    txrayMB: median(t.map((r) => r.rss)),
    castMB: median(c.map((r) => r.rss)),
  };
  return { ...row, ratio: row.txrayMs / row.castMs };
}

const anvil = await startAnvil();
const proxy = await delayProxy(anvil.url, 40);
try {
  const { showcase } = await deploy(anvil.rpc);
  const hash = await send(anvil.rpc, { to: showcase, value: '0xa', gas: '0x2dc6c0', data: call('Showcase', 'run', [3n]) });
  const rows = [await compare('(a) 14 calls, loopback', hash, anvil.url), await compare('(a) 14 calls, +40 ms/request', hash, proxy.url)];
  const help = [];
  for (let i = 0; i < RUNS; i++) help.push((await measure(process.execPath, [bin, '--help'])).ms);

  // Batch: 300 hashes in one run against one process per hash (a sample of single runs, median).
  const batch = [];
  for (let i = 0; i < 300; i++) batch.push(await send(anvil.rpc, { to: showcase, gas: '0x100000', data: call('Showcase', 'recurse', [BigInt(i % 5)]) }));
  const batchRuns = [];
  for (let i = 0; i < 3; i++) batchRuns.push((await measure(process.execPath, [bin, ...batch, '-r', anvil.url, '--quiet'])).ms);
  const singles = [];
  for (let i = 0; i < RUNS; i++) singles.push((await measure(process.execPath, [bin, batch[i * 7], '-r', anvil.url, '--quiet'])).ms);
  const perHashBatch = median(batchRuns) / batch.length;
  const perHashSingle = median(singles);

  const f = (n) => (Number.isFinite(n) ? n.toFixed(0) : 'n/a');
  console.log(`\nmachine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; median of ${RUNS} runs\n`);
  console.log('| case | txray ms | cast run ms | txray / cast | txray MB | cast MB |');
  console.log('|---|---|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.case} | ${f(r.txrayMs)} | ${f(r.castMs)} | ${r.ratio.toFixed(2)}× | ${f(r.txrayMB)} | ${f(r.castMB)} |`);
  console.log(`| txray --help | ${f(median(help))} | | | | |`);
  console.log(`\nbatch: 300 hashes in one run ${f(median(batchRuns))} ms = ${perHashBatch.toFixed(1)} ms per hash; one process per hash ${f(perHashSingle)} ms; ratio ${(perHashBatch / perHashSingle).toFixed(3)} (goal ≤ 0.1)`);
} finally {
  await proxy.close();
  await anvil.stop();
}
