/**
 * `setBreakpoints` for one source: each line asked is verified where a step of the transaction ran it;
 * else moved to the first later line of the same function (the AST's, or the compiled source's outline)
 * that a step ran — a comment or a blank line moves to the next statement — and said in `line`; not
 * verified where nothing at or after it in its function ran. The breakpoint then stands on the line it
 * was moved to, as the terminal's `file:line`.
 */
import { realpathSync } from 'node:fs';
import { isAbsolute, relative, sep } from 'node:path';
import { lineStartsOf } from '../debug/placeAt.js';
import { resolveFile } from '../debug/resolveFile.js';
import type { DebugStepLog } from '../debug/types.js';
import { type FunctionDefinition, functionDefinitions } from '../locate/functionDefinitions.js';
import { scanFunctions } from '../locate/scanFunctions.js';

export type Verified = { readonly verified: true; readonly line: number; readonly key: string } | { readonly verified: false; readonly line: number; readonly message: string };

/** `path` with its symbolic links resolved, where it exists. */
function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** The file the compiler named by `path` (absolute, or relative to the project). */
function compilerFile(rec: DebugStepLog, cwd: string, path: string): { readonly path: string } | { readonly error: string } {
  const direct = isAbsolute(path) ? relative(cwd, path) : path;
  // An editor names the file as it opened it, perhaps through a link to the project (the adapter's folder is the real one).
  const rel = isAbsolute(path) && (direct.startsWith('..') || isAbsolute(direct)) ? relative(realPath(cwd), realPath(path)) : direct;
  const inProject = rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
  const found = resolveFile(rec, inProject ? rel.split(sep).join('/') : path);
  return 'error' in found && inProject ? resolveFile(rec, path) : found;
}

/** The file's line starts and its functions, from any frame whose compilation has it. */
function outlineOf(rec: DebugStepLog, file: string): { readonly starts: Int32Array; readonly functions: readonly FunctionDefinition[] } | null {
  for (const f of rec.frames) {
    const sources = f.source?.sources;
    if (sources === undefined) continue;
    for (let id = 0; id < sources.count; id++) {
      const text = sources.file(id);
      if (text === null || text.path !== file) continue;
      const functions = functionDefinitions(sources.ast?.(id) ?? scanFunctions(text.bytes, id)).filter((d) => d.sourceId === id);
      return { starts: lineStartsOf(text), functions };
    }
  }
  return null;
}

export function verifyBreakpoints(rec: DebugStepLog, cwd: string, path: string, lines: readonly number[]): Verified[] {
  const file = compilerFile(rec, cwd, path);
  if ('error' in file) return lines.map((line) => ({ verified: false, line, message: file.error }));
  const ran = new Set(rec.lines.places.filter((p) => p.file === file.path).map((p) => p.line));
  const outline = outlineOf(rec, file.path);
  const starts = outline?.starts ?? new Int32Array(0);
  const at = (line: number): Verified => ({ verified: true, line, key: `${file.path}:${line}` });
  return lines.map((line) => {
    if (ran.has(line)) return at(line);
    const start = starts[line - 1];
    const fn = start === undefined ? undefined : outline?.functions.find((d) => d.start <= start && start < d.start + d.length);
    if (fn === undefined) return { verified: false, line, message: `no step of this run ran ${file.path}:${line}, and it is in no function of the file` };
    const later = [...ran].filter((l) => l > line && (starts[l - 1] ?? Number.POSITIVE_INFINITY) < fn.start + fn.length).sort((a, b) => a - b)[0];
    return later === undefined ? { verified: false, line, message: `no step of this run ran ${file.path}:${line} or a later line of ${fn.name}` } : at(later);
  });
}
