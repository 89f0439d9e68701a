/**
 * The Solidity internal functions one external frame ran, nested as they ran, from the JUMPs it took:
 * a JUMP whose source-map entry is marked `i` enters the function whose AST definition holds the
 * destination's source range; the matching `o` leaves it. Jumps into the compiler's own helpers, into
 * modifiers' code and the external function's own entry (its ABI wrapper's jump into its body: the
 * frame itself) are followed for the matching but not listed. Where the compiler inlined there is no
 * jump, and nothing is listed. Pure: the jumps may come from txray's tracer (positions are the jumps'
 * indexes) or from a step log (positions are step indexes, see jumpsOfSteps).
 */
import type { InternalCall, InternalItem } from '../model/types.js';
import type { Hex } from '../raw/types.js';
import { definitionHolding } from './definitionHolding.js';
import type { FunctionDefinition } from './functionDefinitions.js';
import { type CodeDebug, decompressMap, instructions, lineAt, type SourceTable } from './sourceMap.js';
import { cell } from './cell.js';
import { lowerHex } from '../raw/hex.js';

/** The JUMPs a frame took, in order: from which pc, to which, the gas left after each, and (optionally) each one's position. */
export interface FrameJumps {
  readonly from: ArrayLike<number>;
  readonly to: ArrayLike<number>;
  readonly gas: ArrayLike<number>;
  /** Each jump's position (a step index); absent: its index. */
  readonly at?: ArrayLike<number>;
}

/** How the frame ended, and where its own calls were made (each call's position: the position of the first jump after it). */
export interface FrameEnd {
  readonly gas: number;
  readonly reverted: boolean;
  /** The position just past the frame's last jump (absent: the number of jumps). */
  readonly at?: number;
  /** By the index of each call in the frame's `children`: where it was made; a call made before jump k is at k's position. */
  readonly callsAt: readonly number[];
  /** The frame's events, in order: where each was emitted (as callsAt), and how many of its calls were made before it. */
  readonly eventsAt?: ReadonlyArray<{ readonly at: number; readonly calls: number }>;
}

/** An internal call while its jumps are read. */
type Building = Omit<InternalCall, 'inside' | 'reverted' | 'gasUsed' | 'to'> & { gasUsed: bigint; to: number; reverted?: true; readonly inside: InternalItem[] };

/** A call while it is being read. */
interface Open {
  readonly call: Building | null;
  /** The jump that entered it. */
  readonly jump: number;
  /** Where what runs inside it is listed (an unlisted one's: its caller's). */
  readonly items: InternalItem[];
}

/** Whether the map holds an entry spanning exactly `fn` (the compiler's own range of a function it compiled). */
const spans = new WeakMap<Table, Set<string>>();
function inMap(t: Table, fn: FunctionDefinition): boolean {
  let set = spans.get(t);
  if (set === undefined) {
    set = new Set();
    for (let i = 0; i < t.count; i++) set.add(`${t.f[i]}:${t.s[i]}:${t.l[i]}`);
    spans.set(t, set);
  }
  return set.has(`${fn.sourceId}:${fn.start}:${fn.length}`);
}

/** A frame that made more internal calls than this lists none (a listing of millions helps nobody, and would not fit). */
export const MAX_INTERNAL_CALLS = 100_000;

/** A JUMP's gas (G_mid), the same in every fork. */
const JUMP_GAS = 8;

type Table = NonNullable<ReturnType<typeof decompressMap>>;

/** The call a jump into a function enters: null where it is not to be listed. */
function entered(t: Table, site: number, landing: number, sources: SourceTable, gas: number, at: number): Building | null {
  const id = cell(t.f, landing);
  const held = definitionHolding(sources, id, cell(t.s, landing), cell(t.l, landing));
  if (held === null) return null;
  const fn = held.fn;
  // The external function's wrapper (its ABI decoding, mapped to the whole definition) jumping into its body.
  if (t.f[site] === id && t.s[site] === fn.start && t.l[site] === fn.length) return null;
  // A function read from the text is named only where the compiler's map spans it exactly.
  if (held.scanned && !inMap(t, fn)) return null;
  const file = sources.file(id);
  const line = file === null ? null : lineAt(file.bytes, fn.start)?.line;
  if (file === null || line == null) return null;
  return { name: fn.name, contract: fn.contract, file: file.path, line, gasUsed: BigInt(gas), from: at, to: at, inside: [] };
}

/**
 * The frame's internal calls and its own calls, in the order they ran (see InternalItem); null where the
 * jumps do not fit the code or its map (another code ran), or it made more than MAX_INTERNAL_CALLS.
 */
export function internalCallsOf(code: Hex, debug: CodeDebug, jumps: FrameJumps, end: FrameEnd): InternalItem[] | null {
  const t = decompressMap(debug.map);
  if (t === null || code.length <= 2) return null;
  const { index, bytes } = instructions(lowerHex(code));
  const n = Math.min(jumps.from.length, jumps.to.length, jumps.gas.length);
  const at = (k: number): number => (jumps.at === undefined ? k : cell(jumps.at, k));
  const top: InternalItem[] = [];
  const open: Open[] = [];
  let made = 0;
  let emitted = 0;
  let listed = 0;
  const events = end.eventsAt ?? [];
  // The calls and events made before position `upTo`, in the order they ran.
  const place = (upTo: number): void => {
    const items = open.at(-1)?.items ?? top;
    for (;;) {
      const call = made < end.callsAt.length && cell(end.callsAt, made) <= upTo;
      const event = emitted < events.length && cell(events, emitted).at <= upTo;
      if (event && (!call || cell(events, emitted).calls <= made)) items.push({ event: emitted++ });
      else if (call) items.push(made++);
      else return;
    }
  };
  const close = (o: Open, gas: number, to: number): void => {
    if (o.call === null) return;
    o.call.gasUsed -= BigInt(gas);
    o.call.to = to;
  };
  for (let k = 0; k < n; k++) {
    place(at(k));
    const site = index[cell(jumps.from, k)];
    const landing = index[cell(jumps.to, k)];
    if (site === undefined || landing === undefined || site < 0 || landing < 0 || site >= t.count || landing >= t.count || bytes[cell(jumps.from, k)] !== 0x56) return null;
    if (t.j[site] === 1) {
      const call = entered(t, site, landing, debug.sources, cell(jumps.gas, k), at(k));
      const items = open.at(-1)?.items ?? top;
      if (call !== null && ++listed > MAX_INTERNAL_CALLS) return null;
      if (call !== null) items.push(call);
      open.push({ call, jump: k, items: call === null ? items : call.inside });
    } else if (t.j[site] === 2 && open.length > 0) {
      // A return lands just past its call's jump; a helper whose return the map does not mark is closed with it.
      let m = open.length - 1;
      while (m > 0 && cell(jumps.from, open[m]!.jump) + 1 !== jumps.to[k]) m--;
      if (cell(jumps.from, open[m]!.jump) + 1 !== jumps.to[k]) m = open.length - 1;
      for (const o of open.splice(m).reverse()) close(o, cell(jumps.gas, k), at(k));
    }
  }
  place(Number.POSITIVE_INFINITY);
  const last = end.at ?? n;
  for (const o of open.reverse()) {
    // Its jump in was counted after it was paid: at the frame's end that jump is counted too, as it is in
    // a call that returned (there the jump out's cost falls out the same way).
    close(o, end.gas - JUMP_GAS, last);
    if (end.reverted && o.call !== null) o.call.reverted = true;
  }
  return top;
}
