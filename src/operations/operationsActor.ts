import { USER_OPERATION } from '../action/protocols.js';
import type { InspectModel, Operation } from '../model/types.js';
import type { Hex } from '../raw/types.js';

/**
 * Whose view the action takes where the logs carry UserOperationEvents: the account of the one user
 * operation read, else the sender (several operations, or events from no EntryPoint: a lookalike's
 * events do not choose the actor). Undefined elsewhere: the action stage chooses.
 */
export function operationsActor(model: InspectModel, operations: readonly Operation[]): Hex | undefined {
  const ops = operations.filter((o) => o.kind === 'userOperation');
  if (ops.length === 1) return ops[0]!.account;
  const from = model.tx?.from ?? model.receipt?.from;
  const carries = (model.receipt?.logs ?? []).some((l) => l.topics[0]?.toLowerCase() === USER_OPERATION);
  return carries && from !== undefined ? from : undefined;
}
