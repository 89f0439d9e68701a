/**
 * The current function's parameters, return variables and the locals declared so far, by name, at one
 * step of the step log: read from the frame's AST and the stack layout of a build with the optimizer
 * off (parameters below the return address, locals pushed in declaration order). Where that cannot be
 * known for certain (no AST, optimizer, via-IR, a stack that does not fit) it says why: never a wrong value.
 */
import type { DebugStepLog } from './types.js';

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

export function localsAt(_rec: DebugStepLog, _step: number): LocalsAt {
  return { known: false, reason: 'local variables are not read yet' };
}
