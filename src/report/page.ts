/// <reference lib="dom" />
/**
 * The HTML report's own script (bundled and inlined by scripts/build.mjs; the page's CSP allows it by
 * its hash and nothing else). It reads the --json document embedded in the page and draws the header,
 * the call tree, a call's details, the search, the gas flame graph, logs, transfers and state changes.
 *
 * Every string from the chain, the node, an ABI, a label or the signature database goes in through
 * textContent or an attribute set one by one, never innerHTML: the page shows hostile text, it never
 * runs it. Children of collapsed nodes are not in the DOM; long child lists come in pages.
 */

import { checksumAddress } from '../decode/keccak.js';
import { calledFromChain, type PlacedFrame } from '../render/calledFromChain.js';
import { changeText, describeNetChanges, NO_TREE_ETHER } from '../render/describeNetChanges.js';
import { formatUnits, groupDigits, shortAddress } from '../format/format.js';
import type { Decoded, SourceLocation } from '../model/types.js';
import { walkCalls } from '../model/walk.js';
import { noRevertWords } from '../words/operationReason.js';
import { escapeText } from '../raw/escape.js';
import type { JsonCall, JsonDocument, JsonInternalCall, JsonRaw } from '../render/renderJson.js';
import type { JsonOutcome } from '../render/comparisonJson.js';
import { insideOrder } from '../render/insideOrder.js';
import { accessLines, accessText } from '../render/accessLines.js';
import type { RevertJson } from '../model/decodeRevert.js';
import { wrapMark } from '../render/wrapMark.js';

/**
 * The embedded document: JSON as it is, or (a large one) gzip-compressed and base64-encoded, which the
 * browser's own DecompressionStream reads back (no request: a Blob's stream, not a fetch). A compressed
 * one comes as gzip members (script#txray-parts: their lengths in bytes, and which of them hold only a
 * raw node answer this page never shows, the receipt's logs and the trace); those are left compressed
 * and read as null. DecompressionStream reads one member at a time.
 */
const data = document.getElementById('txray-data');
const compressed = data?.dataset.encoding === 'gzip+base64';

/** The members' lengths and the unread ones, where the page lists them and they add up to `total`; else one member. */
function membersOf(total: number): { lengths: number[]; unread: Set<number> } {
  const whole = { lengths: [total], unread: new Set<number>() };
  try {
    const listed: unknown = JSON.parse(document.getElementById('txray-parts')?.textContent ?? 'null');
    if (typeof listed !== 'object' || listed === null || !('members' in listed) || !('unread' in listed)) return whole;
    const { members, unread } = listed;
    if (!Array.isArray(members) || !Array.isArray(unread) || !members.every((n) => Number.isSafeInteger(n) && n > 0)) return whole;
    return members.reduce((a: number, b: number) => a + b, 0) === total ? { lengths: members, unread: new Set(unread) } : whole;
  } catch {
    return whole;
  }
}

const inflate = (bytes: Uint8Array<ArrayBuffer>): Promise<string> => new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).text();

async function loadDocument(): Promise<JsonDocument> {
  const text = data?.textContent ?? 'null';
  if (!compressed) return JSON.parse(text) ?? {};
  if (typeof DecompressionStream === 'undefined') throw new Error('this browser cannot decompress it (DecompressionStream: Chrome 80, Firefox 113, Safari 16.4 and later)');
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  const { lengths, unread } = membersOf(bytes.length);
  const texts: Array<Promise<string>> = [];
  let at = 0;
  for (const [i, length] of lengths.entries()) {
    texts.push(unread.has(i) ? Promise.resolve('null') : inflate(bytes.subarray(at, at + length)));
    at += length;
  }
  return JSON.parse((await Promise.all(texts)).join('')) ?? {};
}

const doc: JsonDocument = await loadDocument().catch((err: unknown) => {
  // Said on the page, not only in the console: what happened, and how to read the data without it.
  const why = err instanceof Error ? err.message : String(err);
  document.body.append(h('p', { class: 'unreadable' }, `This report's data could not be read: ${why}. It is the --json document, gzip-compressed and base64-encoded in script#txray-data; base64 -d | gunzip reads it.`));
  throw err;
});
const labels: Record<string, string> = doc.labels ?? {};
const root: JsonCall | null = doc.calls ?? null;

/** How many children a node shows before a "show more" row, and how deep a large tree opens. */
const PAGE = 500;
const SMALL_TREE = 300;

// Small DOM helpers: text always through textContent.

function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...children: Array<Node | string | null>): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  for (const c of children) if (c !== null) e.append(typeof c === 'string' ? wrapping(c) : c);
  return e;
}

/**
 * Text that wraps where a reader expects: a browser may break a line after an ellipsis, and not after a
 * signature's commas; here a short address never splits, and a signature may wrap after each comma.
 * The text itself is unchanged (a span, a <wbr>).
 */
function wrapping(text: string): Node {
  if (!text.includes('…') && !text.includes(',')) return document.createTextNode(text);
  const out = document.createDocumentFragment();
  let at = 0;
  // A shortened address or hash ("0x5FbD…0aa3"), or a comma with no space after it (a signature's "uint256,address").
  // (A literal here: h() also runs before the module's constants are set, for the page that cannot read its data.)
  for (const m of text.matchAll(/(0x[0-9a-fA-F]+…[0-9a-fA-F]+)|,(?=[^\s\d])/g)) {
    out.append(text.slice(at, m.index));
    if (m[1] !== undefined) {
      const span = document.createElement('span');
      span.className = 'nowrap';
      span.textContent = m[1];
      out.append(span);
    } else out.append(',', document.createElement('wbr'));
    at = m.index + m[0].length;
  }
  out.append(text.slice(at));
  return out;
}

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number> = {}): SVGElementTagNameMap[K] {
  const e = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

/** A field of a verbatim node answer, when it is a string (the answer is hostile: anything else is left out). */
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const big = (v: string | null | undefined): bigint => (v === null || v === undefined ? 0n : BigInt(v));
const eth = (wei: bigint): string => (wei !== 0n && (wei < 0n ? -wei : wei) < 10n ** 12n ? `${groupDigits(wei)} wei` : `${formatUnits(wei, 18)} ETH`);
/**
 * An address as the text view shows it: EIP-55 checksummed (the embedded document keeps the node's
 * spelling, mostly lower case; the page hashes each address once, with the CLI's own keccak).
 */
const checksummed = (a: string): string => (/^0x[0-9a-fA-F]{40}$/.test(a) ? checksumAddress(a) : a);
const short = (a: string): string => (a.length > 14 ? shortAddress(checksummed(a)) : a);
const pathOf = (n: JsonCall): string => n.traceAddress.join('.');

const delegations: Record<string, string> = doc.delegations ?? {};
const instances: Record<string, string> = doc.instances ?? {};

/** A contract's name as the text view's tree says it: its label, and what tells it apart where two shown bear it ("Token(DAI)"). */
function nameOf(a: string): string | undefined {
  const label = labels[a.toLowerCase()];
  const tag = instances[a.toLowerCase()];
  return label === undefined || tag === undefined ? label : `${label}(${tag})`;
}

function addressText(a: string | null | undefined, full = false): string {
  if (!a) return '—';
  const label = labels[a.toLowerCase()];
  const shown = full ? checksummed(a) : short(a);
  if (label !== undefined) return `${label}(${shown})`;
  // EIP-7702: an account running a delegate's code is named by it, as in the text view.
  const delegate = delegations[a.toLowerCase()];
  return delegate === undefined ? shown : `${shown} (delegated to ${labels[delegate] ?? short(delegate)})`;
}

/** A whole address with its label, as addressText writes it, that may wrap after the label's "(" in a narrow panel. */
function fullAddress(a: string | null | undefined): Node {
  const text = addressText(a, true);
  const at = text.lastIndexOf('(0x');
  return at < 0 ? document.createTextNode(text) : h('span', {}, text.slice(0, at + 1), h('wbr'), text.slice(at + 1));
}

function valueText(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(valueText).join(', ')}]`;
  if (v !== null && typeof v === 'object') return `(${Object.entries(v).map(([k, x]) => `${k}: ${valueText(x)}`).join(', ')})`;
  if (typeof v === 'string' && /^0x[0-9a-fA-F]{40}$/.test(v)) return addressText(v);
  return String(v);
}

/** A bytes value that is revert data (a caught revert passed on), in the text view's words: `Error("…") (revert data)`. */
function revertData(r: RevertJson): string | null {
  if (r.kind === 'Error') return `Error("${r.message}") (revert data)`;
  if (r.kind === 'Panic') return `Panic(0x${r.code.slice(2).padStart(2, '0')}): ${r.meaning} (revert data)`;
  return r.kind === 'custom' && r.name ? `${r.name}(${argsText(r.args)}) (revert data)` : null;
}

const argValue = (a: Decoded['args'][number]): string => (a.revert !== undefined ? revertData(a.revert) : null) ?? valueText(a.value);

function argsText(args: Decoded['args'] | undefined): string {
  return (args ?? []).map((a) => (a.name ? `${a.name}: ${argValue(a)}` : a.name === undefined ? `${a.type}: ${argValue(a)}` : argValue(a))).join(', ');
}
/** "transfer(…)", or for guessed types "0xe10076ad(…) (guessed types)". */
const callText = (f: Decoded): string => (f.name === null ? `${f.selector ?? '?'}(${argsText(f.args)}) (guessed types)` : `${f.name}(${argsText(f.args)})`);

function callName(n: JsonCall): string {
  const target = n.to ? (nameOf(n.to) ?? short(n.to)) : '?';
  if (n.type === 'suicide') return `selfdestruct → ${addressText(n.to)}`;
  if (n.type === 'create') return `${target}${n.function ? `(${argsText(n.function.args)})` : ''}`;
  const fn = n.function ? callText(n.function) : n.input && n.input.length >= 10 ? n.input.slice(0, 10) : '';
  // A precompile is its own function: "ecrecover(hash: …)", not "ecrecover::ecrecover(…)".
  if (n.function?.contract === 'precompile') return fn;
  return `${target}${fn ? `::${fn}` : ''}`;
}

const kindOf = (n: JsonCall): string => (n.type === 'call' ? (n.callType ?? 'call') : n.type === 'suicide' ? 'selfdestruct' : n.type === 'create' ? (n.creationMethod ?? 'create') : n.type);

/** A failed call's error in one word for a revert, as in the text view (geth writes "execution reverted"). */
const errorWord = (error: string | null): string | null => (error !== null && /revert/i.test(error) ? 'Reverted' : error);

function revertText(n: JsonCall): string | null {
  return namedRevert(n.revert) ?? errorWord(n.error);
}

/** A revert that says more than the tracer's word (not an unnamed custom error, not empty data). */
const namedRevert = (r: RevertJson | null | undefined): string | null => (r != null && r.kind !== 'empty' && (r.kind !== 'custom' || r.name) ? revertWords(r) : null);

// The model of the page: nodes by path, parents, expansion.

const parent = new Map<JsonCall, JsonCall>();
const byPath = new Map<string, JsonCall>();
const all: JsonCall[] = [];
if (root !== null) {
  walkCalls(root, (n, up) => {
    all.push(n);
    byPath.set(pathOf(n), n);
    if (up !== null) parent.set(n, up);
  });
}
const failedBelow = new Set<JsonCall>();
for (const n of all) {
  if (n.error === null) continue;
  for (let p: JsonCall | undefined = n; p !== undefined && !failedBelow.has(p); p = parent.get(p)) failedBelow.add(p);
}

const expanded = new Set<JsonCall>();
const shownChildren = new Map<JsonCall, number>();
const elements = new Map<JsonCall, HTMLLIElement>();
let selected: JsonCall | null = null;
const hits = new Set<JsonCall>();

function openPath(n: JsonCall): void {
  for (let p = parent.get(n); p !== undefined; p = parent.get(p)) {
    expanded.add(p);
    const siblings = p.children.indexOf(n);
    if (siblings >= (shownChildren.get(p) ?? PAGE)) shownChildren.set(p, siblings + 1);
    n = p;
  }
}

const depthOf = (n: JsonCall): number => n.traceAddress.length;

/** The calls from the root down to the one at `traceAddress`; none where the tree lacks one of them. */
function pathTo(traceAddress: readonly unknown[]): JsonCall[] {
  const out: JsonCall[] = [];
  for (let k = 0; k <= traceAddress.length; k++) {
    const n = byPath.get(traceAddress.slice(0, k).join('.'));
    if (n === undefined) return [];
    out.push(n);
  }
  return out;
}

// The tree.

const treeRoot = h('ul', { class: 'tree', role: 'tree' });

/** A row that opens: a call with calls, or (--internal) with internal calls. */
const opens = (n: JsonCall): boolean => n.children.length > 0 || (n.internalCalls?.length ?? 0) > 0;

function row(n: JsonCall): HTMLLIElement {
  const li = h('li', { 'data-trace-address': pathOf(n), role: 'treeitem', class: `call${n.error !== null ? ' failed' : failedBelow.has(n) ? ' failed-below' : ''}${hits.has(n) ? ' hit' : ''}${selected === n ? ' selected' : ''}` });
  const line = h('div', { class: 'line' });
  if (opens(n)) {
    li.setAttribute('aria-expanded', expanded.has(n) ? 'true' : 'false');
    const toggle = h('button', { class: 'toggle', type: 'button', 'aria-label': expanded.has(n) ? 'collapse' : 'expand' }, expanded.has(n) ? '▾' : '▸');
    toggle.addEventListener('click', (e) => {
      e.stopPropagation();
      if (expanded.has(n)) expanded.delete(n);
      else expanded.add(n);
      redraw(n);
    });
    line.append(toggle);
  } else line.append(h('span', { class: 'leaf' }, '·'));
  // The words wrap at their spaces beside the toggle, never under it: a long line is read whole, in the panel.
  const text = h('span', { class: 'text' }, h('span', { class: 'kind' }, kindOf(n)), ' ', h('span', { class: 'name' }, callName(n)));
  if (n.value !== null && big(n.value) > 0n) text.append(h('span', { class: 'value' }, ` · ${eth(big(n.value))}`));
  // The root line's gas is the transaction's, as the text view shows it whatever the tracer (the receipt's).
  const gasUsed = n === doc.calls && typeof doc.receipt?.gasUsed === 'string' ? doc.receipt.gasUsed : n.gasUsed;
  text.append(h('span', { class: 'gas' }, gasUsed !== null ? ` · ${groupDigits(big(gasUsed))} gas` : ''));
  const why = n.error !== null ? revertText(n) : null;
  if (why !== null) text.append(h('span', { class: 'error' }, ` ✗ ${why}`));
  line.append(text);
  line.addEventListener('click', () => select(n));
  li.append(line);
  if (opens(n) && expanded.has(n) && n.internalCalls !== undefined) li.append(insideRows(n, null));
  else if (n.children.length > 0 && expanded.has(n)) {
    const ul = h('ul', { role: 'group' });
    const limit = Math.min(n.children.length, shownChildren.get(n) ?? PAGE);
    for (let i = 0; i < limit; i++) ul.append(row(n.children[i]!));
    if (limit < n.children.length) {
      const more = h('button', { type: 'button', class: 'more', 'data-action': 'show-more' }, `show ${groupDigits(Math.min(PAGE, n.children.length - limit))} more of ${groupDigits(n.children.length - limit)}`);
      more.addEventListener('click', () => {
        shownChildren.set(n, limit + PAGE);
        redraw(n);
      });
      ul.append(h('li', { class: 'more-row' }, more));
    }
    li.append(ul);
  }
  elements.set(n, li);
  return li;
}

/** --internal: what ran inside frame `n` (at its top level, or inside one of its internal calls), in order: internal calls as rows of their own, its calls as rows. */
function insideRows(n: JsonCall, level: JsonInternalCall | null): HTMLUListElement {
  const ul = h('ul', { role: 'group' });
  for (const item of insideOrder(n.children.length, n.internalCalls ?? [], level)) {
    if ('call' in item) {
      ul.append(row(n.children[item.call]!));
      continue;
    }
    const x = item.internal;
    const text = h('span', { class: 'text' }, h('span', { class: 'kind' }, '◦'), ' ', h('span', { class: 'name' }, x.contract === null ? x.name : `${x.contract}.${x.name}`), h('span', { class: 'gas' }, ` · ${groupDigits(big(x.gasUsed))} gas`));
    if (x.reverted === true) text.append(h('span', { class: 'error' }, ' ✗ running when it reverted'));
    const li = h('li', { role: 'treeitem', class: `internal${x.reverted === true ? ' failed' : ''}`, title: `${x.file}:${x.line}` }, h('div', { class: 'line' }, h('span', { class: 'leaf' }, '·'), text));
    if (x.children.length > 0 || (x.calls?.length ?? 0) > 0) li.append(insideRows(n, x));
    ul.append(li);
  }
  return ul;
}

/** Draw `n`'s subtree again (or the whole tree), in place. */
function redraw(n: JsonCall | null = null): void {
  const old = n === null ? undefined : elements.get(n);
  if (n !== null && old?.isConnected) {
    old.replaceWith(row(n));
    return;
  }
  treeRoot.replaceChildren();
  if (root !== null) treeRoot.append(row(root));
}

// Details.

const details = h('section', { class: 'details', id: 'details', 'aria-live': 'polite' }, h('p', { class: 'hint' }, 'Click a call to see its details.'));

/** A row of a key-value table; what cannot wrap at a space scrolls inside its cell, never past the panel. */
function kv(table: HTMLTableElement, key: string, value: string | Node): void {
  table.append(h('tr', {}, h('th', {}, key), h('td', {}, h('div', { class: 'cell' }, value))));
}

/**
 * Hex data that may wrap between groups of 8 bytes (after a call's 4-byte selector), never inside one:
 * `<wbr>` between them, so the text (and a copy of it) is the data unchanged.
 */
function hexText(hex: string, selector: boolean): Node {
  const out = h('code', { class: 'hex' });
  let at = selector && hex.length >= 10 ? 10 : 2;
  out.append(hex.slice(0, at));
  for (; at < hex.length; at += 16) out.append(h('wbr'), hex.slice(at, at + 16));
  return out;
}

function rawData(hex: string | null, selector = false): Node {
  if (hex === null) return document.createTextNode('—');
  if (hex.length <= 138) return hexText(hex, selector);
  return h('details', {}, h('summary', {}, `${(hex.length - 2) / 2} bytes`), hexText(hex, selector));
}

/** A frame as calledFromChain reads it. */
const placed = (n: JsonCall): PlacedFrame => ({ failed: n.error !== null, place: n.sourceLocation, calledFrom: n.calledFrom, signature: n.function?.signature });

/** "called from" rows, in the text view's words: "src/Vault.sol:18:9  withdraw(uint256)". */
function calledFromRows(t: HTMLTableElement, frames: readonly JsonCall[]): void {
  for (const { place, signature } of calledFromChain(frames.map(placed))) kv(t, 'called from', `${visible(place.file)}:${place.line}:${place.column}${signature ? `  ${signature}` : ''}`);
}

/** The text view's log number: the receipt's logIndex (the block's count), else the position. */
function logNumber(l: JsonRaw | undefined, i: number): string {
  const index = l?.logIndex;
  return typeof index === 'string' && /^0x[0-9a-fA-F]{1,16}$/.test(index) ? BigInt(index).toString() : String(i);
}

function select(n: JsonCall): void {
  const previous = selected;
  selected = n;
  if (previous !== null) elements.get(previous)?.classList.remove('selected');
  elements.get(n)?.classList.add('selected');
  const t = h('table', { class: 'kv' });
  kv(t, 'call', `${kindOf(n)} at [${n.traceAddress.join(',')}], depth ${depthOf(n)}`);
  kv(t, 'from', fullAddress(n.from));
  kv(t, 'to', fullAddress(n.to));
  if (n.value !== null) kv(t, 'value', eth(big(n.value)));
  kv(t, 'gas', `${n.gasUsed !== null ? groupDigits(big(n.gasUsed)) : 'unknown'} used of ${n.gas !== null ? groupDigits(big(n.gas)) : '?'}`);
  if (n.function) {
    const sig = n.function.signature ?? `${n.function.selector ?? '?'} (no source names it; types guessed from the data's layout)`;
    kv(t, 'function', `${sig}${n.function.contract ? ` (${n.function.contract})` : ''}`);
    for (const a of n.function.args) kv(t, `  ${a.name || (a.name === undefined ? '(guessed)' : '(unnamed)')}`, `${a.type} = ${valueText(a.value)}`);
  }
  for (const a of n.outputs ?? []) kv(t, `  returns ${a.name || ''}`, `${a.type} = ${valueText(a.value)}`);
  if (n.error !== null) kv(t, 'error', revertText(n) ?? n.error);
  if (n.sourceLocation) {
    kv(t, 'where', sourceView(n.sourceLocation));
    calledFromRows(t, [n]);
  }
  kv(t, n.type === 'create' ? 'init code' : 'input', rawData(n.input, n.type === 'call'));
  kv(t, n.type === 'create' ? 'code' : 'output', rawData(n.output));
  const logs = doc.logs ?? [];
  for (const i of n.logs ?? []) {
    const l = logs[i];
    if (l) kv(t, `event #${logNumber(l, i)}`, l.event ? `${l.event.name}(${argsText(l.event.args)})` : (topicsOf(l)[0] ?? 'anonymous'));
  }
  // --storage: every access, in the text view's words (identical reads in a row as one row).
  for (const line of accessLines(n.storage ?? [], true)) if ('access' in line) kv(t, 'storage', accessText(line));
  details.replaceChildren(h('h3', {}, callName(n)), t);
}

// Search.

const searchBox = h('input', { type: 'search', placeholder: 'search calls: address, label, contract, function, selector', 'aria-label': 'search calls' });
const searchCount = h('span', { class: 'count' });

function matches(n: JsonCall, q: string): boolean {
  const fields = [n.to, n.from, n.to ? nameOf(n.to) : undefined, n.function?.name, n.function?.contract, n.function?.signature, n.input?.slice(0, 10)];
  return fields.some((f) => f?.toLowerCase().includes(q));
}

function search(): void {
  const q = searchBox.value.trim().toLowerCase();
  hits.clear();
  if (q !== '') {
    for (const n of all) {
      if (!matches(n, q)) continue;
      hits.add(n);
      if (hits.size <= 500) openPath(n);
    }
  }
  searchCount.textContent = q === '' ? '' : `${groupDigits(hits.size)} ${hits.size === 1 ? 'call matches' : 'calls match'}${hits.size > 500 ? ' (the first 500 opened)' : ''}`;
  redraw();
  const first = [...hits][0];
  if (first !== undefined) elements.get(first)?.scrollIntoView({ block: 'nearest' });
}

let searchTimer: number | undefined;
searchBox.addEventListener('input', () => {
  window.clearTimeout(searchTimer);
  searchTimer = window.setTimeout(search, 120);
});

// Controls.

function button(label: string, action: string, run: () => void): HTMLButtonElement {
  const b = h('button', { type: 'button', 'data-action': action }, label);
  b.addEventListener('click', run);
  return b;
}

const depthInput = h('input', { type: 'number', min: '0', value: '2', 'aria-label': 'depth', class: 'depth' });
const controls = h(
  'div',
  { class: 'controls' },
  button('expand all', 'expand-all', () => {
    for (const n of all) if (opens(n)) expanded.add(n);
    redraw();
  }),
  button('collapse all', 'collapse-all', () => {
    expanded.clear();
    redraw();
  }),
  button('to depth', 'to-depth', () => {
    const d = Math.max(0, Number(depthInput.value) || 0);
    expanded.clear();
    for (const n of all) if (opens(n) && depthOf(n) < d) expanded.add(n);
    redraw();
  }),
  depthInput,
  searchBox,
  searchCount,
);

// The gas flame graph (icicle).

const FLAME_WIDTH = 1200;
const BAR = 18;
/** Past this many calls, bars under half a pixel are left out (and with them their subtrees). */
const ALL_BARS = 5000;
const flameBox = h('div', { class: 'flame' });
let flameRoot: JsonCall | null = root;

/** A bar's label, cut to its width. */
function barLabel(name: string, x: number, w: number, d: number): SVGElement {
  const label = svg('text', { x: (x + 3).toFixed(2), y: d * BAR + 13 });
  // Cut between code points (an emoji is two UTF-16 units): never half a character.
  const chars = Array.from(name);
  label.textContent = chars.length * 7 > w ? `${chars.slice(0, Math.max(1, Math.floor(w / 7) - 1)).join('')}…` : name;
  return label;
}

function drawFlame(): void {
  flameBox.replaceChildren();
  if (flameRoot === null) return;
  const top = flameRoot;
  const total = Number(big(top.gasUsed)) || 1;
  const scale = FLAME_WIDTH / total;
  let maxDepth = 0;
  const inner: Array<{ x: JsonInternalCall; at: number; w: number; d: number }> = [];
  const bars: Array<{ n: JsonCall; x: number; w: number; d: number }> = [];
  const stack: Array<{ n: JsonCall; x: number; d: number }> = [{ n: top, x: 0, d: 0 }];
  while (stack.length > 0) {
    const { n, x, d } = stack.pop()!;
    const w = Number(big(n.gasUsed)) * scale;
    if (all.length > ALL_BARS && w < 0.5) continue;
    maxDepth = Math.max(maxDepth, d);
    bars.push({ n, x, w, d });
    // --internal: the internal calls sit under their call, and the calls made inside them under them.
    const lay = (level: JsonInternalCall | null, x0: number, depth: number): void => {
      let cx = x0;
      for (const item of n.internalCalls === undefined ? n.children.map((_, call) => ({ call })) : insideOrder(n.children.length, n.internalCalls, level)) {
        if ('call' in item) {
          const c = n.children[item.call]!;
          if (c.type === 'suicide') continue;
          stack.push({ n: c, x: cx, d: depth });
          cx += Number(big(c.gasUsed)) * scale;
          continue;
        }
        const gas = Number(big(item.internal.gasUsed)) * scale;
        inner.push({ x: item.internal, at: cx, w: gas, d: depth });
        maxDepth = Math.max(maxDepth, depth);
        lay(item.internal, cx, depth + 1);
        cx += gas;
      }
    };
    lay(null, x, d + 1);
  }
  const picture = svg('svg', { width: FLAME_WIDTH, height: (maxDepth + 1) * BAR, viewBox: `0 0 ${FLAME_WIDTH} ${(maxDepth + 1) * BAR}`, role: 'img', 'aria-label': 'gas flame graph' });
  for (const { x, at, w, d } of inner) {
    const g = svg('g', { class: `bar internal${x.reverted === true ? ' failed' : ''}` });
    const rect = svg('rect', { x: at.toFixed(2), y: d * BAR, width: Math.max(0, w).toFixed(2), height: BAR - 1, 'data-gas': x.gasUsed });
    const title = svg('title');
    const name = x.contract === null ? x.name : `${x.contract}.${x.name}`;
    title.textContent = `◦ ${name} · ${groupDigits(big(x.gasUsed))} gas`;
    rect.append(title);
    g.append(rect);
    if (w > 40) g.append(barLabel(`◦ ${name}`, at, w, d));
    picture.append(g);
  }
  for (const { n, x, w, d } of bars) {
    const g = svg('g', { class: `bar${n.error !== null ? ' failed' : ''}` });
    const rect = svg('rect', { x: x.toFixed(2), y: d * BAR, width: Math.max(0, w).toFixed(2), height: BAR - 1, 'data-trace-address': pathOf(n), 'data-gas': n.gasUsed === null ? '' : big(n.gasUsed).toString() });
    const title = svg('title');
    title.textContent = `${callName(n)} · ${n.gasUsed !== null ? groupDigits(big(n.gasUsed)) : 'unknown'} gas`;
    rect.append(title);
    rect.addEventListener('click', () => {
      flameRoot = n === flameRoot ? (parent.get(n) ?? root) : n;
      drawFlame();
      openPath(n);
      redraw();
      select(n);
    });
    g.append(rect);
    if (w > 40) g.append(barLabel(callName(n), x, w, d));
    picture.append(g);
  }
  flameBox.append(picture);
  if (flameRoot !== root) flameBox.prepend(button('whole transaction', 'flame-reset', () => {
    flameRoot = root;
    drawFlame();
  }));
}

// Header, logs, transfers, state.

function section(title: string, ...content: Array<Node | string | null>): HTMLElement {
  return h('section', {}, h('h2', {}, title), ...content);
}

const tableRow = (r: Array<string | Node>): HTMLTableRowElement => h('tr', {}, ...r.map((c) => h('td', {}, c)));

/**
 * A table in a box of the page's width: what cannot wrap scrolls inside the box, never widens the page.
 * `body`: given where the caller adds rows later.
 */
function tableOf(head: string[], rows: Array<Array<string | Node>>, kind = '', body = h('tbody')): HTMLElement {
  const t = h('table', { class: `grid${kind ? ` ${kind}` : ''}` }, h('thead', {}, h('tr', {}, ...head.map((c) => h('th', {}, c)))));
  for (const r of rows) body.append(tableRow(r));
  t.append(body);
  return h('div', { class: 'table-box' }, t);
}

/** Control, format and bidi characters of a source line shown as escapes (the text is a stranger's, as every other). */
const visible = (line: string): string => line.replaceAll('\t', '    ').replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, (ch) => `\\u{${ch.codePointAt(0)!.toString(16)}}`);

/** A failure's place: "file:line:column", then the lines around it, the failing one marked. */
function sourceView(l: SourceLocation): HTMLElement {
  const lines = l.context.lines.map((text, i) => {
    const number = l.context.firstLine + i;
    // A line of its own that wraps at its spaces under its code, past the number: never cut, never scrolled away.
    return h('span', { class: number === l.line ? 'line failing' : 'line' }, `${String(number).padStart(5)} ${number === l.line ? '▶' : ' '} ${visible(text)}\n`);
  });
  return h('div', {}, h('code', {}, `${visible(l.file)}:${l.line}:${l.column}${l.approximate ? ' (approximate: the function it lies in)' : ''}`), h('pre', { class: 'source' }, ...lines));
}

/** A revert as the text view says it: Error's message, the Panic's meaning, a custom error by name; null where none is decoded. */
function revertWords(rv: RevertJson | null | undefined): string | null {
  if (rv?.kind === 'Error') return `Error: ${rv.message}`;
  // Spelled as the text view spells it (describeRevert): the code in two digits at least.
  if (rv?.kind === 'Panic') return `Panic(0x${(rv.code ?? '0x').slice(2).padStart(2, '0')}): ${rv.meaning ?? ''}`;
  if (rv?.kind === 'custom') return rv.name ? `${rv.name}(${argsText(rv.args)})` : `custom error ${rv.selector}`;
  if (rv?.kind === 'text') return rv.text;
  return rv?.kind === 'empty' ? 'reverted without data' : null;
}

/** The run's warnings, as the terminal says them on stderr (an edited source file, a block's hash given as a transaction's…). */
function warningsList(): HTMLElement | string {
  const ws = (doc.warnings ?? []).filter((w): w is string => typeof w === 'string');
  return ws.length === 0 ? '' : h('ul', { class: 'warnings' }, ...ws.map((w) => h('li', {}, `warning: ${w}`)));
}

function header(): HTMLElement {
  const tx = doc.transaction;
  const r = doc.receipt;
  const sim = doc.simulation ?? null;
  const t = h('table', { class: 'kv' });
  // What it did, first, as the text view's Action line says it.
  if (doc.action) kv(t, 'action', h('strong', {}, doc.action.summary));
  kv(t, 'status', doc.outcome === 'partial' ? `${String(doc.status)}, partial: ${failedCount()}` : String(doc.status));
  // txray call: a simulation, said plainly; its gas and block come from the simulation, not a receipt.
  const rerun = doc.replayOf;
  if (rerun) kv(t, 're-run of', `${rerun.hash} ${rerun.at === 'position' ? `at its position in block ${groupDigits(big(sim?.block.number ?? '0'))} (index ${String(rerun.transactionIndex)})` : sim?.block.asked === 'pending' ? `on the pending state (block ${groupDigits(big(rerun.at))}, not mined yet)` : `on the state after block ${groupDigits(big(rerun.at))}`}${rerun.changed ? ', changed' : ''}: nothing was sent`);
  else if (sim) kv(t, 'simulated', `at block ${groupDigits(big(sim.block.number))} (${String(sim.block.asked)}) by ${String(sim.method)}: not a mined transaction, nothing was sent`);
  if (sim?.gasUsed) kv(t, 'gas', `${groupDigits(big(sim.gasUsed))} used`);
  // What a call returned, as the text view's Returns row says it (cast call prints it too).
  const output = sim?.output ?? root?.output ?? null;
  if (sim && output && doc.status === 'success') {
    const outputs = root?.output === output ? root.outputs : undefined;
    kv(t, 'returns', output === '0x' ? 'nothing' : outputs !== undefined && outputs.length > 0 ? (outputs.length === 1 && !outputs[0]!.name ? argValue(outputs[0]!) : `(${argsText(outputs)})`) : `${output} (not decoded)`);
  }
  if (tx) {
    kv(t, 'from', addressText(str(tx.from), true));
    const created = str(r?.contractAddress);
    kv(t, 'to', str(tx.to) ? addressText(str(tx.to), true) : `contract creation${created ? ` → ${addressText(created, true)}` : ''}`);
    kv(t, 'value', eth(big(str(tx.value))));
  }
  const used = str(r?.gasUsed);
  const limit = str(tx?.gas);
  if (used) kv(t, 'gas', `${groupDigits(big(used))} used${limit ? ` of ${groupDigits(big(limit))}` : ''}`);
  // The fee as the text view gives it (an OP Stack chain's L1 data fee included; a deposit pays none).
  const fee = doc.fee ?? null;
  if (fee) {
    const l1 = fee.rules === 'op-stack' && fee.l1Fee !== '0' ? ` (L2 execution ${eth(big(fee.execution))} + L1 data fee ${eth(big(fee.l1Fee))})` : '';
    kv(t, 'fee', fee.mint !== null && fee.mint !== undefined && fee.paid === '0' ? 'none (a deposit pays for its gas on L1)' : `${eth(big(fee.paid))}${l1}`);
  }
  const block = str(tx?.blockNumber) ?? str(r?.blockNumber);
  if (block) kv(t, 'block', groupDigits(big(block)));
  if (doc.function) kv(t, 'input', nestedList(doc.function));
  const f = doc.failure;
  if (f) {
    // The one line the other views say it in (an older document without it: the error word).
    const why = typeof f.reason === 'string' ? f.reason : (f.error ?? 'unknown');
    kv(t, 'why it failed', why);
    // Where it was raised, in the text view's words; the trace path stays in the data.
    if (typeof f.raisedIn === 'string') kv(t, 'raised in', f.raisedIn);
    if (f.sourceLocation) {
      kv(t, 'where', sourceView(f.sourceLocation));
      if (Array.isArray(f.origin)) calledFromRows(t, pathTo(f.origin));
    }
  }
  // A success that carried a failed operation is not a plain success, at a glance either.
  const badge = doc.outcome === 'partial' ? 'partial' : String(doc.status);
  return h('header', {}, h('h1', {}, h('span', { class: `status ${badge}` }, badge), ' ', h('code', {}, String(doc.hash ?? (sim ? 'simulation' : '')))), warningsList(), t);
}

/** txray call --tx: the mined outcome beside the new one, as the text view's section says them. */
function comparisonSection(): HTMLElement | null {
  const c = doc.comparison;
  const r = doc.replayOf;
  if (!c || !r) return null;
  const status = (o: JsonOutcome): string => (o.status === 'success' ? '✔ success' : '✘ reverted');
  const gas = (o: JsonOutcome): string => (o.gasUsed === null ? '?' : groupDigits(big(o.gasUsed)));
  const revert = (o: JsonOutcome): string => (o.error !== undefined ? o.error : o.revert === null ? (o.status === 'success' ? 'none' : 'not known') : (revertWords(o.revert) ?? 'not decoded'));
  const rows = [
    ['status', status(c.mined), status(c.now)],
    ['gas used', gas(c.mined), gas(c.now)],
    ['revert', revert(c.mined), revert(c.now)],
    ['logs', String(c.mined.logs), String(c.now.logs)],
    // The net changes where they differ, as the text view's rows (each holder and asset once).
    ...(c.netChanges ?? []).map((n) => {
      const text = (change: string): string => (big(change) === 0n ? 'none' : changeText({ ...n, change: big(change) }, { address: (a) => addressText(a), symbol: escapeText }));
      // Where the mined lookup named the holder otherwise (an override's code is another contract), each side's name.
      const names = n.names === undefined ? '' : ` (${[n.names.mined === null ? null : `mined: ${n.names.mined}`, n.names.now === null ? null : `now: ${n.names.now}`].filter((x) => x !== null).join(', ')})`;
      return [`net change ${n.names === undefined ? addressText(n.holder) : `${short(n.holder)}${names}`}`, text(n.mined), text(n.now)];
    }),
  ];
  const note = r.reproduced === true ? 'Reproduces the receipt: the same status, gas used and logs (address, topics, data, order).' : r.reproduced === false ? `Differs from the receipt: ${r.differences.join('; ')}` : null;
  return section('Compared with the mined transaction', tableOf(['', 'mined', 'now'], rows, 'comparison'), note === null ? null : h('p', { class: 'hint' }, note));
}

/** The input's call, and the calls inside its bytes arguments (a list per level), as the text view shows them. */
function nestedList(f: Decoded): Node {
  const items: HTMLElement[] = [];
  for (const [i, a] of f.args.entries()) {
    const name = a.name ? a.name : `arg${i}`;
    const inner: Array<[string, Decoded | undefined, string]> = [
      ...(a.call !== undefined ? [[name, a.call, ''] as [string, Decoded, string]] : []),
      ...(a.calls ?? []).map((n): [string, Decoded, string] => [`${name}${n.path}`, n.call, '']),
      ...(a.transactions ?? []).map((t, k): [string, Decoded | undefined, string] => [`${name}[${k}]`, t.call, `${t.operation === 1 ? 'delegatecall' : 'call'} ${addressText(t.to)}${big(t.value) > 0n ? ` · ${eth(big(t.value))}` : ''}: `]),
    ];
    for (const [where, call, head] of inner) items.push(h('li', {}, h('span', { class: 'path' }, `${where} → `), head, call !== undefined ? nestedList(call) : 'data not decoded'));
  }
  const text = callText(f);
  return items.length === 0 ? document.createTextNode(text) : h('div', { class: 'nested' }, text, h('ul', {}, ...items));
}

/** EIP-7702: who delegated to what, and whether it took effect. */
function authorizationsSection(): HTMLElement | null {
  const list = doc.authorizations ?? [];
  if (list.length === 0) return null;
  const applied = (a: (typeof list)[number]): string => (a.applied === true ? 'applied' : a.applied === false ? `not applied: ${a.reason ?? ''}` : `not known: ${a.reason ?? ''}`);
  const rows = list.map((a) => [a.authority === null ? 'signer not recovered' : checksummed(a.authority), a.revocation ? 'revoked (its delegation cleared)' : addressText(a.address), a.chainId ?? '?', a.nonce ?? '?', applied(a)]);
  return section(`Authorizations (${list.length})`, tableOf(['authority', 'delegates to', 'chain', 'nonce', 'applied'], rows, 'authorizations'));
}

/** A verbatim log's topics, the strings among them. */
const topicsOf = (l: JsonRaw): string[] => (Array.isArray(l.topics) ? l.topics.filter((t): t is string => typeof t === 'string') : []);

/** "1 of 2 user operations failed" (and of Safe transactions), as the text view's Status line. */
function failedCount(): string {
  const ops = doc.operations ?? [];
  return [['userOperation', 'user operation'], ['safeTransaction', 'Safe transaction']].flatMap(([kind, word]) => {
    const all = ops.filter((o) => o.kind === kind);
    const failed = all.filter((o) => o.success === false).length;
    return failed > 0 ? [`${failed} of ${all.length} ${word}${all.length === 1 ? '' : 's'} failed`] : [];
  }).join(', ');
}

/** The operations the transaction carried: the text view's sections, as tables. */
function operationSections(): HTMLElement[] {
  const ops = doc.operations ?? [];
  const out: HTMLElement[] = [];
  const placed = (at: { file: string; line: number } | undefined): string => (at === undefined ? '' : ` at ${at.file}:${at.line}`);
  const outcome = (o: { kind: 'userOperation' | 'safeTransaction'; success: boolean; revert: RevertJson | null; sourceLocation?: { file: string; line: number } }): string => (o.success ? 'succeeded' : `failed: ${revertWords(o.revert) ?? noRevertWords(o.kind, root !== null)}${placed(o.sourceLocation)}`);
  const users = ops.flatMap((o) => (o.kind === 'userOperation' ? [o] : []));
  if (users.length > 0) {
    const rows = users.map((o, i) => [String(i + 1), addressText(o.account), o.nonce, outcome(o), eth(big(o.actualGasCost)), o.paymaster ? addressText(o.paymaster) : 'none', o.action?.summary ?? '']);
    out.push(section(`User operations (${users.length})`, tableOf(['#', 'account', 'nonce', 'outcome', 'gas cost', 'paymaster', 'action'], rows, 'operations')));
  }
  const safes = ops.flatMap((o) => (o.kind === 'safeTransaction' ? [o] : []));
  if (safes.length > 0) out.push(section(safes.length === 1 ? 'Safe transaction' : `Safe transactions (${safes.length})`, tableOf(['Safe', 'outcome', 'safeTxHash', 'action'], safes.map((o) => [addressText(o.account), outcome(o), o.safeTxHash, o.action?.summary ?? '']), 'operations')));
  for (const b of ops.flatMap((o) => (o.kind === 'batchCall' ? [o] : []))) {
    const rows = b.calls.map((c, i) => [String(i + 1), addressText(c.to), c.function ?? '?', eth(big(c.value)), c.success === null ? 'not known' : c.rolledBack === true ? 'succeeded, rolled back (the batch reverted)' : c.success ? 'succeeded' : `${c.allowFailure === true ? 'failed (allowed)' : 'failed'}${c.reason === undefined ? '' : `: ${c.reason}`}`]);
    out.push(section(`Batch (${b.calls.length} ${b.calls.length === 1 ? 'call' : 'calls'})`, h('p', { class: 'hint' }, `${b.via} by ${addressText(b.account)}${b.success ? '' : ', reverted'}`), tableOf(['#', 'to', 'function', 'value', 'outcome'], rows, 'operations')));
  }
  return out;
}

function logsSection(): HTMLElement | null {
  const logs = doc.logs ?? [];
  if (logs.length === 0) return null;
  const rowOf = (l: JsonRaw & { event?: Decoded | null }, i: number): Array<string | Node> => [logNumber(l, i), addressText(str(l.address)), l.event ? `${l.event.name}(${argsText(l.event.args)})` : `${topicsOf(l).join(' ')} ${str(l.data) ?? ''}`];
  // A page at a time, as the tree's long child lists: a large transaction's thousands of rows, all below
  // the fold, were laid out before the page first showed.
  const body = h('tbody');
  let shown = Math.min(PAGE, logs.length);
  const more = h('button', { type: 'button', class: 'more', 'data-action': 'show-more-logs' });
  const label = (): void => {
    more.textContent = `show ${groupDigits(Math.min(PAGE, logs.length - shown))} more of ${groupDigits(logs.length - shown)}`;
  };
  more.addEventListener('click', () => {
    const next = Math.min(shown + PAGE, logs.length);
    for (const [k, l] of logs.slice(shown, next).entries()) body.append(tableRow(rowOf(l, shown + k)));
    shown = next;
    if (shown < logs.length) label();
    else more.remove();
  });
  label();
  return section(`Logs (${groupDigits(logs.length)})`, tableOf(['#', 'emitter', 'event'], logs.slice(0, shown).map(rowOf), '', body), shown < logs.length ? more : null);
}

function transfersSection(): HTMLElement | null {
  const ts = doc.transfers ?? [];
  const unknownEther = doc.etherInsideCallsKnown === false;
  if (ts.length === 0 && !unknownEther) return null;
  return section(`Transfers (${groupDigits(ts.length)})`, unknownEther ? h('p', { class: 'hint warn' }, NO_TREE_ETHER.transfers) : null, ts.length === 0 ? null : tableOf(['from', 'to', 'amount', 'asset'], ts.slice(0, 2000).map((t) => [addressText(t.from), addressText(t.to), t.kind === 'ETH' ? eth(big(t.amount)) : typeof t.decimals === 'number' && typeof t.symbol === 'string' ? `${formatUnits(big(t.amount), t.decimals)} ${t.symbol}` : `${groupDigits(t.amount)}${t.tokenId ? ` (id ${t.tokenId})` : ''}`, `${t.kind === 'ETH' ? 'ETH' : `${t.kind} ${addressText(t.token)}`}${wrapMark(t)}`])));
}

/** Who ended up with what, in the text view's words: the holder (marked mint/burn, actor), then its changes. */
function netChangesSection(): HTMLElement | null {
  const changes = (doc.netChanges ?? []).map((n) => ({ ...n, change: big(n.change) }));
  // A token's symbol is a stranger's text: escaped as the text view escapes it (a bidi override in one would turn the rest of the row around).
  const described = describeNetChanges(changes, doc.action?.actor, { address: (a) => addressText(a), symbol: escapeText });
  if (described === null) return null;
  const rows = described.rows.map(({ who, marks, parts }) => {
    const holder = h('span', {}, who, ...marks.flatMap((k) => [' ', h('span', { class: 'mark' }, k)]));
    const moved = h('span', {}, ...parts.flatMap((p, i) => [i > 0 ? ' · ' : '', h('span', { class: p.negative ? 'loss' : 'gain' }, p.text)]));
    return [holder, moved];
  });
  const incomplete = described.incomplete ? h('p', { class: 'hint warn' }, NO_TREE_ETHER.incomplete) : null;
  return section(described.title, doc.etherInsideCallsKnown === false ? h('p', { class: 'hint warn' }, NO_TREE_ETHER.netChanges) : null, incomplete, tableOf(['address', 'net change'], rows, 'net-changes'));
}

function stateSections(): HTMLElement[] {
  if (!Array.isArray(doc.balanceChanges)) return [];
  const out: HTMLElement[] = [];
  out.push(section('Balance changes', tableOf(['address', 'asset', 'change', 'before → after'], doc.balanceChanges.slice(0, 1000).map((b) => [addressText(b.address), b.asset === 'ETH' ? 'ETH' : (b.symbol ?? addressText(b.asset)), b.asset === 'ETH' ? eth(big(b.delta)) : b.decimals !== undefined ? formatUnits(big(b.delta), b.decimals) : groupDigits(b.delta ?? ""), b.before !== undefined ? `${eth(big(b.before))} → ${eth(big(b.after))}` : '']))));
  if (Array.isArray(doc.storageChanges) && doc.storageChanges.length > 0) {
    const rows: string[][] = [];
    for (const s of doc.storageChanges.slice(0, 2000)) {
      const vars = s.variables ?? [];
      if (vars.length === 0) rows.push([addressText(s.address), s.slot, `${s.before} → ${s.after}`]);
      for (const v of vars) rows.push([addressText(s.address), v.path, `${valueText(v.before)} → ${valueText(v.after)}`]);
    }
    out.push(section(`Storage changes (${groupDigits(doc.storageChanges.length)} slots)`, tableOf(['contract', 'slot or variable', 'before → after'], rows, 'storage')));
  }
  if (Array.isArray(doc.accountChanges)) out.push(section('Accounts', tableOf(['address', 'roles', 'nonce'], doc.accountChanges.map((a) => [addressText(a.address), (a.roles ?? []).join(', '), a.nonceBefore !== undefined ? `${a.nonceBefore} → ${a.nonceAfter}` : '']))));
  return out;
}

function gasSection(): HTMLElement | null {
  const rows = doc.gasProfile ?? [];
  if (rows.length === 0) return null;
  return section('Gas profile', tableOf(['contract::function', 'calls', 'gas used', 'self gas'], rows.slice(0, 50).map((r) => [`${r.contract ?? (r.address ? short(r.address) : '?')}::${r.function ?? r.selector ?? '?'}`, String(r.calls), r.gasUsed === null ? 'unknown' : groupDigits(r.gasUsed), r.selfGas === null ? 'unknown' : groupDigits(r.selfGas)])));
}

// The page.

if (root !== null) {
  if (all.length <= SMALL_TREE) {
    for (const n of all) if (opens(n)) expanded.add(n);
  } else expanded.add(root);
  // The path to the failing call is open from the start.
  const origin: unknown = doc.failure?.origin;
  if (Array.isArray(origin)) {
    const n = byPath.get(origin.join('.'));
    if (n !== undefined) {
      openPath(n);
      if (opens(n)) expanded.add(n);
    }
  }
}

const main = h('main');
main.append(header());
const compared = comparisonSection();
if (compared !== null) main.append(compared);
for (const s of operationSections()) main.append(s);
if (root !== null) {
  redraw();
  main.append(section(`Call tree (${groupDigits(all.length)} ${all.length === 1 ? 'call' : 'calls'})`, controls, h('div', { class: 'split' }, h('div', { class: 'tree-box' }, treeRoot), details)));
  drawFlame();
  main.append(section('Gas flame graph', h('p', { class: 'hint' }, 'Width is gas used; children sit under their parent. Hover a bar for the call, click it to zoom in (click again to zoom out).'), flameBox));
}
// The fund flow was laid out when the report was written (inline SVG, outside main): it only moves here.
const fundFlow = document.querySelector<HTMLElement>('[data-fund-flow]');
for (const s of [authorizationsSection(), gasSection(), transfersSection(), netChangesSection(), fundFlow, ...stateSections(), logsSection()]) if (s !== null) main.append(s);
main.append(h('footer', {}, `txray report · schema ${String(doc.schemaVersion ?? '?')} · the data above is embedded in this file as JSON (script#txray-data${compressed ? ', gzip-compressed and base64-encoded' : ''})`));
document.body.append(main);
document.documentElement.dataset.ready = 'true';
