/**
 * The debugger's last line, in exactly this shape (fields separated by ` · `):
 * `step <i>/<n> · <file>:<line> · <Contract>::<function> · pc <pc> <OPCODE>` — `-` for the place where
 * no source is known, `<i>` from 1, `<n>` every opcode the transaction ran (a struct log's count).
 */
import { escapeText } from '../raw/escape.js';
import { framesAt } from './framesAt.js';
import { opcodeName } from './opcodeName.js';
import { placeAt } from './placeAt.js';
import type { DebugStepLog } from './types.js';
import { cell } from '../locate/cell.js';

export function statusLine(rec: DebugStepLog, step: number): string {
  const s = rec.steps;
  if (s.count === 0) return 'step 0/0 · - · - · -';
  const p = placeAt(rec, step);
  // The external frame's name, as the shape says, also where an internal function runs in it (the call stack lists those).
  const frame = framesAt(rec, step).findLast((f) => f.kind === 'external');
  return [`step ${step + 1}/${s.count}`, p === null ? '-' : `${escapeText(p.file)}:${p.line}`, frame === undefined ? '-' : escapeText(frame.name), `pc ${s.pc[step]} ${opcodeName(cell(s.op, step))}`].join(' · ');
}
