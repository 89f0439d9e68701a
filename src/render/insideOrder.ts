/**
 * What ran inside a frame, in order, as the --json document tells it (the HTML report reads it): at
 * its top level, or inside one of its internal calls, the internal calls and the frame's own calls
 * (indexes into `children`), each internal call after the calls made before it was entered.
 */
import type { JsonInternalCall } from './renderJson.js';

export type InsideItem = { readonly call: number } | { readonly internal: JsonInternalCall };

/** The calls some internal call made, at any depth. */
function claimed(calls: readonly JsonInternalCall[], out: Set<number>): Set<number> {
  for (const c of calls) {
    for (const i of c.calls ?? []) out.add(i);
    claimed(c.children, out);
  }
  return out;
}

/** Inside `level` (null: the frame's top level) of a frame with `children` calls and these internal calls. */
export function insideOrder(children: number, internalCalls: readonly JsonInternalCall[], level: JsonInternalCall | null): InsideItem[] {
  const inner = level === null ? internalCalls : level.children;
  let calls: number[];
  if (level === null) {
    const taken = claimed(internalCalls, new Set());
    calls = [...Array(children).keys()].filter((i) => !taken.has(i));
  } else calls = [...(level.calls ?? [])].sort((a, b) => a - b);
  const out: InsideItem[] = [];
  let k = 0;
  for (const x of inner) {
    for (let call = calls[k]; call !== undefined && call < x.callsBefore; call = calls[++k]) out.push({ call });
    out.push({ internal: x });
  }
  for (const call of calls.slice(k)) out.push({ call });
  return out;
}
