// `npm run demo`: start a local anvil, deploy the scenario contracts, simulate the showcase call with
// `txray call` (nothing sent), send the showcase transaction
// (nested calls, value, staticcall, delegatecall, create, create2, a caught revert, a selfdestruct,
// events) and a failing one, and inspect both with txray. anvil is stopped at the end; with --keep
// (`npm run demo -- --keep`) it runs on with the two transactions until Ctrl-C, and the last lines give
// a command to try on it.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startAnvil } from './lib/anvil.mjs';
import { call, deploy, DEV, send, writeFoundryProject } from './lib/scenarios.mjs';

const bin = fileURLToPath(new URL('../bin/txray.cjs', import.meta.url));
const keep = process.argv.slice(2).includes('--keep');
const unknown = process.argv.slice(2).filter((a) => a !== '--keep');
if (unknown.length > 0) {
  console.error(`demo: unknown argument ${unknown.join(' ')} (only --keep: leave anvil running until Ctrl-C)`);
  process.exit(2);
}

// The contracts' artifacts laid out as a Foundry project, their source and source maps with them: txray, run
// from there, finds them and shows calls, events and errors by name, and where in the source the failure is.
const project = mkdtempSync(join(tmpdir(), 'txray-demo-'));
writeFoundryProject(project, { sources: true });

function txray(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { stdio: 'inherit', cwd: project });
    child.on('close', (code) => resolve(code));
  });
}

const anvil = await startAnvil();
let failed = false;
try {
  console.log(`anvil is listening on ${anvil.url}; deploying the scenario contracts…`);
  console.log(`(txray runs in ${project}, a Foundry project holding their artifacts)\n`);
  const { showcase } = await deploy(anvil.rpc);
  // First what the transaction would do, simulated at the latest block (nothing is sent), then the real thing.
  const simulate = ['call', showcase, 'run(uint256)', '3', '--value', '10', '--from', DEV.sender, '--rpc-url', anvil.url];
  console.log(`$ txray ${simulate.join(' ')}\n`);
  const code0 = await txray(simulate);
  console.log(`\n(exit code ${code0}: 0 means it would succeed; now it is sent for real)\n`);
  const ok = await send(anvil.rpc, { to: showcase, value: '0xa', gas: '0x2dc6c0', data: call('Showcase', 'run', [3n]) });
  const bad = await send(anvil.rpc, { to: showcase, gas: '0xf4240', data: call('Showcase', 'failCustom') });

  console.log(`$ txray ${ok} --rpc-url ${anvil.url}\n`);
  const code1 = await txray([ok, '--rpc-url', anvil.url]);
  console.log(`\n(exit code ${code1})\n\n$ txray ${bad} --rpc-url ${anvil.url}\n`);
  const code2 = await txray([bad, '--rpc-url', anvil.url]);
  console.log(`\n(exit code ${code2}: 1 means the transaction reverted)\n`);
  failed = code0 !== 0 || code1 !== 0 || code2 !== 1;
  if (keep) {
    // The command runs from where the demo was started (npm run: the clone), so bin/txray.cjs by its path from there.
    const here = relative(process.cwd(), bin) || bin;
    console.log(`anvil keeps running on ${anvil.url} with these transactions; Ctrl-C stops it. Try it yourself, in another terminal:`);
    console.log(`  node ${here} ${ok} --rpc-url ${anvil.url} --json | jq '.calls.children[].callType'`);
    await new Promise((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    console.log('\nstopping anvil');
  }
} finally {
  await anvil.stop();
  rmSync(project, { recursive: true, force: true });
}
// Said once it is true: the node is gone with the demo.
if (!keep) console.log('anvil is stopped now. To try txray on these transactions yourself: npm run demo -- --keep (anvil runs on until Ctrl-C).');
if (failed) process.exitCode = 1;
