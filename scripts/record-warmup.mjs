// Records the node answers that scripts/warm-cache.mjs replays while it builds the code cache:
// a real anvil, the scenario contracts, and three transactions that between them reach most of what a
// lookup runs (nested calls of every kind, events, an ERC-20 transfer, a custom error). Re-run after
// changing contracts/Scenarios.sol: `node scripts/record-warmup.mjs`.
import { writeFileSync } from 'node:fs';
import { startAnvil } from './lib/anvil.mjs';
import { makeScenarios } from './lib/scenarios.mjs';

const anvil = await startAnvil();
try {
  const { hashes } = await makeScenarios(anvil.rpc);
  const answers = {};
  for (const name of ['showcase', 'tokenTransfer', 'custom']) {
    const hash = hashes[name];
    answers[hash] = {
      eth_getTransactionByHash: await anvil.rpc('eth_getTransactionByHash', [hash]),
      eth_getTransactionReceipt: await anvil.rpc('eth_getTransactionReceipt', [hash]),
      trace_transaction: await anvil.rpc('trace_transaction', [hash]),
    };
  }
  writeFileSync(new URL('./warmup/answers.json', import.meta.url), `${JSON.stringify(answers)}\n`);
  console.log(`recorded ${Object.keys(answers).length} transactions`);
} finally {
  await anvil.stop();
}
