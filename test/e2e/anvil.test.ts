/**
 * End to end on a real node: the built bin against anvil (started here, stopped after), with the
 * Scenarios.sol transactions. Each test asserts stdout, stderr and the exit code.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatEther, getAddress } from 'viem';
import { describe, expect, test } from 'vitest';
import { call, DEV, send } from '../../scripts/lib/scenarios.mjs';
import { type Anvil, withScenarioNode } from '../support/scenarioNode.js';
import { forward, startRpcServer } from '../support/rpcServer.js';
import { BIN, jsonOf, type RunResult, runTxray, txrayEnv } from '../support/runTxray.js';
import { schemaErrors } from '../support/schema.js';

let anvil: Anvil;
let hashes: Record<string, string>;
let showcase: string;
withScenarioNode((s) => {
  ({ anvil, hashes, showcase } = s);
});

const ESC = '\u001b';
const txray = (name: string, ...extra: string[]) => runTxray([hashes[name]!, '--rpc-url', anvil.url, ...extra]);

describe('text output on anvil', () => {
  test('success: the showcase transaction shows every kind of call', async () => {
    const r = await txray('showcase');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('✔ success');
    expect(r.stdout).toContain('EIP-1559 (0x2)');
    for (const kind of ['├─ create ', '├─ call ', '├─ staticcall ', '├─ delegatecall ', '├─ create2 ', '└─ selfdestruct → ']) {
      expect(r.stdout).toContain(kind);
    }
    // No ABI here names fail(string): its argument's type is read from the data's layout, and marked as guessed.
    expect(r.stdout).toMatch(/staticcall 0x[0-9a-fA-F]{40}::0x78122f3a\(string: "caught it"\) \(guessed types\) · [\d,]+ gas ✗ Reverted: Error: caught it/);
    expect(r.stdout).toMatch(/Call tree \(14 entries, depth 4\)/);
    expect(r.stdout).toContain('Logs (4)');
    expect(r.stdout).not.toContain('Why it failed');
    expect(r.stdout).not.toContain(ESC);
  });

  test.each([
    ['reason', 'Error: not enough tokens'],
    ['panicIndex', 'Panic(0x32): array index out of bounds'],
    ['overflow', 'Panic(0x11): arithmetic overflow or underflow'],
    ['custom', 'custom error 0x5ffc47ee'],
    ['outOfGas', 'Out of gas'],
    ['invalid', 'Bad instruction'],
  ])('reverted (%s): exit 1 and the reason, the action saying it in the same words', async (name, reason) => {
    const r = await txray(name);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('✘ reverted');
    const why = r.stdout.split('Why it failed\n')[1]!.split('\n')[0]!;
    expect(why.trim()).toBe(reason);
    expect(r.stdout).toMatch(new RegExp(`^ {2}Action {9}Failed: ${reason.replace(/[()]/g, '\\$&')}$`, 'm'));
  });

  test('reverted deep inside: the revert is traced to the call that raised it', async () => {
    const r = await txray('deep');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('Error: deep reason');
    expect(r.stdout).toMatch(/raised in {2}0x[0-9a-fA-F]{4}…[0-9a-fA-F]{4}(\.\w+)?, called by 0x[0-9a-fA-F]{4}…[0-9a-fA-F]{4}(\.\w+)?\n/);
    expect(r.stdout).not.toContain('at trace [');
  });

  test('hostile revert text is escaped, never written raw', async () => {
    const r = await txray('evil');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('Error: \\x1b[31mred\\x1b[0m\\r\\u{202e}gnp.exe\\u{200b}');
    expect(r.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e\u200b]/);
    const colour = await txray('evil', '--color');
    // With colour on, the only ESC bytes are SGR colour codes that txray writes itself.
    expect(colour.stdout.replace(/\u001b\[[0-9;]*m/g, '')).not.toContain(ESC);
  });

  test('transaction types 0, 1 and 4, and a contract creation', async () => {
    const legacy = await txray('legacyTransfer');
    expect(legacy.code).toBe(0);
    expect(legacy.stdout).toContain('legacy (0x0)');
    expect(legacy.stdout).toMatch(/Value\s+1\.5 ETH\n/);
    expect(legacy.stdout).toMatch(/Gas price\s+2 gwei/);

    const access = await txray('accessList');
    expect(access.stdout).toContain('access list (EIP-2930) (0x1)');
    expect(access.stdout).toMatch(/Access list\s+1 address, 1 storage key/);

    const setCode = await txray('setCode');
    expect(setCode.code).toBe(0);
    expect(setCode.stdout).toContain('set code (EIP-7702) (0x4)');
    // The authority recovered from the signature (DEV.other signed it), the delegate (Logic, unnamed here: no project), applied.
    expect(setCode.stdout).toMatch(/Authorizations\s+1\n\s+0x70997970C51812dc3A010C7d01b50e0d17dc79C8 → 0x5FbD…0aa3\s+chain 31337\s+nonce 0\n/);
    expect(setCode.stdout).toMatch(/To\s+0x70997970C51812dc3A010C7d01b50e0d17dc79C8 \(delegated to 0x5FbD…0aa3\)\n/);

    const creation = await txray('creation');
    expect(creation.stdout).toContain(`contract creation → ${getAddress(showcase)}`);
    expect(creation.stdout).toMatch(new RegExp(`\\n  create ${getAddress(showcase)} · 1 ETH · init [\\d,]+ bytes`));
  });

  test('deep recursion renders every level', async () => {
    const r = await txray('recursion');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Call tree (61 entries, depth 60)');
    expect(r.stdout.split('\n').filter((l) => /call 0x[0-9a-fA-F]{40}::0xb2041d21\(uint256: \d+\) \(guessed types\)/.test(l))).toHaveLength(61);
    expect(r.stdout).toMatch(/Input +36 bytes: 0xb2041d21\(uint256: \d+\) \(guessed types\)\n/);
  });

  test('unknown hash: exit 3', async () => {
    const r = await runTxray([`0x${'ab'.repeat(32)}`, '-r', anvil.url]);
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('? not found');
    expect(r.stdout).toContain(`${anvil.url} does not know this transaction`);
    expect(r.stderr).toBe('');
  });

  test('an address given as the hash: exit 2 before any request, saying it is an address and how to call it', async () => {
    const node = await startRpcServer(({ method, params }) => forward(anvil.url, method, params));
    try {
      const r = await runTxray([showcase, '-r', node.url]);
      expect([r.code, r.stderr]).toEqual([2, `txray: '${showcase}' is not a transaction hash: that is an address (40 hex digits); to simulate a call to it: txray call ${showcase} <signature> [arguments...].\n`]);
      expect(node.requests).toEqual([]);
    } finally {
      await node.close();
    }
  });

  test("a block's hash given as a transaction's: exit 3, saying which block it is and what shows it, in the view and on stderr; a found transaction asks nothing more", async () => {
    const mined = await anvil.rpc('eth_getTransactionReceipt', [hashes.reason!]);
    const blockHash: string = mined.blockHash;
    const number = BigInt(mined.blockNumber);
    const node = await startRpcServer(({ method, params }) => forward(anvil.url, method, params));
    try {
      const line = `that is the hash of block ${number}, not of a transaction: txray block ${blockHash}`;
      const r = await runTxray([blockHash, '-r', node.url]);
      expect([r.code, r.stderr]).toEqual([3, `txray: warning: ${line}\n`]);
      expect(r.stdout).toContain('? not found');
      // The view itself says it, not that the node does not know the hash (it knows it, as a block's).
      expect(r.stdout).toContain(`  ${line}\n`);
      expect(r.stdout).not.toContain('does not know this transaction');
      const doc = jsonOf(await runTxray([blockHash, '-r', node.url, '--json']));
      expect(schemaErrors(doc)).toBe('');
      expect(doc).toMatchObject({ status: 'not_found', warnings: [line] });
      // What the hint says runs: the block it names is the block with that hash.
      const shown = jsonOf(await runTxray(['block', blockHash, '-r', anvil.url, '--json']));
      expect(shown.block).toMatchObject({ number: number.toString(), hash: blockHash });
      const asked = node.requests.length;
      expect((await runTxray([hashes.reason!, '-r', node.url])).code).toBe(1);
      expect(node.requests.slice(asked).map((q) => q.method)).not.toContain('eth_getBlockByHash');
    } finally {
      await node.close();
    }
  });

  test('ETH_RPC_URL is used when --rpc-url is absent', async () => {
    const r = await runTxray([hashes.reason!], { ETH_RPC_URL: anvil.url });
    expect(r.code).toBe(1);
  });

  test('colour: off in a pipe, on with --color or FORCE_COLOR, --no-color wins', async () => {
    expect((await txray('reason')).stdout).not.toContain(ESC);
    expect((await txray('reason', '--color')).stdout).toContain(`${ESC}[`);
    expect((await runTxray([hashes.reason!, '-r', anvil.url], { FORCE_COLOR: '1' })).stdout).toContain(`${ESC}[`);
    expect((await runTxray([hashes.reason!, '-r', anvil.url, '--no-color'], { FORCE_COLOR: '1' })).stdout).not.toContain(ESC);
    expect((await runTxray([hashes.reason!, '-r', anvil.url, '--color'], { NO_COLOR: '1' })).stdout).toContain(`${ESC}[`);
  });
});

describe('--json on anvil', () => {
  test.each(['showcase', 'reason', 'legacyTransfer', 'accessList'])('%s: the fee the text shows is in --json without --state', async (name) => {
    const doc = jsonOf(await txray(name, '--json'));
    const receipt = doc.receipt;
    const paid = BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice);
    expect(doc.fee).toEqual({ paid: paid.toString(), burned: null, tip: null, rules: 'ethereum' });
    const text = (await txray(name)).stdout;
    expect(text).toContain(`  Fee            ${formatEther(paid)} ETH`);
  });
  test.each(['showcase', 'reason', 'deep', 'creation', 'setCode', 'accessList', 'legacyTransfer', 'outOfGas', 'evil'])(
    '%s: the node answers come back verbatim, the document fits the schema',
    async (name) => {
      const r = await txray(name, '--json');
      const doc = jsonOf(r);
      expect(schemaErrors(doc)).toBe('');
      expect(doc.transaction).toEqual(await anvil.rpc('eth_getTransactionByHash', [hashes[name]]));
      expect(doc.receipt).toEqual(await anvil.rpc('eth_getTransactionReceipt', [hashes[name]]));
      expect(doc.trace).toEqual(await anvil.rpc('trace_transaction', [hashes[name]]));
      expect(doc.logs).toEqual(doc.receipt.logs);
      expect(r.code).toBe(doc.status === 'success' ? 0 : 1);
    },
  );

  test('the call tree in Parity vocabulary', async () => {
    const doc = jsonOf(await txray('showcase', '--json'));
    const kids = doc.calls.children as Array<Record<string, any>>;
    expect(kids.map((k) => k.callType ?? `${k.type}:${k.creationMethod ?? ''}`)).toEqual([
      'create:create',
      'call',
      'staticcall',
      'delegatecall',
      'create:create2',
      'staticcall',
      'call',
      'call',
      'call',
    ]);
    const suicide = kids[6]!.children[0];
    expect(suicide.type).toBe('suicide');
    expect(suicide.from).toBe(kids[4]!.to); // the destroyed contract is the create2 child
    expect(suicide.to).toBe(DEV.sender); // the beneficiary
    expect(kids[5]!.error).toBe('Reverted');
    expect(kids[5]!.traceAddress).toEqual([5]);
  });

  test('a call no source names: JSON carries the guessed types, with name null and the selector', async () => {
    const doc = jsonOf(await txray('showcase', '--json'));
    // Showcase's fail(string) is in no ABI txray has here (no --abi, no project): its layout is one string.
    const fail = (doc.calls.children as Array<Record<string, any>>)[5]!;
    expect(fail.function).toEqual({ name: null, selector: '0x78122f3a', guessed: true, signature: null, args: [{ type: 'string', value: 'caught it' }], source: 'guessed' });
    expect(fail.input.startsWith('0x78122f3a')).toBe(true);
    // The transaction's own input, run(uint256), is named by the signature database, not guessed.
    expect(doc.function).toMatchObject({ name: 'run', source: 'database' });
  });

  test('reverted: failure names the reason and where it came from', async () => {
    const doc = jsonOf(await txray('deep', '--json'));
    expect(doc.status).toBe('reverted');
    const { raisedIn, ...failure } = doc.failure;
    expect(failure).toEqual({ error: 'Reverted', revert: { kind: 'Error', message: 'deep reason' }, origin: [1, 0], reason: 'Error: deep reason' });
    // Where it was raised, in the text view's words ("Child.fail, called by Showcase.relay").
    const said = (await txray('deep')).stdout.split('\n').find((l) => l.startsWith('  raised in '))!;
    expect(raisedIn).toBe(said.slice('  raised in '.length).trim().replace(/\s+/g, ' '));
    const evil = jsonOf(await txray('evil', '--json'));
    expect(evil.failure.revert.message).toBe('\u001b[31mred\u001b[0m\r\u202egnp.exe\u200b');
    // The one line is the text view's, escaped as it is there.
    expect(evil.failure.reason).toBe('Error: \\x1b[31mred\\x1b[0m\\r\\u{202e}gnp.exe\\u{200b}');
    const raw = (await txray('evil', '--json')).stdout.trimEnd();
    expect(raw).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e\u200b]/);
    expect(raw).toContain('\\u202e');
  });

  test('not found: status not_found, exit 3', async () => {
    const r = await runTxray([`0x${'cd'.repeat(32)}`, '-r', anvil.url, '--json']);
    expect(r.code).toBe(3);
    const doc = jsonOf(r);
    expect(schemaErrors(doc)).toBe('');
    expect(doc).toMatchObject({ status: 'not_found', transaction: null, receipt: null, calls: null, logs: [] });
  });
});

// Nodes without trace_transaction (fallback, warnings, exit codes) are covered in tracers.test.ts.
describe('pending', () => {
  test('pending (automine off): exit 4, then success once mined', async () => {
    await anvil.rpc('evm_setAutomine', [false]);
    try {
      const hash = await send(anvil.rpc, { to: showcase, gas: '0x100000', data: call('Showcase', 'recurse', [1n]) });
      const r = await runTxray([hash, '-r', anvil.url]);
      expect(r.code).toBe(4);
      expect(r.stdout).toContain('… pending');
      expect(r.stdout).toContain('known to the node, not mined yet');
      const doc = jsonOf(await runTxray([hash, '-r', anvil.url, '--json']));
      expect(doc.status).toBe('pending');
      expect(doc.receipt).toBeNull();
      expect(schemaErrors(doc)).toBe('');
      await anvil.rpc('evm_mine');
      expect((await runTxray([hash, '-r', anvil.url])).code).toBe(0);
    } finally {
      await anvil.rpc('evm_setAutomine', [true]);
    }
  });
});

/**
 * The view is written once the trace is in: its first row, the action (what the transaction did), needs
 * the trace's ether moves, so not even a successful transaction's head goes out before it. A proxy in
 * front of anvil holds trace_transaction until told, so the test sees what was written before the trace came.
 */
describe('nothing is written before the trace arrives', () => {
  async function holdingProxy() {
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let traceAsked!: () => void;
    const asked = new Promise<void>((r) => (traceAsked = r));
    const server = await startRpcServer(async (req) => {
      if (req.method === 'trace_transaction') {
        traceAsked();
        await released;
      }
      return forward(anvil.url, req.method, req.params);
    });
    return { server, release, asked };
  }

  /** The bin with stdout read as it comes; `seen(text)` resolves once stdout holds the text. */
  function start(args: readonly string[]) {
    const child = spawn(process.execPath, [BIN, ...args], { env: txrayEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const waiters: Array<{ text: string; resolve: () => void }> = [];
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      for (const w of waiters) if (stdout.includes(w.text)) w.resolve();
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const done = new Promise<RunResult>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
    return {
      done,
      now: () => stdout,
      seen: (text: string) => new Promise<void>((resolve) => (stdout.includes(text) ? resolve() : waiters.push({ text, resolve }))),
    };
  }

  test.each([
    ['a successful transaction (its action needs the ether the trace moved)', 'showcase', [] as string[], 0],
    ['a reverted transaction (its reason comes from the trace)', 'reason', [] as string[], 1],
    ['--json (one document)', 'showcase', ['--json'], 0],
    ['an artifact with creation code', 'showcase', ['--abi', 'ARTIFACT'], 0],
  ])('nothing is written before the trace for %s', async (_what, name, extra, code) => {
    const dir = mkdtempSync(join(tmpdir(), 'txray-head-'));
    const artifact = join(dir, 'Unrelated.json');
    writeFileSync(artifact, JSON.stringify({ abi: [], bytecode: { object: '0x6080604052deadbeef' } }));
    const { server, release, asked } = await holdingProxy();
    try {
      const run = start([hashes[name]!, '-r', server.url, ...extra.map((a) => (a === 'ARTIFACT' ? artifact : a))]);
      await asked;
      // The other two answers are in by now; give txray time it would need to write a head.
      await new Promise((r) => setTimeout(r, 700));
      expect(run.now()).toBe('');
      release();
      const r = await run.done;
      expect(r.code).toBe(code);
      expect(r.stdout.length).toBeGreaterThan(0);
      if (extra.length === 0) expect(r.stdout.split('\n')[1]).toMatch(/^ {2}Action /);
    } finally {
      release();
      await server.close();
    }
  });
});
