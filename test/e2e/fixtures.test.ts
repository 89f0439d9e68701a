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
  /** trace_replayTransaction's recorded answer (its stateDiff serves --state). */
  readonly replay?: any;
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
    const replay = read(dir, 'trace_replayTransaction.json');
    cases.push({ name: `real/${name}`, hash: String(meta?.hash ?? tx?.hash ?? receipt?.transactionHash).toLowerCase(), tx, receipt, trace, callTrace, replay });
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
    // --state asks for the receipt's block header; none was recorded, so this node does not know it.
    if (method === 'eth_getBlockByHash') return { result: null };
    // Where a case has no trace, txray re-executes the transaction on the node's state: nothing of
    // that state was recorded, so this node says so (as a pruned node does).
    // (eth_call: a token's symbol() and decimals(), asked for its transfers' amounts.)
    if (['eth_chainId', 'eth_getBlockByNumber', 'eth_createAccessList', 'eth_getBalance', 'eth_getTransactionCount', 'eth_getCode', 'eth_getStorageAt', 'eth_call'].includes(method)) {
      return { error: { code: -32000, message: 'not recorded: these fixtures hold no chain state' } };
    }
    const c = byHash.get(String(params[0]).toLowerCase());
    if (c === undefined) return undefined; // a hash nobody recorded: the server complains
    if (method === 'eth_getTransactionByHash') return { result: c.tx ?? null };
    if (method === 'eth_getTransactionReceipt') return { result: c.receipt ?? null };
    if (method === 'trace_transaction') return c.trace !== undefined ? { result: c.trace } : { error: { code: -32601, message: 'Method not found' } };
    const prestate = (params[1] as { tracer?: string } | undefined)?.tracer === 'prestateTracer';
    if (method === 'debug_traceTransaction' && !prestate) return c.callTrace !== undefined ? { result: c.callTrace } : { error: { code: -32601, message: 'Method not found' } };
    // --state: the recorded replay's stateDiff; no prestateTracer answer was recorded, nor any block header.
    if (method === 'trace_replayTransaction') return c.replay !== undefined ? { result: c.replay } : { error: { code: -32601, message: 'Method not found' } };
    if (method === 'debug_traceTransaction') return { error: { code: -32601, message: 'Method not found' } };
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
    else if (c.receipt === undefined) expect(r.stdout).not.toContain('Call tree'); // pending: nothing ran, nothing to warn about
    else if (c.tx === undefined) expect(r.stderr).toContain('serves no call tracer, and without the transaction object the transaction cannot be re-executed here; the call tree is not shown.');
    else expect(r.stderr).toMatch(/serves no call tracer, and the transaction could not be re-executed here \(.*not recorded.*\); the call tree is not shown\./);
    if (c.trace === undefined && c.callTrace !== undefined) expect(r.stdout).toContain('from debug_traceTransaction (callTracer)');
    if (status === 'reverted') expect(r.stdout).toContain('Why it failed');
    if (c.receipt?.logs?.length) expect(r.stdout).toContain(`Logs (${c.receipt.logs.length})`);
  });

  test('the callTracer lists calls to precompiles: named, and their input and output decoded by address', async () => {
    const c = cases.find((x) => x.name === 'real/sepolia-trace-and-calltracer')!;
    const r = await runTxray([c.hash, '-r', server.url, '--tracer', 'geth']);
    expect(r.stdout).toMatch(/staticcall ecrecover\(hash: 0x[0-9a-f]{8}…[0-9a-f]{8} \(32 bytes\), v: 2[78], r: 0x[0-9a-f]{8}…[0-9a-f]{8} \(32 bytes\), s: 0x[0-9a-f]{8}…[0-9a-f]{8} \(32 bytes\)\) · 3,000 gas ← \(signer: 0x[0-9a-fA-F]{4}…[0-9a-fA-F]{4}\)/);
    const doc = jsonOf(await runTxray([c.hash, '-r', server.url, '--tracer', 'geth', '--json']));
    const found: Array<Record<string, any>> = [];
    const walk = (n: Record<string, any>): void => {
      if (n.to === '0x0000000000000000000000000000000000000001') found.push(n);
      for (const k of n.children ?? []) walk(k);
    };
    walk(doc.calls);
    expect(found.length).toBeGreaterThan(0);
    for (const n of found) {
      expect(n.function).toMatchObject({ name: 'ecrecover', source: 'builtin', contract: 'precompile', signature: 'ecrecover(bytes32,uint256,bytes32,bytes32)' });
      expect(n.function.args.map((a: { name: string }) => a.name)).toEqual(['hash', 'v', 'r', 's']);
      // The signer ecrecover returned, as the address in the node's own output word.
      expect(n.outputs[0].value.toLowerCase()).toBe(`0x${n.output.slice(26)}`);
    }
    // In the gas profile, all of them are one row under the precompile's name, with no selector.
    const rows = (doc.gasProfile as Array<Record<string, any>>).filter((r) => r.function === 'ecrecover');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.selector).toBeUndefined();
    expect(rows[0]!.calls).toBe(found.length);
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

describe('names on recorded mainnet calls', () => {
  test('a Safe created through its proxy factory: both calls named by the protocol set, with parameter names', async () => {
    const c = cases.find((x) => x.name === 'real/mainnet-ape-create')!;
    const doc = jsonOf(await runTxray([c.hash, '-r', server.url, '--json']));
    expect(doc.calls.function).toMatchObject({ name: 'createProxy', source: 'protocol', contract: 'ProxyFactory', args: [{ name: 'masterCopy', type: 'address' }, { name: 'data', type: 'bytes' }] });
    const setup = (doc.calls.children as Array<Record<string, any>>).find((k) => k.function?.name === 'setup');
    expect(setup?.function).toMatchObject({ source: 'protocol', contract: 'GnosisSafe' });
    expect(setup!.function.args.map((a: { name: string }) => a.name)).toEqual(['_owners', '_threshold', 'to', 'data', 'fallbackHandler', 'paymentToken', 'payment', 'paymentReceiver']);
    const text = await runTxray([c.hash, '-r', server.url]);
    expect(text.stdout).toMatch(/::setup\(_owners: \[0x/);
  });

  test('contract names from the shipped address book: the 2020 Kyber network proxy, Uniswap v2\'s router and WETH, as labels in text and JSON', async () => {
    const kyber = cases.find((x) => x.name === 'real/mainnet-suicide-39-entries-b10000000')!;
    const k = jsonOf(await runTxray([kyber.hash, '-r', server.url, '--json']));
    expect(k.labels['0x818e6fecd516ecc3849daf6845e3ec868087b755']).toBe('Kyber Network');
    const router = cases.find((x) => x.name === 'real/mainnet-legacy-with-logs-b18000000')!;
    const text = await runTxray([router.hash, '-r', server.url]);
    expect(text.stdout).toMatch(/^ {2}To {13}Uniswap v2 Router02\(0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D\)$/m);
    expect(text.stdout).toContain('WETH(0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2)');
    const doc = jsonOf(await runTxray([router.hash, '-r', server.url, '--json']));
    expect(doc.labels).toMatchObject({ '0x7a250d5630b4cf539739df2c5dacb4c659f2488d': 'Uniswap v2 Router02', '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2': 'WETH' });
    // The user's labels win.
    const mine = jsonOf(await runTxray([router.hash, '-r', server.url, '--json', '--labels', '0x7a250d5630b4cf539739df2c5dacb4c659f2488d:MyRouter']));
    expect(mine.labels['0x7a250d5630b4cf539739df2c5dacb4c659f2488d']).toBe('MyRouter');
  });

  test('calls no source names: typed from their layout and marked, never left as a bare selector when they parse', async () => {
    const c = cases.find((x) => x.name === 'real/mainnet-large-82-entries-suicides-oog-b17073191')!;
    const r = await runTxray([c.hash, '-r', server.url]);
    // 0xe90cdc89 is in no source txray ships: one word whose high bits are set, read as a uint256.
    expect(r.stdout).toMatch(/::0xe90cdc89\(uint256: \d+ \[[\d.]+e\d+\]\) \(guessed types\) · /);
    // The XENFT minting proxies' calls beside it are named by the hand-written list, with their parameter.
    expect(r.stdout).toMatch(/::callClaimMintReward\(to: 0x[0-9a-fA-F]{4}…[0-9a-fA-F]{4}\) · /);
    const doc = jsonOf(await runTxray([c.hash, '-r', server.url, '--json']));
    const guessed: Array<Record<string, any>> = [];
    const walk = (n: Record<string, any>): void => {
      if (n.function?.guessed) guessed.push(n.function);
      for (const k of n.children ?? []) walk(k);
    };
    walk(doc.calls);
    expect(guessed.length).toBeGreaterThan(0);
    for (const g of guessed) {
      expect(g.name).toBeNull();
      expect(g.selector).toMatch(/^0x[0-9a-f]{8}$/);
      for (const a of g.args) expect(Object.keys(a).sort()).toEqual(['type', 'value']);
    }
  });
});

describe('--state on recorded answers', () => {
  const transfer = cases.find((c) => c.name === 'real/mainnet-legacy-transfer-b10000000')!;

  test('Erigon\'s stateDiff of a mainnet transfer: the value moved, and the fee it leaves out is said, not invented', async () => {
    const r = await runTxray([transfer.hash, '-r', server.url, '--state']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      "txray: warning: the state diff's ETH changes add up to 0 wei although the transaction paid a fee of 21000000000000 wei: this node leaves the fee out of its diff, so the sender's change lacks it.\n",
    );
    // tx.value 0x554b81ec144eea9 wei; gasUsed 21,000 at 1 gwei; the sender's nonce 0x18bc14e.
    expect(BigInt(transfer.tx.value)).toBe(384_134_310_464_384_681n);
    expect(r.stdout).toContain('0xEA674fdDe714fd979de3EdF0F56AA9716B898ec8 sender\n      -0.384134310464384681 ETH (-384,134,310,464,384,681 wei)  946.616585530098976017 → 946.232451219634591336 ETH');
    expect(r.stdout).toContain('0x60f18d941F6253E3F7082Ea0db3bc3944e7e9D40 recipient\n      +0.384134310464384681 ETH');
    expect(r.stdout).toContain("The node's state diff leaves the fee out: the sender also paid 0.000021 ETH, not counted above.");
    expect(r.stdout).toContain('Fee  0.000021 ETH: the block header is not known, so the burned part is not either');
    expect(r.stdout).toContain('sender  nonce 25936206 → 25936207, balance');
  });

  test('--json: the recorded stateDiff verbatim beside what was made of it', async () => {
    const r = await runTxray([transfer.hash, '-r', server.url, '--state', '--json']);
    const doc = jsonOf(r);
    expect(schemaErrors(doc)).toBe('');
    expect(doc).toMatchObject({ stateSource: 'trace_replayTransaction', fee: { paid: '21000000000000', burned: null, tip: null } });
    expect(doc.stateDiff).toEqual(transfer.replay.stateDiff);
    const changes = doc.balanceChanges.map((b: { delta: string }) => BigInt(b.delta));
    expect(changes).toEqual([-BigInt(transfer.tx.value), BigInt(transfer.tx.value)]);
  });

  test('a case with no recorded state diff: one warning, the rest as without --state', async () => {
    const c = cases.find((x) => x.name === 'real/mainnet-legacy-contract-call-internal-transfer-b10000000')!;
    const r = await runTxray([c.hash, '-r', server.url, '--state']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(`txray: warning: neither trace_replayTransaction nor debug_traceTransaction (prestateTracer) is available on ${server.url} (method not found); state changes are not shown.\n`);
    expect(r.stdout).toContain('State changes\n  not shown');
    expect(r.stdout).toContain('Call tree (2 entries, depth 1)');
  });
});

describe('the gas profile on recorded traces', () => {
  const traced = cases.filter((c) => c.trace !== undefined && c.trace.length > 0);
  test.each(traced.map((c) => [c.name, c] as const))('%s: self gas adds up to the root call, or the sums are said to be partial', async (_name, c) => {
    const doc = jsonOf(await runTxray([c.hash, '-r', server.url, '--json', '--gas']));
    expect(schemaErrors(doc)).toBe('');
    const root = c.trace!.find((e: any) => e.traceAddress.length === 0);
    const rows = doc.gasProfile as Array<{ selfGas: string | null; gasUsed: string | null }>;
    const unknown = c.trace!.filter((e: any) => e.type !== 'suicide' && (e.result === null || e.result === undefined || e.result.gasUsed === undefined)).length;
    if (unknown === 0) {
      expect(rows.reduce((n, r) => n + BigInt(r.selfGas!), 0n)).toBe(BigInt(root.result.gasUsed));
      expect(doc.warnings.join('\n')).not.toContain('partial');
    } else {
      expect(rows.some((r) => r.selfGas === null)).toBe(true);
      expect(doc.warnings).toContain(`${unknown} ${unknown === 1 ? 'call has' : 'calls have'} no gas used in the trace (failed entries): the gas profile's sums are partial.`);
    }
  });
});
