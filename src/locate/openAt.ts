/**
 * The internal calls open at one position of a frame (a step index, where internalCallsOf was given
 * steps' positions): outermost first, each entered before it and not yet left. For a debugger's call
 * stack: "internal functions where known".
 */
import type { InternalCall, InternalItem } from '../model/types.js';

export function openAt(items: readonly InternalItem[], position: number): InternalCall[] {
  const out: InternalCall[] = [];
  let level = items;
  for (;;) {
    const inside = level.find((x): x is InternalCall => typeof x === 'object' && !('event' in x) && x.from < position && position <= x.to);
    if (inside === undefined) return out;
    out.push(inside);
    level = inside.inside;
  }
}
