/** A Transfers row a wrap stands for, marked with the event that says it (the wrapped-native token emits no Transfer for it). */
import type { Transfer } from '../model/types.js';

export function wrapMark(t: Pick<Transfer, 'kind' | 'event'>): string {
  if (t.event === undefined) return '';
  if (t.kind === 'ETH') return ` · as its ${t.event} event says`;
  return t.event === 'Deposit' ? ' · minted (Deposit event)' : ' · burned (Withdrawal event)';
}
