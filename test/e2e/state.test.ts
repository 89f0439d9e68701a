/**
 * --state end to end on a real anvil (prestateTracer in diff mode; anvil has no
 * trace_replayTransaction), run from a Foundry project whose artifacts carry storageLayout. Proxies in
 * front of anvil misbehave on purpose: one serves no state tracer, one refuses batch requests, one
 * counts how often each method is asked.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { EVIL_SYMBOL, FRESH, writeFoundryProject } from '../../scripts/lib/scenarios.mjs';
import { type Anvil, withScenarioNode } from '../support/scenarioNode.js';
import { getAddress } from 'viem';
import { forward, type RpcServer, startRpcServer } from '../support/rpcServer.js';
import { jsonOf, type RunResult, runTxray } from '../support/runTxray.js';
import { schemaErrors } from '../support/schema.js';

let anvil: Anvil;
let hashes: Record<string, string>;
let s: { vault: string; proxy: string; evilToken: string; wordToken: string; mute: string; child: string; showcase: string; logic: string; token: string };
withScenarioNode((scenarios) => {
  anvil = scenarios.anvil;
  hashes = scenarios.hashes as Record<string, string>;
  s = scenarios as unknown as typeof s;
});

const project = mkdtempSync(join(tmpdir(), 'txray-state-'));
writeFoundryProject(project);
const bare = mkdtempSync(join(tmpdir(), 'txray-state-bare-'));

const ESC = '\u001b';
const txray = (name: string, ...extra: string[]): Promise<RunResult> => runTxray([hashes[name]!, '--rpc-url', anvil.url, '--state', ...extra], {}, undefined, project);
const big = (v: unknown): bigint => BigInt(v as string);

/** The ETH rows of a --json document's balanceChanges, by address. */
const ethRows = (doc: Record<string, any>): Map<string, { delta: string }> =>
  new Map(doc.balanceChanges.filter((b: { asset: string }) => b.asset === 'ETH').map((b: { address: string }) => [b.address, b]));

describe('--state on anvil, from a Foundry project with storage layouts', () => {
  test('every storage shape named through the proxy, token changes with their own symbols, value to a new account', async () => {
    const r = await txray('stateShow');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const out = r.stdout;
    expect(out).not.toContain(ESC);
    expect(out).toMatch(/Storage changes \(1 contract, 13 slots\)/);
    expect(out).toMatch(/Proxy1967\(0x[0-9a-fA-F]{40}\) · names from Vault's storage layout \(implementation Vault\(0x/);
    for (const line of [
      'total: 0 → 1000 (+1000)  slot 0',
      'epoch: 0 → 7 (+7)  slot 0',
      'paused: false → true  slot 0',
      'admin: 0x0000…0000 → 0xf39F…2266  slot 1',
      'title: "" → "vault"  slot 2',
      'balanceOf[0xf39F…2266]: 0 → 1000 (+1000)',
      'allowance[0xf39F…2266][0x0000…bEEF]: 0 → 500 (+500)',
      'positions[42].amount: 0 → 1000 (+1000)',
      'positions[42].owner: 0x0000…0000 → 0x0000…bEEF',
      'history[0x0000…bEEF].length: 0 → 1 (+1)',
      'history[0x0000…bEEF][0]: 0 → 1001 (+1001)',
      'items.length: 0 → 1 (+1)  slot 7',
      'items[0]: 0 → 3000 (+3000)',
      'last.owner: 0x0000…0000 → 0xf39F…2266  slot 9',
    ]) {
      expect(out).toContain(line);
    }
    expect(out).not.toMatch(/^ {6}slot /m); // nothing left unnamed
    // Tokens: the hostile symbol shown escaped with its 6 decimals, the bytes32 one read as text.
    expect(out).toContain('+0.001 \\x1b[31mEVIL\\u{202e}');
    expect(out).toContain('+0.000000000000002 MKR');
    expect(out).toContain('+0.000000000000000005 MKR');
    expect(out).toMatch(/0x000000000000000000000000000000000000bEEF new\n {6}\+0\.0000000000000005 ETH \(500 wei\)/);
    expect(out).toMatch(/Fee {2}[\d.]+ ETH \([\d,]+ wei\): [\d.]+ ETH \([\d,]+ wei\) burned \(base fee [\d.]+ gwei\), [\d.]+ ETH \([\d,]+ wei\) to the coinbase 0x0000…0000/);
    expect(out.indexOf('Balance changes')).toBeLessThan(out.indexOf('Storage changes'));
    expect(out.indexOf('Accounts (4)')).toBeLessThan(out.indexOf('Call tree'));
  });

  test('--json: the ETH changes add up to minus the burned fee; the sender paid value and fee, the coinbase got the priority fee', async () => {
    const r = await txray('stateShow', '--json');
    expect(r.code).toBe(0);
    const doc = jsonOf(r);
    expect(schemaErrors(doc)).toBe('');
    const { transaction, receipt, fee } = doc;
    expect(doc.stateSource).toBe('debug_traceTransaction');
    expect(big(fee.paid)).toBe(big(receipt.gasUsed) * big(receipt.effectiveGasPrice));
    expect(big(fee.burned) + big(fee.tip)).toBe(big(fee.paid));
    const rows = ethRows(doc);
    const sum = [...rows.values()].reduce((n, b) => n + big(b.delta), 0n);
    expect(sum).toBe(-big(fee.burned));
    expect(big(rows.get(transaction.from)!.delta)).toBe(-(big(fee.paid) + big(transaction.value)));
    const accounts = new Map(doc.accountChanges.map((a: { address: string }) => [a.address, a]));
    const coinbase = [...accounts.values()].find((a: any) => a.roles.includes('coinbase')) as { address: string };
    expect(big(rows.get(coinbase.address)!.delta)).toBe(big(fee.tip));
    expect(accounts.get(transaction.from)).toEqual({ address: transaction.from, roles: ['sender'], nonceBefore: String(Number(transaction.nonce)), nonceAfter: String(Number(transaction.nonce) + 1) });
    expect(accounts.get(FRESH)).toEqual({ address: FRESH, roles: ['new'] });
    // Token rows: what the tokens themselves answered, hostile text unchanged in JSON (escaped by JSON).
    const evil = doc.balanceChanges.find((b: any) => b.asset === s.evilToken.toLowerCase());
    expect(evil).toEqual({ address: FRESH, asset: s.evilToken.toLowerCase(), standard: 'ERC-20', symbol: EVIL_SYMBOL, decimals: 6, delta: '1000' });
    expect(r.stdout).not.toContain(ESC);
    // Storage: one entry per changed slot, the variables in it with their paths, keys and typed values.
    const proxy = s.proxy.toLowerCase();
    const slots = doc.storageChanges.filter((c: { address: string }) => c.address === proxy);
    expect(slots).toHaveLength(13);
    const variables = slots.flatMap((c: any) => c.variables ?? []);
    expect(variables).toContainEqual({ name: 'positions', path: 'positions[42].owner', keys: ['42'], type: 'address', before: `0x${'0'.repeat(40)}`, after: '0x000000000000000000000000000000000000bEEF' });
    expect(variables).toContainEqual({ name: 'paused', path: 'paused', keys: [], type: 'bool', before: false, after: true });
    expect(variables).toContainEqual({ name: 'total', path: 'total', keys: [], type: 'uint128', before: '0', after: '1000' });
    const sender = variables.find((v: any) => v.name === 'allowance');
    expect(sender).toEqual({ name: 'allowance', path: `allowance[${getAddress(transaction.from)}][0x000000000000000000000000000000000000bEEF]`, keys: [getAddress(transaction.from), '0x000000000000000000000000000000000000bEEF'], type: 'uint256', before: '0', after: '500' });
    // The node's answer rides along verbatim.
    const direct = await forward(anvil.url, 'debug_traceTransaction', [hashes['stateShow'], { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }]);
    expect(doc.stateDiff).toEqual((direct as { result: unknown }).result);
  });

  test('an ERC-20 transfer: the token deltas from the events match the decoded balanceOf slots', async () => {
    const r = await txray('tokenTransfer', '--json');
    const doc = jsonOf(r);
    expect(schemaErrors(doc)).toBe('');
    const tokens = doc.balanceChanges.filter((b: any) => b.standard === 'ERC-20');
    expect(tokens.map((t: any) => [t.symbol, t.decimals])).toEqual([['TT', 18], ['TT', 18]]);
    const slots = doc.storageChanges.flatMap((c: any) => c.variables ?? []).filter((v: any) => v.name === 'balanceOf');
    expect(slots).toHaveLength(2);
    for (const t of tokens) {
      const slot = slots.find((v: any) => v.keys[0].toLowerCase() === t.address)!;
      expect(big(slot.after) - big(slot.before)).toBe(big(t.delta));
    }
  });

  test('a plain ETH transfer: sender, recipient and coinbase, adding up to minus the burned fee', async () => {
    const r = await txray('legacyTransfer', '--json');
    const doc = jsonOf(r);
    const roles = doc.accountChanges.map((a: any) => a.roles);
    expect(roles).toEqual(expect.arrayContaining([['sender'], ['recipient'], ['coinbase']]));
    expect(roles).toHaveLength(3);
    const sum = [...ethRows(doc).values()].reduce((n, b) => n + big(b.delta), 0n);
    expect(sum).toBe(-big(doc.fee.burned));
    expect(doc.storageChanges).toEqual([]);
  });

  test('a contract created inside the transaction, and a storage write of its creator', async () => {
    const r = await txray('showcase');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Child\(0x[0-9a-fA-F]{40}\) created {2}nonce 0 → 1, code 651 bytes, balance/);
    expect(r.stdout).toContain('counter: 0 → 3 (+3)  slot 0');
    expect(r.stdout).toMatch(/lastChild: 0x0000…0000 → Child\(0x[0-9a-fA-F]{4}…[0-9a-fA-F]{4}\) {2}slot 2/);
  });

  test('a selfdestruct after Cancun (EIP-6780) of an older contract: the balance goes, the account stays', async () => {
    const doc = jsonOf(await txray('destroyOld', '--json'));
    expect(schemaErrors(doc)).toBe('');
    const rows = ethRows(doc);
    const child = s.child.toLowerCase();
    expect(rows.get(child)).toMatchObject({ before: '3', after: '0', delta: '-3' });
    expect(big(rows.get(FRESH)!.delta)).toBe(3n);
    expect(doc.accountChanges.find((a: any) => a.address === child)).toEqual({ address: child, roles: ['recipient'] });
  });

  test('an EIP-7702 delegation set, and the account\'s storage named by its delegate\'s layout', async () => {
    const r = await txray('setCode');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/delegates to Logic\(0x[0-9a-fA-F]{4}…[0-9a-fA-F]{4}\) \(EIP-7702\)/);
    expect(r.stdout).toMatch(/names from Logic's storage layout \(implementation Logic\(/);
    expect(r.stdout).toContain('counter: 0 → 5 (+5)  slot 0');
  });

  test('the EIP-1967 slots a proxy\'s creation writes are named without any artifact', async () => {
    const r = await runTxray([hashes['proxyCreation']!, '--rpc-url', anvil.url, '--state'], {}, undefined, bare);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/EIP-1967 implementation: 0x0000…0000 → 0x[0-9a-fA-F]{4}…[0-9a-fA-F]{4} {2}slot 0x360894a1…5d382bbc/);
    expect(r.stdout).toMatch(/EIP-1967 admin: 0x0000…0000 → 0xf39F…2266/);
    expect(r.stdout).toMatch(/recipient, created {2}nonce 0 → 1, code \d+ bytes, 2 slots/);
  });

  test('without artifacts, slots stay raw and the token transfer is still counted', async () => {
    const r = await runTxray([hashes['tokenTransfer']!, '--rpc-url', anvil.url, '--state'], {}, undefined, bare);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ {6}slot 0x[0-9a-f]{8}…[0-9a-f]{8}: 0x0 → 0x22b1c8c1227a00000$/m);
    expect(r.stdout).toContain('-40 TT');
    expect(r.stdout).toContain('+40 TT');
  });

  test('a reverted transaction: only the fee moved; exit 1 as always', async () => {
    const r = await txray('custom', '--json');
    expect(r.code).toBe(1);
    const doc = jsonOf(r);
    expect(doc.accountChanges.map((a: any) => a.roles)).toEqual([['sender'], ['coinbase']]);
    expect(doc.accountChanges[0]).toMatchObject({ nonceBefore: String(Number(doc.transaction.nonce)) });
    expect(big(ethRows(doc).get(doc.transaction.from)!.delta)).toBe(-big(doc.fee.paid));
    expect(doc.storageChanges).toEqual([]);
  });

  test('without --state nothing changes: no sections, no state key, no extra request', async () => {
    const r = await runTxray([hashes['stateShow']!, '--rpc-url', anvil.url, '--json'], {}, undefined, project);
    const doc = jsonOf(r);
    for (const key of ['stateSource', 'stateDiff', 'balanceChanges', 'storageChanges', 'accountChanges']) expect(doc[key]).toBeNull();
    // The fee is the receipt's, as the text's Fee line: its split needs --state's block header.
    expect(doc.fee).toEqual({ paid: (BigInt(doc.receipt.gasUsed) * BigInt(doc.receipt.effectiveGasPrice)).toString(), burned: null, tip: null, rules: 'ethereum' });
    const t = await runTxray([hashes['stateShow']!, '--rpc-url', anvil.url], {}, undefined, project);
    expect(t.stdout).not.toContain('Balance changes');
  });
});

const isPrestate = (params: unknown[]) => (params[1] as { tracer?: string } | undefined)?.tracer === 'prestateTracer';

describe('nodes that cannot or will not', () => {
  let noState: RpcServer;
  let noBatch: RpcServer;
  let counting: RpcServer;
  let bloated: RpcServer;
  let padded: RpcServer;
  beforeAll(async () => {
    // 100,000 more changed slots on the recipient of whatever transaction is asked.
    bloated = await startRpcServer(async ({ method, params }) => {
      const answer = await forward(anvil.url, method, params);
      if (method !== 'debug_traceTransaction' || !isPrestate(params) || !('result' in answer)) return answer;
      const { pre, post } = answer.result as { pre: Record<string, any>; post: Record<string, any> };
      const target = Object.keys(post).find((a) => a === s.proxy.toLowerCase())!;
      const storage = { ...(post[target].storage ?? {}) };
      for (let i = 0; i < 100_000; i++) storage[`0x${(0x10000000n + BigInt(i)).toString(16).padStart(64, '0')}`] = `0x${(i + 1).toString(16).padStart(64, '0')}`;
      return { result: { pre, post: { ...post, [target]: { ...post[target], storage } } } };
    });
    // The state answer padded past --max-response-mb 1 (the others stay small).
    padded = await startRpcServer(async ({ method, params }, res) => {
      const answer = await forward(anvil.url, method, params);
      if (method !== 'debug_traceTransaction' || !isPrestate(params)) return answer;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: 0, ...answer, padding: 'x'.repeat(2_000_000) }));
      return 'handled';
    });
    noState = await startRpcServer(({ method, params }) =>
      method === 'trace_replayTransaction' || (method === 'debug_traceTransaction' && isPrestate(params)) ? { error: { code: -32601, message: 'the method does not exist/is not available' } } : forward(anvil.url, method, params),
    );
    noBatch = await startRpcServer(({ method, params }) => forward(anvil.url, method, params), { refuseBatches: true });
    counting = await startRpcServer(({ method, params }) => forward(anvil.url, method, params));
  });
  afterAll(async () => {
    await Promise.all([noState.close(), noBatch.close(), counting.close(), bloated.close(), padded.close()]);
  });

  test('a node with neither state tracer: one warning, everything else shown, exit by status', async () => {
    const r = await runTxray([hashes['custom']!, '--rpc-url', noState.url, '--state'], {}, undefined, project);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`txray: warning: neither trace_replayTransaction nor debug_traceTransaction (prestateTracer) is available on ${noState.url} (method not found); state changes are not shown.\n`);
    expect(r.stdout).toContain('Why it failed');
    expect(r.stdout).toContain('State changes\n  not shown: the node gave no state diff (see the warning).');
    expect(r.stdout).toContain('Call tree (1 entry, depth 0)');
    const j = await runTxray([hashes['custom']!, '--rpc-url', noState.url, '--state', '--json'], {}, undefined, project);
    // The fee comes from the receipt, with or without a diff; its split needs the diff's block header.
    expect(jsonOf(j)).toMatchObject({ stateSource: null, stateDiff: null, balanceChanges: null, fee: { paid: expect.stringMatching(/^[1-9]\d*$/), burned: null, tip: null } });
    expect(schemaErrors(jsonOf(j))).toBe('');
  });

  test('--tracer parity asks only trace_replayTransaction (anvil has none): one warning', async () => {
    const r = await txray('showcase', '--tracer', 'parity');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(`txray: warning: trace_replayTransaction is not available on ${anvil.url.replace('localhost', '127.0.0.1')} (method not found); state changes are not shown.\n`);
  });

  test('a node that refuses batch requests: token amounts raw, one warning, the rest of the state shown', async () => {
    const r = await runTxray([hashes['stateShow']!, '--rpc-url', noBatch.url, '--state'], {}, undefined, project);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^txray: warning: token symbols and decimals could not be read \(batch of 4 eth_call: http:\/\/127\.0\.0\.1:\d+ did not answer the batch with a batch: batch requests are not served here\); token amounts are shown raw\.\n$/);
    expect(r.stdout).toMatch(/\+1,000 ERC-20 MetaToken\(0x[0-9a-fA-F]{4}…[0-9a-fA-F]{4}\) \(raw units: decimals unknown\)/);
    expect(r.stdout).toContain('balanceOf[0xf39F…2266]: 0 → 1000 (+1000)');
  });

  test('several hashes: the state tracer is detected once, symbols asked in one batch each', async () => {
    const names = ['showcase', 'stateShow', 'tokenTransfer'];
    const r = await runTxray([...names.map((n) => hashes[n]!), '--rpc-url', counting.url, '--state', '--json', '--concurrency', '1'], {}, undefined, project);
    expect(r.code).toBe(0);
    const docs = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(docs.map((d) => d.stateSource)).toEqual(['debug_traceTransaction', 'debug_traceTransaction', 'debug_traceTransaction']);
    const asked = (m: string) => counting.requests.filter((q) => q.method === m).length;
    expect(asked('trace_replayTransaction')).toBe(1);
    expect(asked('eth_getBlockByHash')).toBe(3);
    expect(asked('eth_call')).toBe(2 * 2 + 2); // two tokens in stateShow, one in tokenTransfer: symbol and decimals each
  });

  test('a token whose symbol() reverts: its amount shown against its address', async () => {
    const r = await txray('muteMint');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/\n {6}\+7 ERC-20 MetaToken\(0x[0-9a-fA-F]{4}…[0-9a-fA-F]{4}\)\n/);
    const doc = jsonOf(await txray('muteMint', '--json'));
    expect(doc.balanceChanges.find((b: any) => b.standard === 'ERC-20')).toEqual({ address: doc.transaction.from, asset: s.mute.toLowerCase(), standard: 'ERC-20', decimals: 0, delta: '7' });
  });

  test('100,000 changed slots: the text view stays bounded and says how many it left out; --json has them all', async () => {
    const r = await runTxray([hashes['stateShow']!, '--rpc-url', bloated.url, '--state'], {}, undefined, project);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Storage changes (1 contract, 100,013 slots)');
    expect(r.stdout).toContain('… 99,813 more slots not shown (all of them are in --json)');
    expect(r.stdout.split('\n').length).toBeLessThan(400);
    const j = await runTxray([hashes['stateShow']!, '--rpc-url', bloated.url, '--state', '--json'], {}, undefined, project);
    const doc = jsonOf(j);
    expect(doc.storageChanges).toHaveLength(100_013);
    expect(doc.storageChanges.filter((c: any) => c.variables !== undefined)).toHaveLength(13);
  }, 120_000);

  test('a state answer over --max-response-mb: one warning, the rest shown', async () => {
    const r = await runTxray([hashes['showcase']!, '--rpc-url', padded.url, '--state', '--max-response-mb', '1'], {}, undefined, project);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^txray: warning: the answer from http:\/\/127\.0\.0\.1:\d+ is larger than 1 MiB; raise the cap with --max-response-mb if this is expected; state changes are not shown\.\n$/);
    expect(r.stdout).toContain('Call tree (14 entries, depth 4)');
  });
});
