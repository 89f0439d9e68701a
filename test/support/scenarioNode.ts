import { afterAll, beforeAll } from 'vitest';
import { startAnvil } from '../../scripts/lib/anvil.mjs';
import { makeScenarios } from '../../scripts/lib/scenarios.mjs';

export type Anvil = Awaited<ReturnType<typeof startAnvil>>;
export type Scenarios = Awaited<ReturnType<typeof makeScenarios>> & { anvil: Anvil };

/**
 * A real anvil for the file's tests: started before them with every scenario mined, stopped after.
 * `ready` receives the node and the scenarios (hashes, contract addresses).
 */
export function withScenarioNode(ready: (s: Scenarios) => void | Promise<void>): void {
  let anvil: Anvil | undefined;
  beforeAll(async () => {
    anvil = await startAnvil();
    await ready({ anvil, ...(await makeScenarios(anvil.rpc)) });
  });
  afterAll(async () => {
    await anvil?.stop();
  });
}
