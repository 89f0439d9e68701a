/** The block a follow-up read asks the node about, for every stage after the model. */
import type { InspectModel } from '../model/types.js';
import { toQuantity } from '../raw/hex.js';

/** The transaction's block, or the simulated one (pending has no number yet). */
export function blockOf(model: Pick<InspectModel, 'tx' | 'receipt'> & Partial<Pick<InspectModel, 'simulation'>>): string {
  const sim = model.simulation;
  if (sim !== undefined) return sim.block.asked === 'pending' ? 'pending' : toQuantity(sim.block.number);
  const number = model.tx?.blockNumber ?? model.receipt?.blockNumber;
  return number === null || number === undefined ? 'latest' : toQuantity(number);
}
