/**
 * The one walk over a call tree: every call once, parents before their children, children in the order
 * they ran. Iterative (an explicit stack), so a 10,000-deep chain of calls cannot overflow the JS stack.
 * Generic over the node's shape, so the report's page walks its JSON tree with it too.
 */
export interface TreeNode<N> {
  readonly children: readonly N[];
}

/**
 * Calls `enter(node, parent)` for each node in execution order; when it returns false, the node's
 * subtree is skipped (a failed call's moves, say).
 */
export function walkCalls<N extends TreeNode<N>>(root: N, enter: (node: N, parent: N | null) => unknown): void {
  const nodes: N[] = [root];
  const parents: Array<N | null> = [null];
  for (let node = nodes.pop(); node !== undefined; node = nodes.pop()) {
    const parent = parents.pop() ?? null;
    if (enter(node, parent) === false) continue;
    const children = node.children;
    for (let i = children.length - 1; i >= 0; i--) {
      const child = children[i];
      if (child === undefined) continue;
      nodes.push(child);
      parents.push(node);
    }
  }
}
