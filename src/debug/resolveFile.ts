/**
 * A file named by the user (`Bank.sol`, `src/Bank.sol`) → the path the compiler named it by, among
 * the files of the recording's matched frames: the whole path, or any tail after a `/` that only one
 * file has.
 */
import type { DebugRecording } from './types.js';

export function resolveFile(rec: DebugRecording, text: string): { readonly path: string } | { readonly error: string } {
  const paths = new Set<string>();
  for (const f of rec.frames) {
    const sources = f.source?.sources;
    if (sources === undefined) continue;
    for (let id = 0; id < sources.count; id++) {
      const file = sources.file(id);
      if (file !== null) paths.add(file.path);
    }
  }
  if (paths.has(text)) return { path: text };
  const tails = [...paths].filter((p) => p.endsWith(`/${text}`));
  if (tails.length === 1) return { path: tails[0]! };
  if (tails.length > 1) return { error: `${text} names ${tails.length} files (${tails.slice(0, 3).join(', ')}); write more of its path` };
  return { error: paths.size === 0 ? 'no source file is known for this transaction (no artifact matched its code)' : `no file ${text} among the transaction's sources` };
}
