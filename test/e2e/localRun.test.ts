/**
 * One run of txray's EVM per transaction per command: a failed project transaction (test/fixtures/srcloc,
 * compiled in the set-up, deployed on a real anvil) looked up with --tracer local was run twice (the
 * tree and the state diff at fetch time, then the source locations' exits and jumps); --internal shared
 * its run only by the order of the stages. Each run says one `local run:` line under --debug: these count
 * them, and check that the one run still gives every stage what it read from two.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeDeployData, encodeFunctionData, type Abi } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startAnvil } from '../../scripts/lib/anvil.mjs';
import { receipt, send } from '../../scripts/lib/scenarios.mjs';
import { jsonOf, runTxray } from '../support/runTxray.js';
import { type Compiled, writeFoundryProject } from '../support/sourceProject.js';

let anvil: Awaited<ReturnType<typeof startAnvil>>;
let compiled: Record<string, Compiled>;
const project = mkdtempSync(join(tmpdir(), 'txray-localrun-'));
let vault: string;
const tx: Record<string, string> = {};

const data = (name: string, fn: string, args: unknown[] = []): string => encodeFunctionData({ abi: compiled[name]!.abi as Abi, functionName: fn, args });
const deploy = async (name: string, args: unknown[] = []): Promise<string> => {
  const hash = await send(anvil.rpc, { data: encodeDeployData({ abi: compiled[name]!.abi as Abi, bytecode: compiled[name]!.bytecode as `0x${string}`, args }) });
  return (await receipt(anvil.rpc, hash)).contractAddress;
};
const mined = async (to: string, input: string): Promise<string> => {
  const hash = await send(anvil.rpc, { to, data: input, gas: '0x100000' });
  await receipt(anvil.rpc, hash);
  return hash;
};

beforeAll(async () => {
  compiled = writeFoundryProject(project, { ast: true });
  anvil = await startAnvil();
  vault = await deploy('Vault');
  tx.small = await mined(vault, data('Vault', 'small', [3n]));
  tx.withdraw = await mined(vault, data('Vault', 'withdraw', [5n]));
  tx.teller = await mined(await deploy('Teller', [await deploy('Ledger')]), data('Teller', 'withdraw', [5n]));
  tx.ok = await mined(vault, data('Vault', 'small', [30n]));
}, 120_000);
afterAll(async () => {
  await anvil?.stop();
});

const run = (args: string[]) => runTxray([...args, '-r', anvil.url], {}, undefined, project);
const runLines = (stderr: string): string[] => stderr.split('\n').filter((l) => l.includes('local run:'));
/** The "Why it failed" section's place lines. */
const placeLines = (stdout: string): string[] => stdout.split('\n').filter((l) => /^ {2}(at |called from )| │ /.test(l)).map((l) => l.trimEnd());

/** Each call node's internal calls (null where it lists none), depth first. */
const internalOf = (n: Record<string, any>): unknown[] => [n.internalCalls ?? null, ...n.children.flatMap(internalOf)];

describe('one local run per transaction, said once under --debug', () => {
  test('a failed project transaction with --tracer local: one run gives the tree, the state diff and the source location', async () => {
    const r = await run([tx.small!, '--tracer', 'local', '--state', '--debug']);
    expect(r.code).toBe(1);
    const lines = runLines(r.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^txray: debug: .*local run: transaction 0x[0-9a-f]{8}…[0-9a-f]{6} \(block \d+, index 0\): kept calls, logs, exits, jumps, stateDiff; \d+ ms$/);
    expect(placeLines(r.stdout)).toEqual(['  at src/Vault.sol:23:9', '     23 │         require(x > 10, "too small");']);
    // The same place as where the node's tracer gives the tree.
    expect(placeLines((await run([tx.small!])).stdout)).toEqual(placeLines(r.stdout));
  });

  test('with --internal too: one run keeps the trail the internal calls are read from, and the exits', async () => {
    const local = await run([tx.teller!, '--tracer', 'local', '--internal', '--json', '--debug']);
    const node = await run([tx.teller!, '--internal', '--json']);
    expect(runLines(local.stderr)).toHaveLength(1);
    expect(runLines(local.stderr)[0]).toContain('kept calls, logs, exits, jumps, trails;');
    const [a, b] = [jsonOf(local), jsonOf(node)];
    expect(a.failure.sourceLocation).toEqual(b.failure.sourceLocation);
    const internal = internalOf(a.calls);
    expect(internal.filter((c) => c !== null).length).toBeGreaterThan(0);
    expect(internal).toEqual(internalOf(b.calls));
  });

  test('--internal where the node gives the tree: one run serves --internal and the source locations', async () => {
    const r = await run([tx.withdraw!, '--internal', '--debug']);
    expect(runLines(r.stderr)).toHaveLength(1);
    expect(placeLines(r.stdout)[0]).toBe('  at src/lib/Balances.sol:11:20');
  });

  test('a successful transaction on a node with traces: no run at all', async () => {
    const r = await run([tx.ok!, '--debug']);
    expect(r.code).toBe(0);
    expect(runLines(r.stderr)).toEqual([]);
  });

  test('txray call of a failing call: one run, at its block', async () => {
    for (const tracer of [[], ['--tracer', 'local']]) {
      const r = await run(['call', vault, 'small(uint256)', '3', ...tracer, '--debug']);
      const lines = runLines(r.stderr);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/local run: a call after block 0x[0-9a-f]+: kept calls, logs, exits, jumps/);
      expect(placeLines(r.stdout)).toEqual(['  at src/Vault.sol:23:9', '     23 │         require(x > 10, "too small");']);
    }
  });

  test('txray debug … --at failure --json: one run, with its steps', async () => {
    const r = await run(['debug', tx.small!, '--at', 'failure', '--json', '--debug']);
    expect(r.code).toBe(0);
    const lines = runLines(r.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/kept calls, logs, steps, \d+ steps; \d+ ms$/);
    expect(jsonOf(r).source).toMatchObject({ file: 'src/Vault.sol', line: 23 });
  });
});
