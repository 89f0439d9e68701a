/**
 * `txray debug call …`'s data path: the call's one run in txray's EVM with every step kept, after
 * `block` with the state overrides, and the debugger's step log from it.
 */
import type { Decoder } from '../decode/createDecoder.js';
import type { DebugStepLog } from '../debug/types.js';
import { createLocalRuns } from '../localRun/localRuns.js';
import type { StateOverride } from '../raw/types.js';
import type { RpcClient } from '../rpc/createRpcClient.js';
import { deadlineSignal } from '../rpc/deadline.js';
import { frameNamesOf } from './frameNamesOf.js';
import { stepLogOf } from './stepLogOf.js';

export async function debugCall(
  client: RpcClient,
  plan: { readonly call: Readonly<Record<string, unknown>>; readonly overrides: StateOverride | null },
  block: string,
  decoder: Decoder,
  s: { readonly timeoutMs: number; readonly debug?: (line: string) => void },
): Promise<DebugStepLog> {
  const runs = createLocalRuns(client, { config: () => Promise.resolve({ steps: true }), timeoutMs: s.timeoutMs, debug: s.debug });
  const local = await runs.of({ kind: 'call', call: plan.call, block, overrides: plan.overrides }, deadlineSignal(s.timeoutMs)).result();
  return stepLogOf(client, { steps: local.steps, root: local.calls.tree.root }, { block, overrides: plan.overrides }, decoder.index.artifacts, s.timeoutMs, frameNamesOf(decoder));
}
