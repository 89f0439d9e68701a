/** `--at`'s text (and `:break`'s) → what it names; a UsageError (exit 2) where it names nothing. */
import { UsageError } from '../errors.js';

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
