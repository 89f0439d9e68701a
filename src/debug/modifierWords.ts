/**
 * The stack words a function's modifiers keep under its own locals while its body runs: solc's legacy
 * code generator runs each modifier in the order invoked, pushing its arguments as its parameters and
 * its locals as their declarations run, and runs the next one (at last the body) at its placeholder
 * (`_;`). Each modifier is the one the most derived contract runs (a virtual one resolved along its
 * linearization, as the compiler does), read from the compiler's ASTs of the compilation's files.
 * Where that cannot be told for certain (a modifier not found, run by a qualified name, with no
 * placeholder or several, a library function's), why.
 */
import type { SourceTable } from '../locate/sourceMap.js';
import { isRecord } from '../raw/hex.js';
import type { Json } from '../raw/types.js';
import { type FunctionLayout, functionLayout, type StackVariable } from './functionLayout.js';

interface Contracts {
  readonly byName: ReadonlyMap<string, readonly Json[]>;
  readonly byId: ReadonlyMap<number, Json>;
}

const rec = (v: unknown): Json | null => (isRecord(v) ? v : null);
const nodesOf = (n: Json | null): Json[] => (Array.isArray(n?.nodes) ? n.nodes.map(rec).filter((x): x is Json => x !== null) : []);

const tables = new WeakMap<SourceTable, Contracts>();

/** The compilation's contracts (each file's top-level ContractDefinitions), by name and by AST id. */
function contractsOf(sources: SourceTable): Contracts {
  const known = tables.get(sources);
  if (known !== undefined) return known;
  const byName = new Map<string, Json[]>();
  const byId = new Map<number, Json>();
  for (let id = 0; id < sources.count; id++) {
    const unit = rec(sources.ast?.(id));
    if (unit === null || unit.scanned === true) continue;
    for (const c of nodesOf(unit)) {
      if (c.nodeType !== 'ContractDefinition' || typeof c.name !== 'string' || typeof c.id !== 'number') continue;
      byName.set(c.name, [...(byName.get(c.name) ?? []), c]);
      byId.set(c.id, c);
    }
  }
  const out = { byName, byId };
  tables.set(sources, out);
  return out;
}

/**
 * The modifier `name` as contract `contract` runs it in a function of contract `scope` (an AST id): the
 * first of its linearization that defines one by that name. Null where `scope` is not in it (a
 * library's function: its modifiers are its own).
 */
function resolve(c: Contracts, contract: string, scope: unknown, name: string): Json | string {
  const [most, other] = c.byName.get(contract) ?? [];
  if (most === undefined || other !== undefined || !Array.isArray(most.linearizedBaseContracts)) return `contract ${contract} is not found once in the ASTs`;
  if (!most.linearizedBaseContracts.includes(scope)) return 'a modifier of a function outside the contract (a library\'s)';
  for (const id of most.linearizedBaseContracts) {
    const found = typeof id === 'number' ? nodesOf(c.byId.get(id) ?? null).find((m) => m.nodeType === 'ModifierDefinition' && m.name === name) : undefined;
    if (found !== undefined) return found;
  }
  return `modifier ${name} is not found in the ASTs of ${contract}`;
}

const words = (vars: readonly StackVariable[]): number => vars.reduce((n, v) => n + v.words, 0);
const layouts = new WeakMap<Json, FunctionLayout | null>();

/** The words modifier `m` keeps while the body runs at its one placeholder; a reason where it cannot be told. */
function wordsOf(m: Json, name: string): number | string {
  let layout = layouts.get(m);
  if (layout === undefined) layouts.set(m, (layout = functionLayout(m)));
  const [placeholder, another] = layout?.placeholders ?? [];
  if (layout == null || placeholder === undefined || another !== undefined) return `modifier ${name} does not run the body at one placeholder`;
  const [start, end] = placeholder;
  if (layout.opaque.some((o) => o.range[0] <= start && end <= o.range[1])) return `modifier ${name} runs the body inside inline assembly or a try/catch`;
  const live = layout.locals.filter((l) => l.declaredEnd <= start && l.scope[0] <= start && end <= l.scope[1]);
  return words(layout.params) + words(live);
}

/** The words the modifiers `names` (in order) keep under the body of function `fn` (its AST node) run by `contract` (the frame's, the most derived); or why not known. */
export function modifierWords(sources: SourceTable, contract: string | null, fn: Json, names: readonly string[]): number | { readonly reason: string } {
  let total = 0;
  for (const name of names) {
    if (!/^[A-Za-z_$][A-Za-z0-9_$]{0,127}$/.test(name)) return { reason: 'a modifier invoked by a qualified name' };
    const m = contract === null ? 'the frame\'s contract is not known' : resolve(contractsOf(sources), contract, fn.scope, name);
    if (typeof m === 'string') return { reason: m };
    const n = wordsOf(m, name);
    if (typeof n === 'string') return { reason: n };
    total += n;
  }
  return total;
}
