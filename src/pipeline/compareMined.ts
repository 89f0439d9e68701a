/**
 * `txray call --tx`: the mined outcome beside the new one, for the comparison (render/comparisonOf.ts).
 * Where the run is the mined transaction unchanged and reproduced its receipt, the run's own outcome is
 * the mined one; otherwise the mined transaction is looked up as any hash is (`minedModel`: its trace,
 * or a re-execution where the node has none), which gives its revert and its net changes, decoded with
 * the same ABIs as the rest.
 */
import { outcomeOf } from '../model/outcomeOf.js';
import type { InspectModel } from '../model/types.js';
import type { RerunPlan } from '../sources/rerunPlan.js';

/** Whether the mined transaction must be looked up for the comparison (it was not reproduced as it is). */
export function needsMined(model: InspectModel, replay: RerunPlan | undefined): boolean {
  const facts = model.simulation?.replay;
  return replay?.receipt != null && facts !== undefined && !(facts.mismatch !== null && facts.mismatch.length === 0);
}

/** `model` with the mined outcome set: the run's own where it reproduced the receipt, else `mined`'s. */
export function compareMined(model: InspectModel, replay: RerunPlan | undefined, mined: InspectModel | 'failed' | null): InspectModel {
  const sim = model.simulation;
  const facts = sim?.replay;
  const receipt = replay?.receipt;
  if (sim === undefined || facts === undefined || receipt == null) return model;
  // A lookup that failed leaves the receipt's figures alone: its revert and net changes are not known.
  const outcome = mined === 'failed' ? { revert: null, revertUnknown: true as const, netChanges: null, labels: null } : outcomeOf(mined ?? model);
  // The receipt's own figures, whichever model gave the rest.
  const fromReceipt = { status: receipt.status === '0x0' ? ('reverted' as const) : ('success' as const), gasUsed: receipt.gasUsed === undefined ? null : BigInt(receipt.gasUsed), logs: receipt.logs.length };
  const { revertUnknown, ...rest } = outcome;
  const minedFacts = { ...rest, ...(revertUnknown === true && fromReceipt.status === 'reverted' ? { revertUnknown } : {}), ...fromReceipt };
  return { ...model, simulation: { ...sim, replay: { ...facts, mined: minedFacts } } };
}
