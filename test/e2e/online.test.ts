/**
 * --online against loopback stand-ins for the three services, answering in the shapes their
 * documentation gives (Sourcify's v2 contract API, Etherscan's v2 getsourcecode, the OpenChain-compatible
 * signature lookup), with the ABIs this project compiled for the scenario contracts on a real anvil.
 * No test reaches the internet. Faults: 404, 429 with Retry-After, 500, a hang, a huge body, wrong names,
 * markup and escape bytes in names; the API key never shown; a second lookup asks nothing.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toFunctionSelector } from 'viem';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type Anvil, withScenarioNode } from '../support/scenarioNode.js';
import { jsonOf, runTxray } from '../support/runTxray.js';
import { schemaErrors } from '../support/schema.js';

const compiled = JSON.parse(readFileSync(fileURLToPath(new URL('../../contracts/out/Scenarios.json', import.meta.url)), 'utf8')).contracts as Record<string, { abi: unknown[] }>;

let anvil: Anvil;
let showcaseTx: string;
let showcase: string;
let logic: string;
let proxy: string;
let vault: string;
let stateShow: string;
let setCode: string;
withScenarioNode((s) => {
  anvil = s.anvil;
  const sc = s as unknown as { hashes: Record<string, string>; showcase: string; logic: string; proxy: string; vault: string };
  proxy = sc.proxy.toLowerCase();
  vault = sc.vault.toLowerCase();
  stateShow = sc.hashes.stateShow!;
  setCode = sc.hashes.setCode!;
  showcaseTx = sc.hashes.showcase!;
  showcase = sc.showcase.toLowerCase();
  logic = sc.logic.toLowerCase();
});

type Handler = (url: URL, res: ServerResponse) => void;
interface StandIn {
  readonly url: string;
  readonly requests: string[];
  handler: Handler;
  close(): Promise<void>;
}

async function standIn(): Promise<StandIn> {
  const requests: string[] = [];
  const self: { handler: Handler } = { handler: (_u, res) => json(res, 404, { customCode: 'not_found', message: 'not found', errorId: '0' }) };
  const server: Server = createServer((req: IncomingMessage, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    requests.push(`${url.pathname}${url.search}`);
    self.handler(url, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return Object.assign(self, {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  });
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

/** Sourcify v2's answer for a verified contract (the fields asked for, and the match fields it always gives). */
const verified = (chainId: string, address: string, name: string, abi: unknown[], implementations: Array<{ address: string; name: string }> = []) => ({
  match: 'exact_match',
  creationMatch: 'exact_match',
  runtimeMatch: 'exact_match',
  chainId,
  address,
  verifiedAt: '2026-01-01T00:00:00Z',
  matchId: '1',
  abi,
  compilation: { language: 'Solidity', compiler: 'solc', compilerVersion: 'v0.8.28+commit.7893614a', name, fullyQualifiedName: `contracts/Scenarios.sol:${name}` },
  proxyResolution: { isProxy: implementations.length > 0, proxyType: implementations.length > 0 ? 'EIP1967Proxy' : null, implementations },
});

/** A Sourcify that knows Showcase and Logic at their addresses on this chain, and nothing else. */
const knowsScenarios = (chainId: string): Handler => (url, res) => {
  const m = /^\/v2\/contract\/(\d+)\/(0x[0-9a-fA-F]{40})$/.exec(url.pathname);
  const address = m?.[2]?.toLowerCase();
  if (m === null || m[1] !== chainId) return json(res, 404, { customCode: 'not_found', message: 'not found', errorId: '1' });
  if (address === showcase) return json(res, 200, verified(chainId, address, 'Showcase', compiled.Showcase!.abi));
  if (address === logic) return json(res, 200, verified(chainId, address, 'Logic', compiled.Logic!.abi));
  return json(res, 404, { customCode: 'not_found', message: `Contract ${address} on chain ${chainId} not found`, errorId: '2' });
};

let sourcify: StandIn;
let signatures: StandIn;
let etherscan: StandIn;
const CHAIN = '31337';
beforeAll(async () => {
  [sourcify, signatures, etherscan] = await Promise.all([standIn(), standIn(), standIn()]);
});
afterAll(async () => {
  await Promise.all([sourcify?.close(), signatures?.close(), etherscan?.close()]);
});
beforeEach(() => {
  sourcify.requests.length = 0;
  signatures.requests.length = 0;
  etherscan.requests.length = 0;
  sourcify.handler = knowsScenarios(CHAIN);
  signatures.handler = (_u, res) => json(res, 200, { ok: true, result: { function: {}, event: {} } });
  etherscan.handler = (_u, res) => json(res, 200, { status: '0', message: 'NOTOK', result: 'Invalid API Key' });
});

const FAIL = toFunctionSelector('fail(string)');
/** An empty folder (no project ABIs), its own cache, the stand-ins' URLs. */
function online(extra: string[] = [], env: Record<string, string> = {}, cache = mkdtempSync(join(tmpdir(), 'txray-cache-'))) {
  const cwd = mkdtempSync(join(tmpdir(), 'txray-online-'));
  return {
    cache,
    run: (args: string[]) =>
      runTxray([...args, '-r', anvil.url, '--online', '--sourcify-url', sourcify.url, '--signatures-url', signatures.url, '--etherscan-url', `${etherscan.url}/v2/api`, ...extra], { TXRAY_CACHE_DIR: cache, ...env }, undefined, cwd),
  };
}

const functionsOf = (node: any, out: any[] = []): any[] => {
  if (node.function) out.push(node.function);
  for (const c of node.children ?? []) functionsOf(c, out);
  return out;
};

describe('--online', () => {
  test('without it nothing goes to any service, even with their URLs given', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'txray-online-'));
    const r = await runTxray([showcaseTx, '-r', anvil.url, '--sourcify-url', sourcify.url, '--signatures-url', signatures.url, '--json'], { TXRAY_CACHE_DIR: mkdtempSync(join(tmpdir(), 'c-')) }, undefined, cwd);
    expect(r.code).toBe(0);
    expect(sourcify.requests).toEqual([]);
    expect(signatures.requests).toEqual([]);
  });

  test('verified ABIs name the calls with parameter names, the contracts by name; a second lookup asks nothing, and works with the services gone', async () => {
    const o = online();
    signatures.handler = (url, res) => {
      const asked = url.searchParams.get('function')?.split(',') ?? [];
      const fn: Record<string, unknown> = {};
      // A wrong name first (it does not hash to the selector), then the right one.
      if (asked.includes(FAIL)) fn[FAIL] = [{ name: 'transfer(address,uint256)', filtered: false }, { name: 'fail(string)', filtered: false }];
      json(res, 200, { ok: true, result: { function: fn, event: {} } });
    };
    const r = await o.run([showcaseTx, '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const doc = jsonOf(r);
    expect(schemaErrors(doc)).toBe('');
    expect(doc.calls.function).toMatchObject({ name: 'run', source: 'sourcify', contract: 'Showcase', args: [{ name: 'depth' }] });
    const fns = functionsOf(doc.calls);
    expect(fns.find((f) => f.name === 'bump')).toMatchObject({ source: 'sourcify', contract: 'Logic', args: [{ name: 'by' }] });
    expect(fns.find((f) => f.name === 'fail')).toMatchObject({ source: 'signatures', signature: 'fail(string)' });
    expect(doc.labels).toMatchObject({ [showcase]: 'Showcase', [logic]: 'Logic' });
    // One request per contract, one for the signatures.
    expect(signatures.requests).toHaveLength(1);
    const fields = 'abi,compilation,proxyResolution,sources,sourceIds,runtimeBytecode.sourceMap,creationBytecode.sourceMap,storageLayout,transientStorageLayout';
    expect(sourcify.requests.every((q) => q.includes(`fields=${encodeURIComponent(fields)}`) || q.includes(`fields=${fields}`))).toBe(true);

    sourcify.requests.length = 0;
    signatures.requests.length = 0;
    const again = jsonOf(await o.run([showcaseTx, '--json']));
    expect(sourcify.requests).toEqual([]);
    expect(signatures.requests).toEqual([]);
    expect(again.calls).toEqual(doc.calls);

    // The network gone: the cache answers.
    const gone = online(['--sourcify-url', 'http://127.0.0.1:1', '--signatures-url', 'http://127.0.0.1:1'], {}, o.cache);
    const text = await gone.run([showcaseTx]);
    expect(text.code).toBe(0);
    expect(text.stderr).toBe('');
    expect(text.stdout).toContain('call Showcase::run(depth: 3)');
  });

  test('a proxy: its implementation, as Sourcify resolves it, names the call to it (no trace here to show the delegatecall)', async () => {
    sourcify.handler = (url, res) => {
      const address = /\/(0x[0-9a-fA-F]{40})$/.exec(url.pathname)?.[1]?.toLowerCase();
      if (address === proxy) return json(res, 200, verified(CHAIN, address, 'Proxy1967', compiled.Proxy1967!.abi, [{ address: vault, name: 'Vault' }]));
      if (address === vault) return json(res, 200, verified(CHAIN, address, 'Vault', compiled.Vault!.abi));
      json(res, 404, { customCode: 'not_found', message: 'not found', errorId: '5' });
    };
    const doc = jsonOf(await online(['--tracer', 'none']).run([stateShow, '--json']));
    expect(doc.calls).toBeNull();
    expect(doc.function).toMatchObject({ name: 'fill', source: 'sourcify', contract: 'Vault', args: [{ name: 'other' }, { name: 'amount' }, { name: 'id' }, { name: 'tokenA' }, { name: 'tokenB' }] });
    expect(doc.labels[proxy]).toBe('Proxy1967');
    expect(sourcify.requests.some((q) => q.toLowerCase().includes(vault))).toBe(true);
  });

  test('a proxy no service resolves: its EIP-1967 implementation slot read from the node at the transaction\'s block, then the implementation named', async () => {
    sourcify.handler = (url, res) => {
      const address = /\/(0x[0-9a-fA-F]{40})$/.exec(url.pathname)?.[1]?.toLowerCase();
      if (address === vault) return json(res, 200, verified(CHAIN, address, 'Vault', compiled.Vault!.abi));
      json(res, 404, { customCode: 'not_found', message: 'not found', errorId: '6' });
    };
    const doc = jsonOf(await online(['--tracer', 'none']).run([stateShow, '--json']));
    expect(doc.function).toMatchObject({ name: 'fill', source: 'sourcify', contract: 'Vault' });
    expect(doc.labels[proxy]).toBeUndefined();
    expect(sourcify.requests.some((q) => q.toLowerCase().includes(vault))).toBe(true);
  });

  test.each([
    ['HTTP 500', (_u: URL, res: ServerResponse) => json(res, 500, { error: 'boom' }), /HTTP 500/],
    ['429 whose Retry-After is past the deadline', (_u: URL, res: ServerResponse) => json(res, 429, { error: 'slow down' }, { 'retry-after': '3600' }), /rate-limited/],
    ['a body over 8 MiB', (_u: URL, res: ServerResponse) => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(`{"abi":"${'x'.repeat(9 * 1024 * 1024)}"}`); }, /larger than 8 MiB/],
  ] as const)('Sourcify fails (%s): one warning line, the lookup succeeds with offline names', async (_what, handler, why) => {
    sourcify.handler = handler;
    const r = await online().run([showcaseTx, '--json']);
    expect(r.code).toBe(0);
    const doc = jsonOf(r);
    expect(doc.warnings).toHaveLength(1);
    expect(doc.warnings[0]).toMatch(/^--online: Sourcify \(http:\/\/127\.0\.0\.1:\d+\) did not answer every lookup \(/);
    expect(doc.warnings[0]).toMatch(why);
    expect(doc.status).toBe('success');
    expect(functionsOf(doc.calls).every((f) => f.source !== 'sourcify')).toBe(true);
  });

  test('a 429 with a Retry-After that fits: waited for, asked again, no warning', async () => {
    let first = true;
    const knows = knowsScenarios(CHAIN);
    sourcify.handler = (url, res) => {
      if (first) {
        first = false;
        return json(res, 429, { error: 'slow down' }, { 'retry-after': '1' });
      }
      knows(url, res);
    };
    const r = await online().run([showcaseTx, '--json']);
    expect(jsonOf(r).warnings).toEqual([]);
    expect(jsonOf(r).calls.function.source).toBe('sourcify');
  });

  test('a service that never answers costs at most --timeout, then one warning', async () => {
    sourcify.handler = () => undefined; // hangs
    const started = Date.now();
    const r = await online(['--timeout', '3']).run([showcaseTx, '--json']);
    expect(Date.now() - started).toBeLessThan(9000);
    expect(r.code).toBe(0);
    expect(jsonOf(r).warnings).toEqual([expect.stringMatching(/^--online: Sourcify .* \(no answer in time\)/)]);
  });

  test('every service hangs at once: the first lookup answers inside --timeout 10 with one warning; a second, from the cache the services filled, asks nothing and names the same', async () => {
    const hang: Handler = () => undefined;
    [sourcify.handler, signatures.handler, etherscan.handler] = [hang, hang, hang];
    const cold = online(['--timeout', '10']);
    let started = Date.now();
    const r = await cold.run([showcaseTx, '--json']);
    expect(Date.now() - started).toBeLessThan(14_000);
    expect(r.code).toBe(0);
    expect(jsonOf(r).warnings).toEqual([expect.stringMatching(/^--online: Sourcify .* \(no answer in time\)/)]);

    // The services answer once (Showcase and Logic verified, the rest not, no signature known) …
    sourcify.handler = knowsScenarios(CHAIN);
    signatures.handler = (_u, res) => json(res, 200, { ok: true, result: { function: {}, event: {} } });
    const warm = online(['--timeout', '10']);
    const first = jsonOf(await warm.run([showcaseTx, '--json']));
    expect(first.warnings).toEqual([]);
    // … then hang: every name is in the cache, verified and "not verified" alike, so nothing is asked.
    [sourcify.handler, signatures.handler, etherscan.handler] = [hang, hang, hang];
    sourcify.requests.length = 0;
    signatures.requests.length = 0;
    started = Date.now();
    const again = await warm.run([showcaseTx, '--json']);
    const took = Date.now() - started;
    expect([...sourcify.requests, ...signatures.requests, ...etherscan.requests]).toEqual([]);
    expect(again.code).toBe(0);
    expect(jsonOf(again).warnings).toEqual([]);
    expect(jsonOf(again).calls).toEqual(first.calls);
    expect(jsonOf(again).labels).toEqual(first.labels);
    // Waiting on any of the hanging services would cost the whole --timeout (10 s); a bound far below it
    // said the same on a quiet machine and failed on a busy one, so the bound is the timeout itself.
    expect(took).toBeLessThan(10_000);
  });

  test('a service that accepts the connection and never sends a header, and one that stops mid-body: each costs --timeout and one warning', async () => {
    const sockets: Socket[] = [];
    const silent = createNetServer((socket) => void sockets.push(socket)); // accepts, reads nothing, says nothing
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    try {
      const port = (silent.address() as { port: number }).port;
      let started = Date.now();
      const r = await online(['--timeout', '3', '--sourcify-url', `http://127.0.0.1:${port}`]).run([showcaseTx, '--json']);
      expect(Date.now() - started).toBeLessThan(8_000);
      expect(r.code).toBe(0);
      expect(jsonOf(r).warnings).toEqual([expect.stringMatching(/^--online: Sourcify \(http:\/\/127\.0\.0\.1:\d+\) did not answer every lookup \(no answer in time\)/)]);

      sourcify.handler = (_u, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '4000' });
        res.write('{"abi":[');
      };
      started = Date.now();
      const cut = await online(['--timeout', '3']).run([showcaseTx, '--json']);
      expect(Date.now() - started).toBeLessThan(8_000);
      expect(cut.code).toBe(0);
      expect(jsonOf(cut).warnings).toEqual([expect.stringMatching(/^--online: Sourcify .* \(no answer in time\)/)]);
      expect(functionsOf(jsonOf(cut).calls).every((f) => f.source !== 'sourcify')).toBe(true);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((r) => silent.close(r));
    }
  });

  test('hostile names: escape bytes and markup in a contract name are shown escaped; an ABI item whose name is not an identifier is left out', async () => {
    const evil = '\u001b[31mEVIL</script><img src=x>';
    sourcify.handler = (url, res) => {
      const address = /\/(0x[0-9a-fA-F]{40})$/.exec(url.pathname)?.[1]?.toLowerCase();
      if (address !== showcase) return json(res, 404, { customCode: 'not_found', message: 'not found', errorId: '3' });
      const abi = compiled.Showcase!.abi.map((i: any) => (i.name === 'run' ? { ...i, name: 'run\u001b[2J' } : i));
      json(res, 200, verified(CHAIN, address, evil, abi));
    };
    const r = await online().run([showcaseTx]);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('\u001b');
    expect(r.stdout).toContain('\\x1b[31mEVIL</script><img src=x>');
    // run(...) was not believed under the other name: it is named offline (or guessed) as before.
    expect(r.stdout).not.toMatch(/run\\x1b/);
  });

  test('Etherscan with ETHERSCAN_API_KEY where Sourcify has nothing; the key is never shown, not even with --debug', async () => {
    const KEY = 'SECRET-KEY-123';
    sourcify.handler = (_u, res) => json(res, 404, { customCode: 'not_found', message: 'not found', errorId: '4' });
    etherscan.handler = (url, res) => {
      const address = url.searchParams.get('address')?.toLowerCase();
      if (url.searchParams.get('apikey') !== KEY) return json(res, 200, { status: '0', message: 'NOTOK', result: 'Invalid API Key' });
      if (address === showcase) {
        return json(res, 200, { status: '1', message: 'OK', result: [{ SourceCode: '…', ABI: JSON.stringify(compiled.Showcase!.abi), ContractName: 'Showcase', CompilerVersion: 'v0.8.28', OptimizationUsed: '1', Runs: '200', ConstructorArguments: '', EVMVersion: 'Default', Library: '', LicenseType: 'MIT', Proxy: '0', Implementation: '', SwarmSource: '' }] });
      }
      json(res, 200, { status: '1', message: 'OK', result: [{ SourceCode: '', ABI: 'Contract source code not verified', ContractName: '', CompilerVersion: '', Proxy: '0', Implementation: '' }] });
    };
    const r = await online(['--debug'], { ETHERSCAN_API_KEY: KEY }).run([showcaseTx, '--json']);
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).not.toContain(KEY);
    const doc = jsonOf(r);
    expect(doc.calls.function).toMatchObject({ name: 'run', source: 'etherscan', contract: 'Showcase' });
    expect(etherscan.requests.some((q) => q.includes('action=getsourcecode') && q.includes('chainid=31337') && q.includes('module=contract'))).toBe(true);

    // Rate-limited in Etherscan's own words: one warning, still without the key.
    etherscan.handler = (_u, res) => json(res, 200, { status: '0', message: 'NOTOK', result: 'Max rate limit reached' });
    const limited = await online(['--debug'], { ETHERSCAN_API_KEY: KEY }).run([showcaseTx, '--json']);
    expect(limited.stdout + limited.stderr).not.toContain(KEY);
    expect(jsonOf(limited).warnings).toEqual([expect.stringMatching(/^--online: Etherscan \(http:\/\/127\.0\.0\.1:\d+\) did not answer every lookup \(Max rate limit reached\)/)]);
  });

  test('inputs inspected at the same time never decode by each other\'s lookups: the same NDJSON at --concurrency 1 and 8, run after run, each line what the input alone prints', async () => {
    // Sourcify verifies Showcase and Logic, and says so slowly. The showcase calls Logic, so its lookup
    // learns Logic's ABI, late. The EIP-7702 transaction calls bump() on an account that runs Logic's
    // code, which no service verifies: it is named as it is alone, however far the showcase's lookup got.
    const knows = knowsScenarios(CHAIN);
    sourcify.handler = (url, res) => {
      const slow = url.pathname.toLowerCase().endsWith(showcase) || url.pathname.toLowerCase().endsWith(logic);
      if (slow) setTimeout(() => knows(url, res), 1000);
      else knows(url, res);
    };
    const outputs: string[] = [];
    for (const concurrency of ['1', '8', '1', '8', '1', '8']) {
      const r = await online(['--concurrency', concurrency]).run([showcaseTx, setCode, '--json']);
      expect(r.code).toBe(0);
      outputs.push(r.stdout);
    }
    expect(outputs).toEqual(outputs.map(() => outputs[0]));
    // NDJSON: one document per line, in input order.
    const lines = outputs[0]!.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    const [first, second] = lines.map((l) => JSON.parse(l));
    expect(functionsOf(first.calls).find((f) => f.name === 'bump')).toMatchObject({ source: 'sourcify', contract: 'Logic' });
    expect(second.calls.function.source).not.toBe('sourcify');
    const alone = await online().run([setCode, '--json']);
    expect(jsonOf(alone)).toEqual(second);
  });

  test('bad service URLs are usage errors before any request (exit 2)', async () => {
    for (const [flag, value] of [['--sourcify-url', 'ftp://x'], ['--signatures-url', 'not a url'], ['--etherscan-url', 'https://user:pw@example.com/api']]) {
      const r = await runTxray([showcaseTx, '-r', anvil.url, flag!, value!]);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).not.toContain('pw@');
    }
  });
});
