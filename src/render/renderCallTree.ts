/**
 * The call tree, one line per trace entry, drawn with ├─ └─ │. Iterative (pre-order with an explicit
 * stack), and only the last few levels of guides are drawn, so a 10,000-deep chain costs O(n) output.
 */
import type { ChalkInstance } from 'chalk';
import type { CallNode, CallTree } from '../model/types.js';
import { byteLength, toBig } from '../raw/hex.js';
import type { Hex } from '../raw/types.js';
import { formatBytes, formatValueShort, groupDigits, shortAddress } from './format.js';
import { describeFailure, describeNodeKind } from './describe.js';

interface TreeOptions {
  readonly chalk: ChalkInstance;
  readonly width: number;
}

type Paint = (s: string) => string;
type Seg = readonly [text: string, paint?: Paint];

/** Shrink a line to `width` visible characters: first addresses, then the tail. Paint afterwards. */
function fit(build: (addr: (a: Hex) => string) => Seg[], width: number): string {
  let segs = build((a) => a);
  const len = (s: readonly Seg[]): number => s.reduce((n, [t]) => n + t.length, 0);
  if (len(segs) > width) segs = build(shortAddress);
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

function nodeSegments(n: CallNode, c: ChalkInstance, addr: (a: Hex) => string): Seg[] {
  const kind = describeNodeKind(n);
  const segs: Seg[] = [[kind, kindPaint(kind, c)]];
  if (n.missing) return [[`(no root entry in the trace)`, c.dim]];
  if (n.type === 'suicide') segs.push([' → ']);
  else segs.push([' ']);
  segs.push([n.to !== null ? addr(n.to) : n.type === 'create' ? '(not created)' : '?']);
  const value = n.value !== null ? toBig(n.value) : 0n;
  if (value > 0n) segs.push([` · ${formatValueShort(value)}`, c.yellow]);
  if (n.input !== null && n.input !== '0x') {
    const size = byteLength(n.input);
    if (n.type === 'create') segs.push([` · init ${formatBytes(size)}`, c.dim]);
    else if (size >= 4) segs.push([` · ${n.input.slice(0, 10)}`], ...(size > 4 ? [[` +${groupDigits(size - 4)} bytes`, c.dim] as Seg] : []));
    else segs.push([` · ${n.input}`]);
  }
  if (n.gasUsed !== null) segs.push([` · ${groupDigits(toBig(n.gasUsed))} gas`, c.dim]);
  if (n.error !== null) segs.push([` ✗ ${describeFailure(n)}`, c.red]);
  else if (n.type === 'create' && n.output !== null) segs.push([` ← code ${formatBytes(byteLength(n.output))}`, c.dim]);
  else if (n.type === 'call' && n.output !== null) {
    const size = byteLength(n.output);
    segs.push([` ← ${size === 0 ? 'no data' : formatBytes(size)}`, c.dim]);
  }
  return segs;
}

/** Guides drawn at most this many levels; deeper lines start with a "+N" marker instead. */
const MAX_GUIDES = 24;

export function* renderCallTree(tree: CallTree, o: TreeOptions): Generator<string> {
  const c = o.chalk;
  const noun = tree.count === 1 ? 'entry' : 'entries';
  yield `\n${c.bold('Call tree')} ${c.dim(`(${groupDigits(tree.count)} ${noun}, depth ${tree.maxDepth})`)}\n`;
  const guides: string[] = []; // guides[d]: what the ancestor at depth d draws for the lines below it
  const stack: Array<{ node: CallNode; last: boolean; depth: number }> = [{ node: tree.root, last: true, depth: 0 }];
  while (stack.length > 0) {
    const { node, last, depth } = stack.pop()!;
    guides.length = Math.max(depth, 0);
    let prefix = '';
    if (depth > 0) {
      const from = Math.max(1, depth - MAX_GUIDES);
      if (from > 1) prefix += `+${from - 1} `;
      for (let d = from; d < depth; d++) prefix += guides[d] ?? '   ';
      prefix += last ? '└─ ' : '├─ ';
      guides[depth] = last ? '   ' : '│  ';
    }
    const body = fit((addr) => nodeSegments(node, c, addr), o.width - 2 - prefix.length);
    yield `  ${c.dim(prefix)}${body}\n`;
    for (let i = node.children.length - 1; i >= 0; i--) {
      stack.push({ node: node.children[i]!, last: i === node.children.length - 1, depth: depth + 1 });
    }
  }
}
