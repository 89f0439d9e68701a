/**
 * --html in a real headless Chromium (@sparticuz/chromium, driven by playwright-core; see
 * test/support/chromium.setup.ts): reports of anvil transactions, opened from disk as a user would,
 * with every request, console error, page error and dialog recorded.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { type Abi, encodeDeployData, encodeFunctionData, getAddress, keccak256, toHex } from 'viem';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { launchBrowser } from '../../scripts/lib/browser.mjs';
import { call, deployData, DEV, receipt, send, writeFoundryProject } from '../../scripts/lib/scenarios.mjs';
import { type Anvil, type UniswapScenarios, withScenarioNode, withUniswapNode } from '../support/scenarioNode.js';
import { type Box, measureText, type TextLayout } from '../support/measureText.js';
import { jsonOf, runTxray } from '../support/runTxray.js';
import { writeFoundryProject as writeSourceProject } from '../support/sourceProject.js';
import { schemaErrors } from '../support/schema.js';
import { NO_TREE_ETHER } from '../../src/render/describeNetChanges.js';

let anvil: Anvil;
let hashes: Record<string, string>;
let showcaseAddress: string;
let hostileAddress: string;
let proxyAddress: string;
withScenarioNode((s) => {
  proxyAddress = s.proxy;
  anvil = s.anvil;
  hashes = s.hashes as Record<string, string>;
  showcaseAddress = s.showcase;
  hostileAddress = s.hostile;
});

const work = mkdtempSync(join(tmpdir(), 'txray-html-'));
const project = join(work, 'project');
mkdirSync(project);
writeFoundryProject(project);
/** Screenshots land here (ignored by git); scripts/screenshot-report.mjs makes the README's. */
const OUTPUT = fileURLToPath(new URL('../../test-output/', import.meta.url));

const txray = (args: string[]) => runTxray([...args, '--rpc-url', anvil.url], {}, undefined, project);

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser(inject('chromiumPath'));
});
afterAll(async () => {
  await browser?.close();
});

interface Opened {
  readonly page: Page;
  readonly problems: string[];
  readonly dialogs: string[];
}

/** Open a report from disk; anything but the file itself being fetched is a problem. */
async function open(file: string, ready = 'html[data-ready="true"]', width = 1300): Promise<Opened> {
  const page = await browser.newPage({ viewport: { width, height: 1000 } });
  const problems: string[] = [];
  const dialogs: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('request', (r) => {
    if (r.url() !== `file://${file}`) problems.push(`request: ${r.url()}`);
  });
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await page.goto(`file://${file}`);
  await page.waitForSelector(ready);
  return { page, problems, dialogs };
}

async function report(name: string, ...extra: string[]): Promise<{ file: string; json: Record<string, any> }> {
  const file = join(work, `${name}.html`);
  const r = await txray([hashes[name]!, '--html', file, '--quiet', ...extra]);
  expect(r.code).toBeLessThanOrEqual(1);
  const json = jsonOf(await txray([hashes[name]!, '--json', ...extra]));
  return { file, json };
}

const countCalls = (n: { children: unknown[] }): number => 1 + n.children.reduce<number>((k, c) => k + countCalls(c as never), 0);
const treeNodes = (page: Page) => page.locator('.tree [data-trace-address]');

describe('the showcase report in headless Chromium', () => {
  let opened: Opened;
  let json: Record<string, any>;
  let file: string;
  beforeAll(async () => {
    const made = await report('showcase');
    json = made.json;
    file = made.file;
    opened = await open(made.file);
  });
  afterAll(async () => {
    await opened?.page.close();
  });

  test('loads with no console or page error and no request of any kind', () => {
    expect(opened.problems).toEqual([]);
  });

  test('the embedded data is exactly the document --json prints, and one line of the file holds it', async () => {
    const embedded = JSON.parse((await opened.page.locator('#txray-data').textContent())!);
    expect(embedded).toEqual(json);
    // What the README's sed recipe relies on: the tag, the document and its end on one line.
    const line = /^<script type="application\/json" id="txray-data">(.*)<\/script>$/m.exec(readFileSync(file, 'utf8'));
    expect(JSON.parse(line![1]!)).toEqual(json);
  });

  test('a CSP that allows the page\'s own script and styles by hash, and nothing else', async () => {
    const policy = await opened.page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
    expect(policy).toMatch(/^default-src 'none'; script-src 'sha256-[A-Za-z0-9+/=]+'; style-src 'sha256-[A-Za-z0-9+/=]+'; img-src data:; base-uri 'none'; form-action 'none'$/);
    expect(policy).not.toContain('connect-src');
  });

  test('the markup contract: tree nodes, toggles, the two buttons, the search box', async () => {
    const { page } = opened;
    await page.click('button[data-action="expand-all"]');
    expect(await treeNodes(page).count()).toBe(countCalls(json.calls));
    expect(await page.locator('.tree [data-trace-address=""]').count()).toBe(1);
    const withChildren = page.locator('.tree [data-trace-address][aria-expanded]');
    const parents = (n: any): number => (n.children.length > 0 ? 1 : 0) + n.children.reduce((k: number, c: any) => k + parents(c), 0);
    expect(await withChildren.count()).toBe(parents(json.calls));
    expect(await withChildren.locator(':scope > .line > button').count()).toBe(parents(json.calls));
    expect(await page.locator('input[type="search"]').count()).toBe(1);
    expect(await page.locator('button[data-action="collapse-all"]').count()).toBe(1);
  });

  test('the root line\'s gas is the transaction\'s (the receipt\'s), as the text view shows it whatever the tracer', async () => {
    const gas = await opened.page.locator('.tree [data-trace-address=""] > .line .gas').first().textContent();
    expect(gas).toBe(` · ${BigInt(json.receipt.gasUsed).toLocaleString('en-US')} gas`);
    // trace_transaction's own root figure leaves the intrinsic gas out: not what the line shows.
    expect(BigInt(json.calls.gasUsed)).toBeLessThan(BigInt(json.receipt.gasUsed));
  });

  test('collapsing a node takes its descendants out; expanding brings them back', async () => {
    const { page } = opened;
    await page.click('button[data-action="expand-all"]');
    const all = await treeNodes(page).count();
    const recurse = json.calls.children.findIndex((c: any) => c.function?.name === 'recurse');
    const node = page.locator(`.tree [data-trace-address="${recurse}"]`);
    expect(await node.getAttribute('aria-expanded')).toBe('true');
    await node.locator(':scope > .line > button').click();
    expect(await page.locator(`.tree [data-trace-address="${recurse}"]`).getAttribute('aria-expanded')).toBe('false');
    expect(await treeNodes(page).count()).toBe(all - 3); // recurse(2), (1), (0)
    await page.locator(`.tree [data-trace-address="${recurse}"] > .line > button`).click();
    expect(await treeNodes(page).count()).toBe(all);
    await page.click('button[data-action="collapse-all"]');
    expect(await treeNodes(page).count()).toBe(1);
  });

  test('search finds calls by function name and opens the path to each', async () => {
    const { page } = opened;
    await page.click('button[data-action="collapse-all"]');
    await page.fill('input[type="search"]', 'recurse');
    await expect.poll(() => page.locator('.tree .hit').count(), { timeout: 10_000 }).toBe(4);
    expect(await page.locator('.count').textContent()).toBe('4 calls match');
    await page.fill('input[type="search"]', showcaseAddress.slice(2, 12));
    await expect.poll(() => page.locator('.tree .hit').count(), { timeout: 10_000 }).toBeGreaterThanOrEqual(5);
  });

  test('clicking a call shows its decoded arguments and raw input', async () => {
    const { page } = opened;
    await page.click('button[data-action="expand-all"]');
    const ping = json.calls.children.findIndex((c: any) => c.function?.name === 'ping');
    await page.locator(`.tree [data-trace-address="${ping}"] > .line`).click();
    const text = await page.locator('#details').textContent();
    expect(text).toContain('ping(uint256)');
    expect(text).toContain('uint256 = 7');
    expect(text).toContain(json.calls.children[ping].input);
  });

  test('the flame graph: one bar per call, widths ordered like gas used', async () => {
    const { page } = opened;
    const bars = await page.locator('svg rect[data-trace-address]').evaluateAll((rects) => rects.map((r) => ({ gas: Number(r.getAttribute('data-gas')), width: Number(r.getAttribute('width')), at: r.getAttribute('data-trace-address') })));
    const calls: any[] = [];
    const stack = [json.calls];
    while (stack.length) {
      const n = stack.pop();
      if (n.type !== 'suicide') calls.push(n);
      stack.push(...n.children);
    }
    expect(bars).toHaveLength(calls.length);
    expect(new Set(bars.map((b) => b.at))).toEqual(new Set(calls.map((c) => c.traceAddress.join('.'))));
    const byGas = [...bars].sort((a, b) => a.gas - b.gas);
    for (let i = 1; i < byGas.length; i++) expect(byGas[i]!.width).toBeGreaterThanOrEqual(byGas[i - 1]!.width);
    // Click zooms into a subtree: its bar becomes the whole width.
    const child = bars.find((b) => b.at === '0')!;
    await page.locator('svg rect[data-trace-address="0"]').click();
    expect(Number(await page.locator('svg rect[data-trace-address="0"]').getAttribute('width'))).toBeCloseTo(1200, 0);
    expect(child.width).toBeLessThan(1200);
  });

  test('a screenshot, as a person sees it', async () => {
    mkdirSync(OUTPUT, { recursive: true });
    await opened.page.click('button[data-action="expand-all"]');
    const file = join(OUTPUT, 'showcase-report.png');
    await opened.page.screenshot({ path: file, fullPage: true });
    expect(readFileSync(file).subarray(1, 4).toString()).toBe('PNG');
  });
});

describe('a call no source names', () => {
  test('its guessed types are shown as guessed, in the tree and in the details', async () => {
    const made = await report('showcase', '--no-project-abis');
    const opened = await open(made.file);
    try {
      const { page } = opened;
      expect(opened.problems).toEqual([]);
      const fail = (made.json.calls.children as Array<Record<string, any>>).findIndex((c) => c.function?.selector === '0x78122f3a');
      expect(made.json.calls.children[fail].function.guessed).toBe(true);
      const line = page.locator(`.tree [data-trace-address="${fail}"] > .line`);
      expect(await line.textContent()).toContain('0x78122f3a(string: caught it) (guessed types)');
      await line.click();
      const text = (await page.locator('#details').textContent())!;
      expect(text).toContain('types guessed from the data\'s layout');
      expect(text).toContain('(guessed)');
    } finally {
      await opened.page.close();
    }
  });
});

describe('a --state report in a 1000 px window', () => {
  // Named by the project's storage layout, and raw (no project: 32-byte slots and words, 66 characters each).
  test.each([
    ['variables by name', []],
    ['raw slots', ['--no-project-abis']],
  ])('%s: the storage section wraps inside the page, and addresses are checksummed as the text view shows them', async (_what, extra) => {
    const made = await report('stateShow', '--state', ...extra);
    const text = (await txray([hashes['stateShow']!, '--state', ...extra])).stdout;
    const opened = await open(made.file, undefined, 1000);
    try {
      const { page } = opened;
      expect(opened.problems).toEqual([]);
      const storage = page.locator('section', { has: page.locator('h2', { hasText: /^Storage changes/ }) });
      expect(await storage.locator('tbody tr').count()).toBeGreaterThan(0);
      if (extra.length > 0) expect(await storage.locator('td').allInnerTexts()).toContainEqual(expect.stringMatching(/^0x[0-9a-f]{64}$/));
      // No horizontal overflow of the document; the storage table stays within its section.
      const widths = await page.evaluate(() => ({ document: document.documentElement.scrollWidth, window: window.innerWidth }));
      expect(widths.window).toBe(1000);
      expect(widths.document).toBeLessThanOrEqual(widths.window);
      const box = await storage.boundingBox();
      const table = await storage.locator('table').boundingBox();
      expect(table!.x + table!.width).toBeLessThanOrEqual(box!.x + box!.width + 0.5);
      // Addresses as EIP-55 spells them, full and short, as the text view prints them; the embedded JSON keeps its own spelling.
      const shown = (await page.locator('main').innerText()).replace(/\s+/g, ' ');
      const full = [...new Set(shown.match(/0x[0-9a-fA-F]{40}(?![0-9a-fA-F])/g) ?? [])];
      expect(full.length).toBeGreaterThan(0);
      expect(full.filter((a) => a !== getAddress(a))).toEqual([]);
      const known = new Map([...JSON.stringify(made.json).matchAll(/0x[0-9a-fA-F]{40}(?![0-9a-fA-F])/g)].map(([a]) => [`${a.slice(0, 6)}…${a.slice(-4)}`.toLowerCase(), getAddress(a)]));
      const short = [...new Set(shown.match(/0x[0-9a-fA-F]{4}…[0-9a-fA-F]{4}/g) ?? [])];
      expect(short.length).toBeGreaterThan(0);
      expect(short.filter((a) => known.get(a.toLowerCase()) === undefined || `${known.get(a.toLowerCase())!.slice(0, 6)}…${known.get(a.toLowerCase())!.slice(-4)}` !== a)).toEqual([]);
      const from = getAddress(made.json.transaction.from);
      expect(from).not.toBe(made.json.transaction.from);
      expect(text).toContain(from);
      expect(await page.locator('header').innerText()).toContain(from);
      expect(shown).toContain('0x0000…bEEF'); // the new account, as the text view writes it
      expect(text).toContain('0x0000…bEEF');
      expect(JSON.parse((await page.locator('#txray-data').textContent())!)).toEqual(made.json);
    } finally {
      await opened.page.close();
    }
  });
});

describe('why it failed', () => {
  test('the header says it in the one line of the text view and --json, a Panic with its code; the tree\'s failed call spells it the same', async () => {
    const { file, json } = await report('overflow');
    expect(json.failure.reason).toBe('Panic(0x11): arithmetic overflow or underflow');
    const text = await txray([hashes.overflow!]);
    expect(text.stdout.split('Why it failed\n')[1]!.split('\n')[0]!.trim()).toBe(json.failure.reason);
    const { page, problems } = await open(file);
    try {
      expect(await page.locator('header').innerText()).toContain(json.failure.reason);
      await page.click('button[data-action="expand-all"]');
      expect(await page.locator('body').innerText()).not.toMatch(/Panic: /);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });
});

describe('hostile text is shown, never run', () => {
  test('a revert string that closes the script, an event that is an <img onerror>, a javascript: label', async () => {
    const label = `${hostileAddress}:javascript:alert(1)`;
    const { file } = await report('evilHtml', '--labels', label);
    const html = readFileSync(file, 'utf8');
    expect(html.split('</script>')).toHaveLength(3); // the data's own and the page script's, nothing from the chain
    const { page, problems, dialogs } = await open(file);
    await page.click('button[data-action="expand-all"]');
    const text = (await page.locator('body').textContent())!;
    expect(text).toContain('</script><script>alert(1)</script>');
    expect(text).toContain('<img src=x onerror=alert(1)>');
    expect(text).toContain('javascript:alert(1)');
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.locator('a').count()).toBe(0);
    expect(await page.locator('script').count()).toBe(2);
    expect(dialogs).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('hostile text in the Net changes', () => {
  test('a symbol with an escape sequence and a bidi override reads as the text view writes it, and turns nothing around', async () => {
    const { file } = await report('stateShow');
    const net = sectionLines((await txray([hashes['stateShow']!])).stdout, /^Net changes \(/);
    expect(net.join('\n')).toContain('\\x1b[31mEVIL\\u{202e}');
    const { page, problems } = await open(file);
    try {
      const shown = await netChangesOf(page);
      expect(shown).toEqual(net.map(words));
      expect(shown.join('')).not.toMatch(/[\u001b\u202e]/);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });
});

describe('hostile text in the fund flow', () => {
  test('a label that is an <img onerror> shows as written in the SVG and runs nothing', async () => {
    const { file } = await report('stateShow', '--labels', `${proxyAddress}:<img src=x onerror=alert(1)>`);
    const { page, problems, dialogs } = await open(file);
    const flow = page.locator('main [data-fund-flow]');
    expect(await flow.locator(`[data-address="${proxyAddress.toLowerCase()}"]`).textContent()).toContain('<img src=x onerror=alert(1)>');
    expect(await page.locator('img').count()).toBe(0);
    expect(dialogs).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe("where it failed, in a Foundry project's sources", () => {
  const dir = join(work, 'source-project');
  const tx: Record<string, string> = {};
  beforeAll(async () => {
    mkdirSync(dir);
    const compiled = writeSourceProject(dir);
    const deploy = async (name: string, args: unknown[] = []): Promise<string> => (await receipt(anvil.rpc, await send(anvil.rpc, { data: encodeDeployData({ abi: compiled[name]!.abi as Abi, bytecode: compiled[name]!.bytecode as `0x${string}`, args }) }))).contractAddress;
    const vault = await deploy('Vault');
    const inner = await deploy('Inner');
    // A library's custom error under the function that called it; an inner call's revert that the outer frame re-raises.
    for (const [name, args] of [['withdraw', [5n]], ['relay', [inner, 1n]]] as const) {
      tx[name] = await send(anvil.rpc, { to: vault, gas: '0x100000', data: encodeFunctionData({ abi: compiled.Vault!.abi as Abi, functionName: name, args }) });
      await receipt(anvil.rpc, tx[name]);
    }
  });

  /** The report of `name` (written in the project's folder, as a developer runs it) and what the text view and --json say of it. */
  async function views(name: string): Promise<{ text: string; json: Record<string, any>; file: string }> {
    const run = (more: string[]) => runTxray([tx[name]!, '--rpc-url', anvil.url, ...more], {}, undefined, dir);
    const file = join(work, `source-${name}.html`);
    expect((await run(['--html', file, '--quiet'])).code).toBe(1);
    return { text: (await run([])).stdout, json: jsonOf(await run(['--json'])), file };
  }

  test.each(['withdraw', 'relay'])("%s: the called-from chain in the text view's words, in the header and in the failing call's details", async (name) => {
    const { text, json, file } = await views(name);
    const chain = text.split('\n').filter((l) => l.startsWith('  called from ')).map((l) => words(l.slice('  called from '.length)));
    expect(chain.length).toBeGreaterThan(0);
    const { page, problems } = await open(file, undefined, 1280);
    try {
      const rows = page.locator('header tr', { has: page.locator('th', { hasText: /^called from$/ }) });
      expect((await rows.locator('td').allInnerTexts()).map(words)).toEqual(chain);
      // Where it was raised, in the text view's words (the trace path only in the data).
      const raised = text.split('\n').find((l) => l.startsWith('  raised in '));
      const raisedRow = page.locator('header tr', { has: page.locator('th', { hasText: /^raised in$/ }) });
      if (raised === undefined) expect(await raisedRow.count()).toBe(0);
      else expect(words(await raisedRow.locator('td').innerText())).toBe(words(raised.slice('  raised in '.length)));
      expect(await page.locator('header').innerText()).not.toMatch(/raised at \[/);
      // The failing call's details: its place, then the internal calls that led there (the chain's first).
      const path: number[] = json.failure.origin;
      const origin = path.reduce((n: Record<string, any>, i) => n.children[i], json.calls);
      await page.locator(`.tree [data-trace-address="${path.join('.')}"] > .line`).click();
      expect(await page.locator('#details pre.source').count()).toBe(1);
      const own = page.locator('#details tr', { has: page.locator('th', { hasText: /^called from$/ }) });
      expect((await own.locator('td').allInnerTexts()).map(words)).toEqual(chain.slice(0, (origin.calledFrom ?? []).length));
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  test('at 1280 px the source shows whole, wrapped under its code, in the header and in the failing call\'s details; no cell cuts a word or number', async () => {
    const { json, file } = await views('relay');
    const { page, problems } = await open(file, undefined, 1280);
    try {
      await page.locator(`.tree [data-trace-address="${json.failure.origin.join('.')}"] > .line`).click();
      for (const [selector, within] of [['header pre.source', 'main'], ['#details pre.source', '#details'], ['#details .cell', '#details']] as const) {
        const measured = await page.evaluate(measureText, { selector, within });
        expect(measured.length, selector).toBeGreaterThan(0);
        expect(measured.flatMap(faults), selector).toEqual([]);
      }
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });
});

/** One movement as the report's edges name it: lower-case ends, "ETH" or the token's lower-case address. */
interface Move {
  readonly from: string;
  readonly to: string;
  readonly asset: string;
}

const ZERO_ADDRESS = `0x${'0'.repeat(40)}`;
const topicOf = (signature: string): string => keccak256(toHex(signature));
const [TRANSFER, DEPOSIT, WITHDRAWAL] = ['Transfer(address,address,uint256)', 'Deposit(address,uint256)', 'Withdrawal(address,uint256)'].map(topicOf);

/**
 * What moved, in the order it ran, read from the node's own callTracer with its logs (never from txray):
 * ether as each call outside a failed frame enters, then the frame's logs and subcalls as their
 * positions interleave them; ERC-20 Transfers of a non-zero amount, and WETH's Deposit and Withdrawal
 * as a mint and a burn.
 */
async function movesFromNode(rpc: Anvil['rpc'], hash: string, weth: string): Promise<Move[]> {
  const out: Move[] = [];
  const fromLog = (log: { address: string; topics: string[]; data: string }): void => {
    const [topic0, one, two] = log.topics;
    const address = log.address.toLowerCase();
    const holder = (topic: string | undefined): string => `0x${topic!.slice(26)}`.toLowerCase();
    if (topic0 === TRANSFER && log.topics.length === 3 && BigInt(log.data) !== 0n) out.push({ from: holder(one), to: holder(two), asset: address });
    if (address === weth && log.topics.length === 2 && topic0 === DEPOSIT) out.push({ from: ZERO_ADDRESS, to: holder(one), asset: weth });
    if (address === weth && log.topics.length === 2 && topic0 === WITHDRAWAL) out.push({ from: holder(one), to: ZERO_ADDRESS, asset: weth });
  };
  const visit = (frame: Record<string, any>): void => {
    if (frame.error) return;
    if (BigInt(frame.value ?? '0x0') > 0n && frame.type !== 'DELEGATECALL' && frame.type !== 'STATICCALL') out.push({ from: frame.from.toLowerCase(), to: frame.to.toLowerCase(), asset: 'ETH' });
    const calls: Array<Record<string, any>> = frame.calls ?? [];
    const logs: Array<Record<string, any>> = frame.logs ?? [];
    for (let i = 0; i <= calls.length; i++) {
      for (const log of logs) if (Math.min(Number(log.position ?? 0), calls.length) === i) fromLog(log as never);
      if (i < calls.length) visit(calls[i]!);
    }
  };
  visit(await rpc('debug_traceTransaction', [hash, { tracer: 'callTracer', tracerConfig: { withLog: true } }]));
  return out;
}

/** The text view's lines of one section: its heading and the lines up to the blank one after it. */
function sectionLines(stdout: string, heading: RegExp): string[] {
  const lines = stdout.split('\n');
  const at = lines.findIndex((l) => heading.test(l));
  if (at < 0) return [];
  const end = lines.findIndex((l, i) => i > at && l.trim() === '');
  return lines.slice(at, end < 0 ? undefined : end);
}

/** Text with its runs of white space as one space: how a page and a terminal line compare. */
const words = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** The page's Net changes section as lines: its title, then each row's cells. */
async function netChangesOf(page: Page): Promise<string[]> {
  const section = page.locator('section', { has: page.locator('h2', { hasText: /^Net changes/ }) });
  const rows = await section.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => (tr as HTMLElement).innerText));
  return [await section.locator('h2').innerText(), ...rows].map(words);
}

const inside = (inner: Box, outer: Box): boolean => inner.left >= outer.left - 0.5 && inner.right <= outer.right + 0.5;

/**
 * What a measured text gets wrong: a word or number a line break cuts; or text past its panel's
 * visible width, unless it holds a word too wide for any line, which scrolls in a box of its own inside the panel.
 */
function faults(m: TextLayout): string[] {
  const cut = m.broken.map((b) => `cut: ${b}`);
  if (m.panel === null || inside(m.reach, m.panel)) return cut;
  const s = m.scroller;
  const unavoidable = s !== null && !s.isPanel && inside(s, m.panel) && m.widestWord > s.right - s.left;
  return unavoidable ? cut : [...cut, `outside its panel: ${m.text}`];
}

describe('on real Uniswap v2', () => {
  let uni: UniswapScenarios;
  withUniswapNode((s) => {
    uni = s;
  });

  const key = (m: Move): string => `${m.from} ${m.to} ${m.asset}`;

  test.each([
    ['tokenForToken', 'geth'],
    ['addLiquidityEth', 'geth'],
    ['ethForTokens', 'geth'],
    ['addLiquidityEth', 'parity'],
    ['removeLiquidity', 'auto'],
  ] as const)('the fund flow of %s (--tracer %s): every address one node, every movement on an edge, numbered in the order it ran', async (name, tracer) => {
    const { hash } = uni.actions[name];
    const weth = uni.uni.tokens.weth.address.toLowerCase();
    const expected = await movesFromNode(uni.anvil.rpc, hash, weth);
    expect(expected.length).toBeGreaterThan(1);
    const file = join(work, `flow-${name}-${tracer}.html`);
    const r = await runTxray([hash, '--html', file, '--quiet', '--tracer', tracer, '--rpc-url', uni.anvil.url]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const { page, problems } = await open(file);
    try {
      const flow = page.locator('main section[data-fund-flow]');
      expect(await flow.locator('svg').count()).toBe(1);
      const nodes = await flow.locator('[data-address]').evaluateAll((es) => es.map((e) => e.getAttribute('data-address')!));
      const ends = new Set(expected.flatMap((m) => [m.from, m.to]));
      expect(nodes.sort()).toEqual([...ends].sort()); // each address exactly once
      const edges = await flow.locator('[data-from]').evaluateAll((es) =>
        es.map((e) => ({ from: e.getAttribute('data-from')!, to: e.getAttribute('data-to')!, asset: e.getAttribute('data-asset')!, count: Number(e.getAttribute('data-count')), order: e.getAttribute('data-order')!.split(' ').map(Number), text: e.textContent! })),
      );
      // Merged edges count every movement once: per (from, to, asset), the counts add up to the node's.
      const counted = new Map<string, number>();
      for (const e of edges) counted.set(key(e), (counted.get(key(e)) ?? 0) + e.count);
      const moved = new Map<string, number>();
      for (const m of expected) moved.set(key(m), (moved.get(key(m)) ?? 0) + 1);
      expect(Object.fromEntries(counted)).toEqual(Object.fromEntries(moved));
      expect(edges.flatMap((e) => e.order).sort((a, b) => a - b)).toEqual(expected.map((_, i) => i + 1));
      for (const e of edges) expect(e.order).toHaveLength(e.count);
      // With the callTracer's log positions, movement #n is the node's n-th.
      if (tracer === 'geth') for (const e of edges) for (const n of e.order) expect(key(expected[n - 1]!), `#${n}`).toBe(key(e));
      // Token amounts carry their symbols.
      const symbols = new Map(Object.values(uni.uni.tokens).map((t) => [t.address.toLowerCase(), t.symbol]));
      for (const e of edges) if (symbols.has(e.asset)) expect(e.text).toContain(` ${symbols.get(e.asset)}`);
      expect(await flow.locator(`[data-address="${uni.actions[name].from.toLowerCase()}"]`).getAttribute('class')).toBe('node actor');
      // The Transfers table counts the same movements as the graph: WETH's Deposit and Withdrawal are rows, marked.
      const transfers = page.locator('main section', { has: page.locator('h2', { hasText: /^Transfers \(/ }) });
      expect(await transfers.locator('h2').textContent()).toBe(`Transfers (${expected.length})`);
      const wraps = expected.filter((m) => m.asset === weth && (m.from === ZERO_ADDRESS || m.to === ZERO_ADDRESS)).length;
      expect(await transfers.locator('tr', { hasText: /(minted \(Deposit|burned \(Withdrawal) event\)/ }).count()).toBe(wraps);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  test('without a call tree (--tracer none), ETH for tokens through the router: text, JSON and the report say that ether inside the calls is not known; with one they say nothing of it', async () => {
    const { hash } = uni.actions.ethForTokens;
    const args = (tracer: string, ...more: string[]) => [hash, '--tracer', tracer, '--rpc-url', uni.anvil.url, ...more];
    const blind = await runTxray(args('none'));
    const traced = await runTxray(args('geth'));
    expect([blind.code, traced.code]).toEqual([0, 0]);
    // The router's WETH9 here is not mainnet's: without a trace its Deposit is not proven, and the ether the
    // router sent to WETH is in no transfer, so the router's net changes are marked incomplete, and said why.
    expect(sectionLines(blind.stdout, /^Transfers \(/)[1]).toBe(`  ${NO_TREE_ETHER.transfers}`);
    expect(sectionLines(blind.stdout, /^Net changes \(/).slice(1, 3)).toEqual([`  ${NO_TREE_ETHER.netChanges}`, `  ${NO_TREE_ETHER.incomplete}`]);
    for (const note of Object.values(NO_TREE_ETHER)) expect(traced.stdout).not.toContain(note);
    const [blindJson, tracedJson] = [jsonOf(await runTxray(args('none', '--json'))), jsonOf(await runTxray(args('geth', '--json')))];
    expect(schemaErrors(blindJson)).toBe('');
    expect([blindJson.etherInsideCallsKnown, tracedJson.etherInsideCallsKnown]).toEqual([false, true]);
    expect(blindJson.netChanges).not.toEqual(tracedJson.netChanges);
    const file = join(work, 'eth-for-tokens-no-tree.html');
    expect((await runTxray(args('none', '--html', file, '--quiet'))).code).toBe(0);
    const { page, problems } = await open(file);
    try {
      const hint = (title: RegExp) => page.locator('main section', { has: page.locator('h2', { hasText: title }) }).locator('p.hint.warn');
      expect(await hint(/^Transfers \(/).innerText()).toBe(NO_TREE_ETHER.transfers);
      expect(await hint(/^Net changes/).allInnerTexts()).toEqual([NO_TREE_ETHER.netChanges, NO_TREE_ETHER.incomplete]);
      const router = page.locator('main section', { has: page.locator('h2', { hasText: /^Net changes/ }) }).locator('tr', { hasText: '(incomplete)' });
      expect(await router.count()).toBe(1);
      expect(await page.locator('main section[data-fund-flow] p.hint.warn').innerText()).toBe(NO_TREE_ETHER.fundFlow);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  test("log numbers are the receipt's logIndex, in the Logs table and in a call's events, as the text view numbers them", async () => {
    // A token transfer later in the busy block: its logs' logIndex counts the block's logs before them.
    let hash: string | undefined;
    let logs: Array<{ logIndex: string }> = [];
    for (const t of uni.blocks.busy.transactions) {
      const r = await uni.anvil.rpc('eth_getTransactionReceipt', [t.hash]);
      if (r.logs.length > 0 && BigInt(r.logs[0].logIndex) > 0n && r.logs.every((l: { address: string }) => l.address === r.to)) {
        hash = t.hash;
        logs = r.logs;
        break;
      }
    }
    expect(hash).toBeDefined();
    const numbers = logs.map((l) => BigInt(l.logIndex).toString());
    const args = [hash!, '--tracer', 'geth', '--rpc-url', uni.anvil.url];
    const text = (await runTxray(args)).stdout;
    expect(sectionLines(text, /^Logs \(/).filter((l) => /^ {2}#/.test(l)).map((l) => /#(\d+)/.exec(l)![1])).toEqual(numbers);
    expect([...text.matchAll(/event #(\d+)/g)].map((m) => m[1])).toEqual(numbers);
    const file = join(work, 'log-numbers.html');
    expect((await runTxray([...args, '--html', file, '--quiet'])).code).toBe(0);
    const { page, problems } = await open(file);
    try {
      const section = page.locator('section', { has: page.locator('h2', { hasText: /^Logs/ }) });
      expect(await section.locator('tbody tr td:first-child').allInnerTexts()).toEqual(numbers);
      // The root call emitted them all: its details list them by the same numbers.
      await page.locator('.tree [data-trace-address=""] > .line').click();
      const keys = await page.locator('#details th').allInnerTexts();
      expect(keys.filter((k) => k.startsWith('event #'))).toEqual(numbers.map((n) => `event #${n}`));
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  test.each(['tokenForToken', 'addLiquidityEth', 'ethForTokens'] as const)("%s: the Action line and the Net changes, in the text view's words", async (name) => {
    const args = [uni.actions[name].hash, '--rpc-url', uni.anvil.url];
    const text = (await runTxray(args)).stdout;
    const action = /^ {2}Action +(.+)$/m.exec(text)?.[1];
    expect(action).toBeDefined();
    const net = sectionLines(text, /^Net changes \(/);
    expect(net.length).toBeGreaterThan(2);
    const file = join(work, `net-${name}.html`);
    expect((await runTxray([...args, '--html', file, '--quiet'])).code).toBe(0);
    const { page, problems } = await open(file);
    try {
      const row = page.locator('header tr', { has: page.locator('th', { hasText: /^action$/ }) });
      expect(await row.locator('td').innerText()).toBe(action);
      expect(await netChangesOf(page)).toEqual(net.map(words));
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  test('at 1280 px the tree panel shows a long failed line whole, wrapped at its spaces; the details and the header cut no word or number', async () => {
    const file = join(work, 'slippage.html');
    expect((await runTxray([uni.actions.slippage.hash, '--html', file, '--quiet', '--rpc-url', uni.anvil.url])).code).toBe(1);
    const { page, problems } = await open(file, undefined, 1280);
    try {
      const failed = await page.evaluate(measureText, { selector: '.tree .failed > .line', within: '.tree-box' });
      expect(failed.length).toBeGreaterThan(0);
      expect(failed.flatMap(faults)).toEqual([]);
      await page.locator('.tree [data-trace-address=""] > .line').click();
      expect((await page.evaluate(measureText, { selector: '#details h3, #details .cell', within: '#details' })).flatMap(faults)).toEqual([]);
      expect((await page.evaluate(measureText, { selector: 'header .cell', within: 'main' })).flatMap(faults)).toEqual([]);
      // The tables below (gas profile, transfers, logs): headers and pills on one line, no word or number cut.
      expect((await page.evaluate(measureText, { selector: '.status, header th, .table-box th' })).filter((m) => m.lines !== 1).map((m) => m.text)).toEqual([]);
      expect((await page.evaluate(measureText, { selector: '.table-box td' })).flatMap(faults)).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  test('the block page at 1280 px: pills, headers and numbers on one line, no word cut, addresses short with their labels as the text view writes them, whole on hover', async () => {
    const id = String(uni.blocks.busy.number);
    const file = join(work, 'busy-block.html');
    expect((await runTxray(['block', id, '--html', file, '--quiet', '--rpc-url', uni.anvil.url])).code).toBe(0);
    const text = (await runTxray(['block', id, '--rpc-url', uni.anvil.url])).stdout;
    const facts = uni.blocks.busy.transactions;
    const { page, problems } = await open(file, 'table', 1280);
    try {
      const table = 'main table:has(thead)';
      const heads = await page.locator(`${table} th`).allInnerTexts();
      const column = (name: string): string => `${table} tbody td:nth-child(${heads.indexOf(name) + 1})`;
      for (const selector of ['.status', `${table} th`, column('#'), column('gas used'), column('fee (ETH)')]) {
        const measured = await page.evaluate(measureText, { selector });
        expect(measured.length, selector).toBeGreaterThan(0);
        expect(measured.filter((m) => m.lines !== 1).map((m) => m.text), selector).toEqual([]);
      }
      expect((await page.evaluate(measureText, { selector: 'main th, main td' })).flatMap((m) => m.broken)).toEqual([]);
      const cells = await page.locator(column('from → to')).allInnerTexts();
      const rows = text.split('\n').filter((l) => /^ +\d+ {2}0x[0-9a-f]{8}…/.test(l));
      expect(cells).toHaveLength(facts.length);
      expect(rows).toHaveLength(facts.length);
      for (let i = 0; i < cells.length; i++) {
        expect(cells[i]).not.toMatch(/0x[0-9a-fA-F]{40}/);
        expect(rows[i]).toContain(words(cells[i]!));
      }
      const senders = await page.locator(column('from → to')).evaluateAll((tds) => tds.map((td) => td.querySelector('[title]')?.getAttribute('title')));
      expect(senders).toEqual(facts.map((f) => getAddress(f.from)));
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });
});

describe('--html on the command line', () => {
  test('--html - writes the page to stdout instead of the text view', async () => {
    const r = await txray([hashes['showcase']!, '--html', '-']);
    expect(r.code).toBe(0);
    expect(r.stdout.startsWith('<!doctype html>\n')).toBe(true);
    expect(r.stdout).not.toMatch(/^Transaction 0x/m);
    expect(r.stdout.trimEnd().endsWith('</html>')).toBe(true);
  });

  test('several hashes: a folder with one page each and index.html linking them', async () => {
    const dir = join(work, 'many');
    const names = ['showcase', 'custom', 'tokenTransfer'];
    const r = await txray([...names.map((n) => hashes[n]!), '--html', dir]);
    expect(r.code).toBe(1);
    for (const n of names) expect(existsSync(join(dir, `${hashes[n]}.html`))).toBe(true);
    const { page, problems } = await open(join(dir, 'index.html'), 'table'); // no script on the index
    expect(await page.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual(names.map((n) => `${hashes[n]}.html`));
    expect(problems).toEqual([]);
    await page.close();
  });

  test('an existing regular file is overwritten', async () => {
    const file = join(work, 'again.html');
    writeFileSync(file, 'old');
    expect((await txray([hashes['showcase']!, '--html', file, '--quiet'])).code).toBe(0);
    expect(readFileSync(file, 'utf8').startsWith('<!doctype html>')).toBe(true);
  });

  test.each([
    ['a folder that does not exist', () => [join(work, 'nope', 'x.html')], /^txray: --html .*nope\/x\.html: its folder does not exist or is not writable\.\n$/],
    ['a directory, for one hash', () => [work], /^txray: --html .*: not a regular file; give a file name to write\.\n$/],
    ['a file, for several hashes', () => [join(work, 'again.html'), `0x${'11'.repeat(32)}`], /^txray: --html .*again\.html: with several hashes this is a folder/],
    ['- with --json', () => ['-', '--json'], /^txray: --html - writes one page to stdout in place of the text view/],
  ])('%s: exit 2 before any request', async (_what, args, message) => {
    const [path, ...rest] = args();
    const r = await runTxray([`0x${'ab'.repeat(32)}`, '--html', path!, ...rest, '--rpc-url', 'http://127.0.0.1:1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });
});

describe('a simulation report (txray call --html)', () => {
  test('says plainly that it is a simulation at its block; the tree and the document are what --json prints', async () => {
    const file = join(work, 'simulation.html');
    const args = ['call', showcaseAddress, 'run(uint256)', '3', '--value', '10', '--from', DEV.sender];
    const r = await txray([...args, '--html', file, '--quiet']);
    expect(r.code).toBe(0);
    const json = jsonOf(await txray([...args, '--json']));
    const opened = await open(file);
    try {
      expect(opened.problems).toEqual([]);
      const { page } = opened;
      expect(JSON.parse((await page.locator('#txray-data').textContent())!)).toEqual(json);
      expect(await page.locator('header h1').textContent()).toContain('simulation');
      const head = await page.locator('header').textContent();
      expect(head).toContain(`at block ${Number(json.simulation.block.number).toLocaleString('en-US')} (latest) by debug_traceCall: not a mined transaction, nothing was sent`);
      expect(head).toContain(`${Number(json.simulation.gasUsed).toLocaleString('en-US')} used`);
      await page.click('button[data-action="expand-all"]');
      expect(await treeNodes(page).count()).toBe(countCalls(json.calls));
      expect(await page.title()).toBe('txray simulation');
    } finally {
      await opened.page.close();
    }
  });
});

describe('a large report: the document embedded compressed', () => {
  test('over 1 MiB of JSON it is embedded gzip-compressed and base64-encoded: the exact bytes --json prints, drawn with no error or request', async () => {
    // 1,500 calls and 1,500 logs: ~3 MB of --json.
    const fanout = (await receipt(anvil.rpc, await send(anvil.rpc, { data: deployData('Fanout') }))).contractAddress as string;
    const hash = await send(anvil.rpc, { to: fanout, gas: '0x1000000', data: call('Fanout', 'many', [1500n]) });
    await receipt(anvil.rpc, hash);
    const file = join(work, 'large.html');
    expect((await txray([hash, '--html', file, '--quiet'])).code).toBe(0);
    const printed = (await txray([hash, '--json'])).stdout;
    expect(printed.length).toBeGreaterThan(1 << 20);
    const html = readFileSync(file, 'utf8');
    expect(html.length).toBeLessThan(printed.length / 4);
    const line = /^<script type="application\/json" id="txray-data" data-encoding="gzip\+base64">([A-Za-z0-9+/=]+)<\/script>$/m.exec(html);
    expect(line).not.toBeNull();
    // What the README's recipe does with base64 -d | gunzip.
    expect(gunzipSync(Buffer.from(line![1]!, 'base64')).toString('utf8')).toBe(printed);
    const json = JSON.parse(printed);
    // The raw answers the page never shows (the receipt's logs, the trace) are gzip members of their own,
    // listed before the data, which the page leaves compressed.
    const listed = /^<script type="application\/json" id="txray-parts">(.*)<\/script>$/m.exec(html);
    expect(listed).not.toBeNull();
    const parts: { members: number[]; unread: number[] } = JSON.parse(listed![1]!);
    const bytes = Buffer.from(line![1]!, 'base64');
    expect(parts.members.reduce((a, b) => a + b, 0)).toBe(bytes.length);
    let at = 0;
    const members = parts.members.map((length) => gunzipSync(bytes.subarray(at, (at += length))).toString('utf8'));
    expect(parts.unread.map((i) => JSON.parse(members[i]!))).toEqual([json.receipt.logs, json.trace]);
    expect(json.receipt.logs).toHaveLength(1500);
    const opened = await open(file);
    try {
      expect(opened.problems).toEqual([]);
      const { page } = opened;
      expect(await page.locator('.tree [data-trace-address=""]').count()).toBe(1);
      // What the page reads of the receipt is still there: its gas on the root's line; the logs from the document's own list.
      expect(await page.locator('.tree [data-trace-address=""] > .line .gas').textContent()).toBe(` · ${BigInt(json.receipt.gasUsed).toLocaleString('en-US')} gas`);
      expect(await page.locator('h2', { hasText: 'Logs (1,500)' }).count()).toBe(1);
      // The logs table shows 500 rows at a time, as the tree does, up to every log.
      const logsBox = page.locator('section', { has: page.locator('h2', { hasText: 'Logs (1,500)' }) });
      const logRows = logsBox.locator('tbody > tr');
      const moreLogs = logsBox.locator('button[data-action="show-more-logs"]');
      expect(await logRows.count()).toBe(500);
      expect(await moreLogs.textContent()).toBe('show 500 more of 1,000');
      await moreLogs.click();
      expect(await logRows.count()).toBe(1000);
      expect(await moreLogs.textContent()).toBe('show 500 more of 500');
      await moreLogs.click();
      expect(await logRows.count()).toBe(1500);
      expect(await moreLogs.count()).toBe(0);
      expect(await logRows.nth(1499).locator('td').first().textContent()).toBe(String(Number(json.logs[1499].logIndex)));
      // The root's children show 500 at a time.
      expect(await page.locator('.tree [data-trace-address=""] > ul > li[data-trace-address]').count()).toBe(500);
      expect(json.calls.children).toHaveLength(1500);
      await page.click('.tree [data-trace-address=""] > .line > button');
      await page.waitForSelector('.tree [data-trace-address=""][aria-expanded="false"]');
      expect(await treeNodes(page).count()).toBe(1);
    } finally {
      await opened.page.close();
    }
  });

  test('in a browser that cannot decompress it, the page says so, with how to read the data instead', async () => {
    const file = join(work, 'large.html'); // made by the test before
    expect(existsSync(file)).toBe(true);
    const page = await browser.newPage();
    try {
      await page.addInitScript(() => {
        delete (window as { DecompressionStream?: unknown }).DecompressionStream;
      });
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`file://${file}`);
      const said = await page.locator('p.unreadable').textContent();
      expect(said).toContain('could not be read: this browser cannot decompress it');
      expect(said).toContain('base64 -d | gunzip');
      expect(errors).toHaveLength(1);
      expect(await page.locator('.tree').count()).toBe(0);
    } finally {
      await page.close();
    }
  });
});
