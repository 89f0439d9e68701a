'use strict';
// The floor of a two-thread design for (b) in `npm run bench`: the trace is asked for, read and
// JSON.parsed in a worker thread while the main thread does the same for the transaction and the
// receipt; the worker hands back only a count, so nothing is copied between the threads. It starts the
// worker before any request, as a design that processes the trace off the main thread would.
// `--no-parse` reads the bodies whole and parses nothing: what the node's answers cost on their own.
// Usage: node scripts/bench-floor-worker.cjs <hash> <url> [--no-parse]
const { Worker, isMainThread, parentPort, workerData } = require('node:worker_threads');
const { ask } = require('./bench-floor.cjs');

if (isMainThread) {
  const [hash, url, flag] = process.argv.slice(2);
  const parse = flag !== '--no-parse';
  const worker = new Worker(__filename, { workerData: { hash, url, parse } });
  const trace = new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  Promise.all([ask(url, hash, 'eth_getTransactionByHash', parse), ask(url, hash, 'eth_getTransactionReceipt', parse), trace]).then(
    () => undefined,
    (err) => {
      process.stderr.write(`bench-floor-worker: ${err.message}\n`);
      process.exitCode = 1;
    },
  );
} else {
  const { hash, url, parse } = workerData;
  ask(url, hash, 'trace_transaction', parse).then((n) => parentPort.postMessage(n));
}
