/**
 * A function name no loaded ABI has (`txray call $VAULT widthdraw 1`): the loaded functions whose names
 * are a typo away, to suggest by their real signatures; never a signature made up.
 */
import type { AbiFunction } from 'abitype';
import { type Candidate, signatureOf } from './abiIndex.js';

/** At most this many signatures are suggested. */
const MAX_SUGGESTIONS = 3;

/**
 * Edits from `a` to `b` (insert, delete, replace, or swap two neighbours), case aside; past `limit`
 * it stops counting and answers limit + 1.
 */
export function typoDistance(a: string, b: string, limit: number): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  if (Math.abs(x.length - y.length) > limit) return limit + 1;
  let before: number[] = [];
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const row = [i];
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      let d = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      row.push(d);
    }
    if (Math.min(...row) > limit) return limit + 1;
    before = previous;
    previous = row;
  }
  return previous[y.length]!;
}

/** How many edits a name of this length may be from the one typed: 1 up to 4 letters, 2 up to 8, then 3. */
export const allowance = (name: string): number => (name.length <= 4 ? 1 : name.length <= 8 ? 2 : 3);

/**
 * The signatures of the loaded functions whose names are near `name` (and not it): nearest first, then
 * those taking `argCount` arguments, then the project's and --abi's before the built-in ones.
 */
export function nearFunctions(name: string, loaded: ReadonlyArray<Candidate<AbiFunction>>, argCount: number): string[] {
  const limit = allowance(name);
  const near: Array<{ signature: string; distance: number; arity: boolean; own: boolean; at: number }> = [];
  const seen = new Set<string>();
  loaded.forEach((c, at) => {
    const signature = signatureOf(c.item);
    if (c.item.name === name || seen.has(signature)) return;
    const distance = typoDistance(name, c.item.name, limit);
    if (distance > limit) return;
    seen.add(signature);
    near.push({ signature, distance, arity: c.item.inputs.length === argCount, own: c.source === 'project' || c.source === 'abi', at });
  });
  near.sort((a, b) => a.distance - b.distance || Number(b.arity) - Number(a.arity) || Number(b.own) - Number(a.own) || a.at - b.at);
  return near.slice(0, MAX_SUGGESTIONS).map((n) => n.signature);
}
