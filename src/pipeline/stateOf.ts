/** --state's shared step for every source: the node's diff checked and modelled with the fee split. */
import type { Receipt, StateModel, Transaction } from '../model/types.js';
import { parseBlockHeader } from '../raw/parseBlock.js';
import type { StateAnswer } from '../raw/types.js';

/**
 * --state: the diff checked and modelled, null when the node gave none (or there is no receipt, so
 * nothing ran). Its code is loaded only here.
 */
export async function stateOf(answer: StateAnswer, rawBlock: unknown, tx: Transaction | null, receipt: Receipt | null, warn: (m: string) => void): Promise<StateModel | null> {
  if (answer.source === null || receipt === null) return null;
  const [{ parseStateDiff }, { buildState }] = await Promise.all([import('../raw/parseStateDiff.js'), import('../model/buildState.js')]);
  const accounts = parseStateDiff(answer.raw, answer.source, warn);
  if (accounts === null) return null;
  return buildState(answer.source, accounts, tx, receipt, parseBlockHeader(rawBlock, receipt.blockHash, warn), warn);
}

