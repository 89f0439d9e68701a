/** Deploying a compiled project's contracts and mining its transactions on a test node (the harness's own helpers, not txray's client). */
import { encodeDeployData, encodeFunctionData, type Abi } from 'viem';
import { receipt, send } from '../../scripts/lib/scenarios.mjs';
import type { Compiled } from './sourceProject.js';

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
