/** A replay: an artifact's source maps and files as the recording holds them (what the recorded run read). */
import type { CodeDebug, DebugSource, SourceFile, SourceTable } from '../locate/sourceMap.js';
import type { RecordedSourceMap, RecordedSourceMaps } from './types.js';

function tableOf(rec: RecordedSourceMap): SourceTable {
  const edited = new Set<string>();
  const files = new Map<number, SourceFile | null>();
  const asts = rec.asts;
  return {
    count: rec.count,
    edited,
    ...(asts === undefined ? {} : { ast: (id: number): unknown => asts[String(id)] ?? null }),
    file(id) {
      if (!files.has(id)) {
        const f = rec.files[String(id)];
        let file: SourceFile | null = null;
        if (f !== undefined && f !== null) {
          if ('edited' in f) edited.add(f.path);
          else file = { path: f.path, bytes: 'text' in f ? Buffer.from(f.text, 'utf8') : Buffer.from(f.base64, 'base64') };
        }
        files.set(id, file);
      }
      return files.get(id)!;
    },
  };
}

function codeOf(rec: RecordedSourceMap | null | undefined): () => CodeDebug | null {
  // Made once: the table remembers which edited files were asked for, as the recorded run's did.
  const made: CodeDebug | null = rec === undefined || rec === null ? null : { map: rec.map, viaIR: rec.viaIR, sources: tableOf(rec) };
  return () => made;
}

export function replaySourceMaps(rec: RecordedSourceMaps): DebugSource {
  return { runtime: codeOf(rec.runtime), creation: codeOf(rec.creation) };
}
