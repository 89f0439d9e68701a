'use strict';
// The floor for (b) in `npm run bench`: what any Node tool pays before it can check or show anything.
// Sends txray's three requests in parallel with node:http (cheaper to load than undici), reads each
// body whole and JSON.parses it, then exits. Usage: node scripts/bench-floor.cjs <hash> <url>
// `ask` is shared with scripts/bench-floor-worker.cjs (the two-thread floor).
const http = require('node:http');

/** One JSON-RPC request; resolves with the result's length (an array) or 1, or with the body's length unparsed. */
function ask(url, hash, method, parse = true) {
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

module.exports = { ask };

if (require.main === module) {
  const [hash, url] = process.argv.slice(2);
  Promise.all(['eth_getTransactionByHash', 'eth_getTransactionReceipt', 'trace_transaction'].map((m) => ask(url, hash, m))).then(
    () => undefined,
    (err) => {
      process.stderr.write(`bench-floor: ${err.message}\n`);
      process.exitCode = 1;
    },
  );
}
