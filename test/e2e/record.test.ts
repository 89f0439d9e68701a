/**
 * --record and `txray replay` on a real anvil with the scenario transactions: each command recorded live
 * (through a loopback front that needs the URL's credentials and path key and a -H header; --online
 * against loopback stand-ins of Sourcify, Etherscan and the signature service), then the node, the front
 * and the stand-ins stopped and every view replayed with no network (a proxy variable pointing at a
 * closed port too): stdout and the exit code as the live run's, byte for byte; stderr as the live run's
 * after the one "replayed from" line. No secret is in any file; every damaged file is one line, exit 2.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startAnvil } from '../../scripts/lib/anvil.mjs';
import { type Abi, encodeDeployData, encodeFunctionData } from 'viem';
import { DEV, makeScenarios, receipt, send } from '../../scripts/lib/scenarios.mjs';
import { writeFoundryProject } from '../support/sourceProject.js';
import { forward, startRpcServer, type RpcServer } from '../support/rpcServer.js';
import { BIN, type RunResult, runTxray } from '../support/runTxray.js';
import { spawn } from 'node:child_process';

const compiled = JSON.parse(readFileSync(fileURLToPath(new URL('../../contracts/out/Scenarios.json', import.meta.url)), 'utf8')).contracts as Record<string, { abi: unknown[] }>;

const dir = mkdtempSync(join(tmpdir(), 'txray-record-'));
/** Folders without a project (no ABIs read from disk but the ones given). */
const cwd = mkdtempSync(join(tmpdir(), 'txray-record-cwd-'));
const SECRETS = { user: 'recuser', password: 'PASSsecret42', pathKey: 'k3yInThePath0123456789', header: 'Bearer HEADERsecret77', etherscan: 'ETHERSCANsecret99' };

const NAMES = ['success', 'custom error', 'deep tree', 'token transfer with --state', '7702', 'three hashes from stdin', 'txray call', 'txray block', '--online with secrets', '--tracer local', "a project's failure, placed at its source line"] as const;

interface Case {
  readonly args: string[];
  readonly views: string[][];
  readonly stdin?: string;
  readonly env?: Record<string, string>;
  /** Where the live run is made (the replay is made in an empty folder). */
  readonly cwd?: string;
}

/** Each case's live runs, one per view; the first view's run wrote `<dir>/<name>.rec`. */
const live = new Map<string, RunResult[]>();
const cases = new Map<string, Case>();
let closedPort: number;
let calledFront: RpcServer;

const json = (res: ServerResponse, status: number, body: unknown): void => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

async function listen(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

const stop = (server: Server): Promise<void> =>
  new Promise((r) => {
    server.closeAllConnections();
    server.close(() => r());
  });

/** A port nothing listens on: bound, then closed. */
async function freePort(): Promise<number> {
  const s = createNetServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as { port: number };
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

const BASE_VIEWS = [[], ['--json'], ['--gas'], ['--html', '-']];

/** The node while the live runs are made (stopped before any replay; afterAll stops it if a live run threw). */
let running: Awaited<ReturnType<typeof startAnvil>> | undefined;

beforeAll(async () => {
  const anvil = await startAnvil();
  running = anvil;
  const s = await makeScenarios(anvil.rpc);
  const h = s.hashes as Record<string, string>;
  const block = Number((await anvil.rpc('eth_getTransactionReceipt', [h.showcase])).blockNumber);
  // The node behind a front that answers only with the URL's credentials, its path key and the header.
  const basic = `Basic ${Buffer.from(`${SECRETS.user}:${SECRETS.password}`).toString('base64')}`;
  calledFront = await startRpcServer(async ({ method, params, path, headers }) =>
    path === `/v2/${SECRETS.pathKey}` && headers.authorization === basic && headers['x-api'] === SECRETS.header ? forward(anvil.url, method, params) : { error: { code: -32000, message: 'who are you?' } },
  );
  const secretUrl = calledFront.url.replace('http://', `http://${SECRETS.user}:${SECRETS.password}@`) + `/v2/${SECRETS.pathKey}`;
  // Stand-ins of the services: Sourcify knows Showcase; Etherscan (asked for the rest, with the key) and the signature service know nothing.
  const showcase = s.showcase.toLowerCase();
  const sourcify = createServer((req, res) => {
    const m = /\/v2\/contract\/(\d+)\/(0x[0-9a-fA-F]{40})/.exec(req.url ?? '');
    if (m?.[2]?.toLowerCase() !== showcase) return json(res, 404, { customCode: 'not_found', message: 'not found' });
    json(res, 200, { abi: compiled.Showcase!.abi, compilation: { name: 'Showcase' }, proxyResolution: { implementations: [] } });
  });
  // Etherscan says the key back (a service's words may hold it): the recording must not.
  const etherscan = createServer((req, res) => {
    const key = new URL(req.url ?? '/', 'http://x').searchParams.get('apikey');
    json(res, 200, key === SECRETS.etherscan ? { status: '1', message: `OK for ${key}`, result: [{ ABI: 'Contract source code not verified' }] } : { status: '0', result: 'Invalid API Key' });
  });
  const signatures = createServer((_req, res) => json(res, 200, { ok: true, result: { function: {}, event: {} } }));
  const [sourcifyUrl, etherscanUrl, signaturesUrl] = await Promise.all([listen(sourcify), listen(etherscan), listen(signatures)]);
  const online = ['--online', '--sourcify-url', sourcifyUrl, '--signatures-url', signaturesUrl, '--etherscan-url', `${etherscanUrl}/v2/api`];

  const add = (name: (typeof NAMES)[number], c: Case): void => void cases.set(name, c);
  add('success', { args: [h.showcase!], views: BASE_VIEWS });
  add('custom error', { args: [h.custom!], views: BASE_VIEWS });
  add('deep tree', { args: [h.deep!], views: BASE_VIEWS });
  add('token transfer with --state', { args: [h.tokenTransfer!, '--state'], views: BASE_VIEWS });
  add('7702', { args: [h.setCode!], views: BASE_VIEWS });
  add('three hashes from stdin', { args: ['-'], stdin: `${h.showcase}\n${h.custom}\n${h.tokenTransfer}\n`, views: [[], ['--json'], ['--full']] });
  add('txray call', { args: ['call', s.token, 'transfer(address,uint256)', DEV.other, '1000', '--from', DEV.sender], views: BASE_VIEWS });
  add('txray block', { args: ['block', String(block)], views: [[], ['--json'], ['--html', '-']] });
  add('--online with secrets', { args: [h.showcase!, ...online, '-H', `X-Api: ${SECRETS.header}`], env: { ETHERSCAN_API_KEY: SECRETS.etherscan }, views: BASE_VIEWS });

  add('--tracer local', { args: [h.custom!, '--tracer', 'local'], views: BASE_VIEWS });
  // Recorded in a view of its own: a replay with no view options prints what this live run printed.
  cases.set('recorded with --state --json', { args: [h.tokenTransfer!, '--state', '--json'], views: [[]] });
  // A Foundry project's contract failing: its artifact, source map and source text are read from disk live, from the recording in the replay.
  const project = mkdtempSync(join(tmpdir(), 'txray-record-project-'));
  const built = writeFoundryProject(project);
  const vault = (await receipt(anvil.rpc, await send(anvil.rpc, { data: encodeDeployData({ abi: built.Vault!.abi as Abi, bytecode: built.Vault!.bytecode as `0x${string}` }) }))).contractAddress;
  const small = await send(anvil.rpc, { to: vault, gas: '0x100000', data: encodeFunctionData({ abi: built.Vault!.abi as Abi, functionName: 'small', args: [3n] }) });
  await receipt(anvil.rpc, small);
  add("a project's failure, placed at its source line", { args: [small], views: BASE_VIEWS, cwd: project });

  for (const [name, c] of cases) {
    const runs: RunResult[] = [];
    const url = name === '--online with secrets' ? secretUrl : anvil.url;
    for (const [i, view] of c.views.entries()) {
      const record = i === 0 ? ['--record', join(dir, `${name}.rec`)] : [];
      runs.push(await runTxray([...c.args, ...view, '--rpc-url', url, ...record], { TXRAY_CACHE_DIR: join(dir, 'cache'), ...c.env }, c.stdin, c.cwd ?? cwd));
    }
    live.set(name, runs);
  }
  // --html to a file (the page, not stdout), for the replay's page to be compared with.
  await runTxray([h.showcase!, '--rpc-url', anvil.url, '--html', join(dir, 'live.html')], {}, undefined, cwd);
  // Nothing to answer a replay: the node, the front and the stand-ins stopped; a closed port for the proxy variables.
  await anvil.stop();
  running = undefined;
  await Promise.all([calledFront.close(), stop(sourcify), stop(etherscan), stop(signatures)]);
  closedPort = await freePort();
}, 300_000);

afterAll(async () => {
  await running?.stop();
  await calledFront?.close().catch(() => undefined);
});

const offline = (): Record<string, string> => {
  const proxy = `http://127.0.0.1:${closedPort}`;
  return { HTTP_PROXY: proxy, HTTPS_PROXY: proxy, http_proxy: proxy, https_proxy: proxy };
};
const replay = (file: string, view: string[] = []): Promise<RunResult> => runTxray(['replay', file, ...view], offline(), undefined, cwd);
const replayedLine = (file: string): RegExp => new RegExp(`^txray: replayed from ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, recorded \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z\\n`);

describe('txray replay reproduces the live run with no network', () => {
  test.each(NAMES)('%s', async (name) => {
    const c = cases.get(name)!;
    const file = join(dir, `${name}.rec`);
    for (const [i, view] of c.views.entries()) {
      const was = live.get(name)![i]!;
      // The live run itself went well (else the comparison says little).
      expect(was.code === 0 || was.code === 1, `${name} ${view.join(' ')}: ${was.stderr}`).toBe(true);
      expect(was.stdout.length).toBeGreaterThan(0);
      const again = await replay(file, [...view, ...(c.args.includes('--state') ? ['--state'] : [])]);
      expect(again.stdout, `${name} ${view.join(' ')}`).toBe(was.stdout);
      expect(again.code).toBe(was.code);
      expect(again.stderr).toMatch(replayedLine(file));
      expect(again.stderr.replace(replayedLine(file), '')).toBe(was.stderr);
    }
  });

  test('the online case asked the services live (the replay did not need them)', () => {
    const doc = JSON.parse(live.get('--online with secrets')![1]!.stdout);
    expect(JSON.stringify(doc.calls)).toContain('"source":"sourcify"');
  });

  test("the project's recording holds the source text of the line it showed (and the replay, made in an empty folder, shows it)", () => {
    const shown = live.get("a project's failure, placed at its source line")![0]!.stdout;
    const at = /^ {2}at (src\/\S+\.sol):(\d+):\d+$/m.exec(shown);
    expect(at).not.toBeNull();
    const doc = JSON.parse(gunzipSync(readFileSync(join(dir, "a project's failure, placed at its source line.rec"))).toString('utf8'));
    const files = doc.disk.artifacts.flatMap((a: any) => Object.values(a.debug?.runtime?.files ?? {})).filter((f: any) => f?.path === at![1]);
    expect(files.length).toBeGreaterThan(0);
    const line = (files[0].text as string).split('\n')[Number(at![2]) - 1]!.trim();
    expect(shown).toContain(line);
  });

  test('no secret is in any file: not the URL\'s credentials or path key, not -H\'s value, not ETHERSCAN_API_KEY', () => {
    for (const name of cases.keys()) {
      const bytes = readFileSync(join(dir, `${name}.rec`));
      const text = gunzipSync(bytes).toString('utf8');
      for (const secret of Object.values(SECRETS)) {
        expect(text.includes(secret), `${name}: ${secret}`).toBe(false);
        expect(bytes.includes(Buffer.from(secret))).toBe(false);
      }
    }
    const doc = JSON.parse(gunzipSync(readFileSync(join(dir, '--online with secrets.rec'))).toString('utf8'));
    expect(doc.endpoint).toBe(calledFront.url);
    expect(Object.keys(doc)[0]).toBe('format');
    expect(doc.format).toBe('txray-recording');
  });

  test('--html to a file: the replay writes the live page, byte for byte', async () => {
    const r = await replay(join(dir, 'success.rec'), ['--html', join(dir, 'replayed.html')]);
    expect(r.code).toBe(0);
    const page = readFileSync(join(dir, 'live.html'), 'utf8');
    expect(page).toMatch(/^<!doctype html>/i);
    expect(readFileSync(join(dir, 'replayed.html'), 'utf8')).toBe(page);
  });

  test('a run that failed replays its failure: the same line, the same exit code', async () => {
    const file = join(dir, 'refused.rec');
    const live = await runTxray([`0x${'ab'.repeat(32)}`, '-r', `http://127.0.0.1:${closedPort}`, '--record', file], {}, undefined, cwd);
    expect(live.code).toBe(5);
    expect(live.stderr).toMatch(/connection refused/);
    const again = await replay(file);
    expect(again.code).toBe(5);
    expect(again.stdout).toBe(live.stdout);
    expect(again.stderr.replace(replayedLine(file), '')).toBe(live.stderr);
  });

  test('a recording made with --state --json replays in that view where the command line gives none, and stderr says so; view options given set it aside', async () => {
    const file = join(dir, 'recorded with --state --json.rec');
    const was = live.get('recorded with --state --json')![0]!;
    expect(JSON.parse(was.stdout).balanceChanges).not.toBeNull();
    const again = await replay(file);
    expect(again.code).toBe(was.code);
    expect(again.stdout).toBe(was.stdout);
    expect(again.stderr).toMatch(/^txray: replayed from .*, recorded \S+Z, in its recorded view --state --json\n/);
    const text = await replay(file, ['--state']);
    expect(text.stdout).toBe(live.get('token transfer with --state')![0]!.stdout);
    expect(text.stderr).toMatch(replayedLine(file));
    expect(text.stderr).not.toMatch(/recorded view/);
  });

  test('a recording of a replay (--record again) is equivalent: the same answers, the same output', async () => {
    const first = join(dir, 'token transfer with --state.rec');
    const second = join(dir, 'again.rec');
    const r = await runTxray(['replay', first, '--state', '--record', second], offline(), undefined, cwd);
    expect(r.code).toBe(0);
    const [a, b] = [first, second].map((f) => JSON.parse(gunzipSync(readFileSync(f)).toString('utf8')));
    expect(b.rpc).toEqual(a.rpc);
    expect(b.disk).toEqual(a.disk);
    expect((await replay(second, ['--state'])).stdout).toBe(live.get('token transfer with --state')![0]!.stdout);
  });
});

/**
 * A real mainnet transaction (test/fixtures/real, served as recorded; what the fixtures do not hold the
 * server says it does not know, as fixtures.test.ts's does) recorded into test/fixtures/recordings/, which
 * test/unit/replay.test.ts replays without any node. UPDATE_RECORDINGS=1 writes it again; otherwise the
 * committed recording's outputs must be what txray shows of the case today.
 */
describe('the committed real-chain recording', () => {
  const REAL = fileURLToPath(new URL('../fixtures/real/mainnet-eip1559-51-logs-b18000000/', import.meta.url));
  const OUT = fileURLToPath(new URL('../fixtures/recordings/', import.meta.url));
  test('is what txray records of the case today', async () => {
    const read = (f: string): any => JSON.parse(readFileSync(join(REAL, f), 'utf8'));
    const [tx, rcpt, meta] = [read('tx.json'), read('receipt.json'), read('meta.json')];
    const server = await startRpcServer(({ method, params }) => {
      const asked = String(params[0]).toLowerCase() === meta.hash.toLowerCase();
      if (method === 'eth_getTransactionByHash') return { result: asked ? tx : null };
      if (method === 'eth_getTransactionReceipt') return { result: asked ? rcpt : null };
      if (method === 'trace_transaction' || method === 'debug_traceTransaction') return { error: { code: -32601, message: 'Method not found' } };
      return { error: { code: -32000, message: 'not recorded: these fixtures hold no chain state' } };
    });
    try {
      const file = process.env.UPDATE_RECORDINGS === '1' ? join(OUT, 'mainnet-51-logs.rec') : join(dir, 'real.rec');
      const text = await runTxray([meta.hash, '-r', server.url, '--record', file], {}, undefined, cwd);
      expect(text.code).toBe(rcpt.status === '0x1' ? 0 : 1);
      if (process.env.UPDATE_RECORDINGS === '1') {
        writeFileSync(join(OUT, 'mainnet-51-logs.txt'), text.stdout);
      }
      expect(text.stdout).toBe(readFileSync(join(OUT, 'mainnet-51-logs.txt'), 'utf8'));
    } finally {
      await server.close();
    }
  });
});

describe('a Node without WebAssembly (--jitless)', () => {
  test('replays the committed recording as the live run printed it: the checksums hash with the JavaScript permutation', async () => {
    const rec = fileURLToPath(new URL('../fixtures/recordings/mainnet-51-logs.rec', import.meta.url));
    const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, ['--jitless', BIN, 'replay', rec], { stdio: ['ignore', 'pipe', 'pipe'] });
      let [stdout, stderr] = ['', ''];
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    expect(r.stderr).not.toContain('internal error');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(readFileSync(fileURLToPath(new URL('../fixtures/recordings/mainnet-51-logs.txt', import.meta.url)), 'utf8'));
  });
});

describe('a view the recording cannot serve', () => {
  test('--state on a recording made without it: exit 5, one line naming it and how to record it', async () => {
    const r = await replay(join(dir, 'success.rec'), ['--state']);
    expect(r.code).toBe(5);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/made without --state\); record again with --state\.$/m);
  });

  test('an answer the recorded run never asked (amounts after a --quiet recording): nothing but the line naming it, exit 5', async () => {
    const file = join(dir, 'token transfer with --state.rec');
    const doc = JSON.parse(gunzipSync(readFileSync(file)).toString('utf8'));
    // The token's symbol() and decimals() answers taken out, as a --quiet recording lacks them.
    const cut = { ...doc, rpc: doc.rpc.filter(([key]: [string]) => !key.startsWith('["eth_call"')) };
    expect(cut.rpc.length).toBeLessThan(doc.rpc.length);
    const lacking = join(dir, 'lacking.rec');
    writeFileSync(lacking, gzipSync(JSON.stringify(cut)));
    const r = await replay(lacking, ['--state']);
    expect(r.code).toBe(5);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/holds no answer to eth_call/);
  });
});

describe('a damaged or hostile file: one line, exit 2, never a stack trace', () => {
  const good = (): Buffer => readFileSync(join(dir, 'success.rec'));
  const damaged: Array<[string, () => string]> = [
    ['truncated', () => write('cut.rec', good().subarray(0, Math.floor(good().length / 2)))],
    ['a flipped bit', () => {
      const b = Buffer.from(good());
      b[Math.floor(b.length / 2)]! ^= 0x10;
      return write('flipped.rec', b);
    }],
    ['empty', () => write('empty.rec', Buffer.alloc(0))],
    ["another tool's JSON", () => write('other.json', Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, result: '0x1' })))],
    ['a newer format version', () => write('newer.rec', gzipSync(JSON.stringify({ ...JSON.parse(gunzipSync(good()).toString('utf8')), version: 2 })))],
    ['an answer of a wrong shape', () => write('shape.rec', gzipSync(JSON.stringify({ ...JSON.parse(gunzipSync(good()).toString('utf8')), rpc: [['["eth_chainId",[]]', [{ x: 1 }]]] })))],
    ['a directory', () => {
      const d = join(dir, 'a-folder.rec');
      mkdirSync(d, { recursive: true });
      return d;
    }],
    ['200 MB of junk', () => {
      const f = write('huge.rec', Buffer.from('junk'));
      truncateSync(f, 200 * 1024 * 1024);
      return f;
    }],
    ['no such file', () => join(dir, 'nothing-here.rec')],
  ];
  function write(name: string, bytes: Buffer): string {
    const f = join(dir, name);
    writeFileSync(f, bytes);
    return f;
  }

  test.each(damaged)('%s', async (what, make) => {
    const file = make();
    for (const view of [[], ['--json']]) {
      const r = await replay(file, view);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      // One piece of advice: a newer format's is to replay it with the txray that made it.
      expect(r.stderr).toMatch(what === 'a newer format version' ? /^txray: replay .*: a newer txray made it \(format version 2; this one reads version 1\): replay it with that txray\.\n$/ : /^txray: replay .*give a file that txray --record wrote\.\n$/);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      if (view.length === 0) expect(r.stdout).toBe('');
      else expect(JSON.parse(r.stdout)).toMatchObject({ status: 'error', error: { code: 'usage' } });
    }
  });

  test('a run stopped by a usage error writes no recording (its replay could not say the same)', async () => {
    const file = join(dir, 'usage.rec');
    const r = await runTxray([`0x${'ab'.repeat(32)}`, '--abi', join(dir, 'no-such.json'), '--record', file, '-r', `http://127.0.0.1:${closedPort}`], {}, undefined, cwd);
    expect(r.code).toBe(2);
    expect(existsSync(file)).toBe(false);
  });

  test('options that are not view options are refused before the file is read', async () => {
    const r = await replay(join(dir, 'success.rec'), ['--rpc-url', 'http://127.0.0.1:1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^txray: txray replay takes a recording and view options, not '--rpc-url'/);
  });
});
