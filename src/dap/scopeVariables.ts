/**
 * A scope's variables at the step a frame stands at (framesAt's `at`): Locals (localsAt's, by name; where
 * they cannot be known, one entry that says why), Stack (top first, `stack[0]` the top, as `--at … --json`
 * writes it), Memory (the frame's memory by 32-byte word) and Storage (storageAt's: the slots the frame's
 * account read and written so far, as the struct loggers keep them; the state variables a slot holds in its
 * type, where the artifact's storage layout names them). Pure.
 */
import { localsAt } from '../debug/localsAt.js';
import type { DebugStepLog } from '../debug/types.js';
import { escapeText } from '../raw/escape.js';
import { namedStorage } from './namedStorage.js';
import type { DapVariable, DebugTarget } from './types.js';

export const SCOPES = ['Locals', 'Stack', 'Memory', 'Storage'] as const;

const word = (v: bigint): string => `0x${v.toString(16).padStart(64, '0')}`;
const leaf = (name: string, value: string, type?: string): DapVariable => ({ name, value, ...(type === undefined ? {} : { type }), variablesReference: 0 });

/** The stack at `at`, top first. */
export const stackOf = (rec: DebugStepLog, at: number): bigint[] => rec.steps.stackAt(at).reverse();

function memoryWords(rec: DebugStepLog, at: number): DapVariable[] {
  const memory = rec.steps.memoryAt(at);
  const out: DapVariable[] = [];
  for (let offset = 0; offset < memory.length; offset += 32) out.push(leaf(`0x${offset.toString(16).padStart(4, '0')}`, `0x${Buffer.from(memory.subarray(offset, offset + 32)).toString('hex')}`));
  return out;
}

/** The slots seen, each with the state variables it holds as its type, where a layout names them. */
function storageWords(t: DebugTarget, at: number, frame: number): DapVariable[] {
  const { seen, named } = namedStorage(t, at, frame);
  return [...seen].map(([slot, value]) => {
    const parts = named.get(slot) ?? [];
    return leaf(word(slot), word(value), parts.length === 0 ? undefined : escapeText(parts.map((p) => `${p.path}: ${p.type}`).join(', ')));
  });
}

/** `frame`: the step log's frame the step runs in (its account's storage is the one shown). */
export function scopeVariables(t: DebugTarget, at: number, frame: number, scope: (typeof SCOPES)[number]): DapVariable[] {
  const { rec } = t;
  switch (scope) {
    case 'Locals': {
      const locals = localsAt(rec, at);
      return locals.known ? locals.variables.map((v) => leaf(v.name, escapeText(v.value), v.type)) : [leaf('(not known)', locals.reason)];
    }
    case 'Stack':
      return stackOf(rec, at).map((v, k) => leaf(`stack[${k}]`, `0x${v.toString(16)}`));
    case 'Memory':
      return memoryWords(rec, at);
    case 'Storage':
      return storageWords(t, at, frame);
  }
}
