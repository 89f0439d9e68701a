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

/** An SSTORE: the word written, at the step that wrote it; an SLOAD (in `reads`): the word read, at the step that read it. */
export interface StorageChange {
  readonly step: number;
  readonly address: string;
  readonly slot: bigint;
  readonly value: bigint;
}

/** A frame the steps ran in: its place in the call tree, and the first of its steps (its steps are those whose `frame` is its index). */
export interface StepFrame {
  readonly traceAddress: readonly number[];
  /** The index of the first step run in it (its count of steps so far where it ran none: a precompile, an account without code). */
  readonly first: number;
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
  /** Each SLOAD that completed, with the word it read (the next step's stack top). */
  readonly reads: readonly StorageChange[];
  /** Every frame entered, in the order entered; `frame[i]` is the index of step i's. */
  readonly frames: readonly StepFrame[];
  readonly frame: Uint32Array;
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

/**
 * A whole stack is kept every this many steps: a loop keeps the bottom of its stack for its whole run,
 * so without them the stack of a late step would be rebuilt from the frame's first.
 */
const SNAPSHOT_EVERY = 4096;

/** The stack before step `i`: from the last step that kept nothing of the one before (or a kept whole stack), what each step since kept and added. */
function stackAt(keep: Uint16Array, from: Uint32Array, items: readonly bigint[], snapshots: ReadonlyMap<number, readonly bigint[]>, i: number): bigint[] {
  let first = i;
  while (first > 0 && keep[first] !== 0 && !snapshots.has(first)) first--;
  let stack: bigint[] = [...(snapshots.get(first) ?? [])];
  for (let k = first + (snapshots.has(first) ? 1 : 0); k <= i; k++) stack = [...stack.slice(0, keep[k]), ...items.slice(from[k], from[k + 1])];
  return stack;
}

/** The memory of step `i`'s frame before it: its changes from the frame's first step on (a frame begins after a step of a lower depth). */
function memoryAt(depth: Uint16Array, changes: readonly MemoryChange[], i: number): Uint8Array {
  const d = depth[i]!;
  let begin = i;
  while (begin > 0 && depth[begin - 1]! >= d) begin--;
  let out = new Uint8Array(0);
  for (const m of changes) {
    if (m.step < begin || m.step > i || depth[m.step] !== d) continue;
    if (m.offset + m.bytes.length > out.length) {
      const bigger = new Uint8Array(m.offset + m.bytes.length);
      bigger.set(out);
      out = bigger;
    }
    out.set(m.bytes, m.offset);
  }
  return out;
}

/** A log that steps are added to; `add` is the EVM's step listener. */
class StepBuffer implements StepLog {
  count = 0;
  truncated = false;
  private pcs = new Uint32Array(1024);
  private ops = new Uint8Array(1024);
  private depths = new Uint16Array(1024);
  private gases = new Float64Array(1024);
  /** How many items of the step before's stack each step keeps (0 where a frame starts or the bottom changed). */
  private keep = new Uint16Array(1024);
  private frameOf = new Uint32Array(1024);
  readonly frames: StepFrame[] = [];
  /** The frames running, innermost last (indexes into `frames`). */
  private readonly open: number[] = [];
  /** An SLOAD whose word the next step's stack top is. */
  private pendingRead: { step: number; depth: number; address: string; slot: bigint } | null = null;
  readonly reads: StorageChange[] = [];
  /** Where each step's added stack items start in `items` (one more entry than steps). */
  private from = new Uint32Array(1025);
  private readonly items: bigint[] = [];
  private readonly snapshots = new Map<number, readonly bigint[]>();
  readonly memory: MemoryChange[] = [];
  readonly storage: StorageChange[] = [];
  private previous: readonly bigint[] = [];
  /** Each running frame's memory as last seen, by depth. */
  private readonly memories: Uint8Array[] = [];

  get pc(): Uint32Array {
    return this.pcs.subarray(0, this.count);
  }
  get op(): Uint8Array {
    return this.ops.subarray(0, this.count);
  }
  get depth(): Uint16Array {
    return this.depths.subarray(0, this.count);
  }
  get gas(): Float64Array {
    return this.gases.subarray(0, this.count);
  }
  get frame(): Uint32Array {
    return this.frameOf.subarray(0, this.count);
  }
  /** A frame begins (the tracer's message): the steps from here on are its own until it ends. */
  enter(traceAddress: readonly number[]): void {
    this.open.push(this.frames.length);
    this.frames.push({ traceAddress, first: this.count });
  }
  leave(): void {
    this.open.pop();
  }
  stackAt(i: number): bigint[] {
    return stackAt(this.keep, this.from, this.items, this.snapshots, i);
  }
  memoryAt(i: number): Uint8Array {
    return memoryAt(this.depths, this.memory, i);
  }

  private room(size: number): void {
    this.pcs = grow(this.pcs, size, (k) => new Uint32Array(k));
    this.ops = grow(this.ops, size, (k) => new Uint8Array(k));
    this.depths = grow(this.depths, size, (k) => new Uint16Array(k));
    this.gases = grow(this.gases, size, (k) => new Float64Array(k));
    this.keep = grow(this.keep, size, (k) => new Uint16Array(k));
    this.frameOf = grow(this.frameOf, size, (k) => new Uint32Array(k));
    this.from = grow(this.from, size + 1, (k) => new Uint32Array(k + 1));
  }

  add(e: StepEvent): void {
    const n = this.count;
    if (n >= MAX_STEPS) {
      this.truncated = true;
      return;
    }
    this.room(n + 1);
    this.pcs[n] = e.pc;
    this.ops[n] = e.opcode.code;
    this.depths[n] = e.depth + 1;
    this.gases[n] = Number(e.gasLeft);
    this.frameOf[n] = this.open.at(-1) ?? 0;
    const stack = e.stack;
    this.readDone(e);
    // A new frame starts from an empty stack: nothing of the caller's is kept.
    let same = n > 0 && this.depths[n - 1] === this.depths[n] ? Math.min(this.previous.length, stack.length) : 0;
    for (let k = 0; k < same; k++) {
      if (this.previous[k] !== stack[k]) same = k;
    }
    this.keep[n] = same;
    this.from[n] = this.items.length;
    for (let k = same; k < stack.length; k++) this.items.push(stack[k]!);
    this.from[n + 1] = this.items.length;
    if (n % SNAPSHOT_EVERY === 0 && same > 0) this.snapshots.set(n, [...stack]);
    this.previous = stack;
    this.memories.length = e.depth + 1;
    const diff = changed(this.memories[e.depth] ?? new Uint8Array(0), e.memory);
    if (diff !== null) this.memory.push({ step: n, offset: diff[0], bytes: e.memory.slice(diff[0], diff[1] + 1) });
    this.memories[e.depth] = e.memory;
    if (e.opcode.code === 0x55 && stack.length >= 2) this.storage.push({ step: n, address: e.address.toString().toLowerCase(), slot: stack.at(-1)!, value: stack.at(-2)! });
    if (e.opcode.code === 0x54 && stack.length >= 1) this.pendingRead = { step: n, depth: e.depth, address: e.address.toString().toLowerCase(), slot: stack.at(-1)! };
    this.count = n + 1;
  }

  /** The word an SLOAD read is the top of the next step's stack in its frame (an SLOAD that failed, out of gas, read none). */
  private readDone(e: StepEvent): void {
    const read = this.pendingRead;
    if (read === null) return;
    this.pendingRead = null;
    if (e.depth === read.depth && e.stack.length > 0) this.reads.push({ step: read.step, address: read.address, slot: read.slot, value: e.stack.at(-1)! });
  }
}

/** A log to record into: `add` is the EVM's step listener; `enter` and `leave` are the tracer's messages. */
export interface StepLogWriter extends StepLog {
  add(e: StepEvent): void;
  enter(traceAddress: readonly number[]): void;
  leave(): void;
}

export function createStepLog(): StepLogWriter {
  return new StepBuffer();
}
