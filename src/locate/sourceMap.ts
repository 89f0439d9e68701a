/**
 * From the pc where a frame stopped to the Solidity statement that stopped it: solc's source map (one
 * `s:l:f:j:m` entry per instruction, empty fields repeating the previous entry) read by instruction
 * index, then the rules that make the optimizer's shared code point at the statement that ran into it.
 * Pure; the decompressed maps and the code's instruction indexes are cached, since a lookup of many
 * hashes meets the same contracts again.
 */
import type { FrameFacts } from '../evm/tracer.js';
import type { SourceLocation } from '../model/types.js';
import type { Hex } from '../raw/types.js';
import { cell } from './cell.js';
import { lowerHex } from '../raw/hex.js';

/** A file of a compilation: its path as the compiler named it, and its text as bytes (the map counts UTF-8 bytes). */
export interface SourceFile {
  readonly path: string;
  readonly bytes: Uint8Array;
}

/** A compilation's files by source id; `count` of them (ids from `count` up, and -1, are the compiler's own code). */
export interface SourceTable {
  readonly count: number;
  /** The file, or null where it is unknown or its text is not the one compiled (edited since). */
  file(id: number): SourceFile | null;
  /** The paths of the files asked for so far whose text is not the one compiled (edited since the build). */
  readonly edited: ReadonlySet<string>;
  /** The compiler's AST of a file (a SourceUnit), where the build kept it; null where not. */
  ast?(id: number): unknown;
}

/** What locating needs of one code: its source map, its compilation's files, and whether it was built via IR. */
export interface CodeDebug {
  readonly map: string;
  readonly sources: SourceTable;
  readonly viaIR: boolean;
  /** Whether the build ran the optimizer, and the compiler's version (`0.8.28`), where the build says (the debugger's locals read them). */
  readonly optimizer?: boolean;
  readonly version?: string;
}

/** An artifact's source maps and files, read on first use. */
export interface DebugSource {
  /** The runtime code's (null where there is none to be had). */
  runtime(): CodeDebug | null;
  /** The init code's, for a constructor frame. */
  creation(): CodeDebug | null;
}

/** Where a frame stopped, as txray's EVM recorded it (FrameFacts), once it is known to have run code. */
export type ExitFacts = Readonly<Pick<FrameFacts, 'lastJumps' | 'lastJumpsFrom'>> & { readonly exitPc: number };

export interface LocatedFailure {
  readonly at: SourceLocation;
  /** The internal calls that led there, innermost first, as far as the frame's last jumps tell. */
  readonly calledFrom: readonly SourceLocation[];
}

export interface MapTable {
  readonly s: Int32Array;
  readonly l: Int32Array;
  readonly f: Int32Array;
  /** 0: a plain jump, 1: into a function, 2: out of one. */
  readonly j: Uint8Array;
  readonly count: number;
}

/** Larger maps are not read (a 24 KB contract's is under 50 K characters). */
const MAX_MAP_CHARS = 4_000_000;
const CACHED = 64;

const REVERT = 0xfd;
const JUMP = 0x56;
const JUMPI = 0x57;
const JUMPDEST = 0x5b;
/** STOP, RETURN, REVERT, INVALID, SELFDESTRUCT: no instruction after one of them runs without a jump to it. */
const ENDS = new Set([0x00, 0xf3, 0xfd, 0xfe, 0xff]);

/** A small first-in first-out memo: the same few codes come back within one run. */
function memo<K, V>(make: (k: K) => V): (k: K) => V {
  const cache = new Map<K, V>();
  return (k) => {
    if (cache.has(k)) return cache.get(k)!;
    const v = make(k);
    if (cache.size >= CACHED) cache.delete(cache.keys().next().value as K);
    cache.set(k, v);
    return v;
  };
}

/** The entries of a compressed source map; null where it is malformed or too large. */
export const decompressMap = memo((map: string): MapTable | null => {
  if (map.length > MAX_MAP_CHARS) return null;
  const parts = map === '' ? [] : map.split(';');
  const n = parts.length;
  const s = new Int32Array(n);
  const l = new Int32Array(n);
  const f = new Int32Array(n);
  const j = new Uint8Array(n);
  let cs = -1;
  let cl = 0;
  let cf = -1;
  let cj = 0;
  for (let i = 0; i < n; i++) {
    const fields = cell(parts, i).split(':');
    const num = (k: number, was: number): number | null => {
      const v = fields[k];
      if (v === undefined || v === '') return was;
      return /^-?\d{1,10}$/.test(v) ? Number(v) : null;
    };
    const ns = num(0, cs);
    const nl = num(1, cl);
    const nf = num(2, cf);
    if (ns === null || nl === null || nf === null) return null;
    const jump = fields[3];
    if (jump !== undefined && jump !== '') {
      if (jump !== 'i' && jump !== 'o' && jump !== '-') return null;
      cj = jump === 'i' ? 1 : jump === 'o' ? 2 : 0;
    }
    cs = ns;
    cl = nl;
    cf = nf;
    s[i] = cs;
    l[i] = cl;
    f[i] = cf;
    j[i] = cj;
  }
  return { s, l, f, j, count: n };
});

/** The code's bytes, each pc's instruction index (-1 inside PUSH data; PUSH0 has none), and each instruction's pc (the debugger reads it too). */
export const instructions = memo((code: Hex): { bytes: Uint8Array; index: Int32Array; pcs: Int32Array } => {
  const bytes = Buffer.from(code.slice(2), 'hex');
  const index = new Int32Array(bytes.length + 1).fill(-1);
  const at: number[] = [];
  for (let pc = 0; pc < bytes.length; pc++) {
    index[pc] = at.length;
    at.push(pc);
    const op = cell(bytes, pc);
    if (op >= 0x60 && op <= 0x7f) pc += op - 0x5f;
  }
  // Past the last opcode (a frame that ran off its code's end): the last instruction's entry.
  index[bytes.length] = at.length - 1;
  return { bytes, index, pcs: Int32Array.from(at) };
});

const CONTRACT_START = /^(abstract\s+contract|contract|library|interface)\b/;

/** Lines shown around a location (the report page's view), each side. */
const CONTEXT = 2;

/** The 1-based line and column (in characters) of a byte offset, that line's text and the lines around it; null outside the file. */
export function lineAt(bytes: Uint8Array, start: number): Omit<SourceLocation, 'file' | 'approximate'> | null {
  if (!Number.isSafeInteger(start) || start < 0 || start > bytes.length) return null;
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < start; i++) {
    if (bytes[i] === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  const decoder = new TextDecoder();
  const text = (from: number, to: number): string => decoder.decode(bytes.subarray(from, to)).replace(/\r$/, '');
  const column = [...decoder.decode(bytes.subarray(lineStart, start))].length + 1;
  // The lines around it: back to CONTEXT line starts before, on to CONTEXT line ends after.
  let first = lineStart;
  let firstLine = line;
  while (firstLine > 1 && line - firstLine < CONTEXT) {
    // (a typed array's lastIndexOf counts a negative start from the end)
    first = first >= 2 ? bytes.lastIndexOf(0x0a, first - 2) + 1 : 0;
    firstLine--;
  }
  const lines: string[] = [];
  let at = first;
  while (lines.length < line - firstLine + 1 + CONTEXT && at <= bytes.length) {
    let end = bytes.indexOf(0x0a, at);
    if (end < 0) end = bytes.length;
    lines.push(text(at, end));
    if (end === bytes.length) break;
    at = end + 1;
  }
  return { line, column, code: lines[line - firstLine] ?? '', context: { firstLine, lines } };
}

type Verdict = 'generated' | 'broad' | 'missing' | 'function' | 'specific';

/** What an entry points at: the compiler's own code, the whole contract, a file not to be had, a whole function, or a statement. */
function verdictOf(t: MapTable, i: number, sources: SourceTable): Verdict {
  const f = cell(t.f, i);
  if (f < 0 || f >= sources.count || cell(t.s, i) < 0) return 'generated';
  const file = sources.file(f);
  if (file === null) return 'missing';
  const start = cell(t.s, i);
  if (start + cell(t.l, i) > file.bytes.length || cell(t.l, i) < 0) return 'missing';
  const head = headOf(file, start);
  if (CONTRACT_START.test(head)) return 'broad';
  return DEFINITION.test(head) ? 'function' : 'specific';
}

/** The first characters of the range an entry points at. */
const headOf = (file: SourceFile, start: number): string => new TextDecoder().decode(file.bytes.subarray(start, Math.min(file.bytes.length, start + 40)));

/** A function's whole definition: where the dispatcher jumps into a public function, not a call site. */
const DEFINITION = /^(function|modifier|constructor|fallback|receive)\b/;

function locationOf(t: MapTable, i: number, sources: SourceTable, approximate: boolean): SourceLocation | null {
  const file = sources.file(cell(t.f, i));
  const at = file === null ? null : lineAt(file.bytes, cell(t.s, i));
  if (file === null || at === null) return null;
  return { file: file.path, ...at, ...(approximate ? { approximate: true as const } : {}) };
}

/** A code as the walk reads it (see instructions). */
interface Code {
  readonly bytes: Uint8Array;
  readonly index: Int32Array;
  readonly pcs: Int32Array;
}

/** What the walk found: a statement's entry (or -1), the innermost open function's definition (or -1), and how many of the recorded jumps are older than the stretch it was found in. */
interface Found {
  readonly statement: number;
  readonly fn: number;
  readonly older: number;
}

/**
 * Walk back over the code that ran, newest first, to the statement that ran into the exit. Only what
 * ran is read: the stretches between the frame's recorded jumps (each from a jump's landing to the
 * next jump), so a shared block placed after another function's code never lends it its entries.
 * A jump out of a function (`o`) met on the way back opens a call that returned, and everything in it
 * up to its call (`i`) is passed over: a call that returned did not fail. Stretch `jumps` ends at the
 * exit; `first` is the stretch the walk starts in. Null where the facts do not fit the code, or a file is missing.
 */
function walkPath(t: MapTable, code: Code, exit: ExitFacts, jumps: number, first: number, sources: SourceTable): Found | null {
  const { bytes, index, pcs } = code;
  let depth = 0;
  let fn = -1;
  for (let k = first; k >= 0; k--) {
    const end = index[k === jumps ? exit.exitPc : cell(exit.lastJumpsFrom, k)];
    const landing = k > 0 ? cell(exit.lastJumps, k - 1) : -1;
    if (end === undefined || end < 0 || end >= t.count) return null;
    if (k > 0 && (index[landing] === undefined || cell(index, landing) < 0 || cell(index, landing) > end || bytes[landing] !== JUMPDEST)) return null;
    const start = k > 0 ? cell(index, landing) : 0;
    for (let i = end; i >= start; i--) {
      const op = cell(bytes, pcs[i]!);
      if (i < end && (op === JUMP || ENDS.has(op))) {
        // Inside a stretch nothing ends or jumps; before the oldest recorded jump it marks where the known run begins.
        if (k > 0) return null;
        break;
      }
      if (i < end && k === 0 && op === JUMPI) break;
      if (i === end && k < jumps) {
        if (t.j[i] === 2) {
          depth++;
          continue;
        }
        if (t.j[i] === 1 && depth > 0) {
          depth--;
          continue;
        }
      }
      if (depth > 0) continue;
      const v = verdictOf(t, i, sources);
      if (v === 'missing') return null;
      if (v === 'specific') return { statement: i, fn, older: k };
      if (v === 'function' && fn < 0) fn = i;
      // Before the oldest recorded jump, only its own block is known to have run (a jump may have led into it).
      if (k === 0 && op === JUMPDEST) break;
    }
  }
  return { statement: -1, fn, older: 0 };
}

/**
 * Whether the block of the REVERT at `exit` was entered by the jump `from` → `to`: its landing is not
 * just after the jump, and no jump, taken or not, lies between the landing and the REVERT (past a JUMPI
 * not taken the REVERT belongs to the conditional's own code, a statement's, not to a shared tail).
 */
function enteredByJump(ins: ReturnType<typeof instructions>, from: number, to: number, exit: number): boolean {
  if (to > exit || from + 1 === to) return false;
  const { bytes, index, pcs } = ins;
  for (let i = cell(index, to); i >= 0 && i < pcs.length && cell(pcs, i) < exit; i++) {
    const op = cell(bytes, cell(pcs, i));
    if (op === JUMP || op === JUMPI) return false;
  }
  return true;
}

/**
 * The statement a frame stopped at, by the rules that were right on the measured cases, read only over
 * the code the frame's recorded jumps say ran: a REVERT whose block a jump entered from elsewhere (the
 * optimizer's shared revert code) is placed from that jump on; then the walk goes back over the
 * compiler's own code (Panic and ABI checks), whole-contract ranges and calls that returned, to the
 * first statement. Built via IR, the exit's own entry is kept where it is specific; a statement further
 * back is marked approximate, and where no statement ran within the recorded jumps, the function it
 * lies in (approximate), where the walk passed its definition. Null where the map or the files do not allow
 * an answer (never a guess).
 */
export function locateExit(code: Hex, debug: CodeDebug, exit: ExitFacts): LocatedFailure | null {
  const t = decompressMap(debug.map);
  if (t === null || code.length <= 2) return null;
  const ins = instructions(lowerHex(code));
  const { bytes, index } = ins;
  if (!Number.isSafeInteger(exit.exitPc) || exit.exitPc < 0 || exit.exitPc > bytes.length) return null;
  const own = cell(index, exit.exitPc);
  if (own < 0 || own >= t.count) return null;
  const jumps = exit.lastJumps.length === exit.lastJumpsFrom.length ? exit.lastJumps.length : 0;
  const viaOwn = debug.viaIR && verdictOf(t, own, debug.sources) === 'specific';
  const from = jumps > 0 ? cell(exit.lastJumpsFrom, jumps - 1) : -1;
  // A jump into a function (the dispatcher's into a public one, a call of an internal one) lands in that function's own code, never in a shared tail.
  const intoFunction = from >= 0 && t.j[index[from] ?? -1] === 1;
  const restart = !viaOwn && !intoFunction && bytes[exit.exitPc] === REVERT && jumps > 0 && enteredByJump(ins, from, cell(exit.lastJumps, jumps - 1), exit.exitPc);
  const found = walkPath(t, ins, exit, jumps, restart ? jumps - 1 : jumps, debug.sources);
  if (found === null) return null;
  // The function alone is said only of a via-IR build, whose maps are known to be coarse.
  const entry = found.statement >= 0 ? found.statement : debug.viaIR ? found.fn : -1;
  if (entry < 0) return null;
  const approximate = found.statement < 0 || (debug.viaIR && found.statement !== own);
  const at = locationOf(t, entry, debug.sources, approximate);
  if (at === null) return null;
  return { at, calledFrom: callersOf(t, index, exit, found.older, debug.sources) };
}

/**
 * The internal calls still open at the exit, innermost first, from the frame's jumps older than the
 * failing statement's stretch: a jump into a function (`i`) not matched by a later jump out of one
 * (`o`) was made at its call site.
 */
function callersOf(t: MapTable, index: Int32Array, exit: ExitFacts, older: number, sources: SourceTable): SourceLocation[] {
  const out: SourceLocation[] = [];
  let open = 0;
  for (let k = older - 1; k >= 0; k--) {
    const i = index[cell(exit.lastJumpsFrom, k)];
    if (i === undefined || i < 0 || i >= t.count) continue;
    if (t.j[i] === 2) open++;
    else if (t.j[i] === 1) {
      if (open > 0) {
        open--;
        continue;
      }
      const at = verdictOf(t, i, sources) === 'specific' ? locationOf(t, i, sources, false) : null;
      if (at !== null && !out.some((o) => o.file === at.file && o.line === at.line)) out.push(at);
    }
  }
  return out;
}
