/**
 * Tracer fallback on a real node: loopback proxies in front of anvil, one that refuses trace_* as
 * geth does, one that refuses trace_* and debug_*. The tree built from debug_traceTransaction must
 * equal the one from trace_transaction for the same transaction.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEV } from '../../scripts/lib/scenarios.mjs';
import { forward, startRpcServer, type RpcServer } from '../support/rpcServer.js';
import { jsonOf, runTxray } from '../support/runTxray.js';
import { type Anvil, withScenarioNode } from '../support/scenarioNode.js';
import { schemaErrors } from '../support/schema.js';

let anvil: Anvil;
let hashes: Record<string, string>;
let gethLike: RpcServer;
let bare: RpcServer;
let failingTrace: RpcServer;

const refuse = (method: string) => ({ error: { code: -32601, message: `the method ${method} does not exist/is not available` } });

withScenarioNode((s) => {
  ({ anvil, hashes } = s);
});
beforeAll(async () => {
  gethLike = await startRpcServer(({ method, params }) => (method.startsWith('trace_') ? refuse(method) : forward(anvil.url, method, params)));
  bare = await startRpcServer(({ method, params }) => (method.startsWith('trace_') || method.startsWith('debug_') ? refuse(method) : forward(anvil.url, method, params)));
  failingTrace = await startRpcServer(({ method, params }) =>
    method === 'trace_transaction' ? { error: { code: -32000, message: 'trace window exceeded' } } : forward(anvil.url, method, params),
  );
});
afterAll(async () => {
  await Promise.all([gethLike?.close(), bare?.close(), failingTrace?.close()]);
});

/**
 * A call node with the clients' known differences taken out: the root's gas and gasUsed include the
 * intrinsic gas in geth's callTracer and not in Parity traces, and the error wording differs
 * ("execution reverted" / "Reverted", "out of gas" / "Out of gas", …).
 */
function normalise(node: any, isRoot = true): any {
  const { children, gas, gasUsed, error, logs, function: fn, ...rest } = node;
  return {
    ...rest,
    // Value sent to code with empty calldata is named receive() from the call's own gas; geth's root
    // frame counts intrinsic gas, so there txray cannot tell a contract from an account and names nothing.
    ...(isRoot && fn?.name === 'receive' ? {} : fn === undefined ? {} : { function: fn }),
    ...(isRoot ? {} : { gas, gasUsed }),
    error: error === null ? null : /revert/i.test(error) ? 'revert' : 'failed',
    children: children.map((c: any) => normalise(c, false)),
  };
}

const SCENARIOS = ['showcase', 'reason', 'panicIndex', 'custom', 'deep', 'outOfGas', 'invalid', 'evil', 'creation', 'setCode', 'accessList', 'legacyTransfer', 'recursion', 'tokenTransfer', 'tokenFail', 'receive'];

describe('a node without trace_transaction (geth-like)', () => {
  test.each(SCENARIOS)('%s: the same tree from debug_traceTransaction, and the same exit code', async (name) => {
    const direct = await runTxray([hashes[name]!, '-r', anvil.url, '--json']);
    const viaGeth = await runTxray([hashes[name]!, '-r', gethLike.url, '--json']);
    expect(viaGeth.code).toBe(direct.code);
    expect(viaGeth.stderr).toBe('');
    const a = jsonOf(direct);
    const b = jsonOf(viaGeth);
    expect(schemaErrors(b)).toBe('');
    expect(a.traceSource).toBe('trace_transaction');
    expect(b.traceSource).toBe('debug_traceTransaction');
    expect(b.trace).toBeNull();
    expect(a.callTrace).toBeNull();
    expect(b.callTrace).toEqual(await anvil.rpc('debug_traceTransaction', [hashes[name], { tracer: 'callTracer', tracerConfig: { withLog: true } }]));
    expect(normalise(b.calls)).toEqual(normalise(a.calls));
    expect(b.failure?.revert ?? null).toEqual(a.failure?.revert ?? null);
    expect(b.failure?.origin ?? null).toEqual(a.failure?.origin ?? null);
  });

  test('asked for the callTracer and beside it what a local run would read first (the block with its transactions and its header, the chain id, the access list, the first reads), nothing of the run itself; a node with trace_transaction, for neither', async () => {
    const counted = (refused: RegExp | null) => startRpcServer(({ method, params }) => (refused?.test(method) ? refuse(method) : forward(anvil.url, method, params)));
    const [geth, parity] = await Promise.all([counted(/^trace_/), counted(null)]);
    try {
      expect(jsonOf(await runTxray([hashes.tokenTransfer!, '-r', geth.url, '--json'])).traceSource).toBe('debug_traceTransaction');
      const tx = (await anvil.rpc('eth_getTransactionByHash', [hashes.tokenTransfer])) as { blockNumber: string };
      const parent = `0x${(BigInt(tx.blockNumber) - 1n).toString(16)}`;
      const asked = ['eth_chainId', 'eth_createAccessList', 'eth_getBalance', 'eth_getBlockByNumber', 'eth_getCode', 'eth_getStorageAt', 'eth_getTransactionCount'];
      const tracing = ['debug_traceTransaction', 'eth_getTransactionByHash', 'eth_getTransactionReceipt', 'trace_transaction'];
      expect([...new Set(geth.requests.map((q) => q.method))].filter((m) => m !== 'eth_call').sort()).toEqual([...tracing, ...asked].sort());
      expect(geth.requests.filter((q) => q.method === 'eth_getBlockByNumber').map((q) => q.params![1]).sort()).toEqual([false, true]);
      // The first reads, in one batch, and nothing more of the parent block's state: no EVM ran.
      const reads = geth.requests.filter((q) => q.params?.at(-1) === parent && q.method !== 'eth_createAccessList');
      expect(new Set(reads.map((q) => q.headers)).size).toBe(1);
      expect(jsonOf(await runTxray([hashes.tokenTransfer!, '-r', parity.url, '--json'])).traceSource).toBe('trace_transaction');
      expect([...new Set(parity.requests.map((q) => q.method))].filter((m) => m !== 'eth_call').sort()).toEqual(['eth_getTransactionByHash', 'eth_getTransactionReceipt', 'trace_transaction']);
    } finally {
      await Promise.all([geth.close(), parity.close()]);
    }
  });

  test('text: one dim line names the tracer, no warning', async () => {
    const r = await runTxray([hashes.showcase!, '-r', gethLike.url]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain(`Call tree (14 entries, depth 4)\n  from debug_traceTransaction (callTracer): ${gethLike.url} does not serve trace_transaction\n`);
  });

  test('events are drawn under the call that emitted them, at their place among its subcalls', async () => {
    const r = await runTxray([hashes.showcase!, '-r', gethLike.url]);
    const tree = r.stdout.split('Call tree')[1]!.split('\n').slice(3);
    const at = (re: RegExp) => tree.findIndex((l) => re.test(l));
    // Child.ping emits Pinged inside the call with 2 wei; Logic.bump's Counted comes from the delegatecall;
    // Step(1) follows the caught revert in the root; Step(2) is the root's last line.
    expect(tree[at(/├─ call 0x[0-9a-fA-F]{40}\S* · 2 wei/) + 1]).toMatch(/^ {2}│ {2}└─ event #0 0x[0-9a-fA-F]{40} · 0x950d7a2e… \+1 topic · 128 bytes$/);
    expect(tree[at(/├─ delegatecall /) + 1]).toMatch(/^ {2}│ {2}└─ event #1 0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512 · 0x15df0a67… · 32 bytes$/);
    expect(tree[at(/├─ staticcall .* ✗ Reverted: Error: caught it/) + 1]).toMatch(/^ {2}├─ event #2 0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512 · 0x6c3d93df…/);
    expect(tree.filter((l) => l !== '').at(-1)).toMatch(/^ {2}└─ event #3 0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512 · 0x6c3d93df…/);
    const doc = jsonOf(await runTxray([hashes.showcase!, '-r', gethLike.url, '--json']));
    const kids = doc.calls.children;
    expect(doc.calls.logs).toEqual([2, 3]);
    expect(kids[1].logs).toEqual([0]);
    expect(kids[3].logs).toEqual([1]);
    expect(kids.filter((k: any) => k.logs.length > 0)).toHaveLength(2);
    expect(doc.logs[0].address).toBe(kids[1].to);
  });

  test('--tracer geth asks for the placed view even where trace_transaction exists', async () => {
    const r = await runTxray([hashes.showcase!, '-r', anvil.url, '--tracer', 'geth', '--json']);
    const doc = jsonOf(r);
    expect(doc.traceSource).toBe('debug_traceTransaction');
    expect(doc.calls.logs).toEqual([2, 3]);
    const text = await runTxray([hashes.showcase!, '-r', anvil.url, '--tracer', 'geth']);
    expect(text.stdout).toContain('from debug_traceTransaction (callTracer), as --tracer geth asked');
  });

  test('with trace_transaction, logs stay in their own section: no guessing', async () => {
    const r = await runTxray([hashes.showcase!, '-r', anvil.url]);
    expect(r.stdout.split('Call tree')[1]).not.toContain('event #');
    expect(jsonOf(await runTxray([hashes.showcase!, '-r', anvil.url, '--json'])).calls.logs).toBeUndefined();
  });

  test('--tracer parity does not fall back: warning, no tree, exit by status', async () => {
    const r = await runTxray([hashes.reason!, '-r', gethLike.url, '--tracer', 'parity']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`txray: warning: trace_transaction is not available on ${gethLike.url} (method not found); the call tree is not shown.\n`);
    expect(r.stdout).not.toContain('Call tree');
  });

  test('--tracer none asks for no trace at all', async () => {
    const before = gethLike.requests.length;
    const r = await runTxray([hashes.showcase!, '-r', gethLike.url, '--tracer', 'none', '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(jsonOf(r)).toMatchObject({ trace: null, callTrace: null, traceSource: null, calls: null, warnings: [] });
    expect(gethLike.requests.slice(before).map((q) => q.method).sort()).toEqual(['eth_getTransactionByHash', 'eth_getTransactionReceipt']);
    // What came back inside the calls is not known: no "Sent 10 wei to …" for a call whose sender got ether back.
    const traced = jsonOf(await runTxray([hashes.showcase!, '-r', anvil.url, '--json']));
    expect(jsonOf(r).action.summary).toBe(traced.action.summary);
    expect(jsonOf(r).action.kind).not.toBe('transfer');
    expect([jsonOf(r).etherInsideCallsKnown, traced.etherInsideCallsKnown]).toEqual([false, true]);
  });

  test('--tracer with an unknown mode is a usage error', async () => {
    const r = await runTxray([hashes.showcase!, '-r', gethLike.url, '--tracer', 'magic']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("txray: --tracer takes auto, parity, geth, local or none, not 'magic'.\n");
  });
});

describe('a node with neither tracer', () => {
  test.each([
    ['showcase', 0],
    ['reason', 1],
  ])('%s: re-executed locally, matched to the receipt, said in one dim line; exit %i', async (name, code) => {
    const r = await runTxray([hashes[name]!, '-r', bare.url]);
    expect(r.code).toBe(code);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/Call tree \(\d+ entr(y|ies), depth \d+\)\n {2}re-executed locally on the node's state at block \d+ \(http:\/\/127\.0\.0\.1:\d+ serves no call tracer\); it matched the receipt\n/);
    const doc = jsonOf(await runTxray([hashes[name]!, '-r', bare.url, '--json']));
    // Each scenario is mined alone (scripts/lib/scenarios.mjs): its parent block's state is all the run needs.
    // txray's own run is no node's answer: the tree is in calls, callTrace null.
    expect(doc).toMatchObject({ trace: null, callTrace: null, traceSource: 'local', warnings: [], reexecution: { replayed: 0, matchedReceipt: true } });
    expect(doc.calls).toMatchObject({ type: 'call', callType: 'call', traceAddress: [] });
    expect(doc.transaction.from).toBe(DEV.sender);
  });
  test('--tracer parity and --tracer geth do not fall back to local re-execution', async () => {
    const r = await runTxray([hashes.showcase!, '-r', bare.url, '--tracer', 'geth']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(`txray: warning: debug_traceTransaction is not available on ${bare.url} either (method not found); the call tree is not shown.\n`);
    expect(r.stdout).not.toContain('Call tree');
  });
});

test('a trace error other than "method not found" is not downgraded to another tracer: warning, exit by status', async () => {
  const r = await runTxray([hashes.showcase!, '-r', failingTrace.url]);
  expect(r.code).toBe(0);
  expect(r.stderr).toBe('txray: warning: trace_transaction failed: the node answered error -32000: trace window exceeded; the call tree is not shown.\n');
  expect(failingTrace.requests.map((q) => q.method)).not.toContain('debug_traceTransaction');
});
