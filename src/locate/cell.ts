/**
 * The element at `i` of a list the caller indexes within its bounds (a pc's instruction, a step's
 * frame): one outside them is txray's own error, said as such, never an undefined passed on.
 */
export function cell<T>(list: ArrayLike<T>, i: number): T {
  const v = list[i];
  if (v === undefined) throw new Error(`internal error: index ${i} outside a list of ${list.length}`);
  return v;
}
