/**
 * Real mainnet answers (test/fixtures) served from a loopback JSON-RPC server, as recorded:
 * a file that exists is the node's result; an answer that was not recorded is null (tx, receipt)
 * or "method not found" (trace_transaction, debug_traceTransaction). Every case renders in both modes, and --json hands the
 * node's results back unchanged.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startRpcServer, type RpcServer } from '../support/rpcServer.js';
import { jsonOf, runTxray } from '../support/runTxray.js';
import { schemaErrors } from '../support/schema.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

interface Case {
  readonly name: string;
  readonly hash: string;
  readonly tx: any;
  readonly receipt: any;
  readonly trace: any[] | undefined;
  readonly callTrace: any | undefined;
}

const read = (dir: string, file: string): any => (existsSync(join(dir, file)) ? JSON.parse(readFileSync(join(dir, file), 'utf8')) : undefined);

function loadCases(): Case[] {
  const cases: Case[] = [];
  const real = join(FIXTURES, 'real');
  for (const name of readdirSync(real).sort()) {
    const dir = join(real, name);
    const meta = read(dir, 'meta.json');
    const tx = read(dir, 'tx.json');
    const receipt = read(dir, 'receipt.json');
    const trace = read(dir, 'trace.json');
    const callTrace = read(dir, 'calltrace.json');
    if (tx === undefined && receipt === undefined && trace === undefined && callTrace === undefined) continue; // flatCallTracer / replay only
    cases.push({ name: `real/${name}`, hash: String(meta?.hash ?? tx?.hash ?? receipt?.transactionHash).toLowerCase(), tx, receipt, trace, callTrace });
  }
  const apis = join(FIXTURES, 'execution-apis', 'cases');
  for (const name of readdirSync(apis).sort()) {
    const dir = join(apis, name);
    const tx = read(dir, 'tx.json');
    const receipt = read(dir, 'receipt.json');
    cases.push({ name: `execution-apis/${name}`, hash: String(tx?.hash ?? receipt?.transactionHash).toLowerCase(), tx, receipt, trace: undefined, callTrace: undefined });
  }
  return cases;
}

const cases = loadCases();
const byHash = new Map(cases.map((c) => [c.hash, c]));
let server: RpcServer;

beforeAll(async () => {
  server = await startRpcServer(({ method, params }) => {
    const c = byHash.get(String(params[0]).toLowerCase());
    if (c === undefined) return undefined; // a hash nobody recorded: the server complains
    if (method === 'eth_getTransactionByHash') return { result: c.tx ?? null };
    if (method === 'eth_getTransactionReceipt') return { result: c.receipt ?? null };
    if (method === 'trace_transaction') return c.trace !== undefined ? { result: c.trace } : { error: { code: -32601, message: 'Method not found' } };
    if (method === 'debug_traceTransaction') return c.callTrace !== undefined ? { result: c.callTrace } : { error: { code: -32601, message: 'Method not found' } };
    return undefined;
  });
});
afterAll(async () => {
  expect(server.unexpected).toEqual([]);
  await server.close();
});

/** The status the recorded answers imply. */
function expectedStatus(c: Case): string {
  if (c.receipt !== undefined) {
    if (c.receipt.status !== undefined) return c.receipt.status === '0x1' ? 'success' : 'reverted';
    const root = c.trace?.find((e) => e.traceAddress.length === 0) ?? c.callTrace;
    return root?.error ? 'reverted' : 'success';
  }
  return c.tx !== undefined ? 'pending' : 'not_found';
}
const EXIT: Record<string, number> = { success: 0, reverted: 1, not_found: 3, pending: 4 };

/** Nodes of a tree whose children sit under `key` (calls: children; callTracer frames: calls). */
function countNodes(root: any, key = 'children'): number {
  let n = 0;
  const stack = [root];
  while (stack.length) {
    const node = stack.pop();
    n++;
    stack.push(...(node[key] ?? []));
  }
  return n;
}

/** How many entries the tree should have: trace_transaction's, else the callTracer's frames. */
const treeSize = (c: Case): number | undefined => c.trace?.length ?? (c.callTrace !== undefined ? countNodes(c.callTrace, 'calls') : undefined);

describe('real mainnet answers', () => {
  test('there are 60+ cases to serve', () => {
    expect(cases.length).toBeGreaterThanOrEqual(60);
  });

  test.each(cases.map((c) => [c.name, c] as const))('%s: text', async (_name, c) => {
    const r = await runTxray([c.hash, '-r', server.url]);
    const status = expectedStatus(c);
    expect(r.code).toBe(EXIT[status]);
    expect(r.stdout.startsWith(`Transaction ${c.hash}\n`)).toBe(true);
    expect(r.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(r.stderr).not.toMatch(/\n\s+at /); // never a stack trace
    const size = treeSize(c);
    if (size !== undefined) expect(r.stdout).toContain(`Call tree (${size} ${size === 1 ? 'entry' : 'entries'}, depth `);
    else expect(r.stderr).toContain('trace_transaction is not available');
    if (c.trace === undefined && c.callTrace !== undefined) expect(r.stdout).toContain('from debug_traceTransaction (callTracer)');
    if (status === 'reverted') expect(r.stdout).toContain('Why it failed');
    if (c.receipt?.logs?.length) expect(r.stdout).toContain(`Logs (${c.receipt.logs.length})`);
  });

  test('built-in labels: the callTracer lists calls to precompiles, and they are named', async () => {
    const c = cases.find((x) => x.name === 'real/sepolia-trace-and-calltracer')!;
    const r = await runTxray([c.hash, '-r', server.url, '--tracer', 'geth']);
    expect(r.stdout).toMatch(/staticcall ecrecover\(0x0000000000000000000000000000000000000001\) · /);
  });

  test.each(cases.map((c) => [c.name, c] as const))('%s: --json gives the answers back unchanged', async (_name, c) => {
    const r = await runTxray([c.hash, '-r', server.url, '--json']);
    const doc = jsonOf(r);
    expect(schemaErrors(doc)).toBe('');
    expect(doc.status).toBe(expectedStatus(c));
    expect(r.code).toBe(EXIT[doc.status]);
    expect(doc.transaction).toEqual(c.tx ?? null);
    expect(doc.receipt).toEqual(c.receipt ?? null);
    expect(doc.trace).toEqual(c.trace ?? null);
    expect(doc.callTrace).toEqual(c.trace === undefined ? (c.callTrace ?? null) : null);
    expect(doc.traceSource).toBe(c.trace !== undefined ? 'trace_transaction' : c.callTrace !== undefined ? 'debug_traceTransaction' : null);
    const size = treeSize(c);
    if (size !== undefined) expect(countNodes(doc.calls)).toBe(size);
    else expect(doc.calls).toBeNull();
    expect(doc.logs).toHaveLength(c.receipt?.logs?.length ?? 0);
  });
});
