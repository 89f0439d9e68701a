/**
 * One name per contract, from the code that matched it: a Foundry project (test/fixtures/names: a Token
 * deployed twice, as DAI and USDX, and a Vault of USDX) compiled in the set-up, beside real Uniswap v2
 * deployed from its npm builds, on a real anvil. Expected names and symbols come from the node
 * (symbol() by eth_call, the receipts' logs) and the build, never from txray.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { launchBrowser } from '../../scripts/lib/browser.mjs';
import { decodeFunctionResult, encodeDeployData, encodeFunctionData, maxUint256, parseEther, parseUnits, type Abi } from 'viem';
import { startAnvil } from '../../scripts/lib/anvil.mjs';
import { DEV, receipt } from '../../scripts/lib/scenarios.mjs';
import { UNISWAP_ARTIFACTS } from '../../scripts/lib/uniswap.mjs';
import { checksumAddress } from '../../src/decode/keccak.js';
import { forward, startRpcServer } from '../support/rpcServer.js';
import { jsonOf, runTxray } from '../support/runTxray.js';
import { type Compiled, writeFoundryProject } from '../support/sourceProject.js';

const NAMES = fileURLToPath(new URL('../fixtures/names', import.meta.url));
const V2_CORE = fileURLToPath(new URL('../../node_modules/@uniswap/v2-core/build', import.meta.url));
const V2_PERIPHERY = fileURLToPath(new URL('../../node_modules/@uniswap/v2-periphery/build', import.meta.url));

let anvil: Awaited<ReturnType<typeof startAnvil>>;
let built: Record<string, Compiled>;
const project = mkdtempSync(join(tmpdir(), 'txray-names-'));
const at: Record<'weth' | 'factory' | 'router' | 'dai' | 'usdx' | 'vault', string> = { weth: '', factory: '', router: '', dai: '', usdx: '', vault: '' };
const hashes: Record<'addEth' | 'swap' | 'expired' | 'approve' | 'deposit' | 'setFee', string> = { addEth: '', swap: '', expired: '', approve: '', deposit: '', setFee: '' };

const rpc = (method: string, params: unknown[] = []): Promise<any> => anvil.rpc(method, params);

/** Send from the first dev account with a fixed gas limit and wait for it; returns the receipt. */
async function mined(tx: Record<string, unknown>): Promise<{ transactionHash: string; contractAddress: string | null; status: string }> {
  const r = await receipt(rpc, await rpc('eth_sendTransaction', [{ from: DEV.sender, gas: '0x5b8d80', ...tx }]));
  if (r.status !== '0x1') throw new Error(`set-up transaction ${r.transactionHash} reverted`);
  return r;
}

async function deployed(c: { abi: unknown; bytecode: string }, args: unknown[] = []): Promise<string> {
  const data = encodeDeployData({ abi: c.abi as Abi, bytecode: c.bytecode as `0x${string}`, args });
  return (await mined({ data })).contractAddress!.toLowerCase();
}

/** A token's symbol() as the node answers it. */
async function symbolOf(token: string): Promise<string> {
  const answer = await rpc('eth_call', [{ to: token, data: project$('Token', 'symbol') }, 'latest']);
  return decodeFunctionResult({ abi: built.Token!.abi as Abi, functionName: 'symbol', data: answer }) as string;
}

const project$ = (name: string, functionName: string, args: unknown[] = []): string => encodeFunctionData({ abi: built[name]!.abi as Abi, functionName, args });
const router$ = (functionName: string, args: unknown[]): string => encodeFunctionData({ abi: UNISWAP_ARTIFACTS.router.abi, functionName, args });

beforeAll(async () => {
  built = writeFoundryProject(project, { fixture: NAMES });
  anvil = await startAnvil();
  at.weth = await deployed(UNISWAP_ARTIFACTS.weth);
  at.factory = await deployed(UNISWAP_ARTIFACTS.factory, [DEV.sender]);
  at.router = await deployed(UNISWAP_ARTIFACTS.router, [at.factory, at.weth]);
  at.dai = await deployed(built.Token!, ['Dai Stablecoin', 'DAI', 18, parseUnits('1000000', 18)]);
  at.usdx = await deployed(built.Token!, ['USD X', 'USDX', 6, parseUnits('1000000', 6)]);
  at.vault = await deployed(built.Vault!, [at.usdx]);
  for (const token of [at.dai, at.usdx]) await mined({ to: token, data: project$('Token', 'approve', [at.router, maxUint256]) });
  await mined({ to: at.router, data: router$('addLiquidity', [at.dai, at.usdx, parseUnits('10000', 18), parseUnits('10000', 6), 0n, 0n, DEV.sender, maxUint256]) });
  hashes.addEth = (await mined({ to: at.router, value: `0x${parseEther('10').toString(16)}`, data: router$('addLiquidityETH', [at.dai, parseUnits('20000', 18), 0n, 0n, DEV.sender, maxUint256]) })).transactionHash;
  hashes.swap = (await mined({ to: at.router, data: router$('swapExactTokensForTokens', [parseUnits('100', 18), 0n, [at.dai, at.usdx], DEV.sender, maxUint256]) })).transactionHash;
  // The same swap past its deadline: the router reverts before it calls either token.
  const late = await rpc('eth_sendTransaction', [{ from: DEV.sender, gas: '0x5b8d80', to: at.router, data: router$('swapExactTokensForTokens', [parseUnits('100', 18), 0n, [at.dai, at.usdx], DEV.sender, 1n]) }]);
  hashes.expired = (await receipt(rpc, late)).transactionHash;
  hashes.approve = (await mined({ to: at.usdx, data: project$('Token', 'approve', [at.vault, parseUnits('1000', 6)]) })).transactionHash;
  hashes.deposit = (await mined({ to: at.vault, data: project$('Vault', 'deposit', [parseUnits('100', 6)]) })).transactionHash;
  hashes.setFee = (await mined({ to: at.vault, data: project$('Vault', 'setFee', [30]) })).transactionHash;
}, 120_000);
afterAll(async () => {
  await anvil?.stop();
});

/** An address as the terminal shows it in tight places: 0x5FC8…5707. */
const short = (a: string): string => `${checksumAddress(a.toLowerCase()).slice(0, 6)}…${checksumAddress(a.toLowerCase()).slice(-4)}`;

const run = (args: string[]) => runTxray([...args, '-r', anvil.url], { COLUMNS: '160' }, undefined, project);

/** Every call of a --json document's call tree, depth first. */
function callsOf(doc: Record<string, any>): Record<string, any>[] {
  const out: Record<string, any>[] = [];
  const walk = (n: Record<string, any> | null): void => {
    if (n === null) return;
    out.push(n);
    for (const c of n.children ?? []) walk(c);
  };
  walk(doc.calls);
  return out;
}

/** The input names of an ABI's function or event. */
const inputNames = (abi: unknown[], type: string, name: string): string[] => (abi as Array<{ type: string; name?: string; inputs: Array<{ name: string }> }>).find((i) => i.type === type && i.name === name)!.inputs.map((p) => p.name);

/** The pair the factory made for two tokens, as the node answers getPair. */
async function pairOf(a: string, b: string): Promise<string> {
  const data = encodeFunctionData({ abi: UNISWAP_ARTIFACTS.factory.abi, functionName: 'getPair', args: [a, b] });
  return `0x${(await rpc('eth_call', [{ to: at.factory, data }, 'latest'])).slice(26)}`;
}

describe('the artifact whose code matched names its contract', () => {
  test('Waffle-era builds (the npm Uniswap v2 build folders) are matched by code: router, pair and WETH named', async () => {
    const doc = jsonOf(await run([hashes.addEth, '--abi', V2_CORE, '--abi', V2_PERIPHERY, '--json']));
    const pair = await pairOf(at.dai, at.weth);
    // Each build file's name is its contract's.
    expect(doc.labels).toMatchObject({ [at.router]: 'UniswapV2Router02', [pair]: 'UniswapV2Pair', [at.weth]: 'WETH9' });
    expect(callsOf(doc).find((c) => c.to === at.weth && c.function?.name === 'deposit')?.function.contract).toBe('WETH9');
  });

  test('a generic --abi fills only gaps: the matched Token keeps its own parameter names beside v2-core\'s ERC20', async () => {
    const doc = jsonOf(await run([hashes.swap, '--abi', V2_CORE, '--json']));
    const own = built.Token!.abi;
    const transferFrom = callsOf(doc).find((c) => c.to === at.dai)!.function;
    expect(transferFrom).toMatchObject({ name: 'transferFrom', contract: 'Token', source: 'project' });
    expect(transferFrom.args.map((a: { name: string }) => a.name)).toEqual(inputNames(own, 'function', 'transferFrom'));
    const transfers = doc.logs.filter((l: { address: string }) => l.address === at.dai || l.address === at.usdx);
    expect(transfers.length).toBe(2);
    for (const l of transfers) expect(l.event.args.map((a: { name: string }) => a.name)).toEqual(inputNames(own, 'event', 'Transfer'));
    // The pair has no artifact of the project: v2-core's own names it (its getReserves outputs included).
    const reserves = callsOf(doc).find((c) => c.function?.name === 'getReserves')!;
    expect(reserves.function.contract).toBe('UniswapV2Pair');
    expect(reserves.outputs.map((o: { name: string }) => o.name)).toEqual((UNISWAP_ARTIFACTS.pair.abi as Array<{ name?: string; outputs?: Array<{ name: string }> }>).find((i) => i.name === 'getReserves')!.outputs!.map((o) => o.name));
    expect(doc.function).toMatchObject({ name: 'swapExactTokensForTokens' });
  });
});

describe('a contract named wherever it appears, not only where it was called', () => {
  test('an approved spender (only an argument) is named by its code, in the action, the input and the log; its code read in the same batch as the called ones', async () => {
    const counting = await startRpcServer(({ method, params }) => forward(anvil.url, method, params));
    try {
      const r = await runTxray([hashes.approve, '-r', counting.url], { COLUMNS: '160' }, undefined, project);
      expect(r.code).toBe(0);
      const code = counting.requests.filter((q) => q.method === 'eth_getCode');
      expect(code.map((q) => (q.params![0] as string).toLowerCase())).toEqual(expect.arrayContaining([at.usdx, at.vault]));
      expect(code.every((q) => q.batch === code.length)).toBe(true);
      const spender = `Vault(${short(at.vault)})`;
      expect(r.stdout).toMatch(/Action +Approved USDX for Vault \(/);
      expect(r.stdout).toContain(`approve(spender: ${spender}, `);
      expect(r.stdout).toContain(`Approval(owner: ${short(DEV.sender)}, spender: ${spender}, `);
    } finally {
      await counting.close();
    }
    expect(jsonOf(await run([hashes.approve, '--json'])).labels[at.vault]).toBe('Vault');
  });

  test('a swap that reverts before calling its path\'s tokens names them in its arguments as the one that calls them does', async () => {
    for (const hash of [hashes.swap, hashes.expired]) {
      const out = (await run([hash])).stdout;
      expect(out).toContain(`Token(${short(at.dai)})`);
      expect(out).toContain(`Token(${short(at.usdx)})`);
      expect(out).toContain(`path: [Token(${short(at.dai)}), Token(${short(at.usdx)})]`);
      const labels = jsonOf(await run([hash, '--json'])).labels;
      expect([labels[at.dai], labels[at.usdx]]).toEqual(['Token', 'Token']);
    }
  });

  test('without traces (--tracer none), the emitters are named as with them: the same labels either way', async () => {
    const traced = jsonOf(await run([hashes.swap, '--json'])).labels;
    const untraced = jsonOf(await run([hashes.swap, '--json', '--tracer', 'none'])).labels;
    expect(untraced[at.dai]).toBe('Token');
    expect(untraced[at.usdx]).toBe('Token');
    for (const a of [at.dai, at.usdx]) expect(untraced[a]).toBe(traced[a]);
  });
});

describe('two deployments of one contract in one view', () => {
  test('the tree and the gas profile tell them apart by the symbol() each answered ("Token(DAI)"); JSON keeps one name and the addresses', async () => {
    const [dai, usdx] = [await symbolOf(at.dai), await symbolOf(at.usdx)];
    const r = await run([hashes.swap, '--gas']);
    const tree = r.stdout.slice(r.stdout.indexOf('Call tree'));
    expect(tree).toContain(`call Token(${dai})::transferFrom(`);
    expect(tree).toContain(`call Token(${usdx})::transfer(`);
    expect(tree).toContain(`staticcall Token(${dai})::balanceOf(`);
    expect(tree).toContain(`staticcall Token(${usdx})::balanceOf(`);
    expect(tree).not.toMatch(/Token::/);
    expect(r.stdout).toMatch(new RegExp(`│ Token\\(${dai}\\)::transferFrom +│`));
    const doc = jsonOf(await run([hashes.swap, '--json']));
    expect([doc.labels[at.dai], doc.labels[at.usdx]]).toEqual(['Token', 'Token']);
    // What tells them apart, in JSON too: the symbol each answered.
    expect([doc.instances[at.dai], doc.instances[at.usdx]]).toEqual([dai, usdx]);
    expect(doc.transfers.map((t: { token: string; symbol: string }) => [t.token.toLowerCase(), t.symbol])).toEqual([
      [at.dai, dai],
      [at.usdx, usdx],
    ]);
  });

  test('the report tells them apart as the text does (in Chromium): Token(DAI)::transferFrom, never a bare Token::', async () => {
    const [dai, usdx] = [await symbolOf(at.dai), await symbolOf(at.usdx)];
    const file = join(project, 'swap.html');
    expect((await run([hashes.swap, '--html', file, '--quiet'])).code).toBe(0);
    const browser = await launchBrowser(inject('chromiumPath'));
    try {
      const page = await browser.newPage();
      await page.goto(`file://${file}`);
      await page.waitForSelector('html[data-ready="true"]');
      const tree = (await page.locator('.tree').textContent()) ?? '';
      expect(tree).toContain(`Token(${dai})::transferFrom(`);
      expect(tree).toContain(`Token(${usdx})::transfer(`);
      expect(tree).not.toMatch(/Token::/);
    } finally {
      await browser.close();
    }
  });

  test('one deployment alone keeps its plain name', async () => {
    const r = await run([hashes.deposit]);
    expect(r.stdout).toContain('call Token::transferFrom(');
  });
});

describe('one name per address in a view', () => {
  test('the approved Vault and the Vault sent to read the same everywhere: action, input, logs, transfers, tree', async () => {
    const full = checksumAddress(at.vault);
    for (const hash of [hashes.approve, hashes.deposit]) {
      const out = (await run([hash])).stdout;
      expect(out).toMatch(/Action +(Approved USDX for Vault \(|Sent 100 USDX to Vault\n)/);
      // Wherever its address is written, the name is written before it.
      const shown = out.split(short(at.vault)).length - 1 + out.split(full).length - 1;
      const named = out.split(`Vault(${short(at.vault)})`).length - 1 + out.split(`Vault(${full})`).length - 1;
      expect(shown).toBeGreaterThan(0);
      expect(named).toBe(shown);
    }
  });

  test('a call that takes arguments is not said with empty parentheses: "Called Vault.setFee(…)", in text and JSON', async () => {
    const takes = inputNames(built.Vault!.abi, 'function', 'setFee').length;
    expect(takes).toBeGreaterThan(0);
    expect((await run([hashes.setFee])).stdout).toMatch(/Action +Called Vault\.setFee\(…\)\n/);
    expect(jsonOf(await run([hashes.setFee, '--json'])).action.summary).toBe('Called Vault.setFee(…)');
  });
});


describe('a typo in a function name', () => {
  test('txray call $VAULT widthdraw 1: the near names the loaded ABIs know, the project\'s first; exit 2 before any request', async () => {
    const counting = await startRpcServer(({ method, params }) => forward(anvil.url, method, params));
    try {
      const r = await runTxray(['call', at.vault, 'widthdraw', '1', '-r', counting.url], {}, undefined, project);
      expect(r.code).toBe(2);
      const types = (built.Vault!.abi as Array<{ type: string; name?: string; inputs: Array<{ type: string }> }>).find((i) => i.type === 'function' && i.name === 'withdraw')!.inputs.map((p) => p.type);
      expect(r.stderr).toMatch(new RegExp(`^txray: no loaded ABI has a function named widthdraw; did you mean withdraw\\(${types.join(',')}\\)( or [^\\n]+)?\\?\\n$`));
      expect(r.stderr).not.toContain('widthdraw(');
      expect(counting.requests).toEqual([]);
    } finally {
      await counting.close();
    }
  });
});
