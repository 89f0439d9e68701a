/**
 * Proxies from the environment (HTTP_PROXY, HTTPS_PROXY, NO_PROXY and their lower-case forms), for the
 * node and for --online's services alike, through a real forward proxy on loopback that tunnels and
 * counts; the node is a loopback server answering with a recorded mainnet transaction (test/fixtures).
 * --debug says when a proxy is used, by host and port only; its credentials are never shown.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type ForwardProxy, startForwardProxy } from '../support/forwardProxy.js';
import { type RpcServer, startRpcServer } from '../support/rpcServer.js';
import { jsonOf, runTxray } from '../support/runTxray.js';

const CASE = new URL('../fixtures/real/mainnet-legacy-transfer-b10000000/', import.meta.url);
const fixture = (f: string) => JSON.parse(readFileSync(new URL(f, CASE), 'utf8'));
const answers: Record<string, unknown> = {
  eth_getTransactionByHash: fixture('tx.json'),
  eth_getTransactionReceipt: fixture('receipt.json'),
  trace_transaction: fixture('trace.json'),
  eth_chainId: '0x1',
};
const HASH: string = fixture('tx.json').hash;

let node: RpcServer;
let proxy: ForwardProxy;
let sourcify: Server;
let sourcifyUrl: string;
let sourcifyHits = 0;
beforeAll(async () => {
  node = await startRpcServer(({ method }) => (method in answers ? { result: answers[method] } : undefined));
  proxy = await startForwardProxy();
  // A Sourcify that has verified nothing (its documented 404).
  sourcify = createServer((_req, res) => {
    sourcifyHits++;
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ customCode: 'not_found', message: 'not found', errorId: '1' }));
  });
  await new Promise<void>((r) => sourcify.listen(0, '127.0.0.1', r));
  sourcifyUrl = `http://127.0.0.1:${(sourcify.address() as { port: number }).port}`;
});
afterAll(async () => {
  await Promise.all([node?.close(), proxy?.close(), new Promise((r) => sourcify?.close(r))]);
});
beforeEach(() => {
  proxy.through.length = 0;
  node.requests.length = 0;
  sourcifyHits = 0;
});

const nodeHost = (): string => new URL(node.url).host;

describe('HTTP_PROXY, HTTPS_PROXY, NO_PROXY', () => {
  test.each(['HTTP_PROXY', 'http_proxy'])('%s: the lookup goes through the proxy, and --debug says so by host and port', async (name) => {
    const r = await runTxray([HASH, '-r', node.url, '--json', '--debug'], { [name]: proxy.url });
    expect(r.code).toBe(0);
    expect(jsonOf(r).status).toBe('success');
    expect(proxy.through.map((t) => `${t.how} ${t.target}`)).toContain(`forward ${nodeHost()}`);
    expect(node.requests.length).toBeGreaterThanOrEqual(3);
    expect(r.stderr).toContain(`txray: debug: the node through the proxy ${proxy.url}\n`);
  });

  test.each([['NO_PROXY', '127.0.0.1'], ['no_proxy', 'example.org, 127.0.0.1'], ['NO_PROXY', '*'], ['NO_PROXY', `127.0.0.1:${'PORT'}`]])('%s=%s: the node is reached directly', async (name, value) => {
    const r = await runTxray([HASH, '-r', node.url, '--json', '--debug'], { HTTP_PROXY: proxy.url, [name]: value.replace('PORT', String(node.port)) });
    expect(r.code).toBe(0);
    expect(proxy.through).toEqual([]);
    expect(r.stderr).not.toContain('through the proxy');
  });

  test('NO_PROXY for another port of the same host: still through the proxy', async () => {
    const r = await runTxray([HASH, '-r', node.url, '--json'], { HTTP_PROXY: proxy.url, NO_PROXY: `127.0.0.1:${node.port + 1}` });
    expect(r.code).toBe(0);
    expect(proxy.through.map((t) => `${t.how} ${t.target}`)).toContain(`forward ${nodeHost()}`);
  });

  test('HTTPS_PROXY alone leaves an http: node direct', async () => {
    const r = await runTxray([HASH, '-r', node.url, '--json'], { HTTPS_PROXY: proxy.url });
    expect(r.code).toBe(0);
    expect(proxy.through).toEqual([]);
  });

  test('--online: the services\' requests go through the proxy too', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'txray-proxy-cache-'));
    const r = await runTxray([HASH, '-r', node.url, '--json', '--online', '--sourcify-url', sourcifyUrl, '--signatures-url', sourcifyUrl, '--debug'], { HTTP_PROXY: proxy.url, TXRAY_CACHE_DIR: cache });
    expect(r.code).toBe(0);
    expect(sourcifyHits).toBeGreaterThan(0);
    expect(proxy.through.map((t) => `${t.how} ${t.target}`)).toContain(`forward ${new URL(sourcifyUrl).host}`);
    expect(r.stderr).toContain(`txray: debug: --online: Sourcify through the proxy ${proxy.url}\n`);
  });

  test('a proxy with credentials: they go to the proxy as Proxy-Authorization, and are never shown', async () => {
    const authed = await startForwardProxy(`Basic ${Buffer.from('puser:PROXYSECRET').toString('base64')}`);
    try {
      const withCreds = authed.url.replace('http://', 'http://puser:PROXYSECRET@');
      const r = await runTxray([HASH, '-r', node.url, '--debug'], { HTTP_PROXY: withCreds });
      expect(r.code).toBe(0);
      expect(authed.through[0]?.auth).toBe(`Basic ${Buffer.from('puser:PROXYSECRET').toString('base64')}`);
      expect(r.stdout + r.stderr).not.toContain('PROXYSECRET');
      expect(r.stderr).toContain(`through the proxy ${authed.url}\n`);
      // Without them: the proxy's 407, said in one line.
      const refused = await runTxray([HASH, '-r', node.url], { HTTP_PROXY: authed.url });
      expect(refused.code).toBe(5);
      expect(refused.stderr).toBe(`txray: the proxy ${authed.url} answered HTTP 407 when asked to connect to ${node.url}; check the proxy's credentials.\n`);
    } finally {
      await authed.close();
    }
  });

  test('an https: node through HTTPS_PROXY: a CONNECT tunnel, TLS end to end', async () => {
    const TLS = fileURLToPath(new URL('../support/tls/', import.meta.url));
    const secure = await startRpcServer(({ method }) => (method in answers ? { result: answers[method] } : undefined), { tls: { key: readFileSync(`${TLS}key.pem`), cert: readFileSync(`${TLS}cert.pem`) } });
    try {
      const r = await runTxray([HASH, '-r', secure.url, '--json'], { HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: `${TLS}cert.pem` });
      expect(r.code).toBe(0);
      // One tunnel per connection (the three first calls go out at once).
      expect(proxy.through.length).toBeGreaterThan(0);
      expect(new Set(proxy.through.map((t) => `${t.how} ${t.target}`))).toEqual(new Set([`connect ${new URL(secure.url).host}`]));
    } finally {
      await secure.close();
    }
  });

  test('an HTTP error status through a proxy says the proxy may have answered it', async () => {
    const forbidding = await startRpcServer((_q, res) => {
      res.writeHead(403).end('forbidden');
      return 'handled';
    });
    try {
      const r = await runTxray([HASH, '-r', forbidding.url], { HTTP_PROXY: proxy.url });
      expect(r.code).toBe(5);
      expect(r.stderr).toMatch(new RegExp(`answered HTTP 403 \\(through the proxy ${proxy.url.replace(/[.]/g, '\\.')}, which may have answered itself\\); check your API key`));
    } finally {
      await forbidding.close();
    }
  });

  test('a proxy that is not running: exit 5, one line that names the proxy, not the node', async () => {
    const r = await runTxray([HASH, '-r', node.url], { HTTP_PROXY: 'http://u:PW123@127.0.0.1:1' });
    expect(r.code).toBe(5);
    expect(r.stderr).toBe(`txray: connection refused by the proxy http://127.0.0.1:1 on the way to ${node.url}: is the proxy running, and is its port right?\n`);
  });

  test('a proxy variable that is not an http(s) URL: a usage error before any request (exit 2)', async () => {
    for (const value of ['not a url', 'ftp://127.0.0.1:21']) {
      const r = await runTxray([HASH, '-r', node.url], { HTTP_PROXY: value });
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/^txray: HTTP_PROXY (is not a URL|must be an http:\/\/ or https:\/\/ URL)/);
    }
    expect(node.requests).toEqual([]);
  });
});
