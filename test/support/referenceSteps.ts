/**
 * Where the debugger's keys should land, worked out from the node's struct logs and the compiler's
 * source maps alone (test/support/referenceMap.ts), by the rules docs/debug.md gives: a line is a
 * (frame, file, line); a level is the depth plus the internal calls open (where given); `n` the next
 * line at this level or above; `s` the next line anywhere; `o` out of the frame or internal call, then
 * the caller's next line; `p` back to the first step of the previous line at this level or above (from a
 * step without a place, the previous opcode at this level or above); `c` the next arrival at a breakpoint's line.
 */
import type { StructLog } from './debugProject.js';
import type { PcLine } from './referenceMap.js';

export interface Reference {
  readonly n: number;
  place(i: number): { file: string; line: number } | null;
  /** Step i's line as `<frame>:<file>:<line>` (a line is a frame, file and line), or null where it has no place. */
  key(i: number): string | null;
  status(i: number): string;
  over(i: number): number;
  into(i: number): number;
  out(i: number): number;
  back(i: number): number;
  toBreakpoint(i: number, file: string, line: number): number;
}

/**
 * `maps[d - 1]` reads the code run at depth d, `names[d - 1]` names its frame (this test's transactions call one contract per depth);
 * `internal[i]`: how many internal function calls are open at step i (test/support/internalWalk.ts), levels for n, o and p beside the depth.
 */
export function referenceSteps(logs: readonly StructLog[], maps: ReadonlyArray<PcLine | null>, names: readonly string[], internal?: ArrayLike<number>): Reference {
  const n = logs.length;
  // Each step's frame: a new one wherever the depth goes up.
  const frame: number[] = [];
  const open: number[] = [];
  let made = 0;
  logs.forEach((l, i) => {
    if (i === 0 || l.depth > logs[i - 1]!.depth) open.push(made++);
    else if (l.depth < logs[i - 1]!.depth) open.length -= logs[i - 1]!.depth - l.depth;
    frame.push(open.at(-1)!);
  });
  const place = (i: number) => maps[logs[i]!.depth - 1]?.(logs[i]!.pc) ?? null;
  const key = (i: number): string | null => {
    const p = place(i);
    return p === null ? null : `${frame[i]}:${p.file}:${p.line}`;
  };
  const level = (i: number): number => logs[i]!.depth + (internal?.[i] ?? 0);
  const first = (from: number, fits: (j: number) => boolean): number => {
    for (let j = from + 1; j < n; j++) if (fits(j)) return j;
    return n - 1;
  };
  const over = (i: number): number => first(i, (j) => level(j) <= level(i) && (key(i) === null || (key(j) !== null && (level(j) < level(i) || key(j) !== key(i)))));
  return {
    n,
    place,
    key,
    status: (i) => {
      const p = place(i);
      return `step ${i + 1}/${n} · ${p === null ? '-' : `${p.file}:${p.line}`} · ${names[logs[i]!.depth - 1]} · pc ${logs[i]!.pc} ${logs[i]!.op}`;
    },
    over,
    into: (i) => first(i, (j) => key(i) === null || (key(j) !== null && key(j) !== key(i))),
    out: (i) => {
      const back = first(i, (j) => level(j) < level(i));
      return level(back) < level(i) ? over(back) : back;
    },
    back: (i) => {
      let j = i - 1;
      if (key(i) === null) {
        while (j > 0 && level(j) > level(i)) j--;
        return Math.max(j, 0);
      }
      while (j >= 0 && (level(j) > level(i) || key(j) === null || key(j) === key(i))) j--;
      if (j < 0) return 0;
      let land = j;
      for (let k = j - 1; k >= 0 && level(k) >= level(j); k--) {
        if (level(k) > level(j) || key(k) === null) continue;
        if (key(k) !== key(j)) break;
        land = k;
      }
      return land;
    },
    toBreakpoint: (i, file, line) => {
      let was = key(i);
      for (let j = i + 1; j < n; j++) {
        const k = key(j);
        if (k === null) continue;
        const p = place(j)!;
        if (k !== was && p.file === file && p.line === line) return j;
        was = k;
      }
      return n - 1;
    },
  };
}
