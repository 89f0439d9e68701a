/**
 * `--at`: the first step that matches `<file>:<line>` (the file by its path or an unambiguous tail),
 * `step:<i>` (1-based) or `failure`; the answer says why where none does.
 */
import { UsageError } from '../errors.js';
import { placeAt } from './placeAt.js';
import { resolveFile } from './resolveFile.js';
import type { DebugRecording } from './types.js';

/** What `--at` names, checked before any request. */
export type AtTarget = { readonly kind: 'failure' } | { readonly kind: 'step'; readonly step: number } | { readonly kind: 'line'; readonly file: string; readonly line: number };

export function parseAt(text: string): AtTarget {
  const t = text.trim();
  if (t === 'failure') return { kind: 'failure' };
  const step = /^step:(\d{1,9})$/.exec(t);
  if (step !== null && Number(step[1]) >= 1) return { kind: 'step', step: Number(step[1]) };
  const line = /^(.+):(\d{1,9})$/.exec(t);
  if (line !== null && Number(line[2]) >= 1 && !t.startsWith('step:')) return { kind: 'line', file: line[1]!, line: Number(line[2]) };
  throw new UsageError('--at takes <file>:<line> (Bank.sol:39), step:<i> (from 1) or failure.');
}

export function findStep(rec: DebugRecording, at: AtTarget): { readonly step: number } | { readonly none: string } {
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
