/**
 * --record with --internal: of a file's AST, only what --internal reads (functionDefinitions.ts): the
 * source unit's contracts by name and the functions each holds or the file holds free, each with its
 * kind, name and `src`. A whole AST is many times its source's size; this is a small part of it, and
 * what a replay's --internal finds there is what the recorded run found.
 */
import type { Json } from '../raw/types.js';
const rec = (v: unknown): Json | null => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : null);
const children = (n: Json): Json[] => (Array.isArray(n.nodes) ? n.nodes.map(rec).filter((x): x is Json => x !== null) : []);
const fn = (n: Json): Json => ({ nodeType: n.nodeType, kind: n.kind, name: n.name, src: n.src });

/** The outline of one file's AST (null where there is none). */
export function astOutline(ast: unknown): Json | null {
  const unit = rec(ast);
  if (unit === null) return null;
  const nodes = children(unit).flatMap((top): Json[] => {
    if (top.nodeType === 'FunctionDefinition') return [fn(top)];
    if (top.nodeType !== 'ContractDefinition') return [];
    return [{ nodeType: top.nodeType, name: top.name, nodes: children(top).filter((m) => m.nodeType === 'FunctionDefinition').map(fn) }];
  });
  // Read from the text, not the compiler's: internalCallsOf checks each range against the map.
  return { nodeType: unit.nodeType, ...(unit.scanned === true ? { scanned: true } : {}), nodes };
}
