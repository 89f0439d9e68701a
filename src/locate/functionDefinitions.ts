/**
 * The functions a compiler's AST defines in one file: each FunctionDefinition's name, the contract or
 * library that holds it (null for a free function), and its byte range (`src` = "start:length:sourceId",
 * UTF-8 bytes as the source map counts). Modifiers are not functions, and neither are constructors,
 * fallback and receive, which no internal call can jump to. Pure; an AST is hostile input: a node
 * that is not the shape solc writes is passed over.
 */

/** One function as the AST defines it. */
export interface FunctionDefinition {
  readonly name: string;
  readonly contract: string | null;
  readonly sourceId: number;
  readonly start: number;
  readonly length: number;
  /** The AST's FunctionDefinition node itself (what the debugger's locals read). */
  readonly node: Json;
}

import type { Json } from '../raw/types.js';
const rec = (v: unknown): Json | null => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : null);

/** An AST node's `src`, when it is the compiler's "start:length:id". */
function rangeOf(src: unknown): readonly [number, number, number] | null {
  if (typeof src !== 'string') return null;
  const m = /^(\d{1,10}):(\d{1,10}):(-?\d{1,6})$/.exec(src);
  return m === null ? null : [Number(m[1]), Number(m[2]), Number(m[3])];
}

/** Identifiers as Solidity writes them: nothing else is taken for a name (it is printed). */
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]{0,127}$/;

/** The functions of a SourceUnit (solc's compact AST: `nodes`, `nodeType`), in the order they are written. */
export function functionDefinitions(ast: unknown): FunctionDefinition[] {
  const out: FunctionDefinition[] = [];
  const add = (node: Json, contract: string | null): void => {
    if (node.nodeType !== 'FunctionDefinition' || node.kind === 'constructor' || node.kind === 'fallback' || node.kind === 'receive') return;
    const range = rangeOf(node.src);
    if (range === null || typeof node.name !== 'string' || !IDENTIFIER.test(node.name)) return;
    out.push({ name: node.name, contract, sourceId: range[2], start: range[0], length: range[1], node });
  };
  const nodes = (n: Json | null): Json[] => (Array.isArray(n?.nodes) ? n.nodes.map(rec).filter((x): x is Json => x !== null) : []);
  for (const top of nodes(rec(ast))) {
    if (top.nodeType === 'ContractDefinition') {
      const name = typeof top.name === 'string' && IDENTIFIER.test(top.name) ? top.name : null;
      if (name !== null) for (const member of nodes(top)) add(member, name);
    } else add(top, null);
  }
  return out;
}
