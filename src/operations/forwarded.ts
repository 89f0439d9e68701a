import type { CallNode } from '../model/types.js';

/**
 * Where a proxy's call really ran: a proxy (a Safe's, an ERC-1967 account's) delegatecalls its
 * implementation with the same input, so the calls it made are the children of that frame.
 */
export function forwarded(node: CallNode): CallNode {
  let at = node;
  for (;;) {
    const next = at.children.find((c) => c.type === 'call' && c.callType === 'delegatecall' && c.input === at.input);
    if (next === undefined) return at;
    at = next;
  }
}
