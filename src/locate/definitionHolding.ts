/**
 * The function whose definition holds a range of a compilation's file (the innermost, for a function
 * inside another's range), by the file's AST as the source table gives it: the compiler's, or the one
 * read from the text where the build kept none (`scanned`). The definitions of each file are read once
 * per table. --internal names the functions its jumps enter by it; the debugger's locals read the
 * definition's node.
 */
import { type FunctionDefinition, functionDefinitions } from './functionDefinitions.js';
import type { SourceTable } from './sourceMap.js';

interface Definitions {
  readonly defs: readonly FunctionDefinition[];
  /** Read from the file's text (scanFunctions), not from the compiler's AST. */
  readonly scanned: boolean;
}

const definitions = new WeakMap<SourceTable, Map<number, Definitions>>();

/** The functions file `id` defines (cached per table). */
function definitionsOf(sources: SourceTable, id: number): Definitions {
  let byId = definitions.get(sources);
  if (byId === undefined) definitions.set(sources, (byId = new Map()));
  let found = byId.get(id);
  if (found === undefined) {
    const ast = id < 0 || id >= sources.count || sources.ast === undefined ? null : sources.ast(id);
    const scanned = typeof ast === 'object' && ast !== null && 'scanned' in ast && ast.scanned === true;
    byId.set(id, (found = { defs: ast === null ? [] : functionDefinitions(ast).filter((d) => d.sourceId === id), scanned }));
  }
  return found;
}

/** The innermost function whose definition holds [start, start + length) of file `id`, and whether it was read from the text; null where none does. */
export function definitionHolding(sources: SourceTable, id: number, start: number, length: number): { readonly fn: FunctionDefinition; readonly scanned: boolean } | null {
  const { defs, scanned } = definitionsOf(sources, id);
  let best: FunctionDefinition | null = null;
  for (const d of defs) if (d.start <= start && start + length <= d.start + d.length && (best === null || d.length < best.length)) best = d;
  return best === null ? null : { fn: best, scanned };
}
