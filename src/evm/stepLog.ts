/**
 * Every opcode a run executed, kept compact: one row per step in typed arrays (pc, opcode, depth, gas
 * left), the stack as what each step keeps of the one before plus what it adds, and memory and storage
 * only where they change. A step is the state before its opcode ran, as geth's struct logger writes it
 * (depth from 1, the stack bottom first). At most MAX_STEPS steps are kept; a longer run is cut there
 * and says so. Recorded only when a run asks for steps: without a listener the EVM emits no step at all.
 */

/** The most steps a run keeps (a step costs ~20 bytes beside what its stack and memory add). */
export const MAX_STEPS = 1_000_000;

/** What the EVM's step event carries, as far as the log reads it. */
export interface StepEvent {
  readonly pc: number;
  readonly gasLeft: bigint;
  readonly opcode: { readonly code: number };
  readonly stack: readonly bigint[];
  readonly depth: number;
  readonly memory: Uint8Array;
  readonly address: { toString(): string };
}

/** A change of memory: from `offset`, these bytes (memory that only grew adds its new zero bytes too). */
export interface MemoryChange {
  readonly step: number;
  readonly offset: number;
  readonly bytes: Uint8Array;
}

/** An SSTORE: the word written, at the step that wrote it. */
export interface StorageChange {
  readonly step: number;
  readonly address: string;
  readonly slot: bigint;
  readonly value: bigint;
}

export interface StepLog {
  readonly count: number;
  /** The run went on past MAX_STEPS: only the first are here. */
  readonly truncated: boolean;
  readonly pc: Uint32Array;
  readonly op: Uint8Array;
  /** From 1 (the transaction's own frame), as geth counts. */
  readonly depth: Uint16Array;
  /** Gas left before the opcode. */
  readonly gas: Float64Array;
  readonly memory: readonly MemoryChange[];
  readonly storage: readonly StorageChange[];
  /** The stack before step `i`, bottom first. */
  stackAt(i: number): bigint[];
  /** The frame's memory before step `i`. */
  memoryAt(i: number): Uint8Array;
}

const grow = <T extends Uint32Array | Uint8Array | Uint16Array | Float64Array>(a: T, size: number, make: (n: number) => T): T => {
  if (size < a.length) return a;
  const b = make(Math.min(MAX_STEPS, a.length * 2));
  b.set(a);
  return b;
};

/** The first and last byte where `now` differs from `was` (null: the same). */
function changed(was: Uint8Array, now: Uint8Array): readonly [number, number] | null {
  let first = 0;
  const common = Math.min(was.length, now.length);
  while (first < common && was[first] === now[first]) first++;
  if (first === now.length) return null;
  let last = now.length - 1;
  if (now.length === was.length) while (last > first && was[last] === now[last]) last--;
  return [first, last];
}

/** A log that steps are added to; `add` is the EVM's step listener. */
export function createStepLog(): StepLog & { add(e: StepEvent): void } {
  let n = 0;
  let truncated = false;
  let pc = new Uint32Array(1024);
  let op = new Uint8Array(1024);
  let depth = new Uint16Array(1024);
  let gas = new Float64Array(1024);
  let keep = new Uint16Array(1024);
  let from = new Uint32Array(1025);
  const items: bigint[] = [];
  const memory: MemoryChange[] = [];
  const storage: StorageChange[] = [];
  let previous: readonly bigint[] = [];
  /** Each running frame's memory as last seen, by depth. */
  const memories: Uint8Array[] = [];
  const log = {
    get count() {
      return n;
    },
    get truncated() {
      return truncated;
    },
    get pc() {
      return pc.subarray(0, n);
    },
    get op() {
      return op.subarray(0, n);
    },
    get depth() {
      return depth.subarray(0, n);
    },
    get gas() {
      return gas.subarray(0, n);
    },
    memory,
    storage,
    stackAt(i: number): bigint[] {
      const parts: Array<readonly [number, number, number]> = [];
      for (let k = i; k >= 0; k--) {
        parts.push([from[k]!, from[k + 1]!, keep[k]!]);
        if (keep[k] === 0) break;
      }
      let stack: bigint[] = [];
      for (const [start, end, kept] of parts.reverse()) stack = [...stack.slice(0, kept), ...items.slice(start, end)];
      return stack;
    },
    memoryAt(i: number): Uint8Array {
      const d = depth[i]!;
      // Its frame began at the last step of a lower depth before it.
      let begin = i;
      while (begin > 0 && depth[begin - 1]! >= d) begin--;
      let out = new Uint8Array(0);
      for (const m of memory) {
        if (m.step < begin || m.step > i || depth[m.step] !== d) continue;
        if (m.offset + m.bytes.length > out.length) {
          const bigger = new Uint8Array(m.offset + m.bytes.length);
          bigger.set(out);
          out = bigger;
        }
        out.set(m.bytes, m.offset);
      }
      return out;
    },
    add(e: StepEvent): void {
      if (n >= MAX_STEPS) {
        truncated = true;
        return;
      }
      const size = n + 1;
      [pc, op, depth, gas, keep] = [grow(pc, size, (k) => new Uint32Array(k)), grow(op, size, (k) => new Uint8Array(k)), grow(depth, size, (k) => new Uint16Array(k)), grow(gas, size, (k) => new Float64Array(k)), grow(keep, size, (k) => new Uint16Array(k))];
      from = grow(from, size + 1, (k) => new Uint32Array(k + 1));
      pc[n] = e.pc;
      op[n] = e.opcode.code;
      depth[n] = e.depth + 1;
      gas[n] = Number(e.gasLeft);
      const stack = e.stack;
      // A new frame starts from an empty stack: nothing of the caller's is kept.
      let same = n > 0 && depth[n - 1] === depth[n] ? Math.min(previous.length, stack.length) : 0;
      for (let k = 0; k < same; k++) {
        if (previous[k] !== stack[k]) {
          same = k;
          break;
        }
      }
      keep[n] = same;
      from[n] = items.length;
      for (let k = same; k < stack.length; k++) items.push(stack[k]!);
      from[n + 1] = items.length;
      previous = stack;
      const d = e.depth;
      memories.length = d + 1;
      const was = memories[d] ?? new Uint8Array(0);
      const diff = changed(was, e.memory);
      if (diff !== null) memory.push({ step: n, offset: diff[0], bytes: e.memory.slice(diff[0], diff[1] + 1) });
      memories[d] = e.memory;
      if (e.opcode.code === 0x55 && stack.length >= 2) storage.push({ step: n, address: e.address.toString().toLowerCase(), slot: stack.at(-1)!, value: stack.at(-2)! });
      n++;
    },
  };
  return log;
}
