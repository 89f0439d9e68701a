/**
 * `txray call --tx`: the mined outcome beside the new one, for the comparison (render/comparisonOf.ts).
 * The receipt says the status, the gas used and the logs; a revert's data is in no receipt: an unchanged
 * run at its position that reproduced the receipt has it, else the node's callTracer (top call only),
 * else a re-execution of the mined transaction here. Decoded with the same ABIs as the rest.
 */
import type { Decoder } from '../decode/createDecoder.js';
import { decodeCustomError } from '../decode/revertArgs.js';
import { Interrupted } from '../errors.js';
import { decodeRevert } from '../model/decodeRevert.js';
import type { OutcomeFacts } from '../model/replayFacts.js';
import type { InspectModel } from '../model/types.js';
import { isData, isQuantity, isRecord } from '../raw/hex.js';
import type { Hex } from '../raw/types.js';
import type { RpcClient } from '../rpc/createRpcClient.js';
import { deadlineSignal } from '../rpc/deadline.js';
import { runMined } from '../sources/runMined.js';
import type { ReplayPlan } from './replayInput.js';

const ONLY_TOP_CALL = { tracer: 'callTracer', tracerConfig: { onlyTopCall: true } };

/** The mined transaction's revert data: the node's callTracer, else a run here; null where neither gives it. */
async function minedRevertData(client: RpcClient, replay: ReplayPlan, timeoutMs: number): Promise<Hex | null> {
  const deadline = deadlineSignal(timeoutMs);
  const passOn = (err: unknown): null => {
    if (err instanceof Interrupted) throw err;
    return null;
  };
  const traced = await client.call('debug_traceTransaction', [replay.hash, ONLY_TOP_CALL], deadline).catch(passOn);
  if (isRecord(traced) && isData(traced.output)) return traced.output;
  const local = await runMined(client, { ...replay.tx }, { ...replay.receipt! }, deadline, {}).catch(passOn);
  return local === null || local.mismatch.length > 0 ? null : local.calls.tree.root.output;
}

function decodedRevert(decoder: Decoder, data: Hex): NonNullable<OutcomeFacts['revert']> {
  const revert = decodeRevert(data);
  return { data, decoded: { revert, custom: revert.kind === 'error' || revert.kind === 'panic' ? null : decodeCustomError(decoder.index, data) } };
}

export async function compareMined(client: RpcClient, decoder: Decoder, model: InspectModel, replay: ReplayPlan | undefined, timeoutMs: number): Promise<InspectModel> {
  const sim = model.simulation;
  const facts = sim?.replay;
  const receipt = replay?.receipt;
  if (sim === undefined || facts === undefined || replay === undefined || receipt == null) return model;
  const reverted = receipt.status === '0x0';
  // Unchanged and reproduced at its position: the run's own revert is the mined one.
  const reproduced = facts.mismatch !== null && facts.mismatch.length === 0;
  const data = !reverted ? null : reproduced ? (model.tree?.root.output ?? null) : await minedRevertData(client, replay, timeoutMs);
  const mined: OutcomeFacts = {
    status: reverted ? 'reverted' : 'success',
    gasUsed: isQuantity(receipt.gasUsed) ? BigInt(receipt.gasUsed) : null,
    logs: Array.isArray(receipt.logs) ? receipt.logs.length : 0,
    revert: data === null ? null : decodedRevert(decoder, data),
    ...(reverted && data === null ? { revertUnknown: true as const } : {}),
  };
  return { ...model, simulation: { ...sim, replay: { ...facts, mined } } };
}
