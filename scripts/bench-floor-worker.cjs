'use strict';
// The floor of a two-thread design for (b) in `npm run bench`: the trace is asked for, read and
// JSON.parsed in a worker thread while the main thread does the same for the transaction and the
// receipt; the worker hands back only a count, so nothing is copied between the threads. It starts the
// worker before any request, as a design that processes the trace off the main thread would.
// `--no-parse` reads the bodies whole and parses nothing: what the node's answers cost on their own.
// Usage: node scripts/bench-floor-worker.cjs <hash> <url> [--no-parse]
const http = require('node:http');
const { Worker, isMainThread, parentPort, workerData } = require('node:worker_threads');

function ask(url, hash, method, parse) {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [hash] });
    const req = http.request(
      { host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if (!parse) return resolve(text.length);
          const doc = JSON.parse(text);
          if (doc.result === undefined || doc.result === null) reject(new Error(`${method}: no result`));
          else resolve(Array.isArray(doc.result) ? doc.result.length : 1);
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

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
