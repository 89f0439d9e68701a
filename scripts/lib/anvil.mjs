// Start and stop a real anvil (from the @foundry-rs/anvil npm package) on 127.0.0.1 with a free port.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** The platform binary inside @foundry-rs/anvil-<os>-<arch> (skips the node wrapper's start-up). */
export function foundryBinary(tool) {
  const arch = { x64: 'amd64', arm64: 'arm64' }[process.arch] ?? process.arch;
  const pkg = `@foundry-rs/${tool}-${process.platform}-${arch}`;
  try {
    const bin = join(dirname(require.resolve(`${pkg}/package.json`)), 'bin', process.platform === 'win32' ? `${tool}.exe` : tool);
    if (existsSync(bin)) return bin;
  } catch {
    /* fall through to the wrapper */
  }
  return join(dirname(require.resolve(`@foundry-rs/${tool}/package.json`)), 'bin.mjs');
}

/** A minimal JSON-RPC caller for harness code (the product's own client is not used to set up tests). */
export function rpcCaller(url) {
  let id = 0;
  return async function rpc(method, params = []) {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
    });
    const body = await res.json();
    if (body.error) throw new Error(`${method}: ${body.error.message}`);
    return body.result;
  };
}

/**
 * Start anvil; resolves when it listens. `extraArgs` are passed through (e.g. --gas-limit).
 * Returns { url, port, rpc, stop }.
 */
export async function startAnvil(extraArgs = []) {
  const bin = foundryBinary('anvil');
  // An OP Stack-mode node (--network optimism) names its hardforks its own way and refuses prague.
  const hardfork = extraArgs.includes('--network') ? [] : ['--hardfork', 'prague'];
  const args = ['--host', '127.0.0.1', '--port', '0', ...hardfork, ...extraArgs];
  const child = bin.endsWith('.mjs') ? spawn(process.execPath, [bin, ...args]) : spawn(bin, args);
  // The port comes from the banner's "Listening on" line; anvil logs every request after it, so the
  // pipes keep being drained (and discarded) for as long as it runs.
  const port = await new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`anvil did not start: ${seen}`)), 20_000);
    let found = false;
    const onData = (buf) => {
      if (found) return;
      seen += buf.toString();
      const m = /Listening on [\d.]+:(\d+)/.exec(seen);
      if (m) {
        found = true;
        seen = '';
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`anvil exited with ${code}: ${seen}`));
    });
  });
  return nodeHandle(port, child);
}

/** What a started node hands the tests: its URL, a caller, and stop() (then `cleanup`, if any). */
export function nodeHandle(port, child, cleanup = () => undefined) {
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    port,
    rpc: rpcCaller(url),
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      cleanup();
    },
  };
}
