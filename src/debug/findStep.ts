/**
 * `--at`: the first step that matches `<file>:<line>` (the file by its path or an unambiguous tail),
 * `step:<i>` (1-based) or `failure`; the answer says why where none does.
 */
import { placeAt } from './placeAt.js';
import { resolveFile } from './resolveFile.js';
import type { AtTarget } from './parseAt.js';
import type { DebugStepLog } from './types.js';

export function findStep(rec: DebugStepLog, at: AtTarget): { readonly step: number } | { readonly none: string } {
  const n = rec.steps.count;
  if (at.kind === 'failure') return rec.failure === null ? { none: 'nothing failed in this transaction' } : { step: rec.failure };
  if (at.kind === 'step') return at.step <= n ? { step: at.step - 1 } : { none: `the transaction ran ${n} steps; there is no step ${at.step}` };
  const file = resolveFile(rec, at.file);
  if ('error' in file) return { none: file.error };
  for (let i = 0; i < n; i++) {
    const p = placeAt(rec, i);
    if (p !== null && p.line === at.line && p.file === file.path) return { step: i };
  }
  return { none: `no step ran ${file.path}:${at.line}` };
}
