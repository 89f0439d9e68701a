/**
 * The --help example that feeds txray a hash from `cast send`, run as written (its … filled in) with the
 * real cast against anvil: `cast send --async` prints the hash, which txray then waits for; plain
 * `cast send` waits itself and prints a receipt, which is no hash.
 */
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { foundryBinary, startAnvil } from '../../scripts/lib/anvil.mjs';
import { DEV } from '../../scripts/lib/scenarios.mjs';
import { BIN, runTxray, txrayEnv } from '../support/runTxray.js';

let anvil: Awaited<ReturnType<typeof startAnvil>>;
/** `cast` and `txray` as a shell finds them. */
const shims = mkdtempSync(join(tmpdir(), 'txray-help-'));

beforeAll(async () => {
  // A block a second: --confirmations 2 has blocks to wait for.
  anvil = await startAnvil(['--block-time', '1']);
  const cast = foundryBinary('cast');
  for (const [name, target] of [['cast', cast.endsWith('.mjs') ? `"${process.execPath}" "${cast}"` : `"${cast}"`], ['txray', `"${process.execPath}" "${BIN}"`]] as const) {
    writeFileSync(join(shims, name), `#!/bin/sh\nexec ${target} "$@"\n`);
    chmodSync(join(shims, name), 0o755);
  }
});
afterAll(async () => {
  await anvil?.stop();
});

function sh(script: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const env = txrayEnv({ PATH: `${shims}:${process.env.PATH}`, ETH_RPC_URL: anvil.url });
    const child = spawn('bash', ['-c', script], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const FILL = `${DEV.other} --value 1 --private-key ${DEV.senderKey}`;

test('txray "$(cast send --async …)" --wait 60 --confirmations 2, as --help writes it, shows the transaction', async () => {
  const help = (await runTxray(['--help'])).stdout;
  const lines = help.split('\n').filter((l) => l.includes('cast send'));
  expect(lines).toHaveLength(1);
  const example = /^ {2}(txray "\$\(cast send --async …\)" --wait 60 --confirmations 2)(\s+#.*)?$/.exec(lines[0]!);
  expect(example, lines[0]).not.toBeNull();
  const r = await sh(example![1]!.replace('…', FILL));
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/^Transaction 0x[0-9a-f]{64}/m);
  expect(r.stdout).toContain('success');
}, 90_000);

test('without --async, cast send prints a receipt, not a hash txray could read', async () => {
  const receipt = await sh(`cast send ${FILL}`);
  expect(receipt.code).toBe(0);
  expect(receipt.stdout.trim()).not.toMatch(/^0x[0-9a-f]{64}$/);
  expect(receipt.stdout).toMatch(/transactionHash/);
  const hash = await sh(`cast send --async ${FILL}`);
  expect(hash.stdout).toMatch(/^0x[0-9a-f]{64}\n$/);
});
