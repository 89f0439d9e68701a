/**
 * The tracer's storage part (TracerConfig.storage): every SLOAD, SSTORE, TLOAD and TSTORE a run
 * executed, by frame and in order, with the account whose storage it is (the interpreter's own address:
 * a DELEGATECALL or CALLCODE frame's is its caller's), and the inputs of its KECCAK256s, which name
 * mapping keys exactly. A write's `before` is read from the state just before the opcode runs; a write
 * is marked reverted when its frame, or one enclosing it, ends with an error (storage and transient
 * storage are both put back with their frame).
 */
import { addressOf, type Hex, type OpRunState } from './localEvm.js';

/** One access, as the EVM made it. */
export interface StorageAccess {
  readonly op: 'read' | 'write';
  /** TLOAD/TSTORE (EIP-1153). */
  readonly transient: boolean;
  /** The account whose storage it is. */
  readonly address: Hex;
  readonly slot: bigint;
  /** A read: the word read; a write: the word written. */
  readonly value: bigint;
  /** A write: the word there before it (null for a read). */
  readonly before: bigint | null;
  /** A write undone by its frame's failure or an enclosing one's. */
  reverted: boolean;
}

/** What a run recorded of storage. */
export interface StorageRecord {
  /** Each frame's accesses in the order they ran, by frameKey(traceAddress); every frame has an entry. */
  readonly byFrame: ReadonlyMap<string, readonly StorageAccess[]>;
  /** Each KECCAK256 the run computed, its result → its input (inputs of MAX_PREIMAGE bytes at most, MAX_PREIMAGES of them). */
  readonly preimages: ReadonlyMap<bigint, Uint8Array>;
  /** Where the run made more accesses than a run keeps: how many are here (the first). */
  readonly capped: number | null;
}

/** The most accesses a run keeps (a loop over storage can make millions). */
const MAX_ACCESSES = 100_000;
/** Longer inputs name no slot a layout reaches (a mapping key of more than this many bytes). */
const MAX_PREIMAGE = 256;
const MAX_PREIMAGES = 1 << 16;

const wordBytes = (n: bigint): Uint8Array => Buffer.from(n.toString(16).padStart(64, '0'), 'hex');
const wordOf = (b: Uint8Array): bigint => (b.length === 0 ? 0n : BigInt(`0x${Buffer.from(b).toString('hex')}`));

/** One run's storage record as it grows. */
export class StorageRecording {
  readonly byFrame = new Map<string, StorageAccess[]>();
  readonly preimages = new Map<bigint, Uint8Array>();
  capped = false;
  private count = 0;
  /** Every write, in order: a failing frame marks those made since it began. */
  private readonly writes: StorageAccess[] = [];
  private current: StorageAccess[] | null = null;
  private readonly marks: Array<{ readonly list: StorageAccess[]; readonly writesFrom: number }> = [];

  /** A frame begins: its accesses go to its own list until it ends. */
  enter(key: string): void {
    const list: StorageAccess[] = [];
    this.byFrame.set(key, list);
    this.marks.push({ list, writesFrom: this.writes.length });
    this.current = list;
  }

  /** A frame ends; `failed`: its writes and its children's are undone. */
  leave(failed: boolean): void {
    const mark = this.marks.pop();
    if (mark !== undefined && failed) for (let i = mark.writesFrom; i < this.writes.length; i++) this.writes[i]!.reverted = true;
    this.current = this.marks.at(-1)?.list ?? null;
  }

  add(a: StorageAccess): void {
    if (this.current === null) return;
    if (this.count >= MAX_ACCESSES) {
      this.capped = true;
      return;
    }
    this.count++;
    this.current.push(a);
    if (a.op === 'write') this.writes.push(a);
  }

  preimage(hash: bigint, input: Uint8Array): void {
    if (this.preimages.size < MAX_PREIMAGES) this.preimages.set(hash, input);
  }

  done(): StorageRecord {
    return { byFrame: this.byFrame, preimages: this.preimages, capped: this.capped ? MAX_ACCESSES : null };
  }
}

type Wrap = (op: number, before: ((r: OpRunState) => void | Promise<void>) | null, after: ((r: OpRunState) => void) | null) => void;

/**
 * Hook the storage opcodes and KECCAK256; they record into `now()`, the run under way. Each opcode's
 * operands are read before it runs (it pops them), its result after. SLOAD and SSTORE are the EVM's
 * asynchronous handlers: the value an SSTORE replaces is awaited before it runs.
 */
export function hookStorage(wrap: Wrap, now: () => StorageRecording | null): void {
  let slot = 0n;
  let pending: { slot: bigint; value: bigint; before: bigint } | null = null;
  let input: Uint8Array | null = null;
  const read = (transient: boolean) => (r: OpRunState): void => {
    const [value] = r.stack.peek(1);
    now()?.add({ op: 'read', transient, address: addressOf(r.interpreter._env.address), slot, value: value ?? 0n, before: null, reverted: false });
  };
  const write = (transient: boolean) => (r: OpRunState): void => {
    if (pending !== null) now()?.add({ op: 'write', transient, address: addressOf(r.interpreter._env.address), slot: pending.slot, value: pending.value, before: pending.before, reverted: false });
    pending = null;
  };
  const operands = (r: OpRunState): [bigint, bigint] => {
    const [key, value] = r.stack.peek(2);
    return [key ?? 0n, value ?? 0n];
  };
  const top = (r: OpRunState): void => void (slot = r.stack.peek(1)[0] ?? 0n);
  wrap(0x54, (r) => (now() === null ? undefined : top(r)), (r) => (now() === null ? undefined : read(false)(r)));
  wrap(0x5c, (r) => (now() === null ? undefined : top(r)), (r) => (now() === null ? undefined : read(true)(r)));
  wrap(0x55, async (r) => {
    if (now() === null) return;
    const [key, value] = operands(r);
    const was = await r.interpreter.storageLoad(wordBytes(key), false, false);
    pending = { slot: key, value, before: wordOf(was) };
  }, write(false));
  wrap(0x5d, (r) => {
    if (now() === null) return;
    const [key, value] = operands(r);
    pending = { slot: key, value, before: wordOf(r.interpreter.transientStorageLoad(wordBytes(key))) };
  }, write(true));
  wrap(0x20, (r) => {
    const [offset, size] = operands(r);
    input = now() !== null && size >= 32n && size <= BigInt(MAX_PREIMAGE) ? r.memory.read(Number(offset), Number(size)) : null;
  }, (r) => {
    const [hash] = r.stack.peek(1);
    if (input !== null && hash !== undefined) now()?.preimage(hash, input);
    input = null;
  });
}
