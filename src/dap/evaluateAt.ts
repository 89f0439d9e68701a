/**
 * `evaluate` (and hovers): `stack[i]` (0: the top), a local's name (localsAt's), or a state variable's name
 * by the storage layout of the artifact whose code the frame runs (nameSlots' naming, as --storage's),
 * its value as the frame's account read or wrote it so far in the run. Where a value is not known here,
 * the answer says why: never a guess (a slot the run has not touched yet is not read from the node).
 */
import { localsAt } from '../debug/localsAt.js';
import { escapeText } from '../raw/escape.js';
import { namedStorage } from './namedStorage.js';
import { stackOf } from './scopeVariables.js';
import type { DebugTarget } from './types.js';

export type Evaluated = { readonly result: string; readonly type?: string } | { readonly error: string };

/** A state variable's value at `at`, where the run has read or written its slot by then. */
function stateVariable(t: DebugTarget, at: number, frame: number, name: string): Evaluated | null {
  const { layout, named } = namedStorage(t, at, frame);
  const variable = layout?.storage.find((v) => v.label === name);
  if (layout === null || variable === undefined) return null;
  // Its own slot is never read: an entry's slot is hashed from its key, which the step log does not keep.
  if (layout.types[variable.type]?.encoding === 'mapping') return { error: `${name} is a mapping: its entries sit at slots hashed from their keys, which txray does not name here; the Storage scope lists the slots read and written` };
  const part = [...named.values()].flat().find((p) => p.path === name);
  if (part === undefined) return { error: `${name} is a state variable whose slot the run has not read or written by this step: its value is not known here` };
  // A string's text is the contract's: escaped, as every text txray shows.
  return { result: escapeText(String(part.after)), type: part.type };
}

export function evaluateAt(t: DebugTarget, at: number, frame: number, expression: string): Evaluated {
  const text = expression.trim();
  const stack = /^stack\[(\d{1,5})\]$/.exec(text);
  if (stack !== null) {
    const words = stackOf(t.rec, at);
    const v = words[Number(stack[1])];
    return v === undefined ? { error: `the stack holds ${words.length} words here` } : { result: `0x${v.toString(16)}`, type: 'uint256' };
  }
  if (!/^[A-Za-z_$][A-Za-z0-9_$]{0,127}$/.test(text)) return { error: 'txray evaluates a local\'s or a state variable\'s name, or stack[<i>] (0: the top)' };
  const locals = localsAt(t.rec, at);
  const local = locals.known ? locals.variables.find((v) => v.name === text) : undefined;
  if (local !== undefined) return { result: escapeText(local.value), type: local.type };
  const state = stateVariable(t, at, frame, text);
  if (state !== null) return state;
  return { error: locals.known ? `no local or state variable ${text} here` : `no state variable ${text} here; local variables are not known here (${locals.reason})` };
}
