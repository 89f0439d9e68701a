/**
 * The call tree, one line per trace entry, drawn with ├─ └─ │. Iterative (pre-order with an explicit
 * stack), and only the last few levels of guides are drawn, so a 10,000-deep chain costs O(n) output.
 */
import type { ChalkInstance } from 'chalk';
import type { CallNode, CallTree, PlacedEvent } from '../model/types.js';
import { byteLength, isZero, toBig, toDecimal } from '../raw/hex.js';
import type { RpcLog } from '../raw/types.js';
import type { DecodedModel, DecodedNodeFields } from '../decode/decodeModel.js';
import { formatBytes, formatValueShort, groupDigits } from './format.js';
import { type AddressStyle, formatDecoded, formatOutputs, showAddress, showTarget } from './formatDecoded.js';
import { describeFailure, describeNodeKind } from './describe.js';

interface TreeOptions {
  readonly chalk: ChalkInstance;
  readonly width: number;
  readonly decoded?: DecodedModel;
}

/** Events to draw inside the tree, with the logs they index. */
export interface TreeEvents {
  readonly byNode: ReadonlyMap<CallNode, readonly PlacedEvent[]>;
  readonly logs: readonly RpcLog[];
}

type Paint = (s: string) => string;
type Seg = readonly [text: string, paint?: Paint];

/** Shrink a line to `width` visible characters: first addresses, then the tail. Paint afterwards. */
function fit(build: (style: AddressStyle) => Seg[], decoded: DecodedModel | undefined, width: number): string {
  let segs = build({ decoded, short: false });
  if (width === Number.POSITIVE_INFINITY) {
    let whole = '';
    for (const [text, paint] of segs) whole += paint ? paint(text) : text;
    return whole;
  }
  const len = (s: readonly Seg[]): number => s.reduce((n, [t]) => n + t.length, 0);
  if (len(segs) > width) segs = build({ decoded, short: true });
  let room = Math.max(width, 20);
  let out = '';
  for (const [text, paint] of segs) {
    if (room <= 0) break;
    const piece = text.length > room ? `${text.slice(0, Math.max(0, room - 1))}…` : text;
    room -= piece.length;
    out += paint ? paint(piece) : piece;
  }
  return out;
}

function kindPaint(kind: string, c: ChalkInstance): Paint {
  if (kind === 'delegatecall' || kind === 'callcode') return c.magenta;
  if (kind === 'staticcall') return c.blue;
  if (kind.startsWith('create')) return c.cyan;
  if (kind === 'selfdestruct' || kind === 'reward') return c.yellow;
  return (s) => s;
}

function nodeSegments(n: CallNode & DecodedNodeFields, c: ChalkInstance, s: AddressStyle): Seg[] {
  const kind = describeNodeKind(n);
  const segs: Seg[] = [[kind, kindPaint(kind, c)]];
  if (n.missing) return [[`(no root entry in the trace)`, c.dim]];
  if (n.type === 'suicide') segs.push([' → ']);
  else segs.push([' ']);
  const fn = n.function;
  if (n.type === 'call' && fn !== undefined && n.to !== null) {
    // Target::function(args), the way Solidity names it.
    segs.push([`${showTarget(n.to, s)}::`], [formatDecoded(fn, s), c.bold]);
  } else segs.push([n.to !== null ? showAddress(n.to, s) : n.type === 'create' ? '(not created)' : '?']);
  if (n.value !== null && !isZero(n.value)) segs.push([` · ${formatValueShort(toBig(n.value))}`, c.yellow]);
  if (n.input !== null && n.input !== '0x' && !(n.type === 'call' && fn !== undefined)) {
    const size = byteLength(n.input);
    if (n.type === 'create') segs.push(fn !== undefined && fn.args.length > 0 ? [` · ${formatDecoded(fn, s)}`] : [` · init ${formatBytes(size)}`, c.dim]);
    else if (size >= 4) segs.push([` · ${n.input.slice(0, 10)}`], ...(size > 4 ? [[` +${groupDigits(size - 4)} bytes`, c.dim] as Seg] : []));
    else segs.push([` · ${n.input}`]);
  }
  if (n.gasUsed !== null) segs.push([` · ${groupDigits(toDecimal(n.gasUsed))} gas`, c.dim]);
  if (n.error !== null) segs.push([` ✗ ${describeFailure(n, s)}`, c.red]);
  else if (n.type === 'create' && n.output !== null) segs.push([` ← code ${formatBytes(byteLength(n.output))}`, c.dim]);
  else if (n.type === 'call' && n.outputs !== undefined) segs.push([` ← ${formatOutputs(n.outputs, s)}`]);
  else if (n.type === 'call' && n.output !== null) {
    const size = byteLength(n.output);
    segs.push([` ← ${size === 0 ? 'no data' : formatBytes(size)}`, c.dim]);
  }
  return segs;
}

function eventSegments(index: number, log: RpcLog, c: ChalkInstance, s: AddressStyle): Seg[] {
  const n = log.logIndex !== undefined ? toDecimal(log.logIndex) : String(index);
  const event = s.decoded?.events[index];
  if (event) return [['event', c.green], [` #${n} `, c.dim], [`${showTarget(log.address, s)} `], [formatDecoded(event, s), c.green]];
  const topic0 = log.topics[0];
  const more = log.topics.length > 1 ? ` +${log.topics.length - 1} ${log.topics.length === 2 ? 'topic' : 'topics'}` : '';
  return [
    ['event', c.green],
    [` #${n} `, c.dim],
    [showAddress(log.address, s)],
    [` · ${topic0 === undefined ? 'anonymous' : `${topic0.slice(0, 10)}…`}`],
    [`${more} · ${formatBytes(byteLength(log.data))}`, c.dim],
  ];
}

type Item = { readonly kind: 'call'; readonly node: CallNode } | { readonly kind: 'event'; readonly event: PlacedEvent };

/** A call's children and events in execution order: events at position p come before child p. */
function itemsOf(node: CallNode, events: TreeEvents | undefined): Item[] {
  const placed = events?.byNode.get(node);
  if (placed === undefined || placed.length === 0) return node.children.map((child) => ({ kind: 'call', node: child }));
  const items: Item[] = [];
  let e = 0;
  for (let i = 0; i <= node.children.length; i++) {
    while (e < placed.length && placed[e]!.position <= i) items.push({ kind: 'event', event: placed[e++]! });
    if (i < node.children.length) items.push({ kind: 'call', node: node.children[i]! });
  }
  while (e < placed.length) items.push({ kind: 'event', event: placed[e++]! });
  return items;
}

/** Guides drawn at most this many levels; deeper lines start with a "+N" marker instead. */
const MAX_GUIDES = 24;

export function* renderCallTree(tree: CallTree, o: TreeOptions, note: string | null = null, events?: TreeEvents): Generator<string> {
  const c = o.chalk;
  const noun = tree.count === 1 ? 'entry' : 'entries';
  yield `\n${c.bold('Call tree')} ${c.dim(`(${groupDigits(tree.count)} ${noun}, depth ${tree.maxDepth})`)}\n`;
  if (note !== null) yield `  ${c.dim(note)}\n`;
  const guides: string[] = []; // guides[d]: what the ancestor at depth d draws for the lines below it
  const stack: Array<{ item: Item; last: boolean; depth: number }> = [{ item: { kind: 'call', node: tree.root }, last: true, depth: 0 }];
  while (stack.length > 0) {
    const { item, last, depth } = stack.pop()!;
    guides.length = Math.max(depth, 0);
    let prefix = '';
    if (depth > 0) {
      const from = Math.max(1, depth - MAX_GUIDES);
      if (from > 1) prefix += `+${from - 1} `;
      for (let d = from; d < depth; d++) prefix += guides[d] ?? '   ';
      prefix += last ? '└─ ' : '├─ ';
      guides[depth] = last ? '   ' : '│  ';
    }
    const room = o.width - 2 - prefix.length;
    if (item.kind === 'event') {
      const log = events!.logs[item.event.log]!;
      yield `  ${c.dim(prefix)}${fit((s) => eventSegments(item.event.log, log, c, s), o.decoded, room)}\n`;
      continue;
    }
    yield `  ${c.dim(prefix)}${fit((s) => nodeSegments(item.node, c, s), o.decoded, room)}\n`;
    const items = itemsOf(item.node, events);
    for (let i = items.length - 1; i >= 0; i--) stack.push({ item: items[i]!, last: i === items.length - 1, depth: depth + 1 });
  }
}
