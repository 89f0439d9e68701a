/** The block a follow-up read asks the node about, for every stage after the model. */
import type { InspectModel } from '../model/types.js';

/** The transaction's block, or the simulated one (pending has no number yet). */
export function blockOf(model: InspectModel): string {
  const sim = model.simulation;
  if (sim !== undefined) return sim.block.asked === 'pending' ? 'pending' : sim.block.number;
  return model.tx?.blockNumber ?? model.receipt?.blockNumber ?? 'latest';
}
