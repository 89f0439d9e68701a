/**
 * Addresses a transaction shows without calling them: its logs' emitters (a node without traces calls
 * nothing visible), and addresses passed as arguments (a spender approved, a swap's path, an event's
 * indexed address). Their code is read in the same batch as the called contracts' so that a contract
 * is named by its artifact wherever it appears, not only where it was called.
 */
import type { CallNode, InspectModel } from '../model/types.js';
import { walkCalls } from '../model/walk.js';

/**
 * An ABI word that holds an address: twelve zero bytes, then a first byte that is not zero. Amounts
 * below 2^152 would look like addresses without that rule; an address whose first byte is zero (1 in
 * 256, and vanity ones) is missed, which only costs a name.
 */
const ADDRESS_WORD = /^0{24}[1-9a-f][0-9a-f]{39}$/;

/** A call's selector, in hex characters after the `0x` addressWords strips: its words start past it. */
const SELECTOR = 8;

/** The address words of ABI-encoded data (`skip` hex characters first, past the `0x`: a selector's 8). */
function* addressWords(data: string, skip: number): Generator<string> {
  const hex = data.toLowerCase().replace(/^0x/, '');
  for (let at = skip; at + 64 <= hex.length; at += 64) {
    const word = hex.slice(at, at + 64);
    if (ADDRESS_WORD.test(word)) yield `0x${word.slice(24)}`;
  }
}

/**
 * Up to `limit` addresses the transaction shows that are not in `known` (lower-case): emitters first,
 * then logs' indexed words, then call data (the transaction's and each call's), then logs' data.
 */
export function seenAddresses(model: InspectModel, known: ReadonlySet<string>, limit: number): string[] {
  const out = new Set<string>();
  const full = (): boolean => out.size >= limit;
  /** Adds each address not known; false once the limit is reached. */
  const take = (addresses: Iterable<string>): boolean => {
    for (const a of addresses) {
      if (full()) return false;
      if (!known.has(a)) out.add(a);
    }
    return !full();
  };
  const logs = model.receipt?.logs ?? [];
  const tx = model.tx;
  const ok =
    limit > 0 &&
    take(logs.map((l) => l.address.toLowerCase())) &&
    logs.every((l) => l.topics.slice(1).every((t) => take(addressWords(t, 0)))) &&
    (tx?.input === undefined || tx.to === null || take(addressWords(tx.input, SELECTOR)));
  // A big tree is walked only until the limit is reached.
  if (ok && model.tree) walkCalls(model.tree.root, (n: CallNode) => (n.type === 'call' && n.input !== null ? take(addressWords(n.input, SELECTOR)) : !full()));
  if (!full()) logs.every((l) => take(addressWords(l.data, 0)));
  return [...out];
}
