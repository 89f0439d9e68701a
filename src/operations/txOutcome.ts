import type { InspectModel, Outcome } from '../model/types.js';

/**
 * How it ended: reverted, or partial where it succeeded but a user operation or Safe transaction it
 * carried failed (a batch's allowed failure is not one); null where nothing ran yet (pending, not found).
 */
export function txOutcome(model: Pick<InspectModel, 'status' | 'operations'>): Outcome | null {
  if (model.status === 'reverted') return 'reverted';
  if (model.status !== 'success') return null;
  const failed = (model.operations ?? []).some((o) => o.kind !== 'batchCall' && !o.success);
  return failed ? 'partial' : 'success';
}
