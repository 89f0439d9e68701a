import type { CallNode, PlacedEvent } from '../model/types.js';
import type { EventRun } from './foldRuns.js';

/**
 * The events emitted inside a folded run of calls, gathered by key in the order each key first came:
 * one EventRun for a key seen twice or more, the event itself for a key seen once. The calls are one
 * line already, so which of them emitted which event is not drawn (--full draws it).
 */
export function groupRunEvents(calls: readonly CallNode[], byNode: ReadonlyMap<CallNode, readonly PlacedEvent[]>, keyOf: (e: PlacedEvent) => string): Array<PlacedEvent | EventRun> {
  const groups = new Map<string, PlacedEvent[]>();
  for (const call of calls) {
    for (const e of byNode.get(call) ?? []) {
      const key = keyOf(e);
      const group = groups.get(key);
      if (group === undefined) groups.set(key, [e]);
      else group.push(e);
    }
  }
  return [...groups.values()].map((g) => (g.length === 1 && g[0] !== undefined ? g[0] : { events: g }));
}
