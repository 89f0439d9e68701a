/**
 * Local re-execution (the third source) end to end on a real anvil: every scenario transaction
 * re-executed with --tracer local gives the tree anvil's own callTracer gives, frame by frame, and the
 * state diff its prestateTracer gives; an endpoint without traces (a stand-in in front of anvil that
 * refuses trace_* and debug_*, with latency) is re-executed in auto mode; a transaction that depends on
 * an earlier one in its block is replayed after it; a node without the parent block's state warns once.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startAnvil } from '../../scripts/lib/anvil.mjs';
import { call, crowdedBlock, DEV, dependentRevert, inOneBlock, receipt, send, writeFoundryProject } from '../../scripts/lib/scenarios.mjs';
import { forward, type RpcServer, startRpcServer } from '../support/rpcServer.js';
import { type Anvil, withScenarioNode } from '../support/scenarioNode.js';
import { jsonOf, runTxray } from '../support/runTxray.js';
import { schemaErrors } from '../support/schema.js';

let anvil: Anvil;
let hashes: Record<string, string>;
let token: string;
withScenarioNode((s) => {
  anvil = s.anvil;
  hashes = s.hashes as Record<string, string>;
  token = s.token;
});

const project = mkdtempSync(join(tmpdir(), 'txray-local-'));
writeFoundryProject(project);
const json = async (args: string[]): Promise<Record<string, any>> => {
  const r = await runTxray(args, {}, undefined, project);
  expect(r.code).toBeLessThanOrEqual(1);
  return jsonOf(r);
};

type Node = { type: string; callType?: string; creationMethod?: string; from: string; to: string; value: string | null; input: string; output: string | null; error: string | null; gasUsed: string | null; logs?: number[]; children: Node[] };

/** What two tracers must agree on, frame by frame: the call, its outcome, its events' places. */
function shape(n: Node): unknown {
  return {
    type: n.type,
    callType: n.callType,
    creationMethod: n.creationMethod,
    from: n.from,
    to: n.to,
    // geth writes no value on static and delegate calls: compared where both say.
    ...(n.callType === 'staticcall' || n.callType === 'delegatecall' ? {} : { value: n.value === null ? null : BigInt(n.value).toString() }),
    input: n.input,
    output: n.error !== null && n.output === null ? null : n.output,
    failed: n.error !== null,
    logs: n.logs,
    children: n.children.map(shape),
  };
}

/** Gas used per frame, below the root (whose gas both tracers count as the transaction's). */
const gasOf = (n: Node): string[] => n.children.flatMap((c) => [`${c.type}:${c.gasUsed}`, ...gasOf(c)]);

const NAMES = ['showcase', 'reason', 'panicIndex', 'overflow', 'custom', 'deep', 'outOfGas', 'invalid', 'evil', 'recursion', 'setCode', 'creation', 'legacyTransfer', 'accessList', 'tokenTransfer', 'tokenFail', 'receive', 'stateShow', 'destroyOld', 'muteMint'];

describe('--tracer local against anvil\'s own tracers', () => {
  test.each(NAMES)('%s: the same tree, frame by frame, the same events in the same frames, matched to the receipt', async (name) => {
    const local = await json([hashes[name]!, '-r', anvil.url, '--tracer', 'local', '--json']);
    const geth = await json([hashes[name]!, '-r', anvil.url, '--tracer', 'geth', '--json']);
    expect(schemaErrors(local)).toBe('');
    // The warnings first: where the re-execution failed, they say why.
    expect(local.warnings).toEqual([]);
    expect(local.traceSource).toBe('local');
    expect(local.status).toBe(geth.status);
    expect(shape(local.calls)).toEqual(shape(geth.calls));
    expect(gasOf(local.calls)).toEqual(gasOf(geth.calls));
    expect(local.calls.gasUsed).toBe(geth.calls.gasUsed);
    // The failure's wording is the client's ("out of gas" here, "out of gas: not enough gas for reentrancy sentry" there), in its
    // error and in the one line that says it where nothing decodes; what failed and why is the same.
    const words = (f: Record<string, unknown> | null) => f && { ...f, error: undefined, reason: f.error !== null && f.reason === f.error ? undefined : f.reason };
    expect(words(local.failure)).toEqual(words(geth.failure));
    expect(local.function).toEqual(geth.function);
    // JSON says what the text's dim line says: where it ran, and that it matched the receipt.
    const block = Number(BigInt((local.transaction as { blockNumber: string }).blockNumber));
    expect(local.reexecution).toEqual({ stateBlock: block - 1, replayed: 0, matchedReceipt: true, differences: [] });
    expect(local.traceNote).toBe(`re-executed locally on the node's state at block ${block - 1} (as --tracer local asked); it matched the receipt`);
    expect(geth.reexecution).toBeNull();
  });

  test.each(['showcase', 'stateShow', 'tokenTransfer', 'setCode', 'destroyOld', 'creation'])('%s --state: the same balance, storage and account changes as the prestateTracer', async (name) => {
    const local = await json([hashes[name]!, '-r', anvil.url, '--tracer', 'local', '--state', '--json']);
    const geth = await json([hashes[name]!, '-r', anvil.url, '--tracer', 'geth', '--state', '--json']);
    expect(local.stateSource).toBe('local');
    expect(local.warnings).toEqual([]);
    const byAddress = (rows: Array<{ address: string }>) => [...rows].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    expect(byAddress(local.balanceChanges)).toEqual(byAddress(geth.balanceChanges));
    expect(byAddress(local.storageChanges)).toEqual(byAddress(geth.storageChanges));
    expect(byAddress(local.accountChanges)).toEqual(byAddress(geth.accountChanges));
    expect(local.fee).toEqual(geth.fee);
  });
});

describe('an endpoint without traces, and nodes without state', () => {
  let publicLike: RpcServer;
  let noState: RpcServer;
  let prunedSays = '';
  beforeAll(async () => {
    // A public endpoint: no trace_* or debug_*, 20 ms a request.
    publicLike = await startRpcServer(async ({ method, params }) => {
      await new Promise((r) => setTimeout(r, 20));
      return method.startsWith('trace_') || method.startsWith('debug_') ? { error: { code: -32601, message: `the method ${method} does not exist/is not available` } } : forward(anvil.url, method, params);
    });
    // A pruned node: no state for old blocks (geth says "missing trie node", others "header not found").
    noState = await startRpcServer(({ method, params }) => {
      if (method.startsWith('trace_') || method.startsWith('debug_')) return { error: { code: -32601, message: 'Method not found' } };
      if (['eth_getBalance', 'eth_getTransactionCount', 'eth_getCode', 'eth_getStorageAt', 'eth_createAccessList'].includes(method)) return { error: { code: -32000, message: prunedSays } };
      return forward(anvil.url, method, params);
    });
  });
  afterAll(async () => {
    await Promise.all([publicLike?.close(), noState?.close()]);
  });

  test('auto: re-executed here, the same tree as anvil\'s tracer, few requests', async () => {
    const local = await json([hashes.showcase!, '-r', publicLike.url, '--json']);
    const geth = await json([hashes.showcase!, '-r', anvil.url, '--tracer', 'geth', '--json']);
    expect(local.traceSource).toBe('local');
    expect(shape(local.calls)).toEqual(shape(geth.calls));
    // txray's own run is not a node's answer: no callTrace, the tree in calls (anvil's answer is printed verbatim).
    expect(local.callTrace).toBeNull();
    expect(geth.callTrace).toMatchObject({ type: 'CALL', to: (geth.transaction as { to: string }).to.toLowerCase() });
    const reads = publicLike.requests.filter((q) => ['eth_getStorageAt', 'eth_getBalance', 'eth_getTransactionCount', 'eth_getCode'].includes(q.method));
    // The state it needed came in batches (the access list's, and the accounts it surely touches), and no item twice.
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.every((q) => q.batch !== undefined)).toBe(true);
    const items = reads.map((q) => `${q.method} ${JSON.stringify(q.params)}`);
    expect(new Set(items).size).toBe(items.length);
  });

  test.each(['missing trie node 1a2b (path )', 'header not found'])('a node without the parent block\'s state (%s): one warning, the receipt\'s view, the exit code by status', async (says) => {
    prunedSays = says;
    const r = await runTxray([hashes.reason!, '-r', noState.url], {}, undefined, project);
    expect(r.code).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    const block = Number(BigInt(((await anvil.rpc('eth_getTransactionByHash', [hashes.reason])) as { blockNumber: string }).blockNumber)) - 1;
    expect(lines[0]).toBe(`txray: warning: ${noState.url} serves no call tracer, and the transaction could not be re-executed here (the node has no state at block ${block} (${says.replace(/\.$/, '')}): an archive node, or a node with traces, is needed); the call tree is not shown.`);
    expect(r.stdout).toContain('✘ reverted');
    expect(r.stdout).not.toContain('Call tree');
  });

  test('txray call there: auto simulates locally; without the state, eth_call still tells the outcome', async () => {
    prunedSays = 'missing trie node 1a2b (path )';
    const here = jsonOf(await runTxray(['call', token, 'transfer', DEV.other, '100000000ether', '--from', DEV.sender, '-r', publicLike.url, '--json'], {}, undefined, project));
    expect(here).toMatchObject({ status: 'reverted', traceSource: 'local', simulation: { method: 'local' } });
    expect(here.failure.revert.name).toBe('InsufficientBalance');
    const r = await runTxray(['call', token, 'transfer', DEV.other, '100000000ether', '--from', DEV.sender, '-r', noState.url], {}, undefined, project);
    expect(r.code).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines[0]).toMatch(/^txray: warning: the call could not be simulated here \(the node has no state at block \d+ \(.*missing trie node.*\): an archive node, or a node with traces, is needed\)\.$/);
    expect(lines[1]).toMatch(/^txray: warning: simulated with eth_simulateV1 \(.*\): the outcome and its events only, no call tree\.$/);
    expect(r.stdout).toMatch(/InsufficientBalance\(who: 0xf39F…2266/);
  });
});

describe('a transaction that depends on an earlier one in its block', () => {
  test('the earlier ones are replayed first, then it matches the receipt', async () => {
    await anvil.rpc('evm_setAutomine', [false]);
    let second: string;
    try {
      // The sender gives `other` 500 tokens; `other` then sends on 530 (it had 40 before): only after the first.
      await send(anvil.rpc, { to: token, gas: '0x30000', data: call('Token', 'transfer', [DEV.other, 500n * 10n ** 18n]) });
      second = await anvil.rpc('eth_sendTransaction', [{ from: DEV.other, to: token, gas: '0x30000', data: call('Token', 'transfer', [DEV.sender, 530n * 10n ** 18n]) }]) as string;
      await anvil.rpc('evm_mine', []);
    } finally {
      await anvil.rpc('evm_setAutomine', [true]);
    }
    const mined = await receipt(anvil.rpc, second);
    expect(mined.status).toBe('0x1');
    const r = await runTxray([second, '-r', anvil.url, '--tracer', 'local'], {}, undefined, project);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/re-executed locally on the node's state at block \d+, after the block's 1 earlier transaction \(as --tracer local asked\); it matched the receipt/);
    const doc = jsonOf(await runTxray([second, '-r', anvil.url, '--tracer', 'local', '--state', '--json'], {}, undefined, project));
    const geth = jsonOf(await runTxray([second, '-r', anvil.url, '--tracer', 'geth', '--state', '--json'], {}, undefined, project));
    expect(shape(doc.calls)).toEqual(shape(geth.calls));
    expect(doc.reexecution).toMatchObject({ replayed: 1, matchedReceipt: true, differences: [] });
    // Before-values are those just before it, after the first transfer.
    expect(doc.storageChanges).toEqual(geth.storageChanges);
  });
});

describe('a block\'s earlier transactions, on an endpoint without traces 40 ms away', () => {
  let far: RpcServer;
  beforeAll(async () => {
    // 40 ms a request, as a hosted endpoint is away: once per HTTP request (a batch's items share its headers).
    const waited = new WeakSet<object>();
    far = await startRpcServer(async ({ method, params, headers }) => {
      if (!waited.has(headers)) {
        waited.add(headers);
        await new Promise((r) => setTimeout(r, 40));
      }
      return method.startsWith('trace_') || method.startsWith('debug_') ? { error: { code: -32601, message: `the method ${method} does not exist/is not available` } } : forward(anvil.url, method, params);
    });
  });
  afterAll(async () => {
    await far?.close();
  });

  test('the last of a crowded block (100 earlier transactions from its sender: its nonce is 100 ahead of the parent\'s state): replayed after them, the tree anvil\'s tracer gives, matched to the receipt, the state in few batches', async () => {
    const { hash, index } = await crowdedBlock(anvil.rpc, token, 100);
    expect(index).toBe(100);
    far.requests.length = 0;
    const r = await runTxray([hash, '-r', far.url, '--json'], {}, undefined, project);
    expect(r.code).toBe(0);
    const doc = jsonOf(r);
    expect(doc.warnings).toEqual([]);
    expect(doc.traceSource).toBe('local');
    expect(doc.reexecution).toEqual({ stateBlock: Number(BigInt(doc.transaction.blockNumber)) - 1, replayed: 100, matchedReceipt: true, differences: [] });
    const geth = jsonOf(await runTxray([hash, '-r', anvil.url, '--tracer', 'geth', '--json'], {}, undefined, project));
    expect(shape(doc.calls)).toEqual(shape(geth.calls));
    expect(gasOf(doc.calls)).toEqual(gasOf(geth.calls));
    // The state came in batches: no account or slot was asked for twice, and few requests went out in all
    // (the items of one batch share one request's headers).
    const reads = far.requests.filter((q) => ['eth_getStorageAt', 'eth_getBalance', 'eth_getTransactionCount', 'eth_getCode'].includes(q.method));
    const items = reads.map((q) => `${q.method} ${JSON.stringify(q.params)}`);
    expect(new Set(items).size).toBe(items.length);
    const httpRequests = new Set(far.requests.map((q) => q.headers)).size;
    // tx, receipt, the two refused tracers, and beside the second the block, its header, the chain id,
    // the access list and the first reads; the tokens' symbol and decimals; then the coinbase (once the
    // header names it), and the 100 holders' balances in one batch (the access list tells the token's
    // balance slot); the codes the names need.
    expect(httpRequests).toBeLessThanOrEqual(14);
    // The state diff after that replay (its guesses were the node's values: new holders' empty balances) is the prestateTracer's.
    const withState = jsonOf(await runTxray([hash, '-r', far.url, '--json', '--state'], {}, undefined, project));
    const gethState = jsonOf(await runTxray([hash, '-r', anvil.url, '--tracer', 'geth', '--json', '--state'], {}, undefined, project));
    const sorted = (rows: unknown[]) => [...rows].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    expect(withState.stateSource).toBe('local');
    expect(withState.storageChanges.length).toBeGreaterThan(0);
    expect(sorted(withState.storageChanges)).toEqual(sorted(gethState.storageChanges));
    expect(sorted(withState.balanceChanges)).toEqual(sorted(gethState.balanceChanges));
    far.requests.length = 0;
    const text = await runTxray([hash, '-r', far.url], {}, undefined, project);
    expect(text.stdout).toMatch(/re-executed locally on the node's state at block \d+, after the block's 100 earlier transactions \(http:\/\/127\.0\.0\.1:\d+ serves no call tracer\); it matched the receipt/);
  });

  /** The requests that asked `server` for the storage slot `slot`. */
  const slotAsks = (server: RpcServer) => (slot: string) => server.requests.filter((q) => q.method === 'eth_getStorageAt' && String(q.params?.[1]).toLowerCase() === slot.toLowerCase());

  type Holders = Awaited<ReturnType<typeof twoNewHolders>>;

  /** txray on the last of them through `server`: replayed after the two, and the request that asked for each holder's balance (once each). */
  async function holdersAskedOn(server: RpcServer, h: Holders): Promise<{ doc: Record<string, any>; ask1: RpcServer['requests'][number]; ask2: RpcServer['requests'][number] }> {
    const doc = jsonOf(await runTxray([h.sent[2]!, '-r', server.url, '--json'], {}, undefined, project));
    expect(doc.reexecution).toMatchObject({ replayed: 2, matchedReceipt: true, differences: [] });
    const [ask1, ask2] = [slotAsks(server)(h.slot1), slotAsks(server)(h.slot2)];
    expect([ask1.length, ask2.length]).toEqual([1, 1]);
    return { doc, ask1: ask1[0]!, ask2: ask2[0]! };
  }

  /** Two earlier transfers to two new holders, then one to DEV.other, in one block; each holder's balance slot, as anvil's prestateTracer names what each transfer wrote. */
  async function twoNewHolders(): Promise<{ sent: string[]; slot1: string; slot2: string; senderSlot: string; written: (hash: string) => Promise<string[]> }> {
    const [h1, h2] = ['0x00000000000000000000000000000000c0de1001', '0x00000000000000000000000000000000c0de1002'];
    const sent = await inOneBlock(anvil.rpc, async () => [
      await send(anvil.rpc, { to: token, gas: '0x30000', data: call('Token', 'transfer', [h1, 3n]) }),
      await send(anvil.rpc, { to: token, gas: '0x30000', data: call('Token', 'transfer', [h2, 4n]) }),
      await send(anvil.rpc, { to: token, gas: '0x30000', data: call('Token', 'transfer', [DEV.other, 5n]) }),
    ]);
    const written = async (hash: string): Promise<string[]> => {
      const diff = (await anvil.rpc('debug_traceTransaction', [hash, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }])) as { post: Record<string, { storage?: Record<string, string> }> };
      return Object.keys(diff.post[token.toLowerCase()]?.storage ?? {});
    };
    const [first, second] = [await written(sent[0]!), await written(sent[1]!)];
    const [slot1, slot2, shared] = [first.filter((k) => !second.includes(k)), second.filter((k) => !first.includes(k)), first.filter((k) => second.includes(k))];
    expect([slot1.length, slot2.length, shared.length]).toEqual([1, 1, 1]);
    return { sent, slot1: slot1[0]!, slot2: slot2[0]!, senderSlot: shared[0]!, written };
  }

  test('without an access list, the reads of the first earlier transaction that guessed are asked before the next one runs, in a request of their own, the rest after; the sender\'s balance and the last transfer\'s recipient\'s balance in the first batch, the coinbase once', async () => {
    // No eth_createAccessList either (as Hardhat): the token's layout is learnt by guessing.
    const waited = new WeakSet<object>();
    const bare = await startRpcServer(async ({ method, params, headers }) => {
      if (!waited.has(headers)) {
        waited.add(headers);
        await new Promise((r) => setTimeout(r, 40));
      }
      return /^(trace_|debug_|eth_createAccessList$)/.test(method) ? { error: { code: -32601, message: `the method ${method} does not exist/is not available` } } : forward(anvil.url, method, params);
    });
    try {
      const holders = await twoNewHolders();
      const { sent, senderSlot, written } = holders;
      const { doc, ask1, ask2 } = await holdersAskedOn(bare, holders);
      const asks = slotAsks(bare);
      expect(ask1.headers).not.toBe(ask2.headers);
      expect(bare.requests.indexOf(ask1)).toBeLessThan(bare.requests.indexOf(ask2));
      // The first batch (the sender's account) already held the sender's balance, which both earlier
      // transfers read, and the last transfer's recipient's (its input names the recipient): no request
      // after the replay waits for it. The coinbase, which each pays, is asked once, when the block is in.
      const nonceOf = (a: string) => bare.requests.filter((q) => q.method === 'eth_getTransactionCount' && String(q.params?.[0]).toLowerCase() === a.toLowerCase());
      const block = (await anvil.rpc('eth_getBlockByNumber', [doc.transaction.blockNumber, false])) as { miner: string };
      const [sender, coinbase, balance] = [nonceOf(DEV.sender), nonceOf(block.miner), asks(senderSlot)];
      expect(sender).toHaveLength(1);
      expect(coinbase).toHaveLength(1);
      expect(balance).toHaveLength(1);
      expect(balance[0]!.headers).toBe(sender[0]!.headers);
      const recipientSlot = (await written(sent[2]!)).filter((k) => k !== senderSlot);
      expect(recipientSlot).toHaveLength(1);
      const recipient = asks(recipientSlot[0]!);
      expect(recipient).toHaveLength(1);
      expect(recipient[0]!.headers).toBe(sender[0]!.headers);
    } finally {
      await bare.close();
    }
  });

  test('with an access list, which tells where the token keeps its balances: every earlier transfer\'s holder\'s balance asked in one request before the replay, nothing guessed after', async () => {
    const holders = await twoNewHolders();
    far.requests.length = 0;
    const { doc, ask1, ask2 } = await holdersAskedOn(far, holders);
    expect(ask1.headers).toBe(ask2.headers);
    // After that request, nothing more of the parent block's state: the replay ran on what was asked.
    const parent = `0x${(BigInt(doc.transaction.blockNumber) - 1n).toString(16)}`;
    const reads = far.requests.filter((q) => ['eth_getStorageAt', 'eth_getBalance', 'eth_getTransactionCount', 'eth_getCode'].includes(q.method) && q.params?.at(-1) === parent);
    expect(reads.at(-1)!.headers).toBe(ask1.headers);
  });

  test('the coinbase is asked as soon as the block\'s header names it, before the block with its transactions is in', async () => {
    const tx = (await anvil.rpc('eth_getTransactionByHash', [hashes.showcase])) as { blockNumber: string };
    const { miner } = (await anvil.rpc('eth_getBlockByNumber', [tx.blockNumber, false])) as { miner: string };
    // Fault injection that orders, not times: the block with its transactions is held until the coinbase is asked (at most 10 s).
    const seen: string[] = [];
    let coinbaseAsked: () => void = () => undefined;
    const asked = new Promise<void>((resolve) => (coinbaseAsked = resolve));
    const node = await startRpcServer(async ({ method, params }) => {
      if (method === 'eth_getTransactionCount' && String(params[0]).toLowerCase() === miner.toLowerCase()) {
        seen.push('coinbase asked');
        coinbaseAsked();
      }
      if (method === 'eth_getBlockByNumber' && params[1] === true) {
        await Promise.race([asked, new Promise((r) => setTimeout(r, 10_000))]);
        seen.push('block answered');
      }
      return method.startsWith('trace_') || method.startsWith('debug_') ? { error: { code: -32601, message: `the method ${method} does not exist/is not available` } } : forward(anvil.url, method, params);
    });
    try {
      const doc = jsonOf(await runTxray([hashes.showcase!, '-r', node.url, '--json'], {}, undefined, project));
      expect(doc.reexecution).toMatchObject({ matchedReceipt: true });
      expect(seen).toEqual(['coinbase asked', 'block answered']);
    } finally {
      await node.close();
    }
  });

  test('what the local run reads first is asked beside the last tracer, before its refusal: the block with its transactions, the chain id, the access list, the first reads', async () => {
    // Fault injection that orders, not times: debug_traceTransaction is held until the access list and the first reads' code are asked (at most 10 s).
    const seen: string[] = [];
    let listAsked: () => void = () => undefined;
    const asked = new Promise<void>((resolve) => (listAsked = resolve));
    const node = await startRpcServer(async ({ method, params }) => {
      if (['eth_createAccessList', 'eth_getCode'].every((m) => m === method || seen.includes(m))) listAsked();
      if (method === 'debug_traceTransaction') {
        await Promise.race([asked, new Promise((r) => setTimeout(r, 10_000))]);
        seen.push('debug_traceTransaction refused');
      } else seen.push(method === 'eth_getBlockByNumber' ? `${method} ${params[1]}` : method);
      return method.startsWith('trace_') || method.startsWith('debug_') ? { error: { code: -32601, message: `the method ${method} does not exist/is not available` } } : forward(anvil.url, method, params);
    });
    try {
      const doc = jsonOf(await runTxray([hashes.showcase!, '-r', node.url, '--json'], {}, undefined, project));
      expect(doc.traceSource).toBe('local');
      expect(doc.warnings).toEqual([]);
      const refused = seen.indexOf('debug_traceTransaction refused');
      const before = seen.slice(0, refused);
      expect(before).toEqual(expect.arrayContaining(['eth_getBlockByNumber true', 'eth_chainId', 'eth_createAccessList', 'eth_getTransactionCount', 'eth_getCode']));
      // The block is asked once with its transactions, and once its header alone (it comes first, and names the coinbase).
      expect(seen.filter((m) => m.startsWith('eth_getBlockByNumber')).sort()).toEqual(['eth_getBlockByNumber false', 'eth_getBlockByNumber true']);
    } finally {
      await node.close();
    }
  });

  test('one that reverted only because of an earlier one in its block: the revert anvil\'s tracer gives, by name, after replaying that one', async () => {
    const { second } = await dependentRevert(anvil.rpc, token);
    expect((await receipt(anvil.rpc, second)).status).toBe('0x0');
    const r = await runTxray([second, '-r', far.url, '--json'], {}, undefined, project);
    expect(r.code).toBe(1);
    const doc = jsonOf(r);
    expect(doc.warnings).toEqual([]);
    expect(doc.reexecution).toMatchObject({ replayed: 1, matchedReceipt: true });
    const geth = jsonOf(await runTxray([second, '-r', anvil.url, '--tracer', 'geth', '--json'], {}, undefined, project));
    expect(shape(doc.calls)).toEqual(shape(geth.calls));
    expect(doc.failure.revert).toEqual(geth.failure.revert);
    expect(doc.failure.revert).toMatchObject({ name: 'InsufficientBalance' });
  });

  test('an earlier transaction the node gives malformed (a nonce that is not a quantity) is refused by the same checks as the transaction itself: no run on it, one warning, the receipt\'s view stays', async () => {
    const { hash, index } = await crowdedBlock(anvil.rpc, token, 3);
    expect(index).toBe(3);
    const faulty = await startRpcServer(async ({ method, params }) => {
      if (method.startsWith('trace_') || method.startsWith('debug_')) return { error: { code: -32601, message: `the method ${method} does not exist/is not available` } };
      const answer = await forward(anvil.url, method, params);
      // The block's first transaction with a nonce that is not a quantity.
      if (method === 'eth_getBlockByNumber' && params[1] === true && 'result' in answer) {
        const block = answer.result as { transactions: Array<Record<string, unknown>> };
        return { result: { ...block, transactions: block.transactions.map((t, i) => (i === 0 ? { ...t, nonce: 'banana' } : t)) } };
      }
      return answer;
    });
    try {
      const r = await runTxray([hash, '-r', faulty.url, '--json'], {}, undefined, project);
      expect(r.code).toBe(0);
      const doc = jsonOf(r);
      expect(doc.calls).toBeNull();
      expect(doc.warnings.some((w: string) => w.includes('could not be re-executed here') && w.includes("the node's block has a malformed transaction at index 0"))).toBe(true);
    } finally {
      await faulty.close();
    }
  });
});

describe('a token transfer on an endpoint without traces: its symbol and decimals asked beside the tracers', () => {
  const SYMBOL = '0x95d89b41';
  const DECIMALS = '0x313ce567';
  const isMeta = (method: string, params: unknown[] | undefined): boolean => method === 'eth_call' && [SYMBOL, DECIMALS].includes((params?.[0] as { data?: string } | undefined)?.data ?? '');
  const refused = (method: string) => ({ error: { code: -32601, message: `the method ${method} does not exist/is not available` } });

  test('asked once, before the second tracer is refused (not after the local run); the amounts the node\'s own tracer lookup shows', async () => {
    // Fault injection that orders, not times: debug_traceTransaction is held until symbol() is asked (at most 10 s).
    const seen: string[] = [];
    let metaAsked: () => void = () => undefined;
    const asked = new Promise<void>((resolve) => (metaAsked = resolve));
    const node = await startRpcServer(async ({ method, params }) => {
      if (isMeta(method, params)) {
        seen.push('symbol or decimals');
        metaAsked();
      }
      if (method === 'debug_traceTransaction') {
        await Promise.race([asked, new Promise((r) => setTimeout(r, 10_000))]);
        seen.push('debug_traceTransaction refused');
      }
      return method.startsWith('trace_') || method.startsWith('debug_') ? refused(method) : forward(anvil.url, method, params);
    });
    try {
      const doc = jsonOf(await runTxray([hashes.tokenTransfer!, '-r', node.url, '--json'], {}, undefined, project));
      const geth = jsonOf(await runTxray([hashes.tokenTransfer!, '-r', anvil.url, '--tracer', 'geth', '--json'], {}, undefined, project));
      expect(doc.traceSource).toBe('local');
      expect(doc.warnings).toEqual([]);
      expect(seen[0]).toBe('symbol or decimals');
      expect(node.requests.filter((q) => isMeta(q.method, q.params)).map((q) => (q.params![0] as { data: string }).data).sort()).toEqual([SYMBOL, DECIMALS].sort());
      expect(geth.transfers[0]).toMatchObject({ kind: 'ERC-20', symbol: expect.any(String), decimals: expect.any(Number) });
      expect(doc.transfers).toEqual(geth.transfers);
    } finally {
      await node.close();
    }
  });

  test('a token whose symbol() and decimals() fail: asked once, its amount raw in text and JSON, as the node\'s own tracer lookup shows it with the same failure', async () => {
    const failing = (traces: boolean) =>
      startRpcServer(async ({ method, params }) => {
        if (isMeta(method, params)) return { error: { code: 3, message: 'execution reverted' } };
        return !traces && (method.startsWith('trace_') || method.startsWith('debug_')) ? refused(method) : forward(anvil.url, method, params);
      });
    const [node, traced] = await Promise.all([failing(false), failing(true)]);
    try {
      const r = await runTxray([hashes.tokenTransfer!, '-r', node.url, '--json'], {}, undefined, project);
      expect(r.code).toBe(0);
      const doc = jsonOf(r);
      const geth = jsonOf(await runTxray([hashes.tokenTransfer!, '-r', traced.url, '--tracer', 'geth', '--json'], {}, undefined, project));
      expect(doc.traceSource).toBe('local');
      expect(doc.transfers).toEqual(geth.transfers);
      expect(doc.transfers[0].symbol).toBeUndefined();
      expect(doc.warnings).toEqual(geth.warnings);
      expect(node.requests.filter((q) => isMeta(q.method, q.params))).toHaveLength(2);
      const text = await runTxray([hashes.tokenTransfer!, '-r', node.url, '--no-color'], {}, undefined, project);
      expect(text.code).toBe(0);
      expect(text.stdout).toContain(`${BigInt(doc.transfers[0].amount).toLocaleString('en-US')}`);
    } finally {
      await Promise.all([node.close(), traced.close()]);
    }
  });
});

describe('a replay whose guesses were wrong', () => {
  let bare: RpcServer;
  beforeAll(async () => {
    // No traces and no eth_createAccessList (as Hardhat and some endpoints): the replay learns the token's balance slots by guessing them.
    bare = await startRpcServer(async ({ method, params }) =>
      /^(trace_|debug_|eth_createAccessList$)/.test(method) ? { error: { code: -32601, message: `the method ${method} does not exist/is not available` } } : forward(anvil.url, method, params),
    );
  });
  afterAll(async () => {
    await bare?.close();
  });

  test('an earlier transfer that a guessed-empty balance would make revert: replayed on the real balance, and the one after it succeeds as mined, the tree and state diff anvil\'s tracers give', async () => {
    // anvil's third default account (unlocked, as the first two are).
    const third = '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc';
    await receipt(anvil.rpc, await send(anvil.rpc, { to: token, data: call('Token', 'transfer', [third, 7n]) }));
    // DEV.sender pays `third` 5 (its balance is not empty: a guess of empty makes this revert), then `third` sends on 12, which it has only after.
    const target = await inOneBlock(anvil.rpc, async () => {
      await send(anvil.rpc, { to: token, gas: '0x30000', data: call('Token', 'transfer', [third, 5n]) });
      return anvil.rpc('eth_sendTransaction', [{ from: third, to: token, gas: '0x30000', data: call('Token', 'transfer', [DEV.sender, 12n]) }]);
    });
    expect((await receipt(anvil.rpc, target)).status).toBe('0x1');
    const r = await runTxray([target, '-r', bare.url, '--json', '--state'], {}, undefined, project);
    expect(r.code).toBe(0);
    const doc = jsonOf(r);
    expect(doc.traceSource).toBe('local');
    expect(doc.reexecution).toMatchObject({ replayed: 1, matchedReceipt: true, differences: [] });
    const geth = jsonOf(await runTxray([target, '-r', anvil.url, '--tracer', 'geth', '--json', '--state'], {}, undefined, project));
    expect(shape(doc.calls)).toEqual(shape(geth.calls));
    expect(gasOf(doc.calls)).toEqual(gasOf(geth.calls));
    expect(doc.stateSource).toBe('local');
    const sorted = (rows: unknown[]) => [...rows].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    expect(sorted(doc.storageChanges)).toEqual(sorted(geth.storageChanges));
    expect(sorted(doc.balanceChanges)).toEqual(sorted(geth.balanceChanges));
    expect(doc.storageChanges.length).toBeGreaterThan(0);
  });
});

describe('a node whose receipt the re-execution does not match', () => {
  test('one warning says how it differs; the tree shown is the re-execution\'s; JSON says so too', async () => {
    // Fault injection: a node that misreports the receipt's gas used by 1,000.
    const liar = await startRpcServer(async ({ method, params }) => {
      const answer = await forward(anvil.url, method, params);
      if (method !== 'eth_getTransactionReceipt' || !('result' in answer) || answer.result === null) return answer;
      const r = answer.result as { gasUsed: string };
      return { result: { ...r, gasUsed: `0x${(BigInt(r.gasUsed) + 1000n).toString(16)}` } };
    });
    try {
      const r = await runTxray([hashes.showcase!, '-r', liar.url, '--tracer', 'local', '--json'], {}, undefined, project);
      expect(r.code).toBe(0);
      const doc = jsonOf(r);
      const used = BigInt(doc.calls.gasUsed as string);
      const told = BigInt((doc.receipt as { gasUsed: string }).gasUsed);
      expect(told - used).toBe(1000n);
      expect(doc.warnings).toEqual([`re-execution differs from the receipt: gas used ${used}, receipt ${told}. The call tree shows the re-execution.`]);
      expect(doc.reexecution).toMatchObject({ matchedReceipt: false, differences: [`gas used ${used}, receipt ${told}`] });
      expect(doc.traceNote).toMatch(/; it differs from the receipt$/);
      const text = await runTxray([hashes.showcase!, '-r', liar.url, '--tracer', 'local'], {}, undefined, project);
      expect(text.stderr).toBe(`txray: warning: re-execution differs from the receipt: gas used ${used}, receipt ${told}. The call tree shows the re-execution.\n`);
      expect(text.stdout).toContain('it differs from the receipt');
    } finally {
      await liar.close();
    }
  });
});

describe('a receipt with a malformed deposit field', () => {
  test('a number where a quantity belongs is not taken for an OP Stack deposit: validation warns, and it is re-executed', async () => {
    // Fault injection: an L1 node that adds `depositNonce: 5` (a number, not a hex quantity) to its receipts.
    const odd = await startRpcServer(async ({ method, params }) => {
      const answer = await forward(anvil.url, method, params);
      if (method !== 'eth_getTransactionReceipt' || !('result' in answer) || answer.result === null) return answer;
      return { result: { ...(answer.result as object), depositNonce: 5 } };
    });
    try {
      const r = await runTxray([hashes.showcase!, '-r', odd.url, '--tracer', 'local', '--json'], {}, undefined, project);
      expect(r.code).toBe(0);
      const doc = jsonOf(r);
      expect(doc.warnings).toEqual(['receipt.depositNonce is not valid (number); ignored.']);
      expect(doc.traceSource).toBe('local');
      expect(doc.reexecution).toMatchObject({ matchedReceipt: true });
      expect(doc.fee.rules).toBe('ethereum');
    } finally {
      await odd.close();
    }
  });
});

describe('where it must not run', () => {
  test('an OP Stack deposit (anvil --network optimism) is not re-executed: one line says why', async () => {
    const op = await startAnvil(['--network', 'optimism']);
    try {
      const hash = (await op.rpc('eth_sendTransaction', [
        { from: DEV.sender, to: DEV.other, value: '0x1', gas: '0x30000', type: '0x7e', sourceHash: `0x${'11'.repeat(32)}`, mint: '0xde0b6b3a7640000', isSystemTx: false },
      ])) as string;
      await receipt(op.rpc, hash);
      const r = await runTxray([hash, '-r', op.url, '--tracer', 'local']);
      expect(r.code).toBe(0);
      expect(r.stderr).toBe("txray: warning: this is an OP Stack deposit, whose execution differs from L1's: it is not re-executed here; the call tree is not shown.\n");
      expect(r.stdout).not.toContain('Call tree');
    } finally {
      await op.stop();
    }
  });
});

describe('the EVM\'s code cache', () => {
  test('a local run compiles the EVM from its cache, and so do two in one process (V8\'s settings taken after it loads leave the caches the build made under V8\'s defaults)', async () => {
    // Preloaded into the bin's process (a Node option, not a V8 flag): says at exit what became of the EVM part's cache.
    const preload = join(project, 'evm-cache.cjs');
    writeFileSync(preload, `process.on('exit', () => process.stderr.write('evm cache: ' + require(${JSON.stringify(fileURLToPath(new URL('../../bin/loadBundle.cjs', import.meta.url)))}).parts.get('evm')?.cache + '\\n'));\n`);
    const one = await runTxray([hashes['recursion']!, '-r', anvil.url, '--tracer', 'local', '--debug'], { NODE_OPTIONS: `--require ${preload}` }, undefined, project);
    expect(one.code).toBe(0);
    expect(one.stderr).toContain('code cache used');
    expect(one.stderr).toContain('evm cache: used');
    const two = await runTxray([hashes['recursion']!, hashes['showcase']!, '-r', anvil.url, '--tracer', 'local', '--json'], { NODE_OPTIONS: `--require ${preload}` }, undefined, project);
    expect(two.stderr).toContain('evm cache: used');
    // The second ran after those settings: the same answer as on its own.
    const alone = await json([hashes['showcase']!, '-r', anvil.url, '--tracer', 'local', '--json']);
    // One JSON document a line, one per hash.
    const lines = two.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    const second = JSON.parse(lines[1]!) as Record<string, unknown>;
    expect(second.traceSource).toBe('local');
    expect(second.calls).toEqual(alone.calls);
  });
});
