/**
 * A mined transaction and its receipt as the node sent them, through raw/'s checks before the EVM runs
 * them: an answer about another hash is refused (parseRaw's words), and a mined one names its position.
 * The EVM takes the node's transaction object itself (every field the EthereumJS transaction is built from)
 * and the checked receipt.
 */
import { RpcFailure } from '../errors.js';
import { isRecord } from '../raw/hex.js';
import { parseReceipt, parseTransaction } from '../raw/parseRaw.js';
import type { Hex, RpcReceipt, RpcTransaction } from '../raw/types.js';
import type { MinedInput } from './runMined.js';

/** What a mined transaction's run starts from: checked, or why it cannot run (pending: no receipt, no position). */
export type CheckedMined = { readonly mined: MinedInput; readonly tx: RpcTransaction; readonly receipt: RpcReceipt } | { readonly pending: true };

export function checkedMined(tx: unknown, receipt: unknown, hash: Hex): CheckedMined {
  const ignore = (): void => undefined;
  const t = parseTransaction(tx, hash, ignore);
  const r = parseReceipt(receipt, hash, ignore);
  if (t === null || r === null || t.blockNumber === null || t.transactionIndex === null) return { pending: true };
  if (!isRecord(tx)) throw new RpcFailure('malformed', `the node gave a malformed transaction for ${hash}.`);
  return { mined: { tx, receipt: r, at: { blockNumber: BigInt(t.blockNumber), index: Number(BigInt(t.transactionIndex)) } }, tx: t, receipt: r };
}
