/**
 * The current function's parameters, return variables and the locals declared so far, by name, at one
 * step of the step log: read from the frame's AST and the stack layout of a build with the optimizer
 * off (parameters over the return address, then the return variables, the modifiers' words, and the
 * locals pushed in declaration order). Where that cannot be known for certain (no AST, optimizer,
 * via-IR, a stack that does not fit) it says why: never a wrong value.
 *
 * The function is the innermost one entered by a jump: an internal call the step log lists (its jump
 * marked `i`), else the external function's body, entered by its wrapper's jump (functionEntry.ts). Its
 * stack at that entry gives each variable's slot from the bottom; the step's own source range says
 * which locals are declared and in scope; the step's stack height must hold them all.
 */
import { type FunctionEntry, functionEntry } from './functionEntry.js';
import { functionLayout, type FunctionLayout, type StackVariable } from './functionLayout.js';
import { localValue } from './localValue.js';
import { modifierWords } from './modifierWords.js';
import type { DebugStepLog } from './types.js';
import { cell } from '../locate/cell.js';

export interface LocalValue {
  readonly name: string;
  /** The type as the AST names it (`uint256`, `address`, `bytes memory`). */
  readonly type: string;
  readonly kind: 'parameter' | 'return' | 'local';
  /** The value as text (`42`, `-1`, `true`, `0x…`); for one a stack word does not hold, where it lives (`memory 0x80`). */
  readonly value: string;
  /** Its (first) stack word, counted from the top (0: the top) at this step. */
  readonly stackIndex: number;
}

export type LocalsAt =
  | { readonly known: true; readonly function: string; readonly variables: readonly LocalValue[] }
  | { readonly known: false; readonly reason: string };

const unknown = (reason: string): LocalsAt => ({ known: false, reason });

/** Versions before 0.5 kept every local of a function from its entry (no block scopes). */
const scoped = (version: string | undefined): boolean => version === undefined || Number(version.split('.')[0]) > 0 || Number(version.split('.')[1]) >= 5;

const layouts = new WeakMap<object, FunctionLayout | null>();

/** What the build's settings leave unknown, or null where they are the legacy code generator's without the optimizer. */
function buildReason(rec: DebugStepLog, step: number): string | null {
  const frame = rec.frames[cell(rec.steps.frame, step)];
  const debug = frame?.source?.debug;
  if (frame === undefined || debug === undefined) return 'no source map matched this frame\'s code';
  if (frame.kind.startsWith('create')) return 'a constructor\'s variables are not read';
  if (debug.viaIR) return 'built via IR: variables have no fixed stack slots';
  if (debug.optimizer === undefined) return 'the build does not say whether the optimizer ran';
  if (debug.optimizer) return 'built with the optimizer: variables have no fixed stack slots';
  if (!scoped(debug.version)) return `built by solc ${debug.version}, before block scopes`;
  return null;
}

/** The words of each variable, from `bottom` up, each with its value at this step; null where the stack is lower than they need. */
function read(stack: readonly bigint[], bottom: number, vars: readonly Tagged[]): LocalValue[] | null {
  const out: LocalValue[] = [];
  let at = bottom;
  for (const [v, kind] of vars) {
    if (at + v.words > stack.length) return null;
    if (v.name !== '') out.push({ name: v.name, type: v.typeString, kind, value: localValue(v, stack.slice(at, at + v.words)), stackIndex: stack.length - 1 - at });
    at += v.words;
  }
  return out;
}

const words = (vars: readonly StackVariable[]): number => vars.reduce((n, v) => n + v.words, 0);

type Tagged = readonly [StackVariable, LocalValue['kind']];
const tagged = (vars: readonly StackVariable[], kind: LocalValue['kind']): Tagged[] => vars.map((v): Tagged => [v, kind]);

/**
 * Where the parameters begin (the stack's count below them) at the function's entry, or null where
 * the word below them is not its return address: the jump's own next pc for an internal call, a
 * JUMPDEST of the code for the external function's body.
 */
function paramsBase(rec: DebugStepLog, entry: FunctionEntry, params: number): number | null {
  let heights = entryHeights.get(rec);
  if (heights === undefined) entryHeights.set(rec, (heights = new Map()));
  let base = heights.get(entry.entry);
  if (base === undefined) heights.set(entry.entry, (base = checkedBase(rec, entry, params)));
  return base;
}

/** Each entry's parameters' base, once found (a key pressed in a loop asks for the same entry again). */
const entryHeights = new WeakMap<DebugStepLog, Map<number, number | null>>();

function checkedBase(rec: DebugStepLog, entry: FunctionEntry, params: number): number | null {
  const stack = rec.steps.stackAt(entry.entry);
  const base = stack.length - params;
  const back = stack[base - 1];
  const code = cell(rec.frames, cell(rec.steps.frame, entry.entry)).code;
  if (back === undefined || code === null || back >= BigInt(code.length) || code[Number(back)] !== 0x5b) return null;
  return !entry.internal || back === BigInt(entry.site + 1) ? base : null;
}

export function localsAt(rec: DebugStepLog, step: number): LocalsAt {
  const build = buildReason(rec, step);
  if (build !== null) return unknown(build);
  const entry = functionEntry(rec, step);
  if ('reason' in entry) return unknown(entry.reason);
  let layout = layouts.get(entry.fn.node);
  if (layout === undefined) layouts.set(entry.fn.node, (layout = functionLayout(entry.fn.node)));
  if (layout === null) return unknown('the AST of this function is not one the compiler writes');
  const [start, end] = entry.position;
  const opaque = layout.opaque.find((o) => o.range[0] <= start && end <= o.range[1]);
  if (opaque !== undefined) return unknown(opaque.why);
  const inBody = layout.body[0] <= start && end <= layout.body[1];
  // Its entry (the JUMPDEST) is certain: the parameters as the jump left them. The code after it and
  // before the body pushes the return variables (and runs the modifiers); the code after the body
  // moves them into the parameters' slots: neither is read.
  if (!inBody && step !== entry.entry) return unknown(layout.modifiers.length > 0 ? 'in a modifier\'s code, or the compiler\'s around the function\'s body' : 'in the code the compiler wrote around the function\'s body');
  const frame = cell(rec.frames, cell(rec.steps.frame, step));
  const under = layout.modifiers.length === 0 || !inBody || frame.source === null ? 0 : modifierWords(frame.source.sources, frame.contract, entry.fn.node, layout.modifiers);
  if (typeof under !== 'number') return unknown(under.reason);
  const base = paramsBase(rec, entry, words(layout.params));
  if (base === null) return unknown('the stack at the function\'s entry does not hold its parameters over a return address');
  const live = inBody ? layout.locals.filter((l) => l.declaredEnd <= start && l.scope[0] <= start && end <= l.scope[1]) : [];
  const returns = inBody ? tagged(layout.returns, 'return') : [];
  // The modifiers' parameters and locals: under the function's own, not its variables.
  const gap: Tagged[] = under === 0 ? [] : [[{ name: '', typeString: '', typeIdentifier: '', location: 'default', words: under }, 'local']];
  const got = read(rec.steps.stackAt(step), base, [...tagged(layout.params, 'parameter'), ...returns, ...gap, ...tagged(live, 'local')]);
  if (got === null) return unknown('the stack here is lower than the function\'s variables need');
  return { known: true, function: entry.fn.contract === null ? entry.fn.name : `${entry.fn.contract}.${entry.fn.name}`, variables: got };
}
