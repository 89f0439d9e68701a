/**
 * Which tokens a lookup asks symbol() and decimals() of: written once for the ask made as soon as the
 * transaction and its receipt are in (earlyTokenMeta) and for the one after the model (completeModel),
 * so that the first is used only where it asked for what the second would.
 */
import type { AbiIndex } from '../decode/abiIndex.js';
import { bookToken, type TxHead } from '../decode/labels.js';
import { tokensOfLogs, ZERO_ADDRESS } from '../decode/transfers.js';
import type { Transfer } from '../model/types.js';
import type { Hex } from '../raw/types.js';

/**
 * --state shows every token's balance; the transfers scale ERC-20 amounts only, where a view shows them
 * (`shown`). The tokens the sender approved: the action names them ("Approved USDT for …"). Those the
 * address book knows are not asked.
 */
export function tokensToAsk(head: TxHead, index: AbiIndex, transfers: readonly Transfer[], withState: boolean, shown: boolean): Hex[] {
  const moved = transfers.flatMap((t) => (t.token !== undefined && (withState || (shown && t.kind === 'ERC-20')) ? [t.token] : []));
  // (Without the transaction object no Approval is known to be the sender's: the zero address owns none.)
  const approved = shown ? tokensOfLogs(head.receipt?.logs ?? [], head.tx?.from ?? ZERO_ADDRESS) : [];
  return [...moved, ...approved].filter((t) => bookToken(head, index, t) === null);
}
