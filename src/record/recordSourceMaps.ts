/**
 * --record: an artifact's source maps and files as the run reads them. Nothing is read before a failed
 * frame asks (as without --record); what was asked, and only that, goes into the recording: the map, and
 * each source file's text by id. A recording of a project's transaction therefore holds the lines it showed.
 */
import type { CodeDebug, DebugSource, SourceTable } from '../locate/sourceMap.js';
import { astOutline } from './astOutline.js';
import type { RecordedSourceMap, RecordedSourceMaps, RecordedFile } from './types.js';

/** A file's bytes as text where they are UTF-8 (they read back byte for byte), else base64. */
function fileOf(path: string, bytes: Uint8Array): RecordedFile {
  const buf = Buffer.from(bytes);
  const text = buf.toString('utf8');
  return Buffer.from(text, 'utf8').equals(buf) ? { path, text } : { path, base64: buf.toString('base64') };
}

/** The table, with each file asked for noted in `files` (by id), and of each AST asked for its outline in `asts`. */
function watchedTable(table: SourceTable, files: Record<string, RecordedFile | null>, asts: Record<string, unknown>): SourceTable {
  const ast = table.ast?.bind(table);
  return {
    count: table.count,
    edited: table.edited,
    ...(ast === undefined
      ? {}
      : {
          ast(id: number): unknown {
            // What --internal reads of it, given as the recording keeps it: live and replayed alike.
            const outline = astOutline(ast(id));
            asts[String(id)] = outline;
            return outline;
          },
        }),
    file(id) {
      const before = new Set(table.edited);
      const file = table.file(id);
      if (file !== null) files[String(id)] = fileOf(file.path, file.bytes);
      else {
        const edited = [...table.edited].find((p) => !before.has(p));
        files[String(id)] ??= edited === undefined ? null : { path: edited, edited: true };
      }
      return file;
    },
  };
}

/** One code's source map, read through; `seen()` is what was read (undefined: never asked). */
function watchedCode(read: () => CodeDebug | null): { read: () => CodeDebug | null; seen: () => RecordedSourceMap | null | undefined } {
  let asked = false;
  let out: CodeDebug | null = null;
  let files: Record<string, RecordedFile | null> = {};
  let asts: Record<string, unknown> | undefined;
  return {
    read() {
      if (!asked) {
        asked = true;
        const inner = read();
        files = {};
        asts = inner?.sources.ast === undefined ? undefined : {};
        out = inner === null ? null : { map: inner.map, viaIR: inner.viaIR, sources: watchedTable(inner.sources, files, asts ?? {}) };
      }
      return out;
    },
    seen: () => (!asked ? undefined : out === null ? null : { map: out.map, viaIR: out.viaIR, count: out.sources.count, files, ...(asts === undefined || Object.keys(asts).length === 0 ? {} : { asts }) }),
  };
}

/** An artifact's source maps, read through, and what was read of them. */
export function recordSourceMaps(debug: DebugSource): { readonly debug: DebugSource; readonly seen: () => RecordedSourceMaps } {
  const runtime = watchedCode(() => debug.runtime());
  const creation = watchedCode(() => debug.creation());
  return {
    debug: { runtime: runtime.read, creation: creation.read },
    seen() {
      const r = runtime.seen();
      const c = creation.seen();
      return { ...(r === undefined ? {} : { runtime: r }), ...(c === undefined ? {} : { creation: c }) };
    },
  };
}
