/**
 * The Transfers view counts what the net changes and the fund flow count: the wrapped-native token's
 * Deposit and Withdrawal (WETH9 emits no Transfer for them) become rows, the token minted to its holder
 * or burned from it, and the ether leg where no call shows it; each marked with its event. Each wrap's
 * rows sit where its log is among the token transfers. Pure: the action stage's movements, as rows.
 */
import { tokenTransfers, ZERO_ADDRESS } from '../decode/transfers.js';
import type { InspectModel, Transfer } from '../model/types.js';
import { knownWrapped } from './describeAction.js';
import { type Movement, movementsOf, wrappings } from './movements.js';

function rowOf(m: Movement, event: 'Deposit' | 'Withdrawal'): Transfer {
  const token = m.asset === 'ETH' ? {} : { token: m.asset, ...(m.symbol !== undefined ? { symbol: m.symbol } : {}), ...(m.decimals !== undefined ? { decimals: m.decimals } : {}) };
  return { kind: m.asset === 'ETH' ? 'ETH' : 'ERC-20', from: m.from, to: m.to, amount: m.amount, ...token, event };
}

export function transfersWithWraps(model: InspectModel): readonly Transfer[] {
  const transfers = model.decoded?.transfers ?? [];
  if (model.status !== 'success') return transfers;
  const known = knownWrapped(model);
  const { movements, transferred } = movementsOf(model, known);
  // movementsOf lists the transfers, then each wrap's token movement followed by the ether leg it added, if any.
  const perWrap: Transfer[][] = [];
  for (const m of movements.slice(transferred.length)) {
    if (m.asset !== 'ETH') perWrap.push([rowOf(m, m.from === ZERO_ADDRESS ? 'Deposit' : 'Withdrawal')]);
    else perWrap.at(-1)?.push(rowOf(m, perWrap.at(-1)![0]!.event!));
  }
  if (perWrap.length === 0) return transfers;
  const logs = model.receipt?.logs ?? [];
  // The decode stage lists ether first, then the logs' token transfers in log order.
  const native = transfers.length - tokenTransfers(logs).length;
  if (native < 0) return [...transfers, ...perWrap.flat()];
  const ether = transferred.filter((m) => m.asset === 'ETH');
  const out = transfers.slice(0, native);
  let next = native;
  let wrap = 0;
  for (const log of logs) {
    const count = tokenTransfers([log]).length;
    out.push(...transfers.slice(next, next + count));
    next += count;
    for (let k = wrappings([log], ether, known).length; k > 0 && wrap < perWrap.length; k--) out.push(...perWrap[wrap++]!);
  }
  return [...out, ...transfers.slice(next), ...perWrap.slice(wrap).flat()];
}
