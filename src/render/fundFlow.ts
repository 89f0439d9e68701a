/**
 * The report's "Fund flow": where the value went, as a graph laid out here, when the report is
 * written (dagre), and written as plain inline SVG, so the page needs no script to draw it and its
 * Content-Security-Policy stays as strict. Addresses are nodes (the actor marked, the zero address
 * named mint or burn), movements are edges numbered in the order they ran; the same asset (an NFT
 * collection is one) moved again the same way between the same two addresses is one edge with a
 * count. Past MAX_NODES addresses, or MAX_EDGES edges, the least involved addresses are one node.
 * Every text (labels, token symbols: hostile) is escaped.
 *
 * Markup contract (docs/report.md): the section carries `data-fund-flow`; one node element per
 * address with `data-address` (lower case), the grouped node `data-group` and `data-addresses`; every
 * edge `data-from`, `data-to` (an address, or "others" for the grouped node), `data-asset` ("ETH" or
 * the lower-case token), `data-count` and `data-order` (the movements' numbers, space-separated).
 */
import { type EdgeLabel, Graph, type GraphLabel, layout, type NodeLabel, type Point } from '@dagrejs/dagre';
import { ZERO_ADDRESS } from '../decode/transfers.js';
import { checksumAddress } from '../decode/keccak.js';
import type { AssetAmount } from '../model/types.js';
import { cutToWidth, displayWidth } from '../raw/escape.js';
import type { Hex } from '../raw/types.js';
import { amountText, formatUnits, groupDigits, shortAddress } from '../format/format.js';
import { NO_TREE_ETHER } from './describeNetChanges.js';
import { escapeHtml } from './html.js';

/** One movement of one asset between two holders, lower-case (the action stage's Movement). */
export interface FlowMovement extends AssetAmount {
  readonly from: Hex;
  readonly to: Hex;
}

export interface FlowInput {
  /** In the order they ran: an edge's numbers are places in this list, from 1. */
  readonly movements: readonly FlowMovement[];
  readonly actor: Hex | null;
  /** Names by lower-case address (the --json document's `labels`). */
  readonly labels: Readonly<Record<string, string>>;
  /** No call tree (--json's etherInsideCallsKnown false): ether moved inside the calls is not among the movements. */
  readonly etherUnknown?: boolean;
}

export const MAX_NODES = 40;
export const MAX_EDGES = 100;
/** The grouped node's id, and what its edges say in `data-from`/`data-to`. */
export const OTHERS = 'others';

export interface FlowNode {
  /** The lower-case address, or OTHERS. */
  readonly id: string;
  /** The address itself, or every grouped one. */
  readonly addresses: readonly Hex[];
  readonly role: 'actor' | 'address' | 'mint' | 'burn' | 'mint-burn' | 'group';
}

export interface FlowEdge {
  readonly from: string;
  readonly to: string;
  /** The first movement merged in: asset, standard, token id, symbol and decimals. */
  readonly sample: FlowMovement;
  /** The sum of the merged movements' amounts. */
  readonly amount: bigint;
  /** Their numbers in the order they ran, from 1. */
  readonly orders: readonly number[];
  /** The NFTs' ids, each once (none for ether and ERC-20). */
  readonly tokenIds: readonly string[];
}

export interface FlowGraph {
  readonly nodes: readonly FlowNode[];
  readonly edges: readonly FlowEdge[];
  /** Movements whose two ends were both grouped: not drawn. */
  readonly hidden: number;
}

/**
 * Nodes and merged edges. Past `maxNodes` addresses the actor stays, then those in the most movements
 * (the first seen first), and the rest become one node; while the edges are still more than
 * `maxEdges` (a layout's time grows faster than its edges), fewer addresses stay.
 */
export function flowGraph(input: FlowInput, maxNodes = MAX_NODES, maxEdges = MAX_EDGES): FlowGraph {
  const seen = new Map<Hex, { first: number; count: number; out: boolean; in: boolean }>();
  input.movements.forEach((m, i) => {
    for (const [a, out] of [[m.from, true], [m.to, false]] as const) {
      const s = seen.get(a) ?? { first: i, count: 0, out: false, in: false };
      s.count++;
      if (out) s.out = true;
      else s.in = true;
      seen.set(a, s);
    }
  });
  // Busiest first (the actor before all), then by first appearance.
  const rank = (a: Hex, s: { readonly count: number }): number => (a === input.actor ? Number.POSITIVE_INFINITY : s.count);
  const busiest = [...seen.entries()].sort(([a, x], [b, y]) => rank(b, y) - rank(a, x) || x.first - y.first).map(([a]) => a);
  let graph = graphKeeping(input, seen, busiest.length > maxNodes ? new Set(busiest.slice(0, maxNodes - 1)) : new Set(busiest));
  for (let kept = Math.min(maxNodes, busiest.length) - 1; graph.edges.length > maxEdges && kept > 2; ) {
    kept = Math.max(2, Math.floor(kept * 0.8));
    graph = graphKeeping(input, seen, new Set(busiest.slice(0, kept)));
  }
  return graph;
}

function graphKeeping(input: FlowInput, seen: ReadonlyMap<Hex, { readonly out: boolean; readonly in: boolean }>, keep: ReadonlySet<Hex>): FlowGraph {
  const grouped = [...seen.keys()].filter((a) => !keep.has(a));
  const idOf = (a: Hex): string => (keep.has(a) ? a : OTHERS);
  const nodes: FlowNode[] = [...seen.entries()].filter(([a]) => keep.has(a)).map(([a, s]) => {
    const role = a === input.actor ? 'actor' : a !== ZERO_ADDRESS ? 'address' : s.out && s.in ? 'mint-burn' : s.out ? 'mint' : 'burn';
    return { id: a, addresses: [a], role };
  });
  if (grouped.length > 0) nodes.push({ id: OTHERS, addresses: grouped, role: 'group' });
  const edges = new Map<string, { from: string; to: string; sample: FlowMovement; amount: bigint; orders: number[]; tokenIds: Set<string> }>();
  let hidden = 0;
  input.movements.forEach((m, i) => {
    const from = idOf(m.from);
    const to = idOf(m.to);
    if (from === OTHERS && to === OTHERS) {
      hidden++;
      return;
    }
    // NFTs of one collection are one asset here: a sweep of a thousand ids is one edge, counted.
    const key = `${from} ${to} ${m.asset}`;
    const edge = edges.get(key);
    if (edge === undefined) edges.set(key, { from, to, sample: m, amount: m.amount, orders: [i + 1], tokenIds: new Set(m.tokenId === undefined ? [] : [m.tokenId]) });
    else {
      edge.amount += m.amount;
      edge.orders.push(i + 1);
      if (m.tokenId !== undefined) edge.tokenIds.add(m.tokenId);
    }
  });
  return { nodes, edges: [...edges.values()].map(({ tokenIds, ...e }) => ({ ...e, tokenIds: [...tokenIds] })), hidden };
}

// Sizes in SVG units: text at 12px in a monospace face is ~7.3 units a column.
const COLUMN = 7.3;
const LINE = 15;
const PAD = 8;
const LABEL_COLUMNS = 34;
const EDGE_COLUMNS = 40;

interface NodeText {
  readonly lines: readonly string[];
  /** Everything known, for the hover title. */
  readonly title: string;
}

function nodeText(n: FlowNode, input: FlowInput): NodeText {
  if (n.role === 'group') {
    const lines = [`+${groupDigits(n.addresses.length)} addresses`, 'grouped'];
    return { lines, title: `${lines[0]}: ${n.addresses.map((a) => checksumAddress(a)).join(', ')}` };
  }
  const [address = n.id] = n.addresses;
  const full = checksumAddress(address);
  const label = input.labels[address];
  const roleWord = n.role === 'mint' ? 'mint' : n.role === 'burn' ? 'burn' : n.role === 'mint-burn' ? 'mint / burn' : undefined;
  const name = roleWord ?? label;
  const lines = name === undefined ? [shortAddress(full)] : [cutToWidth(name, LABEL_COLUMNS), shortAddress(full)];
  if (n.role === 'actor') lines.push('actor');
  return { lines, title: [label ?? roleWord, full, n.role === 'actor' ? 'the actor' : undefined].filter((x) => x !== undefined).join(' · ') };
}

/** A token without a symbol by its label, else its short address as the page spells addresses (EIP-55). */
const nameOf = (input: FlowInput) => (a: string): string => input.labels[a.toLowerCase()] ?? shortAddress(checksumAddress(a));

function orderText(orders: readonly number[]): string {
  const shown = orders.length <= 3 ? orders : orders.slice(0, 2);
  return `${shown.map((o) => `#${o}`).join(' ')}${orders.length > 3 ? ' …' : ''}${orders.length > 1 ? ` ×${groupDigits(orders.length)}` : ''}`;
}

function edgeText(e: FlowEdge, input: FlowInput): NodeText {
  const s = e.sample;
  const name = s.symbol ?? nameOf(input)(s.asset);
  // Several NFTs (or several ids of an ERC-1155) on one edge: how many, of which collection.
  const amount = e.tokenIds.length > 1 ? `${groupDigits(e.amount)} × ${name}` : amountText({ ...s, amount: e.amount }, nameOf(input));
  const ids = e.tokenIds.length === 0 ? '' : ` ${e.tokenIds.length === 1 ? 'id' : 'ids'} ${e.tokenIds.map((id) => `#${id}`).join(', ')}`;
  const exact = s.standard === 'ETH' ? `${formatUnits(e.amount, 18)} ETH` : s.decimals !== undefined && s.standard === 'ERC-20' ? `${formatUnits(e.amount, s.decimals)} ${name}` : `${groupDigits(e.amount)} of ${name}${ids}`;
  const token = s.asset === 'ETH' ? '' : ` (token ${checksumAddress(s.asset)})`;
  const moves = e.orders.length === 1 ? `movement #${e.orders[0]}` : `${groupDigits(e.orders.length)} movements: ${e.orders.map((o) => `#${o}`).join(', ')}`;
  return { lines: [cutToWidth(`${orderText(e.orders)} ${amount}`, EDGE_COLUMNS)], title: `${exact}${token}; ${moves}` };
}

const sizeOf = (t: NodeText): { width: number; height: number } => ({
  width: Math.ceil(Math.max(...t.lines.map(displayWidth)) * COLUMN + 2 * PAD),
  height: t.lines.length * LINE + PAD,
});

const attrs = (a: Record<string, string | number>): string => Object.entries(a).map(([k, v]) => ` ${k}="${escapeHtml(String(v))}"`).join('');
const num = (x: number): string => (Math.round(x * 10) / 10).toString();

function textLines(lines: readonly string[], x: number, top: number, cls: (i: number) => string): string {
  return lines.map((line, i) => `<text${attrs({ x: num(x), y: num(top + (i + 1) * LINE - 3), class: cls(i) })}>${escapeHtml(line)}</text>`).join('');
}

/**
 * The section: a heading, a line saying how to read it (and what was grouped), and the SVG; '' when
 * nothing moved.
 */
export function fundFlowSection(input: FlowInput, maxNodes = MAX_NODES): string {
  if (input.movements.length === 0) return '';
  const graph = flowGraph(input, maxNodes);
  const g = new Graph<GraphLabel, NodeLabel, EdgeLabel>({ multigraph: true });
  g.setGraph({ rankdir: 'LR', nodesep: 24, ranksep: 70, edgesep: 12, marginx: 8, marginy: 8 });
  const texts = graph.nodes.map((n) => ({ n, t: nodeText(n, input) }));
  for (const { n, t } of texts) g.setNode(n.id, sizeOf(t));
  const edgeTexts = graph.edges.map((e) => ({ e, t: edgeText(e, input) }));
  edgeTexts.forEach(({ e, t }, i) => {
    g.setEdge(e.from, e.to, { ...sizeOf(t), labelpos: 'c' }, String(i));
  });
  layout(g);
  const { width = 0, height = 0 } = g.graph();
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg"${attrs({ width: Math.ceil(width), height: Math.ceil(height), viewBox: `0 0 ${Math.ceil(width)} ${Math.ceil(height)}`, role: 'img', 'aria-label': 'Fund flow' })}>`);
  out.push('<defs><marker id="fund-flow-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z"/></marker></defs>');
  edgeTexts.forEach(({ e, t }, i) => {
    const laid = g.edge({ v: e.from, w: e.to, name: String(i) });
    const points: readonly Point[] = laid.points ?? [];
    const d = points.map((p, j) => `${j === 0 ? 'M' : 'L'}${num(p.x)},${num(p.y)}`).join('');
    const box = sizeOf(t);
    const cls = `edge${e.sample.asset === 'ETH' ? ' eth' : ''}`;
    out.push(`<g${attrs({ class: cls, 'data-from': e.from, 'data-to': e.to, 'data-asset': e.sample.asset, 'data-count': e.orders.length, 'data-order': e.orders.join(' ') })}>`);
    out.push(`<title>${escapeHtml(t.title)}</title><path${attrs({ d })} marker-end="url(#fund-flow-arrow)"/>`);
    out.push(`${textLines(t.lines, (laid.x ?? 0) - box.width / 2 + PAD, (laid.y ?? 0) - box.height / 2, () => 'amount')}</g>`);
  });
  for (const { n, t } of texts) {
    const laid = g.node(n.id);
    const left = laid.x - laid.width / 2;
    const top = laid.y - laid.height / 2;
    const data: Record<string, string> = n.role === 'group' ? { 'data-group': '', 'data-addresses': n.addresses.join(' ') } : { 'data-address': n.id };
    out.push(`<g${attrs({ class: `node ${n.role}`, ...data })}><title>${escapeHtml(t.title)}</title>`);
    out.push(`<rect${attrs({ x: num(left), y: num(top), width: num(laid.width), height: num(laid.height), rx: 5 })}/>`);
    out.push(`${textLines(t.lines, left + PAD, top + PAD / 2, (i) => (i === 0 ? 'name' : 'sub'))}</g>`);
  }
  out.push('</svg>');
  const addresses = graph.nodes.reduce((k, n) => k + n.addresses.length, 0);
  const group = graph.nodes.find((n) => n.role === 'group');
  const note = group === undefined ? '' : ` To stay readable (at most ${maxNodes} addresses and about ${MAX_EDGES} edges), the ${groupDigits(group.addresses.length)} addresses in the fewest movements are one node, "others"${graph.hidden > 0 ? `; ${groupDigits(graph.hidden)} ${graph.hidden === 1 ? 'movement' : 'movements'} between them ${graph.hidden === 1 ? 'is' : 'are'} not drawn` : ''}.`;
  const count = (k: number, one: string, many: string): string => `${groupDigits(k)} ${k === 1 ? one : many}`;
  return [
    `<section class="fund-flow" id="fund-flow" data-fund-flow>\n<h2>Fund flow (${count(addresses, 'address', 'addresses')}, ${count(input.movements.length, 'movement', 'movements')})</h2>\n`,
    input.etherUnknown === true ? `<p class="hint warn">${escapeHtml(NO_TREE_ETHER.fundFlow)}</p>\n` : '',
    `<p class="hint">Edges are numbered in the order the value moved; the same asset moved again the same way between the same two addresses is one edge, ×count. Mint and burn are the zero address; wrapped ether counts as minted on a deposit and burned on a withdrawal.${note}</p>\n`,
    `<div class="flow-box">${out.join('')}</div>\n</section>\n`,
  ].join('');
}
