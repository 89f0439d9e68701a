// Records the node answers that scripts/warm-cache.mjs replays while it builds the code caches:
// a real anvil, the scenario contracts, and three transactions that between them reach most of what a
// lookup runs (nested calls of every kind, events, an ERC-20 transfer, a custom error). For the EVM's
// cache (dist/evm.cjs), every request of `--tracer local` runs on two of them (one with --state) is
// recorded too, as the built txray makes them: build first (`npm run build`), then re-run this after
// changing contracts/Scenarios.sol or what a local run asks: `node scripts/record-warmup.mjs`.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startAnvil } from './lib/anvil.mjs';
import { makeScenarios } from './lib/scenarios.mjs';

const bin = fileURLToPath(new URL('../bin/txray.cjs', import.meta.url));
const anvil = await startAnvil();
try {
  const { hashes } = await makeScenarios(anvil.rpc);
  const answers = {};
  for (const name of ['showcase', 'tokenTransfer', 'custom']) {
    const hash = hashes[name];
    answers[hash] = {
      eth_getTransactionByHash: await anvil.rpc('eth_getTransactionByHash', [hash]),
      eth_getTransactionReceipt: await anvil.rpc('eth_getTransactionReceipt', [hash]),
      trace_transaction: await anvil.rpc('trace_transaction', [hash]),
    };
  }
  // A recording proxy in front of anvil: each request's answer under `<method> <params as JSON>`.
  const local = {};
  const proxy = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks);
      const upstream = await fetch(anvil.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      const text = await upstream.text();
      const asked = JSON.parse(body.toString('utf8'));
      const got = JSON.parse(text);
      for (const [q, a] of Array.isArray(asked) ? asked.map((q, i) => [q, got[i]]) : [[asked, got]]) {
        local[`${q.method} ${JSON.stringify(q.params ?? [])}`] = 'error' in a ? { error: a.error } : { result: a.result };
      }
      res.writeHead(upstream.status, { 'content-type': 'application/json' });
      res.end(text);
    });
  });
  await new Promise((r) => proxy.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${proxy.address().port}`;
  const localRuns = [[hashes.showcase, '--tracer', 'local'], [hashes.custom, '--tracer', 'local', '--state']];
  for (const args of localRuns) {
    // Asynchronously: the proxy answering it runs in this process.
    const status = await new Promise((resolve) => spawn(process.execPath, [bin, ...args, '-r', url, '--no-project-abis'], { stdio: ['ignore', 'ignore', 'inherit'] }).on('close', resolve));
    if (status !== 0 && status !== 1) throw new Error(`txray ${args.join(' ')} exited ${status}`);
  }
  await new Promise((r) => proxy.close(r));
  writeFileSync(new URL('./warmup/answers.json', import.meta.url), `${JSON.stringify(answers)}\n`);
  writeFileSync(new URL('./warmup/local.json', import.meta.url), `${JSON.stringify({ runs: localRuns, answers: local })}\n`);
  console.log(`recorded ${Object.keys(answers).length} transactions, ${Object.keys(local).length} answers of ${localRuns.length} local runs`);
} finally {
  await anvil.stop();
}
