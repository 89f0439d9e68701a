#!/usr/bin/env node
/**
 * How many of a recorded block's successful transactions get an action other than "Called …": the
 * recorded answers of whole mainnet blocks (test/fixtures/actions/blocks) served from a loopback
 * JSON-RPC stand-in, each transaction looked up with the built txray (`node scripts/build.mjs` first),
 * as a user would. Prints the share per block and, with --list, every transaction's kind and sentence
 * (for checking them by hand against the logs).
 *
 *   node scripts/measure-actions.mjs [--list]
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BLOCKS = join(ROOT, 'test/fixtures/actions/blocks');
const BIN = join(ROOT, 'bin/txray.cjs');
const list = process.argv.includes('--list');

const read = (dir, file) => (existsSync(join(dir, file)) ? JSON.parse(readFileSync(join(dir, file), 'utf8')) : undefined);

/** Every recorded transaction by hash: its receipt, its transaction object and its trace where recorded. */
function loadBlocks() {
  const blocks = [];
  for (const name of readdirSync(BLOCKS).sort()) {
    const dir = join(BLOCKS, name);
    const receipts = read(dir, 'receipts.json');
    const txs = new Map((read(dir, 'block.json')?.transactions ?? []).map((t) => [t.hash.toLowerCase(), t]));
    const traces = read(dir, 'traces.json');
    const byTx = new Map();
    for (const e of traces ?? []) if (e.transactionHash) byTx.set(e.transactionHash.toLowerCase(), [...(byTx.get(e.transactionHash.toLowerCase()) ?? []), e]);
    const entries = receipts.map((r) => {
      const hash = r.transactionHash.toLowerCase();
      return { hash, receipt: r, tx: txs.get(hash), trace: traces === undefined ? undefined : (byTx.get(hash) ?? []) };
    });
    blocks.push({ name, hasTxs: txs.size > 0, hasTraces: traces !== undefined, entries });
  }
  return blocks;
}

function serve(byHash) {
  const answer = ({ method, params }) => {
    const c = byHash.get(String(params?.[0]).toLowerCase());
    if (method === 'eth_getTransactionByHash' && c) return { result: c.tx ?? null };
    if (method === 'eth_getTransactionReceipt' && c) return { result: c.receipt };
    if (method === 'trace_transaction' && c?.trace !== undefined) return { result: c.trace };
    if (method === 'trace_transaction' || method === 'debug_traceTransaction') return { error: { code: -32601, message: 'Method not found' } };
    // Nothing of the chain's state was recorded: no eth_call (token symbols), no re-execution.
    return { error: { code: -32000, message: 'not recorded' } };
  };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const msg = JSON.parse(body);
      const reply = Array.isArray(msg) ? msg.map((m) => ({ jsonrpc: '2.0', id: m.id, ...answer(m) })) : { jsonrpc: '2.0', id: msg.id, ...answer(msg) };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const lookup = (url, hash) =>
  new Promise((resolve, reject) => {
    execFile(process.execPath, [BIN, hash, '-r', url, '--json'], { maxBuffer: 64 << 20, env: { ...process.env, NO_COLOR: '1' } }, (error, stdout) => {
      if (stdout === '') reject(error ?? new Error(`no output for ${hash}`));
      else resolve(JSON.parse(stdout).action);
    });
  });

const blocks = loadBlocks();
const server = await serve(new Map(blocks.flatMap((b) => b.entries.map((e) => [e.hash, e]))));
const url = `http://127.0.0.1:${server.address().port}`;
try {
  for (const block of blocks) {
    const kinds = new Map();
    let successful = 0;
    let named = 0;
    for (const e of block.entries) {
      if (e.receipt.status !== '0x1') continue;
      const action = await lookup(url, e.hash);
      successful++;
      if (action.kind !== 'call') named++;
      kinds.set(action.kind, (kinds.get(action.kind) ?? 0) + 1);
      if (list) console.log(`${block.name} #${Number(e.receipt.transactionIndex)} ${e.hash} ${action.kind}: ${action.summary}`);
    }
    const what = [block.hasTxs ? 'transactions' : 'no transaction objects', block.hasTraces ? 'traces' : 'no traces'].join(', ');
    const share = ((100 * named) / successful).toFixed(1);
    const byKind = [...kinds].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(', ');
    console.log(`${block.name} (receipts, ${what}): ${named} of ${successful} successful transactions get a kind other than call (${share}%): ${byKind}`);
  }
} finally {
  server.close();
}
