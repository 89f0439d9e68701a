/**
 * `npm run demo` (scripts/demo.mjs): what its last lines suggest is true. Without --keep it stops its
 * anvil and says so (and how to keep one); with --keep the command it prints works on the node it left
 * running, and Ctrl-C (SIGINT) stops it. Its failed transaction is placed in the source (file, line, code).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { jsonOf, runTxray, txrayEnv } from '../support/runTxray.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DEMO = fileURLToPath(new URL('../../scripts/demo.mjs', import.meta.url));

/** Start the demo from the clone, as npm run does; `out()` is its stdout so far. */
function startDemo(args: string[]): { child: ChildProcess; out: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [DEMO, ...args], { cwd: ROOT, env: txrayEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.resume();
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, out: () => stdout, exited };
}

const answers = async (url: string): Promise<boolean> =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}' }).then(
    (r) => r.ok,
    () => false,
  );

const urlOf = (out: string): string => /^anvil is listening on (http:\/\/127\.0\.0\.1:\d+);/m.exec(out)![1]!;

test('without --keep: anvil is stopped at the end, and the last line says so instead of suggesting a command on it', async () => {
  const demo = startDemo([]);
  expect(await demo.exited).toBe(0);
  const lines = demo.out().trimEnd().split('\n');
  expect(lines.at(-1)).toBe('anvil is stopped now. To try txray on these transactions yourself: npm run demo -- --keep (anvil runs on until Ctrl-C).');
  expect(demo.out()).not.toMatch(/--rpc-url <url>/);
  expect(await answers(urlOf(demo.out()))).toBe(false);
  // The failed transaction is placed in the source, as the README promises for a project's own failures.
  const failed = demo.out().slice(demo.out().lastIndexOf('$ txray 0x'));
  expect(failed).toMatch(/Why it failed\n {2}Nope\(.*\n {2}at Scenarios\.sol:98:16\n {5}98 │ {9}revert Nope\(msg\.sender, 0, 1e24\);\n/);
}, 60_000);

test('with --keep: the printed command works on the anvil left running, and SIGINT stops it', async () => {
  const demo = startDemo(['--keep']);
  try {
    await expect.poll(() => demo.out(), { timeout: 45_000, interval: 100 }).toMatch(/Ctrl-C stops it\. Try it yourself, in another terminal:\n {2}.+\n/);
    const url = urlOf(demo.out());
    const command = demo.out().trimEnd().split('\n').at(-1)!.trim();
    const ok = /^\$ txray (0x[0-9a-f]{64}) --rpc-url /m.exec(demo.out())![1]!;
    expect(command).toBe(`node bin/txray.cjs ${ok} --rpc-url ${url} --json | jq '.calls.children[].callType'`);
    expect(await answers(url)).toBe(true);
    // The txray half, run from the clone as the demo was.
    const [node, bin, ...args] = command.split(' | ')[0]!.split(' ');
    expect([node, bin]).toEqual(['node', 'bin/txray.cjs']);
    const r = await runTxray(args, {}, undefined, ROOT);
    expect(r.code).toBe(0);
    const doc = jsonOf(r);
    expect(doc.hash).toBe(ok);
    const callTypes = (doc.calls.children as Array<{ callType?: string }>).map((c) => c.callType ?? null);
    expect(callTypes).toContain('delegatecall');
    // And the whole line, jq included, where jq is installed.
    if (spawnSync('jq', ['--version']).status === 0) {
      const piped = spawnSync('bash', ['-o', 'pipefail', '-c', command], { cwd: ROOT, env: txrayEnv(), encoding: 'utf8' });
      expect(piped.status).toBe(0);
      expect(piped.stdout.trim().split('\n')).toEqual(callTypes.map((t) => JSON.stringify(t)));
    }
    demo.child.kill('SIGINT');
    expect(await demo.exited).toBe(0);
    expect(await answers(url)).toBe(false);
  } finally {
    if (demo.child.exitCode === null) demo.child.kill('SIGTERM');
  }
}, 60_000);
