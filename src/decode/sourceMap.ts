/**
 * From the pc where a frame stopped to the Solidity statement that stopped it: solc's source map (one
 * `s:l:f:j:m` entry per instruction, empty fields repeating the previous entry) read by instruction
 * index, then the rules that make the optimizer's shared code point at the statement that ran into it.
 * Pure; the decompressed maps and the code's instruction indexes are cached, since a lookup of many
 * hashes meets the same contracts again.
 */
import type { Hex } from '../raw/types.js';
import type { SourceLocation } from '../model/types.js';

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
}

/** What locating needs of one code: its source map, its compilation's files, and whether it was built via IR. */
export interface CodeDebug {
  readonly map: string;
  readonly sources: SourceTable;
  readonly viaIR: boolean;
}

/** Where a frame stopped, as txray's EVM saw it (rpc FrameFacts, without the network floor's type). */
export interface ExitFacts {
  readonly exitPc: number;
  /** Destinations of the frame's last taken jumps, oldest first. */
  readonly lastJumps: readonly number[];
  /** Where each of those jumps was made from (same order). */
  readonly lastJumpsFrom: readonly number[];
}

export interface LocatedFailure {
  readonly at: SourceLocation;
  /** The internal calls that led there, innermost first, as far as the frame's last jumps tell. */
  readonly calledFrom: readonly SourceLocation[];
}

interface MapTable {
  readonly s: Int32Array;
  readonly l: Int32Array;
  readonly f: Int32Array;
  /** 0: a plain jump, 1: into a function, 2: out of one. */
  readonly j: Uint8Array;
  readonly count: number;
}

/** Larger maps are not read (a 24 KB contract's is under 50 K characters). */
const MAX_MAP_CHARS = 4_000_000;
/** How many instructions back the walk over compiler-made code may go before it gives up. */
const MAX_WALK = 256;
const CACHED = 64;

const REVERT = 0xfd;
const JUMP = 0x56;
const JUMPI = 0x57;

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
    const fields = parts[i]!.split(':');
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

/** The code's bytes, and each pc's instruction index (-1 inside PUSH data; PUSH0 has none). */
const instructions = memo((code: Hex): { bytes: Uint8Array; index: Int32Array } => {
  const bytes = Buffer.from(code.slice(2), 'hex');
  const index = new Int32Array(bytes.length + 1).fill(-1);
  let n = 0;
  for (let pc = 0; pc < bytes.length; pc++) {
    index[pc] = n++;
    const op = bytes[pc]!;
    if (op >= 0x60 && op <= 0x7f) pc += op - 0x5f;
  }
  // Past the last opcode (a frame that ran off its code's end): the last instruction's entry.
  index[bytes.length] = n - 1;
  return { bytes, index };
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

type Verdict = 'generated' | 'broad' | 'missing' | 'specific';

/** What an entry points at: the compiler's own code, the whole contract, a file not to be had, or a statement. */
function verdictOf(t: MapTable, i: number, sources: SourceTable): Verdict {
  const f = t.f[i]!;
  if (f < 0 || f >= sources.count || t.s[i]! < 0) return 'generated';
  const file = sources.file(f);
  if (file === null) return 'missing';
  const start = t.s[i]!;
  if (start + t.l[i]! > file.bytes.length || t.l[i]! < 0) return 'missing';
  return CONTRACT_START.test(headOf(file, start)) ? 'broad' : 'specific';
}

/** The first characters of the range an entry points at. */
const headOf = (file: SourceFile, start: number): string => new TextDecoder().decode(file.bytes.subarray(start, Math.min(file.bytes.length, start + 40)));

/** A function's whole definition: where the dispatcher jumps into a public function, not a call site. */
const DEFINITION = /^(function|modifier|constructor|fallback|receive)\b/;

function locationOf(t: MapTable, i: number, sources: SourceTable, approximate: boolean): SourceLocation | null {
  const file = sources.file(t.f[i]!);
  const at = file === null ? null : lineAt(file.bytes, t.s[i]!);
  if (file === null || at === null) return null;
  return { file: file.path, ...at, ...(approximate ? { approximate: true as const } : {}) };
}

/** Walk back from entry `i` over the compiler's code and whole-contract ranges to a statement; -1 where none is near or a file is missing. */
function walkBack(t: MapTable, i: number, sources: SourceTable): number {
  for (let k = i; k >= 0 && i - k <= MAX_WALK; k--) {
    const v = verdictOf(t, k, sources);
    if (v === 'specific') return k;
    if (v === 'missing') return -1;
  }
  return -1;
}

/**
 * The statement a frame stopped at, by the rules that were right on the measured cases: a REVERT whose
 * block a jump entered from elsewhere (the optimizer's shared revert code) is placed at that jump; then
 * the walk goes back over the compiler's own code (Panic and ABI checks) and whole-contract ranges.
 * Built via IR, the exit's own entry is kept where it is specific; anything else is marked approximate.
 * Null where the map or the files do not allow an answer (never a guess).
 */
export function locateExit(code: Hex, debug: CodeDebug, exit: ExitFacts): LocatedFailure | null {
  const t = decompressMap(debug.map);
  if (t === null || code.length <= 2) return null;
  const { bytes, index } = instructions(code.toLowerCase() as Hex);
  if (!Number.isSafeInteger(exit.exitPc) || exit.exitPc < 0 || exit.exitPc > bytes.length) return null;
  const own = index[exit.exitPc]!;
  if (own < 0 || own >= t.count) return null;
  const jumps = exit.lastJumps.length === exit.lastJumpsFrom.length ? exit.lastJumps.length : 0;
  let start = own;
  let restartedAt = -1;
  if (bytes[exit.exitPc] === REVERT && jumps > 0) {
    const to = exit.lastJumps[jumps - 1]!;
    const from = exit.lastJumpsFrom[jumps - 1]!;
    // The REVERT's block was entered by that jump (no jump between its landing and the REVERT), from a place not just before it.
    let straight = to <= exit.exitPc && from + 1 !== to;
    for (let pc = to; straight && pc < exit.exitPc; pc++) {
      const op = bytes[pc]!;
      if (op === JUMP || op === JUMPI) straight = false;
      if (op >= 0x60 && op <= 0x7f) pc += op - 0x5f;
    }
    const jumpIndex = straight ? index[from] : undefined;
    if (jumpIndex !== undefined && jumpIndex >= 0 && jumpIndex < t.count) {
      start = jumpIndex;
      restartedAt = jumps - 1;
    }
  }
  let found: number;
  let approximate = false;
  if (debug.viaIR && verdictOf(t, own, debug.sources) === 'specific') found = own;
  else {
    found = walkBack(t, start, debug.sources);
    approximate = debug.viaIR;
  }
  if (found < 0) return null;
  const at = locationOf(t, found, debug.sources, approximate);
  if (at === null) return null;
  return { at, calledFrom: callersOf(t, index, exit, jumps, restartedAt, debug.sources) };
}

/**
 * The internal calls still open at the exit, innermost first, from the frame's last jumps: a jump into
 * a function (`i`) not matched by a later jump out of one (`o`) was made at its call site.
 */
function callersOf(t: MapTable, index: Int32Array, exit: ExitFacts, jumps: number, skip: number, sources: SourceTable): SourceLocation[] {
  const out: SourceLocation[] = [];
  let open = 0;
  for (let k = jumps - 1; k >= 0; k--) {
    if (k === skip) continue;
    const i = index[exit.lastJumpsFrom[k]!];
    if (i === undefined || i < 0 || i >= t.count) continue;
    if (t.j[i] === 2) open++;
    else if (t.j[i] === 1) {
      if (open > 0) {
        open--;
        continue;
      }
      const definition = verdictOf(t, i, sources) !== 'specific' || DEFINITION.test(headOf(sources.file(t.f[i]!)!, t.s[i]!));
      const at = definition ? null : locationOf(t, i, sources, false);
      if (at !== null && !out.some((o) => o.file === at.file && o.line === at.line)) out.push(at);
    }
  }
  return out;
}
