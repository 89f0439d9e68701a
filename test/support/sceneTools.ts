/** Deploying a compiled project's contracts and mining its transactions on a test node (the harness's own helpers, not txray's client). */
import { encodeDeployData, encodeFunctionData, type Abi } from 'viem';
import type { startAnvil } from '../../scripts/lib/anvil.mjs';
import { receipt, send } from '../../scripts/lib/scenarios.mjs';
import type { Compiled } from './sourceProject.js';

/** A compiled fixture project deployed on its own anvil: what every scene has beside its transactions. */
export interface ProjectScene {
  readonly anvil: Awaited<ReturnType<typeof startAnvil>>;
  readonly compiled: Record<string, Compiled>;
}

type Rpc = (method: string, params?: unknown[]) => Promise<any>;

export function sceneTools(rpc: Rpc, compiled: Record<string, Compiled>) {
  const deploy = async (name: string, args: unknown[] = []): Promise<string> => {
    const hash = await send(rpc, { data: encodeDeployData({ abi: compiled[name]!.abi as Abi, bytecode: compiled[name]!.bytecode as `0x${string}`, args }) });
    return (await receipt(rpc, hash)).contractAddress;
  };
  const data = (name: string, fn: string, args: unknown[] = []): string => encodeFunctionData({ abi: compiled[name]!.abi as Abi, functionName: fn, args });
  const mined = async (tx: Record<string, string>): Promise<string> => {
    const hash = await send(rpc, { gas: '0x1000000', ...tx });
    await receipt(rpc, hash);
    return hash;
  };
  return { deploy, data, mined };
}
