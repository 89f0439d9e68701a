// Start and stop a real Hardhat node (npm `hardhat@2`, engine EDR) on 127.0.0.1 with a free port: the
// local chain most TypeScript projects use, and one that serves no call tracer (no trace_*, and
// debug_traceTransaction only with its default opcode tracer).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { nodeHandle } from './anvil.mjs';

const require = createRequire(import.meta.url);

/** A free loopback port (Hardhat takes no port 0). */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

// Prague for EIP-7702; a reverting transaction is still mined and its hash returned (Hardhat's
// default throws instead); the same default accounts as anvil (the well-known test mnemonic).
const CONFIG = `module.exports = {
  networks: {
    hardhat: {
      hardfork: 'prague',
      throwOnTransactionFailures: false,
      throwOnCallFailures: false,
      allowUnlimitedContractSize: true,
      blockGasLimit: 60000000,
      initialBaseFeePerGas: 1000000000,
    },
  },
};
`;

/** Start a Hardhat node; resolves when it answers. Returns { url, port, rpc, stop }. */
export async function startHardhat() {
  // Hardhat runs only from a project that has it installed: the node's folder sits inside this
  // checkout's node_modules (its cache folder), so the project's own Hardhat is the local one.
  const cache = join(dirname(require.resolve('hardhat/package.json')), '..', '.cache');
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, 'txray-hardhat-'));
  writeFileSync(join(dir, 'hardhat.config.cjs'), CONFIG);
  writeFileSync(join(dir, 'package.json'), '{"name":"txray-hardhat-node","private":true}\n');
  const port = await freePort();
  const cli = join(dirname(require.resolve('hardhat/package.json')), 'internal', 'cli', 'cli.js');
  const child = spawn(process.execPath, [cli, 'node', '--hostname', '127.0.0.1', '--port', String(port), '--config', join(dir, 'hardhat.config.cjs')], {
    cwd: dir,
    env: { ...process.env, HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true', HARDHAT_DISABLE_ANALYTICS: 'true' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`hardhat did not start: ${seen.slice(-2000)}`)), 60_000);
    let found = false;
    const onData = (buf) => {
      if (found) return;
      seen += buf.toString();
      if (/Started HTTP and WebSocket JSON-RPC server/.test(seen)) {
        found = true;
        seen = '';
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`hardhat exited with ${code}: ${seen.slice(-2000)}`));
    });
  });
  return nodeHandle(port, child, () => rmSync(dir, { recursive: true, force: true }));
}
