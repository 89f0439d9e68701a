/**
 * The call tree, one line per trace entry, drawn with ├─ └─ │. Iterative (pre-order with an explicit
 * stack), and only the last few levels of guides are drawn, so a 10,000-deep chain costs O(n) output.
 */
import type { ChalkInstance } from 'chalk';
import type { CallNode, CallTree, DecodedModel, InternalCall, InternalItem, PlacedEvent } from '../model/types.js';
import { sourceLine } from './renderSource.js';
import { byteLength, toDecimal } from '../raw/hex.js';
import type { RpcLog } from '../raw/types.js';
import { cutToWidth, displayWidth } from '../raw/escape.js';
import { formatBytes, formatValueShort, groupDigits } from '../format/format.js';
import { type AddressStyle, formatDecoded, formatDecodedRun, formatOutputs, showAddress, showTarget } from '../words/formatDecoded.js';
import { describeNodeKind, failureParts } from '../words/describe.js';
import { FOLD_AT, foldRuns, runEnds, type TreeItem } from './foldRuns.js';
import { groupRunEvents } from './groupRunEvents.js';
import { type AccessesLeft, type AccessLine, accessLines, accessText } from './accessLines.js';

interface TreeOptions {
  readonly chalk: ChalkInstance;
  readonly width: number;
  readonly decoded?: DecodedModel;
  /**
   * The root line's gas: the transaction's gas used as its receipt says it (intrinsic gas included,
   * refunds deducted), whatever the tracer counted in its root frame (trace_transaction leaves the
   * intrinsic gas out, the callTracer counts it). Absent: the root frame's own figure.
   */
  readonly rootGas?: bigint;
  /** --full: every call and event on its own line, no run folded. */
  readonly full?: boolean;
}

/** Events to draw inside the tree, with the logs they index. */
export interface TreeEvents {
  readonly byNode: ReadonlyMap<CallNode, readonly PlacedEvent[]>;
  readonly logs: readonly RpcLog[];
}

type Paint = (s: string) => string;
/** A piece of a line; `shorter`, where given, is what it says when the line must be cut. */
type Seg = readonly [text: string, paint?: Paint, shorter?: string];

/**
 * Where a line's pieces go. Without a width to fit (output to a pipe or file) they are painted and
 * joined as they come; otherwise they are kept as segments, to be shortened before painting.
 */
interface Sink {
  add(text: string, paint?: Paint, shorter?: string): void;
  /** What is added from here on is the outcome (value, gas, failure, return): cut last, after the call's arguments. */
  outcome(): void;
}

class JoinSink implements Sink {
  line = '';
  add(text: string, paint?: Paint): void {
    this.line += paint ? paint(text) : text;
  }
  outcome(): void {}
}

class SegSink implements Sink {
  readonly segs: Seg[] = [];
  /** Where the outcome starts (segs.length: none). */
  outcomeAt = Number.POSITIVE_INFINITY;
  add(text: string, paint?: Paint, shorter?: string): void {
    this.segs.push([text, paint, shorter]);
  }
  outcome(): void {
    if (this.outcomeAt === Number.POSITIVE_INFINITY) this.outcomeAt = this.segs.length;
  }
}

type Build = (sink: Sink, style: AddressStyle) => void;

const len = (x: readonly Seg[]): number => x.reduce((n, [t]) => n + displayWidth(t), 0);

/** The segments, painted, cut at `room` columns (the piece cut ends with …). Returns the text and the columns used. */
function emit(segs: readonly Seg[], room: number): { text: string; used: number } {
  let text = '';
  let used = 0;
  for (const [piece, paint] of segs) {
    if (used >= room) break;
    // Columns, not UTF-16 units: a CJK character or an emoji takes two, and none is ever cut in half.
    // A call or an error cut inside its arguments keeps its closing parenthesis: Name(a: 1, b: …).
    const left = room - used;
    const open = piece.indexOf('(');
    const keepsParen = displayWidth(piece) > left && piece.endsWith(')') && open >= 0 && displayWidth(piece.slice(0, open + 1)) <= left - 2;
    const cut = keepsParen ? `${cutToWidth(piece.slice(0, -1), left - 1)})` : cutToWidth(piece, left);
    used += displayWidth(cut);
    text += paint ? paint(cut) : cut;
  }
  return { text, used };
}

/**
 * Columns the call itself keeps, at least, when its outcome is long: its kind, target and function name
 * (up to the first argument), but never more than half the line.
 */
function minHead(head: readonly Seg[], room: number): number {
  const text = head.map(([t]) => t).join('');
  const paren = text.indexOf('(');
  return Math.min(Math.floor(room / 2), displayWidth(paren < 0 ? text : text.slice(0, paren + 1)) + 2);
}

/**
 * Shrink a line to `width` visible characters: first addresses, then the call's arguments, and the
 * outcome (value, gas, failure, return) last: a line cut to the terminal still says how the call ended.
 * Paint afterwards.
 */
function fit(build: Build, decoded: DecodedModel | undefined, width: number, join: JoinSink): string {
  if (width === Number.POSITIVE_INFINITY) {
    join.line = '';
    build(join, { decoded, short: false });
    return join.line;
  }
  const collect = (short: boolean): SegSink => {
    const sink = new SegSink();
    build(sink, { decoded, short });
    return sink;
  };
  let sink = collect(false);
  if (len(sink.segs) > width) sink = collect(true);
  const room = Math.max(width, 20);
  const head = sink.segs.slice(0, sink.outcomeAt);
  if (len(sink.segs) <= room || head.length === sink.segs.length) return emit(sink.segs, room).text;
  // Cut: the outcome in its shorter words (a revert's reason without the word "Reverted").
  const tail = sink.segs.slice(sink.outcomeAt).map(([text, paint, shorter]): Seg => [shorter ?? text, paint]);
  // The call's arguments give way first; the outcome keeps what is left after the call's name.
  const headRoom = Math.max(minHead(head, room), room - len(tail));
  const cutHead = emit(head, headRoom);
  return cutHead.text + emit(tail, room - cutHead.used).text;
}

function kindPaint(kind: string, c: ChalkInstance): Paint {
  if (kind === 'delegatecall' || kind === 'callcode') return c.magenta;
  if (kind === 'staticcall') return c.blue;
  if (kind.startsWith('create')) return c.cyan;
  if (kind === 'selfdestruct' || kind === 'reward') return c.yellow;
  return (s) => s;
}

function nodeSegments(n: CallNode, c: ChalkInstance, s: AddressStyle, out: Sink, gas?: bigint): void {
  if (n.missing) {
    out.add(`(no root entry in the trace)`, c.dim);
    return;
  }
  const kind = describeNodeKind(n);
  out.add(kind, kindPaint(kind, c));
  out.add(n.type === 'suicide' ? ' → ' : ' ');
  const fn = n.decoded?.function;
  if (n.type === 'call' && fn !== undefined && n.to !== null) {
    // Target::function(args), the way Solidity names it; a precompile is its own function.
    if (fn.contract !== 'precompile') out.add(`${showTarget(n.to, s)}::`);
    out.add(formatDecoded(fn, s), c.bold);
    if (fn.guessed) out.add(' (guessed types)', c.dim);
  } else out.add(n.to !== null ? showAddress(n.to, s) : n.type === 'create' ? '(not created)' : '?');
  out.outcome();
  if (n.value !== null && n.value !== 0n) out.add(` · ${formatValueShort(n.value)}`, c.yellow);
  // Value with no data that ran code no ABI says anything of (an artifact without receive() or fallback()).
  if (n.type === 'call' && fn === undefined && n.input === '0x' && n.value !== null && n.value !== 0n && n.gasUsed !== null && n.gasUsed !== 0n) out.add(' · (no data)', c.dim);
  if (n.input !== null && n.input !== '0x' && !(n.type === 'call' && fn !== undefined)) {
    const size = byteLength(n.input);
    if (n.type === 'create') {
      if (fn !== undefined && fn.args.length > 0) out.add(` · ${formatDecoded(fn, s)}`);
      else out.add(` · init ${formatBytes(size)}`, c.dim);
    } else if (size >= 4) {
      out.add(` · ${n.input.slice(0, 10)}`);
      if (size > 4) out.add(` +${groupDigits(size - 4)} bytes`, c.dim);
    } else out.add(` · ${n.input}`);
  }
  if (gas !== undefined) out.add(` · ${groupDigits(gas)} gas`, c.dim);
  else if (n.gasUsed !== null) out.add(` · ${groupDigits(n.gasUsed)} gas`, c.dim);
  if (n.error !== null) {
    const { error, reason } = failureParts(n, s);
    out.add(` ✗ ${reason === null ? error : `${error}: ${reason}`}`, c.red, reason === null ? undefined : ` ✗ ${reason}`);
    const place = n.decoded?.sourceLocation;
    if (place !== undefined) out.add(` at ${sourceLine(place)}`, c.dim);
  }
  else if (n.type === 'create' && n.output !== null) out.add(` ← code ${formatBytes(byteLength(n.output))}`, c.dim);
  else if (n.type === 'call') {
    const returned = returnText(n, s);
    if (returned !== null) out.add(` ← ${returned.text}`, returned.decoded ? undefined : c.dim);
  }
}

/** What a call returned: its decoded outputs, else the size of its data; null when the trace has no output. */
function returnText(n: CallNode, s: AddressStyle): { text: string; decoded: boolean } | null {
  if (n.decoded?.outputs !== undefined) return { text: formatOutputs(n.decoded.outputs, s), decoded: true };
  if (n.output === null) return null;
  const size = byteLength(n.output);
  return { text: size === 0 ? 'no data' : formatBytes(size), decoded: false };
}

/**
 * A folded run of calls: "20,000 × call Fanout::leaf(i: 0 … 19999) · 231,520,000 gas in all · all ← no
 * data": the first and last call's arguments where they differ, value and gas added up, and what they
 * returned: "all ←" when every call returned the same bytes, else the first's and the last's ("first ← 1, last ← 2").
 */
function callRunSegments(run: readonly CallNode[], c: ChalkInstance, s: AddressStyle, out: Sink): void {
  const { first, last } = runEnds(run);
  out.add(`${groupDigits(run.length)} × `, c.bold);
  const kind = describeNodeKind(first);
  out.add(`${kind} `, kindPaint(kind, c));
  const fn = first.decoded?.function;
  const lastFn = last.decoded?.function;
  if (fn !== undefined && lastFn !== undefined && first.to !== null) {
    if (fn.contract !== 'precompile') out.add(`${showTarget(first.to, s)}::`);
    out.add(formatDecodedRun(fn, lastFn, s), c.bold);
    if (fn.guessed) out.add(' (guessed types)', c.dim);
  } else {
    out.add(first.to !== null ? showAddress(first.to, s) : '?');
    if (first.input !== null && first.input !== '0x') out.add(` · ${first.input.slice(0, 10)}`);
  }
  out.outcome();
  let value = 0n;
  let gas: bigint | null = 0n;
  let same = true;
  for (const n of run) {
    value += n.value ?? 0n;
    gas = gas === null || n.gasUsed === null ? null : gas + n.gasUsed;
    if (n.output !== first.output) same = false;
  }
  if (value !== 0n) out.add(` · ${formatValueShort(value)} in all`, c.yellow);
  if (gas !== null) out.add(` · ${groupDigits(gas)} gas in all`, c.dim);
  const from = returnText(first, s);
  const to = returnText(last, s);
  if (from === null || to === null) return;
  out.add(same ? ` · all ← ${from.text}` : ` · first ← ${from.text}, last ← ${to.text}`, from.decoded ? undefined : c.dim);
}

/** The receipt's log an event was placed from (the events stage places only logs the receipt has). */
function logOf(logs: readonly RpcLog[], index: number): RpcLog {
  const log = logs[index];
  if (log === undefined) throw new Error(`internal error: no log #${index} among the receipt's ${logs.length}`);
  return log;
}

/** A folded run of events: "20,000 × event #1 … #20000 Fanout Leaf(i: 0 … 19999, value: 0 … 39998)". */
function eventRunSegments(run: readonly PlacedEvent[], logs: readonly RpcLog[], c: ChalkInstance, s: AddressStyle, out: Sink): void {
  const ends = runEnds(run);
  const first = ends.first.log;
  const last = ends.last.log;
  const at = (i: number): string => {
    const logIndex = logs[i]?.logIndex;
    return logIndex !== undefined ? toDecimal(logIndex) : String(i);
  };
  out.add(`${groupDigits(run.length)} × `, c.bold);
  out.add('event', c.green);
  out.add(` #${at(first)} … #${at(last)} `, c.dim);
  const a = s.decoded?.events[first];
  const b = s.decoded?.events[last];
  const log = logOf(logs, first);
  if (a && b) {
    out.add(`${showTarget(log.address, s)} `);
    out.add(formatDecodedRun(a, b, s), c.green);
    return;
  }
  out.add(showAddress(log.address, s));
  out.add(` · ${log.topics[0] === undefined ? 'anonymous' : `${log.topics[0].slice(0, 10)}…`}`);
}

function eventSegments(index: number, log: RpcLog, c: ChalkInstance, s: AddressStyle, out: Sink): void {
  const n = log.logIndex !== undefined ? toDecimal(log.logIndex) : String(index);
  const event = s.decoded?.events[index];
  out.add('event', c.green);
  out.add(` #${n} `, c.dim);
  if (event) {
    out.add(`${showTarget(log.address, s)} `);
    out.add(formatDecoded(event, s), c.green);
    return;
  }
  const topic0 = log.topics[0];
  const more = log.topics.length > 1 ? ` +${log.topics.length - 1} ${log.topics.length === 2 ? 'topic' : 'topics'}` : '';
  out.add(showAddress(log.address, s));
  out.add(` · ${topic0 === undefined ? 'anonymous' : `${topic0.slice(0, 10)}…`}`);
  out.add(`${more} · ${formatBytes(byteLength(log.data))}`, c.dim);
}

/** --internal: an internal call of `frame`, drawn under it with what ran inside it (`placed`: the frame's events). */
interface InternalRow {
  readonly internal: InternalCall;
  readonly frame: CallNode;
  readonly placed: readonly PlacedEvent[];
}

/** A run of alike internal calls that called nothing, folded into one line. */
interface InternalRun {
  readonly internalRun: readonly InternalCall[];
}

type Item = TreeItem | InternalRow | InternalRun | AccessLine | AccessesLeft;

/** What makes internal calls alike for folding: the same function, nothing inside, not running at a revert. */
const internalKey = (x: InternalRow): string | null => (x.internal.inside.length === 0 && x.internal.reverted !== true ? `${x.internal.contract ?? ''}.${x.internal.name}` : null);

/**
 * Runs of FOLD_AT or more alike internal calls, each as one InternalRun; the frame's calls and events
 * between internal calls fold as everywhere else in the tree (foldRuns).
 */
function foldInternal(items: ReadonlyArray<CallNode | PlacedEvent | InternalRow>, keyOf: Folding['key']): Item[] {
  const out: Item[] = [];
  // Consecutive items of one kind: the frame's calls and events (folded by foldRuns), or internal calls with one key.
  let others: Array<CallNode | PlacedEvent> = [];
  let rows: InternalRow[] = [];
  let rowKey: string | null = null;
  const flush = (): void => {
    if (others.length > 0) out.push(...foldRuns(others, keyOf));
    if (rowKey !== null && rows.length >= FOLD_AT) out.push({ internalRun: rows.map((x) => x.internal) });
    else out.push(...rows);
    others = [];
    rows = [];
  };
  for (const item of items) {
    if (!('internal' in item)) {
      if (rows.length > 0) flush();
      others.push(item);
      continue;
    }
    const key = internalKey(item);
    if (others.length > 0 || rows.length === 0 || key === null || key !== rowKey) flush();
    rows.push(item);
    rowKey = key;
  }
  flush();
  return out;
}

/** A frame's internal items as tree items: its calls and events where they ran, its internal calls as rows (alike runs folded unless --full). */
function internalItems(items: readonly InternalItem[], frame: CallNode, placed: readonly PlacedEvent[], fold: Folding | null): Item[] {
  // (Events are drawn only where the view places them.)
  const out = items.flatMap((x): Array<CallNode | PlacedEvent | InternalRow> => {
    if (typeof x !== 'number' && !('event' in x)) return [{ internal: x, frame, placed }];
    const item = typeof x === 'number' ? frame.children[x] : placed[x.event];
    return item === undefined ? [] : [item];
  });
  return fold === null ? out : foldInternal(out, fold.key);
}

function internalRunSegments(run: readonly InternalCall[], c: ChalkInstance, out: Sink): void {
  const x = runEnds(run).first;
  out.add(`${groupDigits(run.length)} × `, c.bold);
  out.add('◦ ', c.cyan);
  out.add(x.contract === null ? x.name : `${x.contract}.${x.name}`);
  out.outcome();
  out.add(` · ${groupDigits(run.reduce((n, r) => n + r.gasUsed, 0n))} gas in all`, c.dim);
}

function internalSegments(x: InternalCall, c: ChalkInstance, out: Sink): void {
  out.add('◦ ', c.cyan);
  out.add(x.contract === null ? x.name : `${x.contract}.${x.name}`);
  out.outcome();
  out.add(` · ${groupDigits(x.gasUsed)} gas`, c.dim);
  if (x.reverted) out.add(' ✗ running when it reverted', c.red, ' ✗');
}

/** One line to draw: a call, an event placed inside its call, an internal call, or a folded run of calls or events. */
interface Entry {
  readonly item: Item;
  readonly last: boolean;
  readonly depth: number;
}

/** How runs fold, for one render: null with --full. */
interface Folding {
  readonly key: (item: CallNode | PlacedEvent) => string | null;
  readonly eventKey: (e: PlacedEvent) => string;
}

/**
 * A call that can be one of a run: it succeeded and made no call of its own (a failure anywhere keeps
 * its line). Its kind, target, selector and the signature it decoded to are its key.
 */
function callKey(n: CallNode): string | null {
  if (n.type !== 'call' || n.missing || n.error !== null || n.children.length > 0 || n.to === null || n.input === null) return null;
  const fn = n.decoded?.function;
  return `c|${n.callType ?? ''}|${n.to.toLowerCase()}|${n.input.slice(0, 10)}|${fn === undefined ? '-' : `${fn.signature ?? ''}|${fn.guessed === true}`}`;
}

function folding(events: TreeEvents | undefined, decoded: DecodedModel | undefined): Folding {
  const eventKey = (e: PlacedEvent): string => {
    const log = logOf(events?.logs ?? [], e.log);
    const ev = decoded?.events[e.log];
    return `e|${log.address.toLowerCase()}|${log.topics[0] ?? ''}|${log.topics.length}|${ev ? `${ev.signature ?? ''}|${ev.guessed === true}` : '-'}`;
  };
  return { eventKey, key: (item) => ('children' in item ? callKey(item) : eventKey(item)) };
}

/** Push items so that they pop in the order given. */
function pushAll(stack: Entry[], items: readonly Item[], depth: number): void {
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    if (item !== undefined) stack.push({ item, last: i === items.length - 1, depth });
  }
}

/** Push a call's children and events so that they pop in execution order: events at position p come before child p. */
function pushItems(stack: Entry[], node: CallNode, depth: number, events: TreeEvents | undefined, fold: Folding | null): void {
  const placed = events?.byNode.get(node);
  const children = node.children;
  const internal = node.decoded?.internal;
  if (internal !== undefined) {
    pushAll(stack, internalItems(internal, node, placed ?? [], fold), depth);
    return;
  }
  if (placed === undefined || placed.length === 0) {
    pushAll(stack, fold !== null && children.length >= FOLD_AT ? foldRuns(children, fold.key) : children, depth);
    return;
  }
  const items: Array<CallNode | PlacedEvent> = [];
  let e = 0;
  for (const [i, child] of children.entries()) {
    for (let p = placed[e]; p !== undefined && p.position <= i; p = placed[++e]) items.push(p);
    items.push(child);
  }
  items.push(...placed.slice(e));
  pushAll(stack, fold !== null && items.length >= FOLD_AT ? foldRuns(items, fold.key) : items, depth);
}

/** Guides drawn at most this many levels; deeper lines start with a "+N" marker instead. */
const MAX_GUIDES = 24;

/** The line's guides: ├─ └─ │ for the last MAX_GUIDES levels, "+N" for the levels above them. */
function guidePrefix(guides: string[], depth: number, last: boolean): string {
  guides.length = Math.max(depth, 0);
  if (depth === 0) return '';
  let prefix = '';
  const from = Math.max(1, depth - MAX_GUIDES);
  if (from > 1) prefix += `+${from - 1} `;
  for (let d = from; d < depth; d++) prefix += guides[d] ?? '   ';
  prefix += last ? '└─ ' : '├─ ';
  guides[depth] = last ? '   ' : '│  ';
  return prefix;
}

export function* renderCallTree(tree: CallTree, o: TreeOptions, note: string | null = null, events?: TreeEvents): Generator<string> {
  const c = o.chalk;
  const noun = tree.count === 1 ? 'entry' : 'entries';
  yield `\n${c.bold('Call tree')} ${c.dim(`(${groupDigits(tree.count)} ${noun}, depth ${tree.maxDepth})`)}\n`;
  if (note !== null) yield `  ${c.dim(note)}\n`;
  const join = new JoinSink();
  const fold = o.full === true ? null : folding(events, o.decoded);
  let folded = false;
  const guides: string[] = []; // guides[d]: what the ancestor at depth d draws for the lines below it
  const stack: Entry[] = [{ item: tree.root, last: true, depth: 0 }];
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const { item, last, depth } = entry;
    const prefix = guidePrefix(guides, depth, last);
    const room = o.width - 2 - prefix.length;
    let build: Build;
    if ('internal' in item) {
      build = (out) => internalSegments(item.internal, c, out);
      pushAll(stack, internalItems(item.internal.inside, item.frame, item.placed, fold), depth + 1);
    } else if ('internalRun' in item) {
      folded = true;
      build = (out) => internalRunSegments(item.internalRun, c, out);
    } else if ('children' in item) {
      const gas = item === tree.root ? o.rootGas : undefined;
      build = (out, s) => nodeSegments(item, c, s, out, gas);
      const before = stack.length;
      pushItems(stack, item, depth + 1, events, fold);
      // --storage: its accesses first under it, the last one last only where nothing else follows.
      const storage = item.decoded?.storage;
      if (storage !== undefined) {
        const lines = accessLines(storage, fold === null);
        const alone = stack.length === before;
        for (let i = lines.length - 1; i >= 0; i--) {
          const line = lines[i];
          if (line !== undefined) stack.push({ item: line, last: i === lines.length - 1 && alone, depth: depth + 1 });
        }
      }
    } else if ('access' in item) {
      build = (out) => out.add(accessText(item), item.access.reverted ? c.red : item.access.op === 'write' ? c.yellow : c.dim);
    } else if ('accessesLeft' in item) {
      build = (out) => out.add(`… ${groupDigits(item.accessesLeft)} more storage accesses (--full shows every one)`, c.dim);
    } else if ('calls' in item) {
      folded = true;
      build = (out, s) => callRunSegments(item.calls, c, s, out);
      if (events !== undefined && fold !== null) pushAll(stack, groupRunEvents(item.calls, events.byNode, fold.eventKey), depth + 1);
    } else if ('events' in item) {
      folded = true;
      build = (out, s) => eventRunSegments(item.events, events?.logs ?? [], c, s, out);
    } else {
      const index = item.log;
      const log = logOf(events?.logs ?? [], index);
      build = (out, s) => eventSegments(index, log, c, s, out);
    }
    yield `  ${c.dim(prefix)}${fit(build, o.decoded, room, join)}\n`;
  }
  if (folded) yield `  ${c.dim(`(runs of ${FOLD_AT} or more alike calls or events are folded into one line, "N ×"; --full shows every line)`)}\n`;
}
