// `node scripts/bench-serve.mjs [out.json]`: start the bench's nodes and make its transactions, write
// where they are (URLs and hashes) as JSON, and keep them up until interrupted. For timing two builds
// side by side on the bench's own cases (`farm-bench --vs`) without rebuilding the scenes each time.
// What each name is: the rows of `npm run bench` (scripts/bench.mjs) with the same letter.
import { writeFileSync } from 'node:fs';
import { startAnvil } from './lib/anvil.mjs';
import { startHardhat } from './lib/hardhat.mjs';
import { call, crowdedBlock, deploy, deployData, receipt, send } from './lib/scenarios.mjs';
import { delayProxy } from './lib/delayProxy.mjs';

const out = process.argv[2];
const anvil = await startAnvil(['--gas-limit', '300000000']);
const hardhat = await startHardhat();
const slow = await delayProxy(anvil.url, 40);
const noTraces = await delayProxy(anvil.url, 40, true);
const stop = async () => {
  await Promise.allSettled([slow.close(), noTraces.close(), anvil.stop(), hardhat.stop()]);
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

const { showcase } = await deploy(anvil.rpc);
const a = await send(anvil.rpc, { to: showcase, value: '0xa', gas: '0x2dc6c0', data: call('Showcase', 'run', [3n]) });
const fanout = (await receipt(anvil.rpc, await send(anvil.rpc, { data: deployData('Fanout') }))).contractAddress;
const b = await send(anvil.rpc, { to: fanout, gas: `0x${(250_000_000).toString(16)}`, data: call('Fanout', 'many', [20_000n]) });
await receipt(anvil.rpc, b);
const token = (await receipt(anvil.rpc, await send(anvil.rpc, { data: deployData('Token', [10n ** 24n]) }))).contractAddress;
const c = await crowdedBlock(anvil.rpc, token, 100);
const q = await crowdedBlock(anvil.rpc, token, 100, true);
const { showcase: hs } = await deploy(hardhat.rpc);
const hRoute = await send(hardhat.rpc, { to: hs, value: '0xa', gas: '0x2dc6c0', data: call('Showcase', 'run', [3n]) });
const hDeep = await send(hardhat.rpc, { to: hs, gas: '0x1c9c380', data: call('Showcase', 'recurse', [200n]) });
await receipt(hardhat.rpc, hDeep);

const scene = {
  anvil: anvil.url,
  slow: slow.url,
  noTraces: noTraces.url,
  hardhat: hardhat.url,
  a,
  b,
  c: c.hash,
  q: q.hash,
  hRoute,
  hDeep,
  rows: {
    a: `txray ${a} -r ${anvil.url}`,
    b: `txray ${b} -r ${anvil.url}`,
    h: `txray ${hRoute} -r ${hardhat.url}  /  txray ${hDeep} -r ${hardhat.url}`,
    p: `txray ${a} -r ${noTraces.url}  /  txray ${c.hash} -r ${noTraces.url}`,
    q: `txray ${q.hash} -r ${noTraces.url}`,
  },
};
const text = JSON.stringify(scene, null, 2);
if (out) writeFileSync(out, text);
console.log(text);
console.log('up; Ctrl-C stops the nodes');
await new Promise(() => undefined);
