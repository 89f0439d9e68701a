/**
 * The function a step runs in, by how it was entered: the innermost internal call the step log lists
 * open there (its jump in, marked `i`), else the external function's body, entered by its wrapper's
 * jump (a jump marked `i` whose own source range is the whole definition of the function it lands in:
 * the ABI decoding jumping into the body, as internalCallsOf tells it apart). Its definition is the
 * one holding the landing's range, read from the compiler's AST; and the step's own range in that
 * file. Pure; where any of it is not known, why.
 */
import { definitionHolding } from '../locate/definitionHolding.js';
import type { FunctionDefinition } from '../locate/functionDefinitions.js';
import { openAt } from '../locate/openAt.js';
import { cell } from '../locate/cell.js';
import { mapEntryAt } from './placeAt.js';
import type { DebugFrame, DebugStepLog, FrameSource } from './types.js';

export interface FunctionEntry {
  readonly fn: FunctionDefinition;
  /** The landing step (the function's JUMPDEST), and the pc of the jump into it. */
  readonly entry: number;
  readonly site: number;
  /** Entered by an internal call (else: the external function's body). */
  readonly internal: boolean;
  /** The step's source range in the function's file, [start, end). */
  readonly position: readonly [number, number];
}

const JUMP = 0x56;

/** The external function's body's entry in each frame, once found (null: none). */
const bodies = new WeakMap<DebugFrame, { readonly entry: number; readonly site: number } | null>();

function bodyEntry(rec: DebugStepLog, index: number, frame: DebugFrame, source: FrameSource): { readonly entry: number; readonly site: number } | null {
  const known = bodies.get(frame);
  if (known !== undefined) return known;
  // The log's arrays are read once: each read of them makes a view.
  const { op, frame: frameOf, pc } = rec.steps;
  let found: { entry: number; site: number } | null = null;
  for (let k = frame.first; k < frame.last && found === null; k++) {
    if (op[k] !== JUMP || frameOf[k] !== index || frameOf[k + 1] !== index) continue;
    const site = mapEntryAt(source, cell(pc, k));
    const landing = mapEntryAt(source, cell(pc, k + 1));
    const j = source.map.j[source.index[cell(pc, k)] ?? -1];
    if (site === null || landing === null || j !== 1) continue;
    const held = definitionHolding(source.sources, landing[0], landing[1], landing[2]);
    const fn = held?.fn;
    if (fn !== undefined && site[0] === fn.sourceId && site[1] === fn.start && site[2] === fn.length) found = { entry: k + 1, site: cell(pc, k) };
  }
  bodies.set(frame, found);
  return found;
}

export function functionEntry(rec: DebugStepLog, step: number): FunctionEntry | { readonly reason: string } {
  const index = cell(rec.steps.frame, step);
  const frame = cell(rec.frames, index);
  const source = frame.source;
  if (source === null) return { reason: 'no source map matched this frame\'s code' };
  if (source.sources.ast === undefined) return { reason: 'the build kept no AST (forge build --ast)' };
  const calls = rec.internal.calls[index];
  if (calls === null || calls === undefined) return { reason: 'this frame\'s internal calls are not known' };
  const inner = openAt(calls, step).at(-1);
  const body = inner === undefined ? bodyEntry(rec, index, frame, source) : { entry: inner.from + 1, site: cell(rec.steps.pc, inner.from) };
  if (body === null || body.entry > step || rec.steps.frame[body.entry] !== index) return { reason: 'not inside a function\'s body yet (the dispatcher, the ABI decoding)' };
  const landing = mapEntryAt(source, cell(rec.steps.pc, body.entry));
  const held = landing === null ? null : definitionHolding(source.sources, landing[0], landing[1], landing[2]);
  if (held === null) return { reason: 'no function definition holds this code' };
  if (held.scanned) return { reason: 'the build kept no AST (forge build --ast)' };
  const here = mapEntryAt(source, cell(rec.steps.pc, step));
  if (here === null || here[0] < 0 || here[0] >= source.sources.count || here[1] < 0) return { reason: 'in code the compiler wrote (checked arithmetic, ABI coding): no line of the function' };
  if (here[0] !== held.fn.sourceId) return { reason: 'in code of another file (a modifier\'s, a base contract\'s)' };
  return { fn: held.fn, entry: body.entry, site: body.site, internal: inner !== undefined, position: [here[1], here[1] + here[2]] };
}
