/**
 * Many hashes and CI checks on a real anvil: arguments and stdin, NDJSON, the summary table, exit
 * codes, --quiet, --wait with automine off, --confirmations, tracer detection once per run.
 */
import { spawn, spawnSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { call, receipt, send } from '../../scripts/lib/scenarios.mjs';
import { type Anvil, withScenarioNode } from '../support/scenarioNode.js';
import { forward, startRpcServer, type RpcServer } from '../support/rpcServer.js';
import { BIN, runTxray, txrayEnv } from '../support/runTxray.js';
import { schemaErrors } from '../support/schema.js';

let anvil: Anvil;
let hashes: Record<string, string>;
let showcase: string;
const UNKNOWN = `0x${'ab'.repeat(32)}`;
withScenarioNode((s) => {
  ({ anvil, hashes, showcase } = s);
});

const short = (h: string) => `${h.slice(0, 10)}…${h.slice(-6)}`;

describe('several hashes', () => {
  test('a mixed list: summary table, totals, the largest exit code', async () => {
    const r = await runTxray([hashes.showcase!, hashes.reason!, UNKNOWN, 'not-a-hash', hashes.creation!, '-r', anvil.url]);
    expect(r.code).toBe(3); // max of 0, 1, 3, 2, 0
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[1]).toMatch(/hash\s+│ status\s+│ block\s+│ from\s+│ to\s+│ method\s+│ action\s+│ gas used\s+│ fee \(ETH\)\s+│ first error/);
    const row = (h: string) => lines.find((l) => l.includes(short(h)))!;
    expect(row(hashes.showcase!)).toMatch(/✔ success .*0xe7f1…0512 .* run .* Called \S+\.run\(…\) .*429,299/);
    expect(row(hashes.reason!)).toMatch(/✘ reverted .* Error: not enough tokens/);
    expect(row(UNKNOWN)).toContain('? not found');
    expect(row(hashes.creation!)).toMatch(/create → 0xe7f1…0512 .* create /);
    expect(lines.find((l) => l.includes('not-a-hash'))).toMatch(/✘ error .*'not-a-hash' is not a transaction hash/);
    expect(lines.at(-1)).toBe('5 transactions: 2 succeeded, 1 reverted, 0 pending, 1 not found, 1 failed to inspect');
    expect(r.stderr).toBe("txray: not-a-hash: 'not-a-hash' is not a transaction hash: it holds characters other than hex digits (expected 0x and 64 hex digits).\n");
    // Rows keep the input order.
    expect([hashes.showcase!, hashes.reason!, UNKNOWN].map((h) => lines.findIndex((l) => l.includes(short(h))))).toEqual(
      [...[hashes.showcase!, hashes.reason!, UNKNOWN].map((h) => lines.findIndex((l) => l.includes(short(h))))].sort((a, b) => a - b),
    );
  });

  test('stdin: one per line, blank lines and # comments skipped, whitespace trimmed', async () => {
    const stdin = `# release checks\n\n  ${hashes.showcase}  \n${hashes.legacyTransfer} # the transfer\n\n`;
    const r = await runTxray(['-', '-r', anvil.url], {}, stdin);
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('2 transactions: 2 succeeded, 0 reverted, 0 pending, 0 not found, 0 failed to inspect');
    const empty = await runTxray(['-', '-r', anvil.url], {}, '# nothing\n\n');
    expect(empty.code).toBe(2);
    expect(empty.stderr).toBe('txray: no transaction hash on stdin (one per line; blank lines and # comments are skipped).\n');
  });

  test('--json: NDJSON, one document per input in input order, each what a single run prints', async () => {
    const inputs = [hashes.reason!, 'xyz', hashes.showcase!, UNKNOWN, hashes.deep!];
    const r = await runTxray([...inputs, '-r', anvil.url, '--json', '--concurrency', '3']);
    expect(r.code).toBe(3);
    const docs = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(docs).toHaveLength(5);
    expect(docs.map((d) => d.status)).toEqual(['reverted', 'error', 'success', 'not_found', 'reverted']);
    expect(docs[1]).toMatchObject({ hash: null, error: { code: 'usage' } });
    for (const d of docs) expect(schemaErrors(d)).toBe('');
    for (const i of [0, 2, 3, 4]) {
      const single = JSON.parse((await runTxray([inputs[i]!, '-r', anvil.url, '--json'])).stdout);
      expect(docs[i]).toEqual(single);
    }
  });

  test('--full prints the whole view for each hash', async () => {
    const r = await runTxray([hashes.reason!, hashes.showcase!, '-r', anvil.url, '--full']);
    expect(r.code).toBe(1);
    expect(r.stdout.match(/^Transaction 0x/gm)).toHaveLength(2);
    expect(r.stdout.indexOf(hashes.reason!)).toBeLessThan(r.stdout.indexOf(hashes.showcase!));
    expect(r.stdout).toContain('Call tree (14 entries, depth 4)');
  });

  test('--quiet: nothing on stdout, the exit code says it, errors still on stderr', async () => {
    const ok = await runTxray([hashes.showcase!, hashes.legacyTransfer!, '-r', anvil.url, '--quiet']);
    expect(ok).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const bad = await runTxray([hashes.showcase!, hashes.reason!, '-r', anvil.url, '-q', '--json']);
    expect(bad).toMatchObject({ code: 1, stdout: '' });
    const down = await runTxray([hashes.showcase!, '-r', 'http://127.0.0.1:1', '--quiet']);
    expect(down.code).toBe(5);
    expect(down.stdout).toBe('');
    expect(down.stderr).toContain('connection refused');
  });

  test('one hash failing does not stop the others; tracer detection happens once per run', async () => {
    let proxy: RpcServer | undefined;
    try {
      // geth-like: no trace_*; and one hash whose receipt the node cannot produce.
      proxy = await startRpcServer(async ({ method, params }) => {
        if (method.startsWith('trace_')) return { error: { code: -32601, message: `the method ${method} does not exist/is not available` } };
        if (method === 'eth_getTransactionReceipt' && params[0] === hashes.deep) return { error: { code: -32000, message: 'header not found' } };
        return forward(anvil.url, method, params);
      });
      const list = [hashes.showcase!, hashes.deep!, hashes.reason!, hashes.legacyTransfer!];
      const r = await runTxray([...list, '-r', proxy.url, '--concurrency', '1']);
      expect(r.code).toBe(5);
      expect(r.stderr).toBe(`txray: ${short(hashes.deep!)}: eth_getTransactionReceipt: the node answered error -32000: header not found\n`);
      expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('4 transactions: 2 succeeded, 1 reverted, 0 pending, 0 not found, 1 failed to inspect');
      expect(proxy.requests.filter((q) => q.method === 'trace_transaction')).toHaveLength(1);
      expect(proxy.requests.filter((q) => q.method === 'debug_traceTransaction').length).toBeGreaterThanOrEqual(3);
    } finally {
      await proxy?.close();
    }
  });
});

/** Start txray in the background; resolves with its exit code, stdout and elapsed time. */
function background(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: txrayEnv() });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr, ms: Date.now() - started }));
  });
}

/** A node in front of anvil that counts the receipt requests for a transaction and how many were answered pending (null); `asked(n)` resolves once n were made. */
async function pollCounting() {
  let made = 0;
  const waiting: Array<{ n: number; done: () => void }> = [];
  const node = {
    pending: 0,
    server: await startRpcServer(async ({ method, params }) => {
      const answer = await forward(anvil.url, method, params);
      if (method === 'eth_getTransactionReceipt') {
        made += 1;
        if ('result' in answer && answer.result === null) node.pending += 1;
        for (const w of waiting.filter((x) => made >= x.n)) w.done();
      }
      return answer;
    }),
    asked: (n: number) => new Promise<void>((done) => (made >= n ? done() : waiting.push({ n, done }))),
  };
  return node;
}

/** Run in a pseudo-terminal (util-linux `script`), so stdout and stderr are TTYs; returns what the terminal got. */
function inTerminal(args: string[]): Promise<string> {
  if (spawnSync('script', ['--version']).error !== undefined) throw new Error('these tests need util-linux `script` (a pseudo-terminal), which is missing on this machine');
  const command = [process.execPath, BIN, ...args].map((a) => `'${a}'`).join(' ');
  return new Promise((resolve) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    let screen = '';
    child.stdout.on('data', (d) => (screen += d));
    child.on('close', () => resolve(screen));
  });
}

describe('progress', () => {
  test('shown on a terminal for long batches, then cleared; never with --json or --quiet', async () => {
    const list = Object.values(hashes);
    expect(list.length).toBeGreaterThanOrEqual(10);
    const screen = await inTerminal([...list, '-r', anvil.url]);
    expect(screen).toContain(`\rtxray: ${list.length}/${list.length} inspected`);
    expect(screen).toContain('\r\u001b[2K');
    expect(screen).toMatch(/\d+ transactions: /);
    expect(await inTerminal([...list, '-r', anvil.url, '--json'])).not.toContain('inspected');
    expect(await inTerminal([...list, '-r', anvil.url, '--quiet'])).not.toContain('inspected');
    expect(await inTerminal(list.slice(0, 3).concat(['-r', anvil.url]))).not.toContain('inspected');
  });
});

describe('--wait', () => {
  test('a pending transaction: polls until it is mined, then inspects', async () => {
    await anvil.rpc('evm_setAutomine', [false]);
    try {
      const hash = await send(anvil.rpc, { to: showcase, gas: '0x100000', data: call('Showcase', 'recurse', [2n]) });
      // Mined only once txray has asked twice and heard it is pending: it must have polled, whatever the load.
      const node = await pollCounting();
      try {
        const run = background([hash, '-r', node.server.url, '--wait', '20']);
        await node.asked(2);
        await anvil.rpc('evm_mine');
        const r = await run;
        expect(r.code).toBe(0);
        expect(r.stdout).toContain('✔ success');
        expect(node.pending).toBeGreaterThanOrEqual(2);
      } finally {
        await node.server.close();
      }
    } finally {
      await anvil.rpc('evm_setAutomine', [true]);
    }
  });

  test('--confirmations 3 waits for two blocks on top of the transaction\'s own', async () => {
    const hash = await send(anvil.rpc, { to: showcase, gas: '0x100000', data: call('Showcase', 'recurse', [1n]) });
    // Counted as cast counts them: the transaction's block is the first, so 3 wants two blocks on top.
    // The blocks on top are mined only once txray has asked for the receipt (it is waiting on them by then).
    const node = await pollCounting();
    try {
      const run = background([hash, '-r', node.server.url, '--confirmations', '3', '--wait', '20']);
      await node.asked(1);
      await anvil.rpc('evm_mine');
      await anvil.rpc('evm_mine');
      const r = await run;
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('✔ success');
      expect(r.stderr).toBe('');
    } finally {
      await node.server.close();
    }
    const doc = await background([hash, '-r', anvil.url, '--confirmations', '3', '--wait', '5', '--json']);
    expect(JSON.parse(doc.stdout).confirmations).toEqual({ wanted: 3, reached: 3 });
  });

  test('the wait ends before the confirmations: exit 4 and one line that says how many there were, though it succeeded', async () => {
    const hash = await send(anvil.rpc, { to: showcase, gas: '0x100000', data: call('Showcase', 'recurse', [1n]) });
    await receipt(anvil.rpc, hash);
    const r = await background([hash, '-r', anvil.url, '--wait', '2', '--confirmations', '50']);
    expect(r.code).toBe(4);
    expect(r.stdout).toContain('✔ success');
    expect(r.stderr).toBe('txray: warning: waited 2 s: 1 of 50 confirmations (its block counts as the first).\n');
    const quiet = await background([hash, '-r', anvil.url, '--wait', '1', '--confirmations', '50', '--quiet']);
    expect(quiet.code).toBe(4);
    const doc = await background([hash, '-r', anvil.url, '--wait', '1', '--confirmations', '50', '--json']);
    expect(JSON.parse(doc.stdout)).toMatchObject({ status: 'success', confirmations: { wanted: 50, reached: 1 }, warnings: ['waited 1 s: 1 of 50 confirmations (its block counts as the first).'] });
    // A revert stays exit 1 (what it did is the more important fact); the line says the confirmations all the same.
    const failed = await background([hashes.reason!, '-r', anvil.url, '--wait', '0.4', '--confirmations', '5000']);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/^txray: warning: waited 0\.4 s: \d+ of 5000 confirmations \(its block counts as the first\)\.\n$/);
  });

  test('time runs out: exit 4 for pending, 3 for unknown, on time', async () => {
    await anvil.rpc('evm_setAutomine', [false]);
    try {
      const hash = await send(anvil.rpc, { to: showcase, gas: '0x100000', data: call('Showcase', 'recurse', [3n]) });
      const pending = await background([hash, '-r', anvil.url, '--wait', '1']);
      expect(pending.code).toBe(4);
      expect(pending.stdout).toContain('… pending');
      expect(pending.stderr).toBe('txray: warning: waited 1 s: the transaction is still pending.\n');
      expect(pending.ms).toBeGreaterThanOrEqual(900);
      // Far below the 120 s a bare --wait allows; loose, as a loaded CI machine starts Node slowly.
      expect(pending.ms).toBeLessThan(20_000);
      const unknown = await background([UNKNOWN, '-r', anvil.url, '--wait', '1']);
      expect(unknown.code).toBe(3);
      expect(unknown.stderr).toBe('txray: warning: waited 1 s: the transaction is still unknown to the node.\n');
      expect(unknown.ms).toBeGreaterThanOrEqual(900);
      await anvil.rpc('evm_mine');
    } finally {
      await anvil.rpc('evm_setAutomine', [true]);
    }
  });

  test('on a terminal, a progress line on stderr while waiting, rewritten in place and cleared; none without a terminal', async () => {
    const mined = hashes.showcase!;
    const head = BigInt(await anvil.rpc('eth_blockNumber'));
    const block = BigInt((await anvil.rpc('eth_getTransactionReceipt', [mined])).blockNumber);
    const have = Number(head - block) + 1;
    const unknown = await inTerminal([UNKNOWN, '-r', anvil.url, '--wait', '1']);
    expect(unknown).toMatch(new RegExp(`\\r\\u001b\\[2Ktxray: waiting for ${short(UNKNOWN)} \\(not known to the node yet\\) \\d+ s of 1 s`));
    // Cleared before the wait's outcome is said.
    expect(unknown).toMatch(/\r\u001b\[2K(\r\n)?txray: warning: waited 1 s: the transaction is still unknown to the node\./);
    const deep = await inTerminal([mined, '-r', anvil.url, '--wait', '1', '--confirmations', String(have + 1000)]);
    expect(deep).toContain(`txray: waiting for ${short(mined)} (mined, ${have} of ${have + 1000} confirmations)`);
    // Not a terminal: nothing but the outcome.
    const piped = await background([UNKNOWN, '-r', anvil.url, '--wait', '1']);
    expect(piped.stderr).toBe('txray: warning: waited 1 s: the transaction is still unknown to the node.\n');
    // --quiet on a terminal: no progress either.
    expect(await inTerminal([UNKNOWN, '-r', anvil.url, '--wait', '1', '--quiet'])).not.toContain('waiting for');
    // Sent, not mined (automine off): the node knows it.
    await anvil.rpc('evm_setAutomine', [false]);
    try {
      const sent = await send(anvil.rpc, { to: showcase, gas: '0x100000', data: call('Showcase', 'recurse', [1n]) });
      expect(await inTerminal([sent, '-r', anvil.url, '--wait', '1'])).toContain(`txray: waiting for ${short(sent)} (pending) `);
      await anvil.rpc('evm_mine');
    } finally {
      await anvil.rpc('evm_setAutomine', [true]);
    }
  });
});
