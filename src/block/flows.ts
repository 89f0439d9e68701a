/** Net movements of a group of accounts over some transactions, from the transfers the decode stage read. */
import type { InspectModel } from '../model/types.js';
import type { Hex } from '../raw/types.js';
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
 */
export function netFlows(models: readonly InspectModel[], holders: ReadonlySet<string>): Flow[] {
  const sums = new Map<string, bigint>();
  const meta = new Map<string, { symbol?: string; decimals?: number }>();
  for (const m of models) {
    if (m.status !== 'success') continue;
    for (const t of m.decoded?.transfers ?? []) {
      // A wrap's rows (the action stage's, for the Transfers view) stay out of the block's flows, as before.
      if ((t.kind !== 'ETH' && t.kind !== 'ERC-20') || t.event !== undefined) continue;
      const asset = t.kind === 'ETH' ? 'ETH' : (t.token!.toLowerCase() as Hex);
      const from = holders.has(t.from.toLowerCase());
      const to = holders.has(t.to.toLowerCase());
      if (from === to) continue;
      const amount = BigInt(t.amount);
      sums.set(asset, (sums.get(asset) ?? 0n) + (to ? amount : -amount));
      if (t.symbol !== undefined || t.decimals !== undefined) meta.set(asset, { ...(t.symbol !== undefined ? { symbol: t.symbol } : {}), ...(t.decimals !== undefined ? { decimals: t.decimals } : {}) });
    }
  }
  return [...sums]
    .filter(([, amount]) => amount !== 0n)
    .sort(([a], [b]) => (a === 'ETH' ? -1 : b === 'ETH' ? 1 : a < b ? -1 : 1))
    .map(([asset, amount]) => ({ asset: asset as Flow['asset'], amount, ...(meta.get(asset) ?? {}) }));
}
