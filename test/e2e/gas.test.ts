/**
 * --gas, --gas-out and the JSON gas profile: self gas adds up to the root call's gas used, rows are
 * ordered by self gas and named, on anvil (where every call has its gas) and on the recorded mainnet
 * traces (where failed Parity entries have none: unknown, never 0, and a warning).
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { writeFoundryProject } from '../../scripts/lib/scenarios.mjs';
import { type Anvil, withScenarioNode } from '../support/scenarioNode.js';
import { jsonOf, runTxray } from '../support/runTxray.js';
import { schemaErrors } from '../support/schema.js';

let anvil: Anvil;
let hashes: Record<string, string>;
withScenarioNode((s) => {
  anvil = s.anvil;
  hashes = s.hashes as Record<string, string>;
});

const work = mkdtempSync(join(tmpdir(), 'txray-gas-'));
const project = join(work, 'project');
mkdirSync(project);
writeFoundryProject(project);
const run = (args: string[]) => runTxray([...args, '--rpc-url', anvil.url], {}, undefined, project);

describe('the gas profile on anvil', () => {
  test.each(['showcase', 'stateShow', 'recursion', 'tokenTransfer', 'deep'])('%s: self gas adds up to the root call, rows by self gas, gas outside calls stated', async (name) => {
    const r = await run([hashes[name]!, '--json']);
    const doc = jsonOf(r);
    expect(schemaErrors(doc)).toBe('');
    const rows = doc.gasProfile as Array<{ selfGas: string; gasUsed: string; calls: number }>;
    const self = rows.map((x) => BigInt(x.selfGas));
    expect(self.reduce((a, b) => a + b, 0n)).toBe(BigInt(doc.calls.gasUsed));
    expect([...self].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0))).toEqual(self);
    expect(BigInt(doc.gasOutsideCalls)).toBe(BigInt(doc.receipt.gasUsed) - BigInt(doc.calls.gasUsed));
    const countNodes = (n: { type: string; children: unknown[] }): number => (n.type === 'suicide' ? 0 : 1) + n.children.reduce<number>((k, c) => k + countNodes(c as never), 0);
    expect(rows.reduce((n, x) => n + x.calls, 0)).toBe(countNodes(doc.calls));
  });

  test('recursion: one row, the outermost call\'s gas counted once', async () => {
    const doc = jsonOf(await run([hashes['recursion']!, '--json']));
    const recurse = doc.gasProfile.find((x: any) => x.function === 'recurse');
    expect(recurse).toMatchObject({ contract: 'Showcase', calls: 61 });
    expect(recurse.selector).toMatch(/^0x[0-9a-f]{8}$/);
    expect(BigInt(recurse.gasUsed)).toBe(BigInt(doc.calls.gasUsed));
  });

  test('--gas: a table after the call tree, by name, with the sum and the gas outside calls', async () => {
    const r = await run([hashes['showcase']!, '--gas']);
    expect(r.code).toBe(0);
    const out = r.stdout;
    expect(out.indexOf('Gas profile (')).toBeGreaterThan(out.indexOf('Call tree ('));
    expect(out).toMatch(/│ Showcase::run +│ +1 │ +[\d,]+ │ +[\d,]+ │ +[\d.]+% │/);
    expect(out).toMatch(/│ Showcase::recurse +│ +4 │/);
    expect(out).toMatch(/│ Child\(0x[0-9a-fA-F]{4}…[0-9a-fA-F]{4}\)::constructor/); // two Child instances: each keeps its address
    expect(out).toMatch(/Self gas adds up to the tracer's root frame, gas used [\d,]+\n/);
    expect(out).toMatch(/Gas outside calls [\d,]+ \(the receipt's [\d,]+, the call tree's root line, minus the root frame's [\d,]+: intrinsic gas less refunds\)/);
    // Re-executed in txray's own EVM, the root counts the intrinsic gas as geth's callTracer does: said so, by its name.
    const local = await run([hashes['showcase']!, '--gas', '--tracer', 'local']);
    expect(local.stdout).toMatch(/Gas outside calls 0 \(the receipt's [\d,]+, the call tree's root line, minus the root frame's [\d,]+: txray's EVM, as geth's callTracer does, counts the intrinsic gas in its root call\)/);
    const plain = await run([hashes['showcase']!]);
    expect(plain.stdout).not.toContain('Gas profile');
    // --gas-out alone writes its file and leaves the text view as it is.
    const outOnly = await run([hashes['showcase']!, '--gas-out', join(work, 'only.folded')]);
    expect(outOnly.stdout).toBe(plain.stdout);
    expect(readFileSync(join(work, 'only.folded'), 'utf8')).toMatch(/^Showcase::run \d+\n/);
  });

  test('--gas-out: folded stacks whose counts add up to the root call; an existing file is overwritten', async () => {
    const file = join(work, 'showcase.folded');
    writeFileSync(file, 'old contents\n');
    const r = await run([hashes['showcase']!, '--gas-out', file, '--quiet']);
    expect(r.code).toBe(0);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    for (const l of lines) expect(l).toMatch(/^[^\s;]+(;[^\s;]+)* \d+$/);
    expect(lines[0]).toMatch(/^Showcase::run \d+$/);
    expect(lines).toContain(lines.find((l) => /^Showcase::run;Showcase::recurse;Showcase::recurse;Showcase::recurse;Showcase::recurse \d+$/.test(l)));
    const doc = jsonOf(await run([hashes['showcase']!, '--json']));
    expect(lines.reduce((n, l) => n + BigInt(l.split(' ').pop()!), 0n)).toBe(BigInt(doc.calls.gasUsed));
  });

  test('--gas-out with several hashes: one file, each path under its transaction', async () => {
    const file = join(work, 'two.folded');
    const r = await run([hashes['showcase']!, hashes['tokenTransfer']!, '--gas-out', file, '--quiet']);
    expect(r.code).toBe(0);
    const firsts = new Set(readFileSync(file, 'utf8').trimEnd().split('\n').map((l) => l.split(';')[0]));
    expect(firsts).toEqual(new Set([`${hashes['showcase']!.slice(0, 10)}…${hashes['showcase']!.slice(-6)}`, `${hashes['tokenTransfer']!.slice(0, 10)}…${hashes['tokenTransfer']!.slice(-6)}`]));
  });

  test.each([
    ['a folder that does not exist', () => join(work, 'nope', 'x.folded'), /^txray: --gas-out .*nope\/x\.folded: its folder does not exist or is not writable\.\n$/],
    ['a directory', () => work, /^txray: --gas-out .*: not a regular file; give a file name to write\.\n$/],
  ])('--gas-out to %s: exit 2 before any request', async (_what, path, message) => {
    const r = await runTxray([hashes['showcase']!, '--gas-out', path(), '--rpc-url', 'http://127.0.0.1:1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });
});
