/**
 * Addresses a transaction shows without calling them: its logs' emitters (a node without traces calls
 * nothing visible), and addresses passed as arguments (a spender approved, a swap's path, an event's
 * indexed address). Their code is read in the same batch as the called contracts' so that a contract
 * is named by its artifact wherever it appears, not only where it was called.
 */
import type { InspectModel } from '../model/types.js';
import { walkCalls } from '../model/walk.js';
import type { Hex } from '../raw/types.js';

/**
 * An ABI word that holds an address: twelve zero bytes, then a first byte that is not zero. Amounts
 * below 2^152 would look like addresses without that rule; an address whose first byte is zero (1 in
 * 256, and vanity ones) is missed, which only costs a name.
 */
const ADDRESS_WORD = /^0{24}[1-9a-f][0-9a-f]{39}$/;

/** The address words of ABI-encoded data (`skip` hex characters first: a selector's 8). */
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
  const add = (a: string): boolean => {
    if (!known.has(a)) out.add(a);
    return out.size < limit;
  };
  const logs = model.receipt?.logs ?? [];
  const inputs = (function* (): Generator<string> {
    for (const l of logs) yield l.address.toLowerCase();
    for (const l of logs) for (const t of l.topics.slice(1)) yield* addressWords(t, 0);
    if (model.tx?.input !== undefined && model.tx.to !== null) yield* addressWords(model.tx.input, 10);
    const calls: Hex[] = [];
    if (model.tree) walkCalls(model.tree.root, (n) => void (n.type === 'call' && n.input !== null && calls.push(n.input)));
    for (const input of calls) yield* addressWords(input, 10);
    for (const l of logs) yield* addressWords(l.data, 0);
  })();
  if (limit <= 0) return [];
  for (const a of inputs) if (!add(a)) break;
  return [...out].slice(0, limit);
}
