/**
 * A local run with steps → the debugger's step log: the runtime code of every frame's account, at the
 * block the run read (an override's code where the call set one), matched to the artifacts.
 */
import type { DebugArtifact, FrameNames } from '../debug/buildStepLog.js';
import type { DebugStepLog } from '../debug/types.js';
import type { StepLog } from '../evm/stepLog.js';
import type { CallNode } from '../model/types.js';
import { walkCalls } from '../model/walk.js';
import type { Hex, StateOverride } from '../raw/types.js';
import type { RpcClient } from '../rpc/createRpcClient.js';

export async function stepLogOf(client: RpcClient, run: { readonly steps: StepLog | null; readonly root: CallNode }, at: { readonly block: string; readonly overrides?: StateOverride | null }, artifacts: readonly DebugArtifact[], timeoutMs: number, names?: FrameNames): Promise<DebugStepLog> {
  if (run.steps === null) throw new Error('the run recorded no steps');
  const overridden = new Map<string, Hex>();
  for (const [address, o] of Object.entries(at.overrides ?? {})) if (o.code !== undefined) overridden.set(address.toLowerCase(), o.code);
  const addresses = new Set<string>();
  walkCalls(run.root, (n) => void (n.type === 'call' && n.to !== null && !overridden.has(n.to.toLowerCase()) && addresses.add(n.to.toLowerCase())));
  const { codesAt } = await import('../pipeline/codesAt.js');
  const codes = new Map([...(await codesAt(client, [...addresses], at.block, timeoutMs)), ...overridden]);
  const { buildStepLog } = await import('../debug/buildStepLog.js');
  return buildStepLog(run.steps, run.root, codes, artifacts, names);
}
