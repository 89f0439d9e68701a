/**
 * `stackTrace`: the frames open at the cursor, innermost first (framesAt's, reversed): each external call and
 * the internal functions open in it where known, named `Contract.function`, at the line the terminal's
 * status line shows for the innermost and at its call for a caller (framesAt's `at`). The file is the
 * project's, by its absolute path (or by the path the client set a breakpoint in it by); the column is the line's first (the step log keeps lines, not columns).
 * A frame without a source map says its pc and opcode in its name.
 */
import { isAbsolute, resolve } from 'node:path';
import { framesAt } from '../debug/framesAt.js';
import { opcodeName } from '../debug/opcodeName.js';
import { placeAt } from '../debug/placeAt.js';
import { cell } from '../locate/cell.js';
import { escapeText } from '../raw/escape.js';
import type { DebugTarget } from './types.js';

/** Where the client counts lines and columns from (initialize's linesStartAt1, columnsStartAt1). */
export interface ClientBase {
  readonly lines1: boolean;
  readonly columns1: boolean;
}

export interface DapStackFrame {
  readonly id: number;
  readonly name: string;
  readonly line: number;
  readonly column: number;
  readonly source?: { readonly name: string; readonly path: string };
  readonly presentationHint?: 'subtle';
}

/** A compiler's path (`src/Bank.sol`) as the file on disk. */
const projectPath = (t: Pick<DebugTarget, 'cwd'>, file: string): string => (isAbsolute(file) ? file : resolve(t.cwd, file));

/** `named`: the paths the client gave files by (the compiler's name → the client's), used before the project's. */
export function stackTrace(t: DebugTarget, step: number, base: ClientBase, named: ReadonlyMap<string, string> = new Map()): DapStackFrame[] {
  const { rec } = t;
  return framesAt(rec, step)
    .reverse()
    .map((f, id) => {
      // Names from artifacts, ABIs and labels, escaped as the terminal's are.
      const name = escapeText(f.name.replace('::', '.'));
      const place = placeAt(rec, f.at);
      if (place === null) return { id, name: `${name} (pc ${cell(rec.steps.pc, f.at)} ${opcodeName(cell(rec.steps.op, f.at))})`, line: 0, column: 0, presentationHint: 'subtle' as const };
      const path = named.get(place.file) ?? projectPath(t, place.file);
      return { id, name, line: base.lines1 ? place.line : place.line - 1, column: base.columns1 ? 1 : 0, source: { name: place.file.split('/').at(-1) ?? place.file, path } };
    });
}
