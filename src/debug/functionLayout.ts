/**
 * What a function's stack holds by the compiler's AST, as solc's legacy code generator (0.5 on) lays it
 * out: its parameters over the return address, its return variables pushed zero-initialised on entry,
 * then (past its modifiers' words, modifierWords.ts) each local when its declaration statement runs,
 * popped at the end of its block (a sibling block's reuse the slots). Read from one FunctionDefinition
 * or ModifierDefinition node (solc's compact AST); an AST is hostile input: a node that is not the
 * shape solc writes makes the whole function unknown (null).
 */
import { isRecord } from '../raw/hex.js';
import type { Json } from '../raw/types.js';

/** A variable as its declaration types it: `typeString` as written (`uint256`, `bytes memory`), `typeIdentifier` as the compiler tells types apart. */
export interface StackVariable {
  /** Empty for an unnamed parameter or return variable (it still takes its slot). */
  readonly name: string;
  readonly typeString: string;
  readonly typeIdentifier: string;
  /** `default` (a value), `memory`, `calldata`, `storage`. */
  readonly location: string;
  /** Stack words it takes (a dynamic calldata array or an external function: 2). */
  readonly words: number;
}

/** A local: on the stack from its statement's end on, while a position is inside its scope (its block, or its for statement). */
export interface LocalVariable extends StackVariable {
  readonly declaredEnd: number;
  readonly scope: readonly [number, number];
}

export interface FunctionLayout {
  readonly sourceId: number;
  /** The body block's byte range, [start, end). */
  readonly body: readonly [number, number];
  readonly params: readonly StackVariable[];
  readonly returns: readonly StackVariable[];
  /** In the order they are declared (the order they are pushed). */
  readonly locals: readonly LocalVariable[];
  /** Ranges whose own variables the stack also holds where the AST does not say how (inline assembly, try/catch), with a reason. */
  readonly opaque: ReadonlyArray<{ readonly range: readonly [number, number]; readonly why: string }>;
  /** The modifiers it runs, by name as invoked, in order (their parameters and locals lie between its returns and its locals). */
  readonly modifiers: readonly string[];
  /** In a modifier's body: the placeholders' (`_;`) ranges. */
  readonly placeholders: ReadonlyArray<readonly [number, number]>;
}

const rec = (v: unknown): Json | null => (isRecord(v) ? v : null);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** A node's `src` as [start, end, file id]; null where it is not "start:length:id". */
function rangeOf(node: Json | null): readonly [number, number, number] | null {
  const m = typeof node?.src === 'string' ? /^(\d{1,10}):(\d{1,10}):(-?\d{1,6})$/.exec(node.src) : null;
  return m === null ? null : [Number(m[1]), Number(m[1]) + Number(m[2]), Number(m[3])];
}

/** A dynamic calldata array (`bytes`, `string`, `T[]`) is an offset and a length; an external function an address and a selector. */
const wordsOf = (typeIdentifier: string, location: string): number =>
  (location === 'calldata' && /^t_(bytes|string)_calldata_ptr$|\$dyn_calldata_ptr$/.test(typeIdentifier)) || typeIdentifier.startsWith('t_function_external') ? 2 : 1;

/** Identifiers as Solidity writes them (the name is printed). */
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]{0,127}$/;

function variableOf(v: unknown): StackVariable | null {
  const node = rec(v);
  const types = rec(node?.typeDescriptions);
  const name = node?.name ?? '';
  const location = node?.storageLocation ?? 'default';
  if (node?.nodeType !== 'VariableDeclaration' || typeof name !== 'string' || (name !== '' && !IDENTIFIER.test(name))) return null;
  if (typeof types?.typeString !== 'string' || typeof types.typeIdentifier !== 'string' || typeof location !== 'string') return null;
  return { name, typeString: types.typeString, typeIdentifier: types.typeIdentifier, location, words: wordsOf(types.typeIdentifier, location) };
}

const parametersOf = (v: unknown): StackVariable[] | null => {
  const all = list(rec(v)?.parameters).map(variableOf);
  return all.every((x): x is StackVariable => x !== null) ? all : null;
};

/** What the walk of the body collects; `ok` turns false at a node it does not know the shape of. */
interface Walk {
  readonly locals: LocalVariable[];
  readonly opaque: Array<{ range: readonly [number, number]; why: string }>;
  readonly placeholders: Array<readonly [number, number]>;
  ok: boolean;
}

/** A declaration statement's variables (an omitted one of a tuple takes no slot). */
function declare(node: Json, scope: readonly [number, number], w: Walk): void {
  const end = rangeOf(node)?.[1];
  if (end === undefined) return void (w.ok = false);
  for (const d of list(node.declarations)) {
    if (d === null) continue;
    const v = variableOf(d);
    if (v === null) return void (w.ok = false);
    w.locals.push({ ...v, declaredEnd: end, scope });
  }
}

/** The statements under `node`, in source order; `scope` is the innermost block's range. */
function walk(node: Json | null, scope: readonly [number, number], w: Walk): void {
  const range = rangeOf(node);
  if (node === null || range === null) return;
  const own: readonly [number, number] = [range[0], range[1]];
  switch (node.nodeType) {
    case 'Block':
    case 'UncheckedBlock':
      for (const s of list(node.statements)) walk(rec(s), own, w);
      break;
    case 'VariableDeclarationStatement':
      declare(node, scope, w);
      break;
    case 'IfStatement':
      walk(rec(node.trueBody), scope, w);
      walk(rec(node.falseBody), scope, w);
      break;
    case 'ForStatement':
      // The loop variable's scope is the for statement.
      walk(rec(node.initializationExpression), own, w);
      walk(rec(node.body), own, w);
      break;
    case 'WhileStatement':
    case 'DoWhileStatement':
      walk(rec(node.body), scope, w);
      break;
    case 'InlineAssembly':
      w.opaque.push({ range: own, why: 'inside inline assembly: its variables share the stack' });
      break;
    case 'TryStatement':
      w.opaque.push({ range: own, why: 'inside a try/catch: its clauses\' variables share the stack' });
      break;
    case 'PlaceholderStatement':
      w.placeholders.push(own);
      break;
  }
}

/** A modifier invocation's name as written (`onlyOwner`, `Base.onlyOwner`); null where it has none. */
function invoked(m: unknown): string | null {
  const name = rec(rec(m)?.modifierName)?.name;
  return typeof name === 'string' ? name : null;
}

/** The layout of a FunctionDefinition (or a ModifierDefinition) with a body; null where the node is not one solc writes. */
export function functionLayout(fn: unknown): FunctionLayout | null {
  const node = rec(fn);
  const body = rec(node?.body);
  const range = rangeOf(body);
  const params = parametersOf(node?.parameters);
  const returns = node?.nodeType === 'ModifierDefinition' ? [] : parametersOf(node?.returnParameters);
  if ((node?.nodeType !== 'FunctionDefinition' && node?.nodeType !== 'ModifierDefinition') || body === null || range === null || params === null || returns === null) return null;
  const w: Walk = { locals: [], opaque: [], placeholders: [], ok: true };
  walk(body, [range[0], range[1]], w);
  // A base constructor's arguments (constructors only) run no modifier code.
  const modifiers = list(node.modifiers).filter((m) => rec(m)?.kind !== 'baseConstructorSpecifier').map(invoked);
  if (!w.ok || !modifiers.every((m): m is string => m !== null)) return null;
  return { sourceId: range[2], body: [range[0], range[1]], params, returns, locals: w.locals, opaque: w.opaque, modifiers, placeholders: w.placeholders };
}
