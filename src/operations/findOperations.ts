/**
 * The operations stage, pure, after the action: the user operations, Safe transactions and batches a
 * transaction carried, each with its own action. A transaction that carries none costs one pass over
 * its logs and one over its tree by selector.
 */
import type { AbiIndex } from '../decode/abiIndex.js';
import type { InspectModel, Operation } from '../model/types.js';
import { batchCalls } from './batchCalls.js';
import { safeTransactions } from './safeTransactions.js';
import { userOperations } from './userOperations.js';

/** `warnings` receives what was seen and not read (an event its frame contradicts, a lookalike EntryPoint). */
export function findOperations(model: InspectModel, index: AbiIndex, warnings: string[]): Operation[] {
  if (model.status !== 'success' && model.status !== 'reverted') return [];
  return [...userOperations(model, index, warnings), ...safeTransactions(model, index), ...batchCalls(model, index)];
}
