/**
 * Golden views: whole outputs of the built CLI, compared line by line with the files in test/golden/
 * (as the GitHub CLI compares its commands' whole output), so that any change to what the renderers
 * print fails here, not only the fragments the other tests look for.
 *
 * Each golden file holds the command (the node's URL written <rpc-url>), its exit code, its stderr and
 * its stdout verbatim; `--json` documents are kept indented (parsed and re-serialised, key order as
 * printed) so that a difference shows as a few lines. The conditions are fixed: no colour, 100
 * columns, TZ=UTC, LANG=C, nothing asked but the node, run from an empty folder (or, on anvil, a
 * Foundry project of the test contracts), so that a view depends on nothing but the answers.
 *
 * Inputs: recorded mainnet answers (test/fixtures/real) served from a loopback stand-in, and, for
 * what no recording holds (a revert with data at the root, a simulation), a real anvil with the test
 * contracts deployed from its first default account: addresses, hashes, blocks and fees are the same on
 * every run of one anvil version (a new anvil may change the fees, and so the hashes: update then).
 *
 * To write the files after an intended change to a view: UPDATE_GOLDEN=1 npx vitest run test/e2e/golden.test.ts,
 * then read the diff of test/golden/ before committing it. Without UPDATE_GOLDEN a missing file fails:
 * a golden file is never made by a plain run.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startAnvil } from '../../scripts/lib/anvil.mjs';
import { call, deploy, deployData, DEV, receipt, send, writeFoundryProject } from '../../scripts/lib/scenarios.mjs';
import { encodeDeployData, encodeFunctionData, type Abi } from 'viem';
import { deployUniswap, sandwichBlock } from '../../scripts/lib/uniswap.mjs';
import { startRpcServer, type RpcServer } from '../support/rpcServer.js';
import { runTxray } from '../support/runTxray.js';
import { writeFoundryProject as writeSourceProject } from '../support/sourceProject.js';

const GOLDEN = fileURLToPath(new URL('../golden/', import.meta.url));
const REAL = fileURLToPath(new URL('../fixtures/real/', import.meta.url));
const UPDATE = process.env.UPDATE_GOLDEN === '1';

/** The fixed conditions (LC_ALL too, as it overrides LANG); variables that would change what is named or how are cleared. */
const ENV = { NO_COLOR: '1', COLUMNS: '100', TZ: 'UTC', LANG: 'C', LC_ALL: 'C', TXRAY_ONLINE: undefined, FOUNDRY_OUT: undefined, FOUNDRY_PROFILE: undefined, ETHERSCAN_API_KEY: undefined };

/** Run txray against `url` and lay the run out as a golden file: the command, the exit code, stderr, stdout. */
async function view(args: readonly string[], url: string, cwd: string, json = false): Promise<string> {
  const r = await runTxray([...args, '--rpc-url', url], ENV, undefined, cwd);
  // The node's URL (its port is new each run) and the project's folder are the only things that vary.
  const fixed = (s: string): string => s.replaceAll(url, '<rpc-url>').replaceAll(cwd, '<cwd>');
  const stdout = json ? `${JSON.stringify(JSON.parse(r.stdout), null, 2)}\n` : r.stdout;
  return `$ txray ${fixed([...args, '--rpc-url', url].join(' '))}\nexit ${r.code}\n--- stderr\n${fixed(r.stderr)}--- stdout\n${fixed(stdout)}`;
}

/** Compare with test/golden/<name>, or write it under UPDATE_GOLDEN=1. */
function expectGolden(name: string, text: string): void {
  const file = join(GOLDEN, name);
  if (UPDATE) {
    mkdirSync(GOLDEN, { recursive: true });
    writeFileSync(file, text);
    return;
  }
  if (!existsSync(file)) expect.fail(`test/golden/${name} is missing: write it with UPDATE_GOLDEN=1 and read it before committing`);
  expect(text.split('\n')).toEqual(readFileSync(file, 'utf8').split('\n'));
}

const read = (dir: string, file: string): unknown => (existsSync(join(REAL, dir, file)) ? JSON.parse(readFileSync(join(REAL, dir, file), 'utf8')) : undefined);

/** The recorded cases these views use, by hash: what each node answered, and nothing else. */
const CASES = {
  /** 39 entries 7 deep, Kyber and TrueUSD: decoded logs, ETH and token transfers, a selfdestruct, labels. */
  kyber: 'mainnet-suicide-39-entries-b10000000',
  /** A root call that reverted without data (receipt and trace, no transaction object). */
  reverted: 'mainnet-failed-reverted-b10000000',
  /** A plain transfer with Erigon's stateDiff (trace_replayTransaction) for --state. */
  transfer: 'mainnet-legacy-transfer-b10000000',
  /** A Uniswap v2 swap: SAND and WETH transfers, Sync and Swap events, staticcalls. */
  swap: 'mainnet-eip1559-staticcalls-b18100010',
  /** A failed type-2 transaction with no trace recorded (the call tree cannot be made). */
  failed: 'mainnet-eip1559-failed-b18000000',
  /** A multicall that reverted, recorded as a trace only. */
  traceOnly: 'mainnet-ape-revert-with-message',
} as const;

const hashOf = (key: keyof typeof CASES): string => (read(CASES[key], 'meta.json') as { hash: string }).hash.toLowerCase();

interface Recorded {
  readonly tx?: unknown;
  readonly receipt?: unknown;
  readonly trace?: unknown;
  readonly replay?: unknown;
}
const recorded = new Map<string, Recorded>(
  (Object.keys(CASES) as Array<keyof typeof CASES>).map((key) => {
    const dir = CASES[key];
    return [hashOf(key), { tx: read(dir, 'tx.json'), receipt: read(dir, 'receipt.json'), trace: read(dir, 'trace.json'), replay: read(dir, 'trace_replayTransaction.json') }];
  }),
);

type Answer = { result: unknown } | { error: { code: number; message: string } };
const NOT_FOUND: Answer = { error: { code: -32601, message: 'Method not found' } };
// As in fixtures.test.ts: no chain state was recorded (re-execution and token metadata cannot be had),
// no block header (--state's burned fee) and no prestateTracer answer.
const NO_STATE: Answer = { error: { code: -32000, message: 'not recorded: these fixtures hold no chain state' } };
const CHAIN_STATE = ['eth_chainId', 'eth_getBlockByNumber', 'eth_createAccessList', 'eth_getBalance', 'eth_getTransactionCount', 'eth_getCode', 'eth_getStorageAt', 'eth_call'];
/** The stand-in's answer by method, for the case its hash names; undefined (a hash not recorded): the stand-in complains. */
const ANSWERS: Record<string, (c: Recorded | undefined) => Answer | undefined> = {
  eth_getTransactionByHash: (c) => c && { result: c.tx ?? null },
  eth_getTransactionReceipt: (c) => c && { result: c.receipt ?? null },
  trace_transaction: (c) => c && (c.trace !== undefined ? { result: c.trace } : NOT_FOUND),
  trace_replayTransaction: (c) => c && (c.replay !== undefined ? { result: c.replay } : NOT_FOUND),
  debug_traceTransaction: (c) => c && NOT_FOUND,
  eth_getBlockByHash: () => ({ result: null }),
};

describe('golden views of recorded mainnet answers', () => {
  let server: RpcServer;
  const empty = mkdtempSync(join(tmpdir(), 'txray-golden-'));

  beforeAll(async () => {
    server = await startRpcServer(({ method, params }) => (CHAIN_STATE.includes(method) ? NO_STATE : ANSWERS[method]?.(recorded.get(String(params[0]).toLowerCase()))));
  });
  afterAll(async () => {
    expect(server.unexpected).toEqual([]);
    await server.close();
    rmSync(empty, { recursive: true, force: true });
  });

  test('a successful transaction: header, decoded logs, transfers and a call tree 7 deep', async () => {
    expectGolden('kyber-trade.txt', await view([hashOf('kyber')], server.url, empty));
  });

  test('a reverted transaction: why it failed, and the reverted root call', async () => {
    expectGolden('reverted.txt', await view([hashOf('reverted')], server.url, empty));
  });

  test('--state: balance changes and accounts from a recorded stateDiff, with the fee it leaves out', async () => {
    expectGolden('transfer-state.txt', await view([hashOf('transfer'), '--state'], server.url, empty));
  });

  test('several hashes: the summary table and its count line', async () => {
    const hashes = [hashOf('kyber'), hashOf('reverted'), hashOf('transfer'), hashOf('swap'), hashOf('failed'), hashOf('traceOnly')];
    expectGolden('batch-summary.txt', await view(hashes, server.url, empty));
  });

  test('--json: the whole document of a swap', async () => {
    expectGolden('swap.json.txt', await view([hashOf('swap'), '--json'], server.url, empty, true));
  });
});

describe('golden views on anvil', () => {
  let anvil: Awaited<ReturnType<typeof startAnvil>>;
  let showcase: string;
  let custom: string;
  let deep: string;
  const project = mkdtempSync(join(tmpdir(), 'txray-golden-project-'));
  writeFoundryProject(project);

  beforeAll(async () => {
    anvil = await startAnvil();
    ({ showcase } = await deploy(anvil.rpc));
    const gas = `0x${(1_000_000).toString(16)}`;
    custom = await send(anvil.rpc, { to: showcase, gas, data: call('Showcase', 'failCustom') });
    await receipt(anvil.rpc, custom);
    deep = await send(anvil.rpc, { to: showcase, gas, data: call('Showcase', 'failDeep') });
    await receipt(anvil.rpc, deep);
  });
  afterAll(async () => {
    await anvil?.stop();
    rmSync(project, { recursive: true, force: true });
  });

  test('a mined revert with a custom error, named from the project', async () => {
    expectGolden('anvil-custom-error.txt', await view([custom], anvil.url, project));
  });

  test('a mined revert whose Error(string) bubbles up from two calls down', async () => {
    expectGolden('anvil-deep-reason.txt', await view([deep], anvil.url, project));
  });

  test('txray call: a simulation with creates, a delegatecall, a caught revert, a selfdestruct and events', async () => {
    expectGolden('anvil-call-run.txt', await view(['call', showcase, 'run(uint256)', '3', '--value', '10', '--from', DEV.sender], anvil.url, project));
  });

  test('txray call: 12 alike sibling calls and their events, each folded into one line', async () => {
    // Deployed here, after the views above: their block numbers stay as they were.
    const fanout = (await receipt(anvil.rpc, await send(anvil.rpc, { data: deployData('Fanout') }))).contractAddress as string;
    expectGolden('anvil-call-folded.txt', await view(['call', fanout, 'many(uint256)', '12', '--from', DEV.sender], anvil.url, project));
  });
});

describe('golden view of a located failure', () => {
  let anvil: Awaited<ReturnType<typeof startAnvil>>;
  let failed: string;
  // Foundry's default build (the optimizer off) of test/fixtures/srcloc, compiled with solc from npm.
  const project = mkdtempSync(join(tmpdir(), 'txray-golden-srcloc-'));
  const built = writeSourceProject(project, { optimizer: false });

  beforeAll(async () => {
    anvil = await startAnvil();
    const created = async (name: string, args: unknown[] = []): Promise<string> =>
      (await receipt(anvil.rpc, await send(anvil.rpc, { data: encodeDeployData({ abi: built[name]!.abi as Abi, bytecode: built[name]!.bytecode as `0x${string}`, args }) }))).contractAddress;
    const teller = await created('Teller', [await created('Ledger')]);
    failed = await send(anvil.rpc, { to: teller, gas: '0x100000', data: encodeFunctionData({ abi: built.Teller!.abi as Abi, functionName: 'withdraw', args: [5n] }) });
    await receipt(anvil.rpc, failed);
  });
  afterAll(async () => {
    await anvil?.stop();
    rmSync(project, { recursive: true, force: true });
  });

  test('a custom error two internal calls deep in another contract: the line, its code, the calls that led there, the frame that called it', async () => {
    expectGolden('anvil-located-failure.txt', await view([failed], anvil.url, project));
  });
});

describe('golden views of txray block', () => {
  let anvil: Awaited<ReturnType<typeof startAnvil>>;
  let number: number;
  const empty = mkdtempSync(join(tmpdir(), 'txray-golden-block-'));

  beforeAll(async () => {
    // A fixed genesis time and 12 s between blocks: the block's time and hashes are the same on every run.
    anvil = await startAnvil(['--timestamp', '1700000000']);
    await anvil.rpc('anvil_setBlockTimestampInterval', [12]);
    ({ number } = await sandwichBlock(anvil.rpc, await deployUniswap(anvil.rpc)));
  });
  afterAll(async () => {
    await anvil?.stop();
    rmSync(empty, { recursive: true, force: true });
  });

  test('a block with a sandwich: the header, fees, one row per transaction and what looks like MEV', async () => {
    expectGolden('block-sandwich.txt', await view(['block', String(number)], anvil.url, empty));
  });

  test('--json: the block document', async () => {
    expectGolden('block-sandwich.json.txt', await view(['block', String(number), '--json'], anvil.url, empty, true));
  });
});
