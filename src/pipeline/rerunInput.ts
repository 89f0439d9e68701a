/**
 * `txray call --tx <hash>`: the mined transaction asked for (with its receipt, one batch), and the call
 * input it makes: its own sender, target, value, input and gas limit, each replaced where an option
 * gives another. Unknown to the node is exit 3; a pending one has no position to run at.
 */
import { NotFound, RpcFailure, UsageError } from '../errors.js';
import { shortHash } from '../format/format.js';
import { isQuantity, isRecord, toQuantity } from '../raw/hex.js';
import { parseReceipt, parseTransaction } from '../raw/parseRaw.js';
import type { Hex, RpcReceipt, RpcTransaction, StateOverride } from '../raw/types.js';
import type { RpcClient } from '../rpc/createRpcClient.js';
import { deadlineSignal } from '../rpc/deadline.js';
import type { CallInput } from './planCall.js';
import type { RerunPlan } from '../sources/rerunPlan.js';


/** The transaction as raw/ checked it, with the fields a re-run takes from it. */
type Checked = RpcTransaction & { readonly input: Hex; readonly gas: Hex; readonly value: Hex };

/** The transaction (as the node gave it, and checked: an answer about another hash is refused) and its receipt; exit 3 where the node does not know it. */
async function fetchMined(client: RpcClient, hash: Hex, timeoutMs: number): Promise<{ tx: Record<string, unknown>; checked: Checked; receipt: RpcReceipt | null }> {
  const answers = await client.batch([{ method: 'eth_getTransactionByHash', params: [hash] }, { method: 'eth_getTransactionReceipt', params: [hash] }], deadlineSignal(timeoutMs));
  const [tx, receipt] = answers.map((a) => {
    if ('error' in a) throw new RpcFailure('rpc-error', `${client.where}: ${a.error}`);
    return a.result;
  });
  if (tx === null || tx === undefined) throw new NotFound(`${client.where} does not know transaction ${hash}: wrong chain, not broadcast yet, or dropped; nothing was run.`);
  const malformed = new RpcFailure('malformed', `${client.where} gave a malformed transaction for ${hash}.`);
  let checked: RpcTransaction | null;
  try {
    checked = parseTransaction(tx, hash, () => undefined);
  } catch (err) {
    // Another transaction's answer is refused in parseRaw's words; any other flaw is a malformed one.
    if (err instanceof RpcFailure && /another transaction/.test(err.message)) throw err;
    throw malformed;
  }
  if (!isRecord(tx) || checked === null) throw malformed;
  const { input, gas, value } = checked;
  if (input === undefined || gas === undefined || value === undefined) throw malformed;
  // The receipt the re-run is compared with: another transaction's is refused, a malformed one said, in parseRaw's words.
  return { tx, checked: { ...checked, input, gas, value }, receipt: receipt === undefined ? null : parseReceipt(receipt, hash, () => undefined) };
}

/** The call input of `--tx` (`given` as parsed), and the plan of the re-run, once the transaction is fetched. */
export async function rerunInput(client: RpcClient, given: CallInput, timeoutMs: number): Promise<{ readonly input: CallInput; readonly replay: Omit<RerunPlan, 'changed'> }> {
  const asked = given.replay;
  if (asked === undefined) throw new Error('rerunInput: not a --tx call');
  const { tx, checked, receipt } = await fetchMined(client, asked.hash, timeoutMs);
  const { blockNumber, transactionIndex } = checked;
  const mined = blockNumber !== null && transactionIndex !== null;
  if (!mined && given.block === 'position') throw new UsageError(`transaction ${shortHash(asked.hash)} is pending: it has no position in a block yet; run it on the pending state with --block pending.`);
  if (mined && receipt === null) throw new RpcFailure('malformed', `${client.where} gave no receipt for the mined transaction ${asked.hash}.`);
  const to = checked.to === null ? null : toLower(checked.to);
  if (to === null && (given.sig !== undefined || given.data !== undefined)) throw new UsageError('--tx: that transaction creates a contract; its init code runs as it is (no new input).');
  const from = toLower(checked.from);
  const input: CallInput = {
    ...given,
    to,
    from: asked.from ? given.from : from,
    value: asked.value ? given.value : BigInt(checked.value),
    gasLimit: given.gasLimit ?? BigInt(checked.gas),
    // A new input replaces the mined one; a creation's input is its init code.
    ...(given.sig === undefined && given.data === undefined ? (to === null ? { create: checked.input } : { data: checked.input }) : {}),
  };
  const replay = {
    hash: asked.hash,
    tx,
    receipt,
    blockNumber: blockNumber === null ? null : BigInt(blockNumber),
    transactionIndex: transactionIndex === null ? null : Number(BigInt(transactionIndex)),
    at: given.block,
    anotherSender: asked.from && given.from.toLowerCase() !== from,
  };
  return { input, replay };
}

const toLower = (h: Hex): Hex => `0x${h.slice(2).toLowerCase()}`;

/** Whether the call to run differs from the mined transaction in any way. */
export function isChanged(call: Readonly<Record<string, unknown>>, overrides: StateOverride | null, tx: Readonly<Record<string, unknown>>): boolean {
  const same = (a: unknown, b: unknown): boolean => typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase();
  const quantity = (a: unknown, b: unknown): boolean => isQuantity(a) && isQuantity(b) && BigInt(a) === BigInt(b);
  return overrides !== null || !same(call.from, tx.from) || !quantity(call.value, tx.value) || !quantity(call.gas, tx.gas) || !same(call.data, tx.input);
}

/** The block a re-run's state is read at before it runs: its parent block at its position, else the one asked. */
export const stateBlockOf = (replay: Pick<RerunPlan, 'at' | 'blockNumber'>): string =>
  replay.at === 'position' && replay.blockNumber !== null ? toQuantity(replay.blockNumber - 1n) : replay.at === 'default' ? 'latest' : replay.at;
