import { afterAll, beforeAll } from 'vitest';
import { startAnvil } from '../../scripts/lib/anvil.mjs';
import { makeScenarios } from '../../scripts/lib/scenarios.mjs';
import { makeUniswapScenarios } from '../../scripts/lib/uniswap.mjs';

export type Anvil = Awaited<ReturnType<typeof startAnvil>>;
export type Scenarios = Awaited<ReturnType<typeof makeScenarios>> & { anvil: Anvil };
export type UniswapScenarios = Awaited<ReturnType<typeof makeUniswapScenarios>> & { anvil: Anvil };

/**
 * A real anvil for the file's tests: started before them with `make` run on it, stopped after.
 * `ready` receives the node and what `make` returned.
 */
export function withAnvil<T extends object>(make: (rpc: Anvil['rpc']) => Promise<T>, ready: (s: T & { anvil: Anvil }) => void | Promise<void>): void {
  let anvil: Anvil | undefined;
  beforeAll(async () => {
    anvil = await startAnvil();
    await ready({ anvil, ...(await make(anvil.rpc)) });
  });
  afterAll(async () => {
    await anvil?.stop();
  });
}

/** A node with every scenario of scripts/lib/scenarios.mjs mined: `ready` receives the hashes and contract addresses. */
export function withScenarioNode(ready: (s: Scenarios) => void | Promise<void>): void {
  withAnvil((rpc) => makeScenarios(rpc), ready);
}

/**
 * A node with Uniswap v2 deployed from its npm builds and every scenario of scripts/lib/uniswap.mjs mined:
 * `ready` receives the deployment, the single actions and the four blocks, each with its facts.
 */
export function withUniswapNode(ready: (s: UniswapScenarios) => void | Promise<void>): void {
  withAnvil(makeUniswapScenarios, ready);
}
