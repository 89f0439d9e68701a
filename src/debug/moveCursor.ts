/**
 * A key pressed → the next cursor. Pure: the terminal module reads keys and draws; this decides.
 * Keys: n s o p (lines), j k (opcodes), g G (first, last), f (the failure), c (to a breakpoint),
 * b (toggle one here), `:` a command (`break <file>:<line>`, `step <i>`), ? help, q or Ctrl-C quit.
 */
import { escapeShort } from '../raw/escape.js';
import { parseAt } from './parseAt.js';
import { type Move, nextStep } from './nextStep.js';
import { placeAt } from './placeAt.js';
import { resolveFile } from './resolveFile.js';
import type { Cursor, DebugStepLog } from './types.js';

const MOVES: Readonly<Record<string, Move>> = { n: 'over', s: 'into', o: 'out', p: 'back', c: 'continue' };

const at = (c: Cursor, step: number, message: string | null = null): Cursor => ({ ...c, step, message });

/** `:break …`, `:step …`. */
function runCommand(rec: DebugStepLog, c: Cursor, text: string): Cursor {
  const [verb, ...rest] = text.trim().split(/\s+/);
  const arg = rest.join(' ');
  if (verb === 'step' && /^\d{1,9}$/.test(arg)) {
    const i = Number(arg);
    return i >= 1 && i <= rec.steps.count ? at(c, i - 1) : at(c, c.step, `no step ${i}: the transaction ran ${rec.steps.count}`);
  }
  if (verb === 'break' || verb === 'b') {
    let target: ReturnType<typeof parseAt>;
    try {
      target = parseAt(arg);
    } catch {
      return at(c, c.step, 'write it as :break <file>:<line>');
    }
    if (target.kind !== 'line') return at(c, c.step, 'write it as :break <file>:<line>');
    const file = resolveFile(rec, target.file);
    if ('error' in file) return at(c, c.step, escapeShort(file.error, 120));
    if (target.line > file.lines) return at(c, c.step, `${escapeShort(file.path, 80)} has ${file.lines} lines: no breakpoint at line ${target.line}`);
    const key = `${file.path}:${target.line}`;
    return { ...c, breakpoints: new Set([...c.breakpoints, key]), message: `breakpoint at ${escapeShort(key, 100)}` };
  }
  return at(c, c.step, `unknown command :${escapeShort(text, 40)} (:break <file>:<line>, :step <i>)`);
}

/** A key while a command is typed: Enter runs it, Escape drops it, Backspace takes a character back. */
function typing(rec: DebugStepLog, c: Cursor, key: string): Cursor {
  const text = c.command ?? '';
  if (key === '\r' || key === '\n') return runCommand(rec, { ...c, command: null }, text);
  if (key === '\x1b' || key === '\x03') return { ...c, command: null };
  if (key === '\x7f' || key === '\b') return { ...c, command: text.slice(0, -1) };
  // Printable keys only: a pasted escape sequence is not typed into the command.
  return /^[\x20-\x7e]$/.test(key) && text.length < 200 ? { ...c, command: text + key } : c;
}

/** `b`: a breakpoint at the current line, or none there any more. */
function toggle(rec: DebugStepLog, c: Cursor): Cursor {
  const p = placeAt(rec, c.step);
  if (p === null) return at(c, c.step, 'no source line here to break at');
  const key = `${p.file}:${p.line}`;
  const next = new Set(c.breakpoints);
  const had = next.delete(key);
  if (!had) next.add(key);
  return { ...c, breakpoints: next, message: `${had ? 'removed the breakpoint at' : 'breakpoint at'} ${escapeShort(key, 100)}` };
}

export function moveCursor(rec: DebugStepLog, c: Cursor, key: string): Cursor {
  if (c.command !== null) return typing(rec, c, key);
  if (key === 'q') return { ...c, quit: true };
  if (key === '\x03') return { ...c, quit: true, interrupted: true };
  if (c.help) return key === '?' || key === '\x1b' ? { ...c, help: false } : c;
  const last = Math.max(0, rec.steps.count - 1);
  const move = MOVES[key];
  if (move !== undefined) return at(c, nextStep(rec, c.step, move, c.breakpoints));
  switch (key) {
    case 'j':
    case '\x1b[B':
      return at(c, Math.min(last, c.step + 1));
    case 'k':
    case '\x1b[A':
      return at(c, Math.max(0, c.step - 1));
    case 'g':
      return at(c, 0);
    case 'G':
      return at(c, last);
    case 'f':
      return rec.failure === null ? at(c, c.step, 'nothing failed in this transaction') : at(c, rec.failure);
    case 'b':
      return toggle(rec, c);
    case ':':
      return { ...c, command: '', message: null };
    case '?':
      return { ...c, help: true };
    default:
      return c;
  }
}
