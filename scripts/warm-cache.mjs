// Builds dist/txray.v8cache, the V8 code cache bin/txray.cjs starts from (the last step of
// scripts/build.mjs). It loads the fresh bundle exactly as the shim does, runs it on sample lookups
// against a loopback JSON-RPC server that replays answers a real anvil gave (scripts/warmup/answers.json,
// written by scripts/record-warmup.mjs), and serialises the compiled script: the functions a lookup
// needs are then in the cache instead of being parsed at every start. Each sample run's exit code is
// checked, so a bundle that cannot inspect a transaction fails the build here.
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { Writable } from 'node:stream';

const require = createRequire(import.meta.url);
const { loadBundle, parts, cacheHeader } = require('../bin/loadBundle.cjs');
const answers = JSON.parse(readFileSync(new URL('./warmup/answers.json', import.meta.url), 'utf8'));
// What `--tracer local` runs asked (scripts/record-warmup.mjs): answers by method and parameters.
const local = JSON.parse(readFileSync(new URL('./warmup/local.json', import.meta.url), 'utf8'));

function answer({ id, method, params }) {
  const exact = local.answers[`${method} ${JSON.stringify(params ?? [])}`];
  if (exact !== undefined) return { jsonrpc: '2.0', id, ...exact };
  const recorded = answers[params?.[0]];
  return recorded === undefined || method in recorded
    ? { jsonrpc: '2.0', id, result: recorded?.[method] ?? null }
    : { jsonrpc: '2.0', id, error: { code: -32601, message: `the method ${method} does not exist/is not available` } };
}

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const asked = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(Array.isArray(asked) ? asked.map(answer) : answer(asked)));
  });
});
try {
  await new Promise((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
} catch (err) {
  // A sandbox without loopback networking: txray works without the cache, only starts slower.
  process.stderr.write(`warm-cache: no loopback server (${err.code ?? err.message}); dist/txray.v8cache not made\n`);
  process.exit(0);
}
const url = `http://127.0.0.1:${server.address().port}`;

const bundle = loadBundle({ cache: false });
const sink = () => new Writable({ write: (_chunk, _enc, done) => done() });
const hashes = Object.keys(answers);
const RECORDED = `${tmpdir()}/txray-warmup-${process.pid}.rec`;
const expected = (hash) => (answers[hash].eth_getTransactionReceipt.status === '0x1' ? 0 : 1);
// The caches are made from plain lookups and local re-executions, what most runs are: a function in a
// cache is deserialised by every run, needed or not, and the other commands (--json, several hashes,
// --help, a usage error, --record and replay) measured as fast or faster compiling their own few
// functions at each run (docs/speed.md, branch speed-start). They still run, after the caches are
// made, as checks of the bundle.
const warmRuns = [
  ...hashes.map((h) => [[h, '-r', url], expected(h)]),
  // Local re-execution (loads dist/evm.cjs, whose cache is made from these runs).
  ...local.runs.map((args) => [[...args, '-r', url], expected(args[0])]),
];
const checkRuns = [
  ...hashes.map((h) => [[h, '-r', url, '--json'], expected(h)]),
  [[...hashes, '-r', url], Math.max(...hashes.map(expected))],
  [['--help'], 0],
  [['0x12', '-r', url], 2],
  // --record, then txray replay of what it wrote.
  [[hashes[0], '-r', url, '--record', RECORDED], expected(hashes[0])],
  [['replay', RECORDED], expected(hashes[0])],
];
async function runAll(runs) {
  for (const [argv, want] of runs) {
    const io = { stdout: sink(), stderr: sink(), env: {}, cwd: tmpdir(), sigdb: new URL('../dist/sigdb/', import.meta.url) };
    const code = await bundle.exports.main(argv[0] === 'replay' ? argv : [...argv, '--no-project-abis'], io);
    if (code !== want) throw new Error(`warm-up run \`txray ${argv.join(' ')}\` exited ${code}, expected ${want}`);
  }
}
let caches;
try {
  await runAll(warmRuns);
  if (!parts.has('evm')) throw new Error('the warm-up runs never loaded dist/evm.cjs');
  caches = [bundle, ...parts.values()].map((compiled) => [compiled, compiled.script.createCachedData()]);
  await runAll(checkRuns);
} finally {
  server.close();
  rmSync(RECORDED, { force: true });
}
for (const [compiled, data] of caches) {
  const tmp = `${compiled.cacheFile}.${process.pid}`;
  writeFileSync(tmp, Buffer.concat([Buffer.from(cacheHeader(compiled.buildId, data), 'latin1'), data]));
  renameSync(tmp, compiled.cacheFile);
}
