/**
 * How much of real mainnet data the shipped sources name on their own (README figures): every call with
 * a selector, every log and every custom-error revert, in two sets:
 * - fixtures: the recorded cases in test/fixtures/real (the decoder's own test data);
 * - blocks: whole mainnet blocks in test/fixtures/blocks (every transaction of four blocks, 2022–2026),
 *   minus the transactions that are also fixtures.
 * Calls are counted per source that named them, then "guessed" (types read from the layout, no name),
 * then "none".
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { AbiIndex } from '../../src/decode/abiIndex.js';
import { decodeCallData, decodeErrorData, guessCallData } from '../../src/decode/callData.js';
import { decodeLog } from '../../src/decode/decodeLogs.js';
import { decodePrecompile, isPrecompile } from '../../src/decode/precompiles.js';
import type { Hex, RpcLog } from '../../src/raw/types.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/real/', import.meta.url));
const BLOCKS = fileURLToPath(new URL('../fixtures/blocks/', import.meta.url));

interface Counts {
  total: number;
  bySource: Record<string, number>;
}
interface Sample {
  /** Calls with input of 4 bytes or more, and the address called. */
  calls: Array<{ to: string; input: string }>;
  logs: RpcLog[];
  /** Revert data of failed calls that is neither Error(string) nor Panic(uint256) nor empty. */
  errors: string[];
}

const readJson = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'));
const STANDARD_REVERTS = new Set(['0x08c379a0', '0x4e487b71']);

function fromParity(entries: readonly Record<string, any>[], into: Sample, skip: ReadonlySet<string> = new Set()): void {
  for (const e of entries) {
    if (skip.has(String(e.transactionHash).toLowerCase())) continue;
    if (e.type !== 'call') continue;
    const input: string = e.action.input;
    if (input.length >= 10) into.calls.push({ to: String(e.action.to), input });
    const out: string | undefined = e.result?.output ?? e.output;
    if (e.error !== undefined && typeof out === 'string' && out.length >= 10 && !STANDARD_REVERTS.has(out.slice(0, 10))) into.errors.push(out);
  }
}

function fromCallTracer(frame: Record<string, any> | undefined, into: Sample): void {
  if (frame === undefined || frame === null) return;
  const type = String(frame.type).toUpperCase();
  if (!type.startsWith('CREATE') && type !== 'SELFDESTRUCT' && typeof frame.input === 'string' && frame.input.length >= 10) into.calls.push({ to: String(frame.to), input: frame.input });
  if (frame.error !== undefined && typeof frame.output === 'string' && frame.output.length >= 10 && !STANDARD_REVERTS.has(frame.output.slice(0, 10))) into.errors.push(frame.output);
  for (const c of frame.calls ?? []) fromCallTracer(c, into);
}

function fixtures(): { sample: Sample; hashes: Set<string> } {
  const sample: Sample = { calls: [], logs: [], errors: [] };
  const hashes = new Set<string>();
  for (const name of readdirSync(FIXTURES)) {
    const dir = join(FIXTURES, name);
    const meta = join(dir, 'meta.json');
    if (existsSync(meta)) hashes.add(String((readJson(meta) as { hash: string }).hash).toLowerCase());
    if (existsSync(join(dir, 'trace.json'))) fromParity(readJson(join(dir, 'trace.json')) as Record<string, any>[], sample);
    if (existsSync(join(dir, 'receipt.json'))) sample.logs.push(...((readJson(join(dir, 'receipt.json')) as { logs: RpcLog[] }).logs));
  }
  return { sample, hashes };
}

function blocks(skip: ReadonlySet<string>): Sample {
  const sample: Sample = { calls: [], logs: [], errors: [] };
  for (const name of readdirSync(BLOCKS)) {
    const result = readJson(join(BLOCKS, name, 'result.json')) as Record<string, any>[];
    for (const x of result) {
      if (x.txHash !== undefined) {
        if (!skip.has(String(x.txHash).toLowerCase())) fromCallTracer(x.result, sample);
      } else fromParity([x], sample, skip);
    }
  }
  return sample;
}

function measure(index: AbiIndex, s: Sample): { calls: Counts; logs: Counts; errors: Counts; precompiles: Counts } {
  const add = (c: Counts, key: string) => (c.bySource[key] = (c.bySource[key] ?? 0) + 1);
  // A precompile's input has no selector (it is not call data): counted apart, decoded by address.
  const precompiles: Counts = { total: 0, bySource: {} };
  const selectorCalls = s.calls.filter(({ to, input }) => {
    if (!isPrecompile(to)) return true;
    precompiles.total++;
    add(precompiles, decodePrecompile(to as Hex, input as Hex, null) !== null ? 'decoded' : 'none');
    return false;
  });
  const calls: Counts = { total: selectorCalls.length, bySource: {} };
  for (const { input } of selectorCalls) {
    const named = decodeCallData(index, input as Hex);
    if (named !== null) add(calls, named.decoded.source);
    else add(calls, guessCallData(input as Hex) !== null ? 'guessed' : 'none');
  }
  const logs: Counts = { total: s.logs.length, bySource: {} };
  for (const l of s.logs) add(logs, decodeLog(index, l)?.source ?? 'none');
  const errors: Counts = { total: s.errors.length, bySource: {} };
  for (const e of s.errors) add(errors, decodeErrorData(index, e as Hex)?.source ?? 'none');
  return { calls, logs, errors, precompiles };
}

const NAMES = ['abi', 'project', 'builtin', 'protocol', 'database'];
const named = (c: Counts): number => NAMES.reduce((n, k) => n + (c.bySource[k] ?? 0), 0);
const pct = (a: number, b: number): string => (b === 0 ? 'n/a' : `${((100 * a) / b).toFixed(1)}%`);
const line = (what: string, c: Counts): string =>
  `${what}: named ${pct(named(c), c.total)} (${named(c)}/${c.total}) ${JSON.stringify(c.bySource)}${c.bySource.guessed !== undefined ? `; named or typed ${pct(named(c) + c.bySource.guessed, c.total)}` : ''}`;

test('shipped sources name most calls and logs of real mainnet transactions, and type nearly all the rest', () => {
  const index = new AbiIndex(new URL('../../dist/sigdb/', import.meta.url));
  index.addBuiltins();
  const { sample, hashes } = fixtures();
  const f = measure(index, sample);
  const b = measure(index, blocks(hashes));
  console.log(`decode coverage, fixtures:\n  ${line('calls', f.calls)}\n  ${line('logs', f.logs)}\n  ${line('custom errors', f.errors)}`);
  console.log(`decode coverage, blocks:\n  ${line('calls', b.calls)}\n  ${line('custom errors', b.errors)}`);
  console.log(`precompile calls (no selector; decoded by address): fixtures ${JSON.stringify(f.precompiles)}, blocks ${JSON.stringify(b.precompiles)}`);
  expect(b.precompiles.bySource.decoded).toBe(b.precompiles.total);
  expect(f.calls.total).toBeGreaterThan(800);
  expect(b.calls.total).toBeGreaterThan(2900);
  // Regression guards at the levels measured last (README): fixtures 87.7% named, 99.3% named or
  // typed, logs 79.1%; blocks 82.1% named, 98.4% named or typed.
  expect(named(f.calls) / f.calls.total).toBeGreaterThanOrEqual(0.85);
  expect((named(f.calls) + (f.calls.bySource.guessed ?? 0)) / f.calls.total).toBeGreaterThanOrEqual(0.98);
  expect(named(f.logs) / f.logs.total).toBeGreaterThanOrEqual(0.75);
  expect(named(b.calls) / b.calls.total).toBeGreaterThanOrEqual(0.8);
  expect((named(b.calls) + (b.calls.bySource.guessed ?? 0)) / b.calls.total).toBeGreaterThanOrEqual(0.97);
  // Every source is used on real data.
  for (const source of ['builtin', 'protocol', 'database', 'guessed']) expect(b.calls.bySource[source] ?? 0).toBeGreaterThan(0);
});
