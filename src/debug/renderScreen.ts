/**
 * The debugger's screen from (step log, cursor): `height` lines of at most `width` columns, plain
 * text but for the current line's and the status line's SGR. Left: the source around the step's line
 * (or the code's opcodes where no map matched); right: the frames open, the current function's
 * variables by name (or why they are not known), the stack (top first), the memory around its last
 * change and the storage read and written so far; then a message line and
 * the status line. Everything that came from a node, an artifact or a file is escaped.
 */
import { cutToWidth, displayWidth, escapeText } from '../raw/escape.js';
import type { SourceFile } from '../locate/sourceMap.js';
import { framesAt } from './framesAt.js';
import { localsAt } from './localsAt.js';
import { opcodeName } from './opcodeName.js';
import { placeAt } from './placeAt.js';
import { statusLine } from './statusLine.js';
import { storageAt } from './storageAt.js';
import type { Cursor, DebugStepLog } from './types.js';
import { cell } from '../locate/cell.js';
import { instructions } from '../locate/sourceMap.js';

const INVERSE = '\x1b[7m';
const BOLD = '\x1b[1m';
const RESET = '\x1b[0m';

const fileLines = new WeakMap<SourceFile, string[]>();
function linesOf(file: SourceFile): string[] {
  let lines = fileLines.get(file);
  if (lines === undefined) fileLines.set(file, (lines = new TextDecoder().decode(file.bytes).split('\n').map((l) => escapeText(l.replace(/\r$/, '').replace(/\t/g, '    ')))));
  return lines;
}

/** Exactly `width` columns: cut, or padded with spaces. */
const fit = (text: string, width: number): string => {
  const cut = cutToWidth(text, width);
  return cut + ' '.repeat(Math.max(0, width - displayWidth(cut)));
};

/** The source around the step's line, the line marked; null where the step has no place. */
function sourcePane(rec: DebugStepLog, c: Cursor, rows: number): string[] | null {
  const p = placeAt(rec, c.step);
  const file = p === null ? null : cell(rec.frames, rec.steps.frame[c.step]!).source!.sources.file(p.id);
  if (p === null || file === null) return null;
  const lines = linesOf(file);
  const first = Math.max(0, Math.min(p.line - 1 - Math.floor((rows - 1) / 2), lines.length - (rows - 1)));
  const out = [`${escapeText(p.file)}`];
  for (let k = first; k < Math.min(lines.length, first + rows - 1); k++) {
    const mark = k === p.line - 1 ? '>' : c.breakpoints.has(`${p.file}:${k + 1}`) ? '*' : ' ';
    out.push(`${mark}${String(k + 1).padStart(5)}  ${lines[k]}`);
  }
  return out;
}

/** The code's opcodes around the step's pc, where no source map matched. */
function opcodePane(rec: DebugStepLog, c: Cursor, rows: number): string[] {
  const frame = rec.frames[cell(rec.steps.frame, c.step)];
  const pc = cell(rec.steps.pc, c.step);
  const code = frame?.code ?? null;
  if (code === null) return ['no source and no code known for this frame', `pc ${pc} ${opcodeName(cell(rec.steps.op, c.step))}`];
  // Each instruction's pc, its PUSH data skipped (the source-location stage's own walk of the code).
  const { pcs } = instructions(`0x${Buffer.from(code).toString('hex')}`);
  const all = Array.from(pcs, (at): [number, string] => {
    const op = cell(code, at);
    const push = op >= 0x60 && op <= 0x7f ? op - 0x5f : 0;
    return [at, `${opcodeName(op)}${push > 0 ? ` 0x${Buffer.from(code.subarray(at + 1, at + 1 + push)).toString('hex')}` : ''}`];
  });
  const here = Math.max(0, all.findIndex(([at]) => at === pc));
  const first = Math.max(0, Math.min(here - Math.floor((rows - 1) / 2), all.length - (rows - 1)));
  // A matched map places some steps in no line (the compiler's own code: the dispatcher, ABI decoding).
  const why = frame?.source == null ? 'no source map matched this code: its opcodes' : 'no source line for this step (code the compiler wrote): its opcodes';
  return [why, ...all.slice(first, first + rows - 1).map(([at, text]) => `${at === pc ? '>' : ' '}${String(at).padStart(6)}  ${text}`)];
}

/** The keys, in pairs as the help puts them side by side where the terminal is wide enough. */
const HELP_KEYS = [
  'n  next line in this frame (over calls)', 's  step into',
  'o  out, to the caller\'s next line', 'p  previous line (back in time)',
  'j  next opcode    k  previous opcode', 'g  first step    G  last step',
  'f  the failing step', 'c  continue to the next breakpoint',
  'b  breakpoint at this line (again: remove)', ':  a command, then Enter',
  '   :break <file>:<line>    :step <i>', '?  close this help (or Escape)',
  'q  quit (Ctrl-C too)',
];

/** Words of `text` in lines of at most `width` columns, each after the first indented by `indent` (a word longer than a line is cut by fit). */
function wrap(text: string, width: number, indent: string): string[] {
  const out: string[] = [];
  let line = '';
  for (const word of text.split(/(?<=\S) (?=\S)/)) {
    const next = line === '' ? word : `${line} ${word}`;
    if (line !== '' && displayWidth(next) > width) {
      out.push(line);
      line = `${indent}${word}`;
    } else line = next;
  }
  return [...out, line];
}

/** The help over the whole screen's width: the keys two a line where they fit, else one a line, wrapped where even that is too wide. */
function helpLines(width: number): string[] {
  const column = Math.max(...HELP_KEYS.map((k) => displayWidth(k))) + 2;
  const lines = ['keys'];
  if (2 + 2 * column <= width) {
    for (let k = 0; k < HELP_KEYS.length; k += 2) lines.push(`  ${cell(HELP_KEYS, k).padEnd(column)}${HELP_KEYS[k + 1] ?? ''}`.trimEnd());
  } else for (const key of HELP_KEYS) lines.push(...wrap(`  ${key}`, width, '     '));
  return lines;
}

/** The right pane: frames, stack, memory, storage, each cut to its share of the rows. */
function statePane(rec: DebugStepLog, c: Cursor, rows: number): string[] {
  const i = c.step;
  const s = rec.steps;
  const frames = framesAt(rec, i).map((f, k, all) => `${k === all.length - 1 ? '>' : ' '} ${escapeText(f.name)}`);
  const stack = s.stackAt(i).reverse().map((v, k) => `${String(k).padStart(3)}  0x${v.toString(16)}`);
  const memory = s.memoryAt(i);
  const change = s.memory.findLast((m) => m.step <= i && s.depth[m.step] === s.depth[i]);
  const from = change === undefined ? 0 : Math.floor(change.offset / 32) * 32;
  const words: string[] = [];
  for (let at = Math.max(0, from - 64); at < memory.length && words.length < 6; at += 32) words.push(`0x${at.toString(16).padStart(4, '0')}  ${Buffer.from(memory.subarray(at, at + 32)).toString('hex')}`);
  // A mapping's slot is a hash: its ends tell slots apart, and the pane keeps room for the value.
  const slot = (k: bigint): string => (k < 1n << 64n ? `0x${k.toString(16)}` : `0x${k.toString(16).slice(0, 6)}…${k.toString(16).slice(-4)}`);
  const storage = [...storageAt(rec, i, rec.frames[cell(s.frame, i)]?.storageAddress ?? null)].map(([k, v]) => `${slot(k)} = 0x${v.toString(16)}`);
  const locals = localsAt(rec, i);
  const named = locals.known ? locals.variables.map((v) => `  ${v.name} = ${escapeText(v.value)}`) : [`  ${locals.reason}`];
  const share = Math.max(2, Math.floor(rows / 5));
  const part = (title: string, list: string[], n: number): string[] => [`${title}${list.length > n - 1 ? ` (${list.length})` : ''}`, ...(list.length === 0 ? ['  (none)'] : list.slice(0, n - 1))];
  const calls = part('calls', frames.slice(-share + 1), share);
  return [...calls, ...part('locals', named, share), ...part('stack, top first', stack, share), ...part(`memory (${memory.length} bytes)`, words, share), ...part('storage read and written', storage, rows - calls.length - 3 * share)];
}

export function renderScreen(rec: DebugStepLog, c: Cursor, width: number, height: number): string[] {
  const rows = Math.max(3, height - 2);
  const left = Math.max(20, Math.floor(width * 0.55));
  const right = Math.max(0, width - left - 3);
  const lines: string[] = [];
  // The help takes the whole width: beside the panes, its lines would be cut.
  if (c.help) {
    const help = helpLines(width);
    for (let r = 0; r < rows; r++) lines.push(fit(help[r] ?? '', width));
  } else {
    const source = sourcePane(rec, c, rows) ?? opcodePane(rec, c, rows);
    const state = statePane(rec, c, rows);
    for (let r = 0; r < rows; r++) {
      const l = fit(source[r] ?? '', left);
      const marked = source[r]?.startsWith('>') === true ? `${BOLD}${l}${RESET}` : l;
      lines.push(`${marked} │ ${fit(state[r] ?? '', right)}`);
    }
  }
  const truncated = rec.steps.truncated ? `recorded the first ${rec.steps.count} steps only; the run went on` : null;
  lines.push(fit(c.command !== null ? `:${c.command}` : (c.message ?? truncated ?? 'press ? for keys'), width));
  lines.push(`${INVERSE}${fit(statusLine(rec, c.step), width)}${RESET}`);
  return lines;
}
