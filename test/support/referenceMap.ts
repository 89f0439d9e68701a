/**
 * The test's own reading of a Foundry artifact's source map, independent of txray's: for a contract
 * of the project, each pc → the file (as the build names it) and the 1-based line its entry's range
 * starts on, or null for the compiler's own code. Used to check where the debugger's keys land.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export type PcLine = (pc: number) => { file: string; line: number } | null;

export function referenceMap(dir: string, file: string, contract: string): PcLine {
  const artifact = JSON.parse(readFileSync(join(dir, 'out', file, `${contract}.json`), 'utf8'));
  const info = JSON.parse(readFileSync(join(dir, 'out', 'build-info', 'b1d0000000000000000000000000000c.json'), 'utf8'));
  const ids: Record<string, string> = info.source_id_to_path;
  const code = Buffer.from(artifact.deployedBytecode.object.slice(2), 'hex');
  const entries: Array<[number, number]> = [];
  let s = -1;
  let f = -1;
  for (const part of (artifact.deployedBytecode.sourceMap as string).split(';')) {
    const [ps, , pf] = part.split(':');
    if (ps !== undefined && ps !== '') s = Number(ps);
    if (pf !== undefined && pf !== '') f = Number(pf);
    entries.push([s, f]);
  }
  const indexOf = new Map<number, number>();
  for (let pc = 0, k = 0; pc < code.length; pc++, k++) {
    indexOf.set(pc, k);
    const op = code[pc]!;
    if (op >= 0x60 && op <= 0x7f) pc += op - 0x5f;
  }
  return (pc) => {
    const k = indexOf.get(pc);
    const [start, id] = k === undefined ? [-1, -1] : (entries[k] ?? [-1, -1]);
    const path = ids[String(id)];
    if (path === undefined || start < 0) return null;
    const bytes = readFileSync(join(dir, path));
    let line = 1;
    for (let i = 0; i < start; i++) if (bytes[i] === 0x0a) line++;
    return { file: path, line };
  };
}
