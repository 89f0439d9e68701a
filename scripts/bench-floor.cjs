'use strict';
// The floor for (b) in `npm run bench`: what any Node tool pays before it can check or show anything.
// Sends txray's three requests in parallel with node:http (cheaper to load than undici), reads each
// body whole and JSON.parses it, then exits. Usage: node scripts/bench-floor.cjs <hash> <url>
const http = require('node:http');

const [hash, url] = process.argv.slice(2);
const target = new URL(url);

function ask(method) {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [hash] });
    const req = http.request(
      { host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const doc = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          if (doc.result === undefined || doc.result === null) reject(new Error(`${method}: no result`));
          else resolve(doc.result);
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

Promise.all(['eth_getTransactionByHash', 'eth_getTransactionReceipt', 'trace_transaction'].map(ask)).then(
  () => undefined,
  (err) => {
    process.stderr.write(`bench-floor: ${err.message}\n`);
    process.exitCode = 1;
  },
);
