/**
 * `txray block` on real Uniswap v2 blocks (scripts/lib/uniswap.mjs), each fact read from the node
 * itself: the busy block's rows, reasons and fees; the sandwich, the arbitrage and the plain block's
 * absence of MEV; ids by tag, hash and number, an unknown block and a malformed id; a node without
 * trace_block and eth_getBlockReceipts; and how many HTTP requests a block takes.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, test } from 'vitest';
import { UNISWAP_ARTIFACTS, unwrappingSandwichBlock } from '../../scripts/lib/uniswap.mjs';
import { forward, type RpcServer, startRpcServer } from '../support/rpcServer.js';
import { jsonOf, runTxray } from '../support/runTxray.js';
import { type UniswapScenarios, withUniswapNode } from '../support/scenarioNode.js';

let s: UniswapScenarios;
withUniswapNode((ready) => {
  s = ready;
});

const dir = mkdtempSync(join(tmpdir(), 'txray-block-'));
/** The Hopper's ABI, so its custom error reads by name as a lookup with --abi reads it. */
const hopperAbi = join(dir, 'hopper.json');
writeFileSync(hopperAbi, JSON.stringify(UNISWAP_ARTIFACTS.hopper.abi));

const ajv = new Ajv2020({ allErrors: true, strict: false });
ajv.addSchema(JSON.parse(readFileSync(new URL('../../schema/txray.schema.json', import.meta.url), 'utf8')));
const validate = ajv.compile(JSON.parse(readFileSync(new URL('../../schema/block.schema.json', import.meta.url), 'utf8')));
const schemaErrors = (doc: unknown): string => (validate(doc) ? '' : ajv.errorsText(validate.errors));

const block = (id: string | number, url = s.anvil.url, ...extra: string[]) => runTxray(['block', String(id), '-r', url, '--abi', hopperAbi, ...extra]);
const blockJson = async (id: string | number, url?: string, ...extra: string[]) => {
  const r = await block(id, url, '--json', ...extra);
  expect([r.code, r.stderr]).toEqual([0, '']);
  const doc = jsonOf(r);
  expect(schemaErrors(doc)).toBe('');
  return doc;
};

type Row = { hash: string; index: number; from: string; status: string; gasUsed: string; fee: string; failure: { revert: { message?: string; name?: string } | null } | null };
/** A row's reason as the scenario names it: an Error(string)'s text, or a custom error's name. */
const reasonOf = (row: Row): string | null => row.failure?.revert?.message ?? row.failure?.revert?.name ?? null;

/** A proxy in front of anvil that counts HTTP requests (a batch is one) and refuses `refused` methods as a node without them would. */
async function standIn(refused: readonly string[] = []): Promise<RpcServer & { posts: () => number }> {
  const server = await startRpcServer(({ method, params }) => (refused.includes(method) ? { error: { code: -32601, message: `the method ${method} does not exist/is not available` } } : forward(s.anvil.url, method, params)));
  // Each batch's requests are recorded with its size: a batch of n counts 1/n per entry.
  const posts = () => Math.round(server.requests.reduce((n, r) => n + (r.batch === undefined ? 1 : 1 / r.batch), 0));
  return Object.assign(server, { posts });
}

describe('the busy block', () => {
  let doc: Record<string, any>;
  beforeAll(async () => {
    doc = await blockJson(s.blocks.busy.number);
  });

  test('every row: its hash, index, sender, status, gas used and fee as the receipts say', () => {
    const facts = s.blocks.busy.transactions;
    expect(doc.transactions).toHaveLength(100);
    expect(doc.transactions.map((t: Row) => [t.hash, t.index, t.from, t.status, t.gasUsed, t.fee])).toEqual(facts.map((f) => [f.hash, f.index, f.from, f.status, f.gasUsed.toString(), f.fee.toString()]));
  });

  test('every reverted row says the reason the node traces, and no other row has one', () => {
    expect(doc.transactions.map((t: Row) => [t.hash, reasonOf(t)])).toEqual(s.blocks.busy.transactions.map((f) => [f.hash, f.reason]));
  });

  test('the header and fees: burnt = base fee × gas used, tips = Σ (effective price − base fee) × gas used', async () => {
    const raw = await s.anvil.rpc('eth_getBlockByNumber', [`0x${s.blocks.busy.number.toString(16)}`, false]);
    const receipts: Array<{ gasUsed: string; effectiveGasPrice: string }> = await s.anvil.rpc('eth_getBlockReceipts', [raw.hash]);
    const base = BigInt(raw.baseFeePerGas);
    const tips = receipts.reduce((sum, r) => sum + (BigInt(r.effectiveGasPrice) - base) * BigInt(r.gasUsed), 0n);
    expect(doc.block).toMatchObject({ number: String(s.blocks.busy.number), hash: raw.hash, parentHash: raw.parentHash, timestamp: BigInt(raw.timestamp).toString(), miner: raw.miner, gasUsed: BigInt(raw.gasUsed).toString(), gasLimit: BigInt(raw.gasLimit).toString(), baseFeePerGas: base.toString(), transactionCount: 100 });
    expect(doc.fees).toEqual({ burnt: (base * BigInt(raw.gasUsed)).toString(), tips: tips.toString(), toFeeRecipient: '0', untraced: 0 });
    expect(tips).toBe(s.blocks.busy.fees.tips);
  });

  test('why each failed, in one line spelled once: the row\'s action, the Failed section, --json and a lookup of it', async () => {
    const failed = (doc.transactions as Array<Record<string, any>>).filter((t) => t.status === 'reverted');
    expect(failed.length).toBeGreaterThan(0);
    for (const t of failed) expect(t.action.summary).toBe(`Failed: ${t.failure.reason}`);
    const text = (await block(s.blocks.busy.number)).stdout;
    const section = text.slice(text.indexOf('Failed ('));
    for (const t of failed) expect(section).toContain(`${t.hash.slice(0, 10)}…${t.hash.slice(-6)}  ${t.failure.reason}\n`);
    const one = await runTxray([failed[0]!.hash, '-r', s.anvil.url, '--abi', hopperAbi]);
    expect(one.stdout.split('Why it failed\n')[1]!.split('\n')[0]!.trim()).toBe(failed[0]!.failure.reason);
  });

  test('nothing in it looks like MEV', () => {
    expect(doc.mev).toEqual([]);
  });

  test('the text: a row per transaction, the failed ones with their reasons, and no MEV', async () => {
    const r = await block(s.blocks.busy.number);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Block ${s.blocks.busy.number}`);
    expect(r.stdout).toContain('Failed (12)');
    expect(r.stdout).toContain('Error: UniswapV2Router: EXPIRED');
    expect(r.stdout).toContain('BadPath(');
    expect(r.stdout).toMatch(/Looks like MEV\n {2}nothing/);
  });

  test('in at most 5 HTTP requests (a batch counts as one)', async () => {
    const node = await standIn();
    try {
      await blockJson(s.blocks.busy.number, node.url);
      expect(node.posts()).toBeLessThanOrEqual(5);
      expect(node.requests.map((r) => r.method)).toEqual(expect.arrayContaining(['eth_getBlockByNumber', 'eth_getBlockReceipts', 'trace_block']));
    } finally {
      await node.close();
    }
  });

  test('a node without trace_block or eth_getBlockReceipts: every status and reason still right, the receipts in one batch', async () => {
    const node = await standIn(['trace_block', 'eth_getBlockReceipts']);
    try {
      const d = await blockJson(s.blocks.busy.number, node.url);
      expect(d.transactions.map((t: Row) => [t.hash, t.status, reasonOf(t)])).toEqual(s.blocks.busy.transactions.map((f) => [f.hash, f.status, f.reason]));
      expect(node.requests.map((r) => r.method)).toContain('debug_traceBlockByHash');
      expect(node.requests.filter((r) => r.method === 'eth_getTransactionReceipt').every((r) => r.batch === 100)).toBe(true);
    } finally {
      await node.close();
    }
  });

  test('no block-level method at all: each transaction traced on its own, the reasons still right', async () => {
    const node = await standIn(['trace_block', 'eth_getBlockReceipts', 'debug_traceBlockByHash']);
    try {
      const d = await blockJson(s.blocks.busy.number, node.url);
      expect(d.transactions.map((t: Row) => [t.hash, t.status, reasonOf(t)])).toEqual(s.blocks.busy.transactions.map((f) => [f.hash, f.status, f.reason]));
      expect(node.posts()).toBeLessThanOrEqual(8);
    } finally {
      await node.close();
    }
  });

  test('no tracer at all: every status from the receipts, and one warning', async () => {
    const node = await standIn(['trace_block', 'debug_traceBlockByHash', 'trace_transaction', 'debug_traceTransaction']);
    try {
      const r = await block(s.blocks.busy.number, node.url, '--json');
      expect(r.code).toBe(0);
      const d = jsonOf(r);
      expect(d.transactions.map((t: Row) => [t.hash, t.status])).toEqual(s.blocks.busy.transactions.map((f) => [f.hash, f.status]));
      expect(r.stderr.match(/warning/g)).toHaveLength(1);
      expect(r.stderr).toContain('serves no call tracer');
      // No trace, no sight of a call's payment to the fee recipient: not known, not 0.
      expect(d.fees).toMatchObject({ toFeeRecipient: null, untraced: d.transactions.filter((t: Row) => t.status !== 'reverted').length });
    } finally {
      await node.close();
    }
  });
});

describe('what looks like MEV', () => {
  test('the sandwich: its three transactions in block order, the attacker, the pool and its net flows; and its payment to the fee recipient', async () => {
    const { front, victims, back, attacker, pool, profit, payment } = s.blocks.sandwich.sandwich;
    const doc = await blockJson(s.blocks.sandwich.number);
    const sandwich = doc.mev.filter((f: { kind: string }) => f.kind === 'sandwich');
    expect(sandwich).toHaveLength(1);
    expect(sandwich[0]).toMatchObject({ transactions: [front, ...victims, back], actor: attacker, pools: [pool] });
    const expected = [...profit.sent.map((m) => ({ asset: m.asset, amount: `-${m.amount}` })), ...profit.received.map((m) => ({ asset: m.asset, amount: m.amount }))];
    expect(sandwich[0].profit.map((f: { asset: string; amount: string }) => ({ asset: f.asset, amount: f.amount }))).toEqual(expected);
    expect(doc.mev.filter((f: { kind: string }) => f.kind === 'fee-recipient-payment')).toEqual([{ kind: 'fee-recipient-payment', transactions: [back], actor: attacker, pools: [], profit: null, payment: payment.toString() }]);
    expect(doc.fees.toFeeRecipient).toBe(s.blocks.sandwich.fees.toFeeRecipient.toString());
  });

  test('the text says "looks like", with the front, victim and back', async () => {
    const r = await block(s.blocks.sandwich.number);
    expect(r.stdout).toContain('looks like a sandwich by');
    expect(r.stdout).toMatch(/front 0x[0-9a-f]{8}…[0-9a-f]{6} {2}victim 0x[0-9a-f]{8}…[0-9a-f]{6} {2}back/);
    expect(r.stdout).not.toMatch(/\bis a sandwich\b/);
  });

  test('the arbitrage: one transaction round three pools, its actor and its profit in the token it started from', async () => {
    const { hash, actor, pools, token, profit } = s.blocks.arbitrage.arbitrage;
    const doc = await blockJson(s.blocks.arbitrage.number);
    expect(doc.mev).toHaveLength(1);
    expect(doc.mev[0]).toMatchObject({ kind: 'arbitrage', transactions: [hash], actor });
    expect([...doc.mev[0].pools].sort()).toEqual([...pools].sort());
    expect(doc.mev[0].profit).toEqual([{ asset: token, amount: profit.toString(), symbol: 'TKA', decimals: 18 }]);
  });

  test('the plain block: a buy and a sell on one pool by different senders is no sandwich; nothing looks like MEV', async () => {
    const doc = await blockJson(s.blocks.plain.number);
    expect(doc.transactions.map((t: Row) => t.status)).toEqual(['success', 'success', 'success', 'success']);
    expect(doc.mev).toEqual([]);
  });
});

describe('a searcher that wraps and unwraps through the router', () => {
  // WETH9 mints and burns without a Transfer: the finding's profit reads the same net changes as the rows' actions.
  test("the sandwich's profit is the searcher's net movements, and the sum of its own rows' sent and received", async () => {
    const b = await unwrappingSandwichBlock(s.anvil.rpc, s.uni);
    const { front, victims, back, attacker, profit } = b.sandwich;
    const doc = await blockJson(b.number);
    const sandwich = doc.mev.filter((f: { kind: string }) => f.kind === 'sandwich');
    expect(sandwich).toHaveLength(1);
    expect(sandwich[0]).toMatchObject({ transactions: [front, ...victims, back], actor: attacker });
    const flows = sandwich[0].profit.map((f: { asset: string; amount: string }) => ({ asset: f.asset, amount: f.amount }));
    expect(flows).toEqual([...profit.sent.map((m) => ({ asset: m.asset, amount: `-${m.amount}` })), ...profit.received.map((m) => ({ asset: m.asset, amount: m.amount }))]);
    const rows = new Map<string, bigint>();
    for (const hash of [front, back]) {
      const action = doc.transactions.find((t: Row) => t.hash === hash).action as { actor: string; sent: Array<{ asset: string; amount: string }>; received: Array<{ asset: string; amount: string }> };
      expect(action.actor).toBe(attacker);
      for (const m of action.sent) rows.set(m.asset, (rows.get(m.asset) ?? 0n) - BigInt(m.amount));
      for (const m of action.received) rows.set(m.asset, (rows.get(m.asset) ?? 0n) + BigInt(m.amount));
    }
    expect(flows).toEqual([...rows].filter(([, v]) => v !== 0n).map(([asset, v]) => ({ asset, amount: v.toString() })));
  });
});

describe('block ids', () => {
  test('latest is the last block mined, and its hash names the same block', async () => {
    const latest = await blockJson('latest');
    expect(latest.block.hash).toBe(await s.anvil.rpc('eth_getBlockByNumber', ['latest', false]).then((b: { hash: string }) => b.hash));
    const byHash = await blockJson(latest.block.hash);
    expect(byHash.block).toEqual(latest.block);
    expect(byHash.transactions).toEqual(latest.transactions);
  });

  test('no block id is latest, as cast block takes it; --help says so', async () => {
    const r = await runTxray(['block', '-r', s.anvil.url, '--abi', hopperAbi, '--json']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const doc = jsonOf(r);
    expect(schemaErrors(doc)).toBe('');
    const latest = await s.anvil.rpc('eth_getBlockByNumber', ['latest', false]);
    expect([doc.block.number, doc.block.hash]).toEqual([BigInt(latest.number).toString(), latest.hash]);
    expect(doc.transactions.map((t: Row) => t.hash)).toEqual(latest.transactions);
    const help = await runTxray(['block', '--help']);
    expect(help.stdout).toContain('Usage: txray block [options] [block]');
    expect(help.stdout).toMatch(/without one, latest/);
  });

  test('a number in hex is the same block as in decimal', async () => {
    const doc = await blockJson(`0x${s.blocks.arbitrage.number.toString(16)}`);
    expect(doc.block.number).toBe(String(s.blocks.arbitrage.number));
  });

  test('an unknown block: exit 3, one line, and a --json document that says not_found', async () => {
    const r = await block(99_999_999);
    expect(r.code).toBe(3);
    expect(r.stderr).toBe(`txray: block 99999999 is not known to ${s.anvil.url}.\n`);
    const j = await block(99_999_999, s.anvil.url, '--json');
    expect(j.code).toBe(3);
    expect(jsonOf(j)).toMatchObject({ block: null, transactions: [], error: { code: 'not_found' } });
    expect(schemaErrors(jsonOf(j))).toBe('');
  });

  test.each(['0x', '0x12345678901234567', 'tomorrow', `0x${'a'.repeat(63)}`, '-1', '1.5'])('a malformed id %j: exit 2 before any request', async (id) => {
    const node = await standIn();
    try {
      const r = await runTxray(['block', id, '-r', node.url]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^txray: .* is not a block: .*; give a number/);
      expect(r.stderr.split('\n').filter(Boolean)).toHaveLength(1);
      expect(node.requests).toEqual([]);
    } finally {
      await node.close();
    }
  });
});

describe('--html', () => {
  test("one page with the table, each row linking to that transaction's page written beside it", async () => {
    const file = join(dir, 'sandwich.html');
    const r = await block(s.blocks.sandwich.number, s.anvil.url, '--html', file, '--quiet');
    expect([r.code, r.stdout]).toEqual([0, '']);
    const page = readFileSync(file, 'utf8');
    for (const t of s.blocks.sandwich.transactions) {
      expect(page).toContain(`href="sandwich-transactions/${t.hash}.html"`);
      expect(existsSync(join(dir, 'sandwich-transactions', `${t.hash}.html`))).toBe(true);
    }
    expect(page).toContain('looks like a sandwich');
    // The actor's net flows in the text view's words (signed, in each token's decimals), not base units.
    const net = /^ {4}net for the actor (.+) \(fees aside\)$/m.exec((await block(s.blocks.sandwich.number)).stdout)?.[1];
    expect(net).toBeDefined();
    expect(page).toContain(`; net for the actor: ${net}</li>`);
  });

  test("each transaction's page is the one a lookup writes: the same fund flow, drawn from the same movements", async () => {
    const file = join(dir, 'same.html');
    expect((await block(s.blocks.sandwich.number, s.anvil.url, '--html', file, '--quiet')).code).toBe(0);
    for (const hash of [s.blocks.sandwich.sandwich.front, s.blocks.sandwich.sandwich.back]) {
      const own = join(dir, `lookup-${hash}.html`);
      expect((await runTxray([hash, '-r', s.anvil.url, '--abi', hopperAbi, '--html', own, '--quiet'])).code).toBe(0);
      // The markup before the embedded document: the title and the fund flow laid out from the movements.
      const drawn = (path: string) => readFileSync(path, 'utf8').split('<script type="application/json"')[0]!;
      expect(drawn(own)).toContain('<svg');
      expect(drawn(join(dir, 'same-transactions', `${hash}.html`))).toBe(drawn(own));
      // The embedded document too, gas profile included: the same stages made it.
      const embedded = (path: string) => JSON.parse(readFileSync(path, 'utf8').split('id="txray-data">')[1]!.split('</script>')[0]!);
      expect(embedded(join(dir, 'same-transactions', `${hash}.html`))).toEqual(embedded(own));
    }
  });
});

describe('without traces', () => {
  const sandwichOf = (doc: Record<string, any>) => doc.mev.find((f: { kind: string }) => f.kind === 'sandwich');

  test('--tracer none: the payment to the fee recipient is not known (null, "not known (no traces)"), and the sandwich leaves ether out of its profit, saying so', async () => {
    const traced = sandwichOf(await blockJson(s.blocks.sandwich.number));
    const doc = await blockJson(s.blocks.sandwich.number, s.anvil.url, '--tracer', 'none');
    expect(doc.fees).toMatchObject({ toFeeRecipient: null, untraced: s.blocks.sandwich.transactions.length });
    const sandwich = sandwichOf(doc);
    expect(sandwich).toMatchObject({ transactions: traced.transactions, actor: traced.actor, etherNotKnown: true });
    expect(traced.profit.some((f: { asset: string }) => f.asset === 'ETH')).toBe(true);
    expect(sandwich.profit).toEqual(traced.profit.filter((f: { asset: string }) => f.asset !== 'ETH'));
    expect(traced.etherNotKnown).toBeUndefined();
    const r = await block(s.blocks.sandwich.number, s.anvil.url, '--tracer', 'none');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/paid to recipient +not known \(no traces\)\n/);
    expect(r.stdout).toContain('ether not known: a transaction was not traced');
  });

  test('one transaction left untraced: the payment is a part, said with how many were not traced', async () => {
    const { back } = s.blocks.sandwich.sandwich;
    const node = await startRpcServer(({ method, params }) =>
      method === 'trace_block' || method === 'debug_traceBlockByHash' || (method === 'trace_transaction' && params?.[0] === back) ? { error: { code: -32000, message: `${method} failed here` } } : forward(s.anvil.url, method, params),
    );
    try {
      const r = await block(s.blocks.sandwich.number, node.url, '--json', '--tracer', 'parity');
      expect(r.code).toBe(0);
      const doc = jsonOf(r);
      expect(schemaErrors(doc)).toBe('');
      // The back-run paid the fee recipient inside its calls: untraced, that payment is not in the sum.
      expect(doc.fees).toMatchObject({ toFeeRecipient: '0', untraced: 1 });
      expect(sandwichOf(doc)).toMatchObject({ etherNotKnown: true });
      const text = await block(s.blocks.sandwich.number, node.url, '--tracer', 'parity');
      expect(text.stdout).toMatch(/paid to recipient +0 ETH \(directly, by calls in its transactions; a part: 1 transaction was not traced\)\n/);
    } finally {
      await node.close();
    }
  });
});

describe('options', () => {
  test('--help lists no option the command refuses; --state is refused as an unknown option', async () => {
    const help = await runTxray(['block', '--help']);
    expect(help.code).toBe(0);
    for (const o of ['--state', '--gas ', '--gas-out']) expect(help.stdout).not.toContain(o);
    expect(help.stdout).toContain('--as <address>');
    const r = await runTxray(['block', '1', '--state', '-r', s.anvil.url]);
    expect([r.code, r.stderr]).toEqual([2, "txray: unknown option '--state'; see txray block --help.\n"]);
  });

  test('--as: every row\'s action from that address\'s view, as a lookup with --as gives it', async () => {
    const { front, back } = s.blocks.sandwich.sandwich;
    const hopper = (await s.anvil.rpc('eth_getTransactionByHash', [front])).to as string;
    const plain = await blockJson(s.blocks.sandwich.number);
    const r = await block(s.blocks.sandwich.number, s.anvil.url, '--json', '--as', hopper);
    expect(r.code).toBe(0);
    const doc = jsonOf(r);
    const acted = doc.transactions.filter((t: { action: unknown }) => t.action !== null);
    expect(acted.length).toBeGreaterThan(0);
    expect(acted.every((t: { action: { actor: string } }) => t.action.actor === hopper.toLowerCase())).toBe(true);
    expect(plain.transactions.find((t: { hash: string }) => t.hash === front).action.actor).not.toBe(hopper.toLowerCase());
    for (const hash of [front, back]) {
      const lookup = jsonOf(await runTxray([hash, '-r', s.anvil.url, '--abi', hopperAbi, '--json', '--as', hopper]));
      expect(doc.transactions.find((t: { hash: string }) => t.hash === hash).action).toEqual(lookup.action);
    }
  });

  test('two block ids: exit 2, one clean line, before any request', async () => {
    const node = await standIn();
    try {
      const r = await runTxray(['block', '1', '2', '-r', node.url]);
      expect([r.code, r.stderr]).toEqual([2, 'txray: txray block takes one block, and 2 were given (1 2); see txray block --help.\n']);
      expect(node.requests).toEqual([]);
    } finally {
      await node.close();
    }
  });
});

describe('--html, checked before any request', () => {
  test("--html - writes the block's page to stdout in place of the text view", async () => {
    const r = await block(s.blocks.sandwich.number, s.anvil.url, '--html', '-');
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout.startsWith('<!doctype html>')).toBe(true);
    for (const t of s.blocks.sandwich.transactions) expect(r.stdout).toContain(t.hash);
    expect(r.stdout).not.toContain('Transactions\n');
  });

  test('--html - with --json: exit 2, no request', async () => {
    const node = await standIn();
    try {
      const r = await runTxray(['block', '1', '-r', node.url, '--html', '-', '--json']);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('--html - writes the block');
      expect(node.requests).toEqual([]);
    } finally {
      await node.close();
    }
  });

  test('--html naming a folder, or a file whose pages folder is a file: exit 2, no request, nothing written', async () => {
    const folder = mkdtempSync(join(dir, 'h-'));
    const taken = join(dir, 'taken.html');
    writeFileSync(join(dir, 'taken-transactions'), 'not a folder');
    const node = await standIn();
    try {
      for (const target of [folder, taken]) {
        const r = await runTxray(['block', '1', '-r', node.url, '--html', target]);
        expect(r.code).toBe(2);
        expect(r.stderr.split('\n').filter(Boolean)).toHaveLength(1);
        expect(existsSync(`${folder}-transactions`)).toBe(false);
        expect(existsSync(taken)).toBe(false);
      }
      expect(node.requests).toEqual([]);
    } finally {
      await node.close();
    }
  });
});

describe('the pending block', () => {
  test('said once for the block: no receipts, no per-transaction "treating it as pending", the payment to the fee recipient not known', async () => {
    const [from, to] = s.uni.accounts.crowd;
    await s.anvil.rpc('evm_setAutomine', [false]);
    try {
      const sent = [await s.anvil.rpc('eth_sendTransaction', [{ from, to, value: '0x1' }]), await s.anvil.rpc('eth_sendTransaction', [{ from: to, to: from, value: '0x2' }])];
      const r = await block('pending', s.anvil.url, '--json');
      expect(r.code).toBe(0);
      const doc = jsonOf(r);
      expect(schemaErrors(doc)).toBe('');
      expect(doc.transactions.map((t: Row) => [t.hash, t.status])).toEqual(sent.map((h) => [h, 'pending']));
      expect(doc.warnings).toEqual([expect.stringContaining('the pending block has not run yet: it has no receipts')]);
      expect(doc.fees).toMatchObject({ toFeeRecipient: null, untraced: 2 });
      const text = await block('pending');
      expect(text.stderr.split('\n').filter(Boolean)).toEqual([expect.stringContaining('the pending block has not run yet')]);
      expect(text.stdout).toMatch(/paid to recipient +not known \(no traces\)\n/);
    } finally {
      await s.anvil.rpc('evm_mine', []);
      await s.anvil.rpc('evm_setAutomine', [true]);
    }
  });
});
