/**
 * The text view folds runs of alike sibling calls (and the events inside them) into one line, on a
 * real anvil: Fanout.many(n) makes n calls to leaf(i), each emitting Leaf(i, 2i). Every expected figure
 * comes from the node: its trace (gas, inputs) and its callTracer's logs. --full, --json and the
 * HTML report keep every call.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startAnvil } from '../../scripts/lib/anvil.mjs';
import { call, deployData, receipt, send, writeFoundryProject } from '../../scripts/lib/scenarios.mjs';
import { FOLD_AT } from '../../src/render/foldRuns.js';
import { jsonOf, runTxray } from '../support/runTxray.js';

interface ParityEntry {
  readonly traceAddress: number[];
  readonly action: { readonly input: string };
  readonly result: { readonly gasUsed: string };
}
interface CallFrame {
  readonly calls?: CallFrame[];
  readonly logs?: Array<{ readonly topics: string[]; readonly data: string }>;
}

const N = 20_000;
const group = (n: bigint | number): string => n.toLocaleString('en-US');
/** The call tree section of a text view: the lines after its heading. */
const treeOf = (text: string): string[] => text.slice(text.indexOf('\nCall tree (')).trim().split('\n').slice(1);

let anvil: Awaited<ReturnType<typeof startAnvil>>;
let fanout: string;
let wide: string;
const project = mkdtempSync(join(tmpdir(), 'txray-fold-'));
writeFoundryProject(project);
const txray = (args: string[]) => runTxray([...args, '-r', anvil.url], { COLUMNS: '200' }, undefined, project);

beforeAll(async () => {
  anvil = await startAnvil(['--gas-limit', '300000000']);
  fanout = (await receipt(anvil.rpc, await send(anvil.rpc, { data: deployData('Fanout') }))).contractAddress as string;
  wide = await send(anvil.rpc, { to: fanout, gas: `0x${(250_000_000).toString(16)}`, data: call('Fanout', 'many', [BigInt(N)]) });
  expect((await receipt(anvil.rpc, wide)).status).toBe('0x1');
});
afterAll(async () => {
  await anvil?.stop();
  rmSync(project, { recursive: true, force: true });
});

describe('folded runs of alike calls in the text view', () => {
  test(`${group(N)} sibling calls to one function: one line with the count, first and last argument, gas in all and the shared outcome`, async () => {
    const trace = (await anvil.rpc('trace_transaction', [wide])) as ParityEntry[];
    const leaves = trace.filter((e) => e.traceAddress.length === 1);
    expect(leaves).toHaveLength(N);
    const gas = leaves.reduce((sum, e) => sum + BigInt(e.result.gasUsed), 0n);
    const arg = (e: ParityEntry): bigint => BigInt(`0x${e.action.input.slice(10)}`);
    const r = await txray([wide]);
    expect(r.code).toBe(0);
    const tree = treeOf(r.stdout);
    expect(tree[0]).toMatch(/^ {2}call Fanout::many\(n: 20000\)/);
    expect(tree[1]).toBe(`  └─ ${group(N)} × call Fanout::leaf(i: ${arg(leaves[0]!)} … ${arg(leaves.at(-1)!)}) · ${group(gas)} gas in all · all ← no data`);
    expect(tree[2]).toMatch(new RegExp(`runs of ${FOLD_AT} or more alike calls or events are folded.*--full shows every line`));
    expect(tree).toHaveLength(3);
    // The Logs section: the receipt's logs, one entry.
    const logs = ((await receipt(anvil.rpc, wide)) as { logs: Array<{ topics: string[]; data: string }> }).logs;
    expect(logs).toHaveLength(N);
    const [first, last] = [logs[0]!, logs.at(-1)!];
    const section = r.stdout.slice(r.stdout.indexOf('\nLogs ('), r.stdout.indexOf('\nCall tree (')).trim().split('\n');
    expect(section[1]).toMatch(new RegExp(`^ {2}#0 … #${N - 1} Fanout\\(0x[0-9a-fA-F]{40}\\) · ${group(N)} ×$`));
    expect(section[2]).toBe(`      Leaf(i: ${BigInt(first.topics[1]!)} … ${BigInt(last.topics[1]!)}, value: ${BigInt(first.data)} … ${BigInt(last.data)}) (project)`);
    expect(section[3]).toMatch(/folded.*--full shows every one/);
    expect(section).toHaveLength(4);
  });

  test('--full: every call on its own line, as before', async () => {
    const r = await txray([wide, '--full']);
    expect(r.code).toBe(0);
    const tree = treeOf(r.stdout);
    expect(tree).toHaveLength(N + 1);
    expect(tree[1]).toMatch(/^ {2}├─ call Fanout::leaf\(i: 0\) · [\d,]+ gas ← no data$/);
    expect(tree.at(-1)).toMatch(new RegExp(`^ {2}└─ call Fanout::leaf\\(i: ${N - 1}\\) · [\\d,]+ gas ← no data$`));
    expect(r.stdout).not.toMatch(/ × |folded/);
    expect(r.stdout).toMatch(new RegExp(`\\n {2}#${N - 1} Fanout\\(0x[0-9a-fA-F]{40}\\)\\n {6}Leaf\\(i: ${N - 1}, value: ${2 * (N - 1)}\\) \\(project\\)\\n`));
  });

  test('undecoded logs fold too, outside a project: the shared topic once, the others as first … last', async () => {
    const logs = ((await receipt(anvil.rpc, wide)) as { logs: Array<{ topics: string[]; data: string }> }).logs;
    const [first, last] = [logs[0]!, logs.at(-1)!];
    const empty = mkdtempSync(join(tmpdir(), 'txray-fold-empty-'));
    try {
      const r = await runTxray([wide, '-r', anvil.url], { COLUMNS: '200' }, undefined, empty);
      const section = r.stdout.slice(r.stdout.indexOf('\nLogs ('), r.stdout.indexOf('\nCall tree (')).trim().split('\n');
      expect(section[1]).toMatch(new RegExp(`^ {2}#0 … #${N - 1} 0x[0-9a-fA-F]{40} · ${group(N)} ×$`));
      expect(section[1]!.toLowerCase()).toContain(fanout.toLowerCase());
      expect(section.slice(2, 5)).toEqual([`      topic0 ${first.topics[0]}`, `      topic1 ${first.topics[1]} … ${last.topics[1]}`, `      data   ${first.data} … ${last.data}`]);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  test('txray call: the events inside the folded calls fold too; --json keeps every call and event', async () => {
    const n = FOLD_AT + 2;
    const args = ['call', fanout, 'many(uint256)', String(n)];
    const frame = (await anvil.rpc('debug_traceCall', [{ to: fanout, data: call('Fanout', 'many', [BigInt(n)]) }, 'latest', { tracer: 'callTracer', tracerConfig: { withLog: true } }])) as CallFrame;
    const logs = (frame.calls ?? []).flatMap((c) => c.logs ?? []);
    expect(logs).toHaveLength(n);
    const word = (hex: string): bigint => BigInt(hex);
    const [first, last] = [logs[0]!, logs.at(-1)!];
    const tree = treeOf((await txray(args)).stdout);
    expect(tree[1]).toMatch(new RegExp(`^ {2}└─ ${n} × call Fanout::leaf\\(i: 0 … ${n - 1}\\) · [\\d,]+ gas in all · all ← no data$`));
    expect(tree[2]).toBe(`     └─ ${n} × event #0 … #${n - 1} Fanout Leaf(i: ${word(first.topics[1]!)} … ${word(last.topics[1]!)}, value: ${word(first.data)} … ${word(last.data)})`);
    const doc = jsonOf(await txray([...args, '--json']));
    expect(doc.calls.children).toHaveLength(n);
    expect(doc.logs).toHaveLength(n);
  });
});
