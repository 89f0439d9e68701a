/** Net movements of a group of accounts over some transactions, from what the action stage netted for each. */
import type { InspectModel } from '../model/types.js';
import type { Flow } from './types.js';

/**
 * A transaction that ran (or may run: pending) with no call tree: the ether its inner calls moved is
 * not known (only the transaction's own value is), while its token transfers are in the receipt's logs.
 */
export const etherUnseen = (m: InspectModel): boolean => m.status !== 'reverted' && m.tree === null;

/**
 * The actor's profit over `models`: netFlows, with ether left out (and said) where one of them was not
 * traced, since a payment inside its calls cannot be seen.
 */
export function profitOf(models: readonly InspectModel[], holders: ReadonlySet<string>): { readonly profit: Flow[]; readonly etherNotKnown?: true } {
  const flows = netFlows(models, holders);
  if (!models.some(etherUnseen)) return { profit: flows };
  return { profit: flows.filter((f) => f.asset !== 'ETH'), etherNotKnown: true };
}

/**
 * What `holders` gained (positive) or gave (negative) together, per asset: ether first, then tokens by
 * address; movements between them cancel out. Fungible amounts only (ERC-20 and ether); fees aside.
 * Read from each model's net changes (the action stage's: transfers, and the wrapped-native token's
 * mints and burns, which emit no Transfer), so a finding and its transactions' rows tell one figure.
 */
function netFlows(models: readonly InspectModel[], holders: ReadonlySet<string>): Flow[] {
  const sums = new Map<string, bigint>();
  const meta = new Map<string, { symbol?: string; decimals?: number }>();
  for (const m of models) {
    if (m.status !== 'success') continue;
    for (const c of m.netChanges ?? []) {
      if ((c.standard !== 'ETH' && c.standard !== 'ERC-20') || !holders.has(c.holder)) continue;
      sums.set(c.asset, (sums.get(c.asset) ?? 0n) + c.change);
      if (c.symbol !== undefined || c.decimals !== undefined) meta.set(c.asset, { ...(c.symbol !== undefined ? { symbol: c.symbol } : {}), ...(c.decimals !== undefined ? { decimals: c.decimals } : {}) });
    }
  }
  return [...sums]
    .filter(([, amount]) => amount !== 0n)
    .sort(([a], [b]) => (a === 'ETH' ? -1 : b === 'ETH' ? 1 : a < b ? -1 : 1))
    .map(([asset, amount]) => ({ asset: asset as Flow['asset'], amount, ...(meta.get(asset) ?? {}) }));
}
