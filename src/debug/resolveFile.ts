/**
 * A file named by the user (`Bank.sol`, `src/Bank.sol`) → the path the compiler named it by, among
 * the files of the step log's matched frames: the whole path, or any tail after a `/` that only one
 * file has.
 */
import type { DebugStepLog } from './types.js';
import { cell } from '../locate/cell.js';

export function resolveFile(rec: DebugStepLog, text: string): { readonly path: string; readonly lines: number } | { readonly error: string } {
  const lines = new Map<string, number>();
  for (const f of rec.frames) {
    const sources = f.source?.sources;
    if (sources === undefined) continue;
    for (let id = 0; id < sources.count; id++) {
      const file = sources.file(id);
      // Its lines as an editor numbers them (a last line without a newline counts).
      if (file !== null && !lines.has(file.path)) lines.set(file.path, Buffer.from(file.bytes).toString('utf8').split('\n').length);
    }
  }
  const paths = [...lines.keys()];
  if (lines.has(text)) return { path: text, lines: lines.get(text)! };
  const tails = paths.filter((p) => p.endsWith(`/${text}`));
  if (tails.length === 1) return { path: cell(tails, 0), lines: lines.get(cell(tails, 0))! };
  if (tails.length > 1) return { error: `${text} names ${tails.length} files (${tails.slice(0, 3).join(', ')}); write more of its path` };
  return { error: paths.length === 0 ? 'no source file is known for this transaction (no artifact matched its code)' : `no file ${text} among the transaction's sources` };
}
