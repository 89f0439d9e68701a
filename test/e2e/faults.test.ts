/**
 * A loopback server that misbehaves on purpose, one way per URL path; the good path serves a real
 * mainnet answer (test/fixtures). Every case: the documented exit code, a one-line message,
 * no stack trace, and no secret from the URL or the headers anywhere in stdout or stderr.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BIN, jsonOf, runTxray } from '../support/runTxray.js';
import { schemaErrors } from '../support/schema.js';

const CASE = new URL('../fixtures/real/mainnet-legacy-transfer-b10000000/', import.meta.url);
const fixture = (f: string) => JSON.parse(readFileSync(new URL(f, CASE), 'utf8'));
const TX = fixture('tx.json');
const RECEIPT = fixture('receipt.json');
const TRACE = fixture('trace.json');
const HASH: string = TX.hash;
const OTHER_HASH = `0x${'ee'.repeat(32)}`;

const good = (method: string): unknown =>
  method === 'eth_getTransactionByHash' ? TX : method === 'eth_getTransactionReceipt' ? RECEIPT : method === 'trace_transaction' ? TRACE : undefined;

/** A valid flat trace of n calls under one root, for output large enough to fill a pipe. */
function bigTrace(n: number): unknown[] {
  const root = { ...TRACE[0], subtraces: n, traceAddress: [] };
  return [root, ...Array.from({ length: n }, (_, i) => ({ ...TRACE[0], subtraces: 0, traceAddress: [i] }))];
}

/**
 * A trace of about 2 MB whose entries carry strings holding the bytes a large answer is sliced at
 * (rpc/parseJsonBytes.ts), served with its content-length (the path that slices).
 */
function slicedTrace(): unknown[] {
  const tricky = ['},{', '}]', '[{', '"},{"a":1}]', '\\', 'ü €  😀 },{', '\u0000txray: the array'];
  return (bigTrace(4000) as Array<Record<string, unknown>>).map((e, i) => (i % 40 === 0 ? { ...e, note: tricky[(i / 40) % tricky.length] } : e));
}

let server: Server;
let base: string;
const hits: Record<string, number> = {};
let requests = 0;

function answer(res: ServerResponse, id: unknown, body: Record<string, unknown>): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', id, ...body }));
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
      requests++;
      const mode = (req.url ?? '/').split('/')[1] ?? '';
      const msg = JSON.parse(raw) as { id: unknown; method: string };
      hits[mode] = (hits[mode] ?? 0) + 1;
      switch (mode) {
        case 'ok':
          return answer(res, msg.id, { result: good(msg.method) });
        case 'http500':
          return res.writeHead(500).end('internal');
        case 'http401':
          return res.writeHead(401).end('no key');
        case 'html':
          res.writeHead(200, { 'content-type': 'text/html' });
          return res.end('<html><body>Cloudflare says no</body></html>');
        case 'truncated':
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end(`{"jsonrpc":"2.0","id":${JSON.stringify(msg.id)},"result":{"hash":"0x`);
        case 'rpcerror':
          return answer(res, msg.id, { error: { code: -32000, message: 'boom \u001b[2J\u202e' } });
        case 'wrongid':
          return answer(res, 999, { result: good(msg.method) });
        case 'noid':
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end(JSON.stringify({ jsonrpc: '2.0', result: good(msg.method) }));
        case 'mismatch':
          return answer(res, msg.id, { result: msg.method === 'eth_getTransactionByHash' ? { ...TX, hash: OTHER_HASH } : good(msg.method) });
        case 'shape':
          return answer(res, msg.id, { result: msg.method === 'eth_getTransactionByHash' ? 42 : good(msg.method) });
        case 'badstatus':
          return answer(res, msg.id, { result: msg.method === 'eth_getTransactionReceipt' ? { ...RECEIPT, status: '0x7' } : good(msg.method) });
        case 'badtrace':
          return answer(res, msg.id, { result: msg.method === 'trace_transaction' ? [{ garbage: true }, 7, ...TRACE] : good(msg.method) });
        case 'badfields':
          return answer(res, msg.id, { result: msg.method === 'eth_getTransactionByHash' ? { ...TX, value: 'lots', nonce: '0xZZ' } : good(msg.method) });
        case 'deep':
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end(`{"jsonrpc":"2.0","id":${JSON.stringify(msg.id)},"result":${'['.repeat(50_000)}${']'.repeat(50_000)}}`);
        case 'deepfield': {
          // A sound answer with a field txray does not know, nested 20,000 deep.
          const base = JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: good(msg.method) });
          if (msg.method !== 'eth_getTransactionReceipt') return answer(res, msg.id, { result: good(msg.method) });
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end(base.replace('"result":{', `"result":{"extra":${'['.repeat(20_000)}${']'.repeat(20_000)},`));
        }
        case 'shortbody': {
          // Declares 100,000 bytes, sends a few and hangs up.
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100000' });
          res.write(`{"jsonrpc":"2.0","id":${JSON.stringify(msg.id)},"result":{`);
          return setTimeout(() => res.socket?.destroy(), 20);
        }
        case 'deepid':
          return res.end(`{"jsonrpc":"2.0","id":${'['.repeat(50_000)}${']'.repeat(50_000)},"result":null}`);
        case 'big': {
          res.writeHead(200, { 'content-type': 'application/json' }); // chunked: no content-length to trust
          res.write(`{"jsonrpc":"2.0","id":${JSON.stringify(msg.id)},"result":"0x`);
          const chunk = 'ab'.repeat(32 * 1024);
          let sent = 0;
          const pump = (): void => {
            while (sent < 64 && res.write(chunk)) sent++;
            if (sent < 64) res.once('drain', pump);
            else res.end('"}');
          };
          return pump();
        }
        case 'reset':
          return req.socket.destroy(); // the connection dies before any answer
        case 'nothttp':
          return req.socket.end('SSH-2.0-OpenSSH_9.6\r\n'); // another protocol's greeting where HTTP belongs
        case 'hugetrace': {
          // A valid trace of about 100 MB (a real one of that size exists on mainnet), streamed.
          if (msg.method !== 'trace_transaction') return answer(res, msg.id, { result: good(msg.method) });
          const entry = { ...TRACE[0], subtraces: 0, action: { ...TRACE[0].action, input: `0x${'ab'.repeat(4000)}` } };
          const n = 12_000;
          res.writeHead(200, { 'content-type': 'application/json' });
          res.write(`{"jsonrpc":"2.0","id":${JSON.stringify(msg.id)},"result":[${JSON.stringify({ ...TRACE[0], subtraces: n })}`);
          let i = 0;
          const pump = (): void => {
            while (i < n) {
              const ok = res.write(`,${JSON.stringify({ ...entry, traceAddress: [i] })}`);
              i++;
              if (!ok) return void res.once('drain', pump);
            }
            res.end(']}');
          };
          return pump();
        }
        case 'slicedtrace':
        case 'slicedchunked': {
          if (msg.method !== 'trace_transaction') return answer(res, msg.id, { result: good(msg.method) });
          const body = JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: slicedTrace() });
          // With its length declared, or sent in chunks (written in two parts: no content-length).
          if (mode === 'slicedtrace') return res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
          res.writeHead(200, { 'content-type': 'application/json' });
          res.write(body.slice(0, 1000));
          return res.end(body.slice(1000));
        }
        case 'hang':
          return; // never answers
        case 'drip': {
          res.writeHead(200, { 'content-type': 'application/json' });
          const timer = setInterval(() => res.write(' '), 100);
          res.on('close', () => clearInterval(timer));
          return;
        }
        case 'ratelimited': {
          // The first two tries of each method are refused with 429 (one with Retry-After), then served.
          const key = `rl-${msg.method}`;
          hits[key] = (hits[key] ?? 0) + 1;
          if (hits[key]! <= 2) return res.writeHead(429, hits[key] === 1 ? { 'retry-after': '0' } : {}).end();
          return answer(res, msg.id, { result: good(msg.method) });
        }
        case 'alwaysbusy':
          return res.writeHead(503, { 'retry-after': '1' }).end();
        case 'bigtrace':
          return answer(res, msg.id, { result: msg.method === 'trace_transaction' ? bigTrace(5000) : good(msg.method) });
        case 'reorg':
          return answer(res, msg.id, { result: msg.method === 'eth_getTransactionReceipt' ? { ...RECEIPT, blockHash: `0x${'0f'.repeat(32)}` } : good(msg.method) });
        default:
          return res.writeHead(404).end();
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const SECRETS = ['hunter2pass', 'PATHKEY123', 'QUERYKEY456', 'HEADERTOKEN789'];
const secretUrl = (mode: string) => `http://alice:hunter2pass@${base}/${mode}/v2/PATHKEY123?apikey=QUERYKEY456`;
const run = (mode: string, ...extra: string[]) =>
  runTxray([HASH, '-r', secretUrl(mode), '-H', 'Authorization: Bearer HEADERTOKEN789', ...extra]);

function expectClean(r: { stdout: string; stderr: string }, debug = false): void {
  for (const s of SECRETS) {
    expect(r.stdout).not.toContain(s);
    expect(r.stderr).not.toContain(s);
  }
  // A stack trace only with --debug.
  if (!debug) expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(r.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
}

describe('node and transport failures: exit 5, one line, nothing leaked', () => {
  test.each([
    ['http500', /answered HTTP 500; check the URL and the node\.$/],
    ['http401', /answered HTTP 401; check your API key or the -H authorization header\.$/],
    ['html', /answered with an HTML page, not JSON-RPC/],
    ['truncated', /is not valid JSON \(truncated or corrupt\)/],
    ['rpcerror', /the node answered error -32000: boom \\x1b\[2J\\u\{202e\}$/],
    ['wrongid', /has id 999, expected id \d/],
    ['noid', /has no id, expected id \d/],
    ['mismatch', /answered about another transaction \(0xeeee/],
    ['shape', /malformed \(expected an object or null, got number\)/],
    ['badstatus', /"status" is "0x7", not 0x0 or 0x1/],
    // 50,000 levels of nesting: JSON.parse takes it, and nothing after it recurses.
    ['deep', /malformed \(expected an object or null, got an array\)/],
    ['deepid', /has id an array, expected id \d/],
    ['shortbody', /was closed before the answer was complete \(ECONNRESET\); try again, or check the node\.$/],
    // The parser's reason (undici 7 drops llhttp's HPE_ code from its HTTPParserError).
    ['nothttp', /^txray: http:\/\/127\.0\.0\.1:\d+ did not answer in HTTP that txray can read \(Expected HTTP\/, RTSP\/ or ICE\/\); check the URL and the port\.$/],
  ])('%s', async (mode, message) => {
    for (const extra of [[], ['--json'], ['--debug']]) {
      const r = await run(mode, ...extra);
      expect(r.code).toBe(5);
      expectClean(r, extra[0] === '--debug');
      const first = r.stderr.split('\n').find((l) => !l.startsWith('txray: debug: '))!;
      expect(first.startsWith('txray: ')).toBe(true);
      expect(first).toMatch(message);
      if (extra[0] === '--json') {
        const doc = jsonOf(r);
        expect(doc.status).toBe('error');
        expect(doc.hash).toBe(HASH);
        expect(schemaErrors(doc)).toBe('');
      } else if (extra[0] === '--debug') {
        expect(r.stderr).toMatch(/\n\s+at /);
      } else {
        expect(r.stdout).toBe('');
        expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      }
    }
  });

  test('unreachable: connection refused', async () => {
    const r = await runTxray([HASH, '-r', 'http://alice:hunter2pass@127.0.0.1:1/v2/PATHKEY123']);
    expect(r.code).toBe(5);
    expect(r.stderr).toBe('txray: connection refused by http://127.0.0.1:1: is the node running, and is the port right?\n');
    expectClean(r);
  });

  test('connection reset before the answer', async () => {
    const r = await run('reset');
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/^txray: the connection to http:\/\/127\.0\.0\.1:\d+ was closed before the answer was complete \(\w+\); try again, or check the node\.\n$/);
    expectClean(r);
  });

  test('TLS failure: https:// to a server that speaks plain HTTP', async () => {
    const r = await runTxray([HASH, '-r', `https://alice:hunter2pass@${base}/ok/v2/PATHKEY123`]);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/^txray: TLS failure talking to https:\/\/127\.0\.0\.1:\d+ \(\w+\): check the certificate or use the right scheme\.\n$/);
    expectClean(r);
  });

  test('a trace of about 100 MB works under the default cap', async () => {
    const r = await run('hugetrace', '--json');
    expect(r.code).toBe(0);
    expect(r.stdout.length).toBeGreaterThan(100_000_000);
    const doc = jsonOf(r);
    expect(doc.trace).toHaveLength(12_001);
    expect(doc.calls.children).toHaveLength(12_000);
  }, 120_000);

  test.each(['slicedtrace', 'slicedchunked'])('%s: a large answer (its length declared, or sent in chunks), its strings holding the bytes it is sliced at, read as the node sent it', async (mode) => {
    const r = await run(mode, '--json');
    expect(r.code).toBe(0);
    const served = slicedTrace();
    expect(JSON.stringify(served).length).toBeGreaterThan(1 << 20);
    expect(jsonOf(r).trace).toEqual(served);
  });

  test.each(['hang', 'drip'])('%s: --timeout is an overall deadline', async (mode) => {
    const started = Date.now();
    const r = await run(mode, '--timeout', '1');
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/no complete answer from http:\/\/127\.0\.0\.1:\d+ within 1s; raise --timeout/);
    expect(Date.now() - started).toBeLessThan(4000);
    expectClean(r);
  });

  test('size cap: refused while streaming', async () => {
    const r = await run('big', '--max-response-mb', '1');
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/larger than 1 MiB; raise the cap with --max-response-mb/);
    expectClean(r);
  });

  test('429 then success: retried within the deadline', async () => {
    const r = await run('ratelimited');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('✔ success');
    expectClean(r);
  });

  test('503 that never ends: gives up on time, says it was rate limited', async () => {
    const r = await run('alwaysbusy', '--timeout', '2');
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/is rate limiting \(HTTP 503\)/);
    expectClean(r);
  });
});

describe('malformed fields: warn, render what is sound', () => {
  test('garbage trace entries are left out with a warning', async () => {
    const r = await run('badtrace');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('txray: warning: 2 trace entries are malformed (no type, action or traceAddress) and left out of the call tree.\n');
    expect(r.stdout).toContain('Call tree (1 entry');
  });
  test('invalid optional quantities are dropped with a warning', async () => {
    const r = await run('badfields');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('txray: warning: transaction.value is not valid ("lots"); ignored.');
    expect(r.stderr).toContain('txray: warning: transaction.nonce is not valid ("0xZZ"); ignored.');
    expect(r.stdout).not.toContain('Value');
  });
  test('a field nested 20,000 deep: shown as it is, the rest as usual', async () => {
    const text = await run('deepfield');
    expect(text.code).toBe(0);
    expect(text.stderr).toBe('');
    const r = await run('deepfield', '--json');
    expect(r.code).toBe(0);
    let extra = (JSON.parse(r.stdout) as { receipt: { extra: unknown } }).receipt.extra;
    let depth = 0;
    while (Array.isArray(extra)) {
      depth++;
      extra = extra[0];
    }
    expect(depth).toBe(20_000);
  });
  test('transaction and receipt from different blocks: asked twice, then a warning', async () => {
    const before = hits.reorg ?? 0;
    const r = await run('reorg');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('name different blocks');
    expect((hits.reorg ?? 0) - before).toBe(6);
  });
});

describe('the node by a foundry.toml alias, and the default node', () => {
  const project = mkdtempSync(join(tmpdir(), 'txray-alias-'));
  const sub = join(project, 'script', 'deploy');
  beforeAll(() => {
    mkdirSync(sub, { recursive: true });
    writeFileSync(join(project, 'foundry.toml'), ['[profile.default]', 'src = "src"', '', '[rpc_endpoints]', `local = "http://${base}/ok"`, 'keyed = "http://${NODE_HOST}/ok/${NODE_KEY}"', ''].join('\n'));
  });
  const inProject = (args: string[], env: Record<string, string> = {}, cwd = project) => runTxray(args, env, undefined, cwd);

  test.each([
    ['--rpc-url local', [HASH, '--rpc-url', 'local'], {}],
    ['--rpc-url keyed, its ${VAR}s from the environment', [HASH, '-r', 'keyed'], () => ({ NODE_HOST: base, NODE_KEY: 'ALIASKEY42' })],
    ['ETH_RPC_URL=local', [HASH], { ETH_RPC_URL: 'local' }],
  ] as const)('%s: looked up, the key never shown', async (_what, args, env) => {
    for (const cwd of [project, sub]) {
      const r = await inProject([...args, '--debug'], typeof env === 'function' ? env() : env, cwd);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('✔ success');
      expect(r.stderr).toContain(`txray: debug: node http://${base}, timeout`);
      expect(r.stdout + r.stderr).not.toContain('ALIASKEY42');
    }
  });

  test.each([
    [[HASH, '-r', 'mainnet'], {}, /^txray: no endpoint 'mainnet' in foundry\.toml \[rpc_endpoints\] \(.*foundry\.toml\); it names local, keyed\.$/],
    [[HASH, '-r', 'keyed'], { NODE_HOST: '127.0.0.1:9' }, /^txray: NODE_KEY is not set \(used by rpc_endpoints\.keyed\)\.$/],
    [[HASH], { ETH_RPC_URL: 'sepolia' }, /^txray: no endpoint 'sepolia' in foundry\.toml/],
  ])('%j with %j: exit 2, one line, no request', async (args, env, message) => {
    const before = requests;
    const r = await inProject(args, env);
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr.trimEnd()).toMatch(message);
    expect(requests).toBe(before);
  });

  test('no --rpc-url and no ETH_RPC_URL: http://localhost:8545, and where nothing answers there, one line that says so (exit 5)', async () => {
    const r = await runTxray([HASH]);
    expect(r.code).toBe(5);
    expect(r.stderr).toBe('txray: cannot reach http://localhost:8545 (the default; pass --rpc-url or set ETH_RPC_URL).\n');
    const doc = await runTxray([HASH, '--json']);
    expect(doc.code).toBe(5);
    expect(jsonOf(doc).error).toMatchObject({ message: 'cannot reach http://localhost:8545 (the default; pass --rpc-url or set ETH_RPC_URL).' });
  });
});

describe('usage errors: exit 2, before any network call', () => {
  test.each([
    [['0x1234', '-r', `http://${base}/ok`], /'0x1234' is not a transaction hash: it has 4 hex digits/],
    [['', '-r', `http://${base}/ok`], /the transaction hash is empty/],
    [[`0x${'g'.repeat(64)}`, '-r', `http://${base}/ok`], /characters other than hex digits/],
    [[HASH, '-r', 'node.example/ok'], /has no scheme/],
    [[HASH, '-r', `ftp://${base}/ok`], /http:\/\/ or https:\/\/ only/],
    [[HASH, '-r', 'http://[bad/PATHKEY123'], /cannot be parsed/],
    [[HASH, '-r', `http://${base}/ok`, '--timeout', '0'], /--timeout takes a positive number/],
    [[HASH, '-r', `http://${base}/ok`, '--timeout', '-3'], /--timeout takes a positive number/],
    [[HASH, '-r', `http://${base}/ok`, '--timeout', 'soon'], /--timeout takes a positive number/],
    [[HASH, '-r', `http://${base}/ok`, '-H', 'HEADERTOKEN789'], /-H header #1 has no colon/],
    [[HASH, '-r', `http://${base}/ok`, '--frobnicate'], /unknown option '--frobnicate'/],
    [[HASH, '-r', 'mainnet'], /--rpc-url 'mainnet' is not a URL, and no foundry.toml here or above names it in \[rpc_endpoints\]/],
    [[], /missing the transaction hash; see txray --help\./],
    [[HASH, '-r', `http://${base}/ok`, '--concurrency', '0'], /--concurrency takes a whole number from 1 to 64/],
    [[HASH, '-r', `http://${base}/ok`, '--wait', 'later'], /--wait takes a number of seconds/],
    [[HASH, '-r', `http://${base}/ok`, '--confirmations', '-1'], /--confirmations takes a whole number/],
  ])('%j', async (args, message) => {
    const before = requests;
    const r = await runTxray(args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(message);
    expectClean(r);
    expect(requests).toBe(before);
  });

  test('--json usage error is also a JSON document', async () => {
    const r = await runTxray(['0x12', '-r', `http://${base}/ok`, '--json']);
    expect(r.code).toBe(2);
    const doc = jsonOf(r);
    expect(doc).toMatchObject({ status: 'error', hash: null, error: { code: 'usage' } });
    expect(schemaErrors(doc)).toBe('');
  });

  test('--help never shows the endpoint, even when ETH_RPC_URL holds one with a key', async () => {
    const r = await runTxray(['--help'], { ETH_RPC_URL: secretUrl('ok') });
    expect(r.code).toBe(0);
    expectClean(r);
  });

  test('--help and --version exit 0 on stdout', async () => {
    const help = await runTxray(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: txray [options] [hashes...]');
    expect(help.stdout).toContain('Exit codes:');
    expect(help.stdout).toContain('with or without the 0x prefix');
    const version = await runTxray(['--version']);
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version);
  });
});

describe('output plumbing', () => {
  test('| head -1 ends quietly with the full exit code', async () => {
    const out = await new Promise<string>((resolve) => {
      const sh = spawn('bash', ['-c', `node ${BIN} ${HASH} -r http://${base}/bigtrace 2>"$ERR" | head -1; echo "status=\${PIPESTATUS[0]}"; cat "$ERR"`], {
        env: { ...process.env, ERR: join(tmpdir(), `txray-head-${process.pid}.err`) },
      });
      let s = '';
      sh.stdout.on('data', (d) => (s += d));
      sh.on('close', () => resolve(s));
    });
    expect(out).toBe(`Transaction ${HASH}\nstatus=0\n`);
  });

  test('a write error on stdout (disk full) ends without hanging or a stack trace', async () => {
    const out = await new Promise<string>((resolve) => {
      const sh = spawn('bash', ['-c', `node ${BIN} ${HASH} -r http://${base}/bigtrace > /dev/full; echo "status=$?"`]);
      let s = '';
      sh.stdout.on('data', (d) => (s += d));
      sh.stderr.on('data', (d) => (s += d));
      sh.on('close', () => resolve(s));
    });
    expect(out).toBe('status=0\n');
  });

  test('SIGINT ends quietly with 130', async () => {
    const child = spawn(process.execPath, [BIN, HASH, '-r', `http://${base}/hang`], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    // Interrupted once it is waiting on the node: its SIGINT handler is set before any request, whereas a
    // fixed sleep raced start-up on a busy machine (a signal before the handler ends the process by signal).
    const asked = hits.hang ?? 0;
    while ((hits.hang ?? 0) === asked && child.exitCode === null) await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGINT');
    const code = await new Promise((r) => child.on('close', r));
    expect(code).toBe(130);
    expect(stdout).toBe('');
    expect(stderr).toBe('');
  });
});
