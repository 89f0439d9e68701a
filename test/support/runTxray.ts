import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/txray.cjs', import.meta.url));

export interface RunResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The environment a run gets: this process's, without colour, RPC URL, width, proxy and extra CA variables unless given. */
export function txrayEnv(env: Record<string, string | undefined> = {}): Record<string, string> {
  // The proxy variables too: a machine behind a proxy would otherwise send every test's loopback request through it.
  const proxies = Object.fromEntries(['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'no_proxy'].map((k) => [k, undefined]));
  // And a machine's extra CA file (set on some CI and sandbox machines, rarely on a user's): Node reads and
  // parses it at every start-up, before txray runs, and the runs here speak plain HTTP to loopback servers.
  // The TLS tests name their own CA file, which is passed.
  const base: Record<string, string | undefined> = { ...process.env, NO_COLOR: undefined, FORCE_COLOR: undefined, ETH_RPC_URL: undefined, COLUMNS: undefined, NODE_EXTRA_CA_CERTS: undefined, ...proxies };
  return Object.fromEntries(Object.entries({ ...base, ...env }).filter(([, v]) => v !== undefined)) as Record<string, string>;
}

/** Run the built bin (or another copy of it) as a user would: no TTY, colour variables cleared unless given. */
export function runTxray(args: readonly string[], env: Record<string, string | undefined> = {}, stdin?: string, cwd?: string, bin = BIN): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { env: txrayEnv(env), stdio: ['pipe', 'pipe', 'pipe'], cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    // A run that exits before reading its stdin (bad input: exit 2 at once) closes the pipe first: the
    // write then fails with EPIPE, which says nothing of the run and must not fail the test run.
    child.stdin.on('error', () => undefined);
    child.stdin.end(stdin ?? '');
  });
}

/** Parse the single JSON document a --json run prints. */
export function jsonOf(r: RunResult): Record<string, any> {
  return JSON.parse(r.stdout) as Record<string, any>;
}
