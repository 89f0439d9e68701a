/**
 * The calls inside the input's bytes arguments (decode/nestedCalls.ts), one line each under the Input
 * row, indented by depth: "calls[1].data → transfer(to: 0x7099…79C8, amount: 5) (project)"; a
 * MultiSend's packed transactions by operation, target and value. Lines are cut to the width.
 */
import type { ChalkInstance } from 'chalk';
import { NESTED_DEPTH } from '../decode/nestedCalls.js';
import type { Decoded, PackedTransaction } from '../model/types.js';
import { cutToWidth, displayWidth, escapeText } from '../raw/escape.js';
import { formatBytes, formatValueShort, shortHex } from '../format/format.js';
import { type AddressStyle, formatDecoded, showAddress } from '../words/formatDecoded.js';

/** A line never gets narrower than this, however narrow the terminal. */
const MIN_COLUMNS = 40;

interface Lines {
  readonly c: ChalkInstance;
  readonly s: AddressStyle;
  readonly width: number;
  /** Columns before the first level (the row labels' column). */
  readonly pad: number;
}

function line(l: Lines, depth: number, where: string, what: string): string {
  const indent = l.pad + 2 * depth;
  const head = `${where} → `;
  const room = Math.max(MIN_COLUMNS, l.width - indent) - displayWidth(head);
  return `${' '.repeat(indent)}${l.c.dim(head)}${cutToWidth(what, Math.max(12, room))}\n`;
}

const callText = (d: Decoded, s: AddressStyle): string => `${formatDecoded(d, { ...s, short: true })} (${d.source}${d.contract ? ` ${escapeText(d.contract)}` : ''})`;

function packedText(t: PackedTransaction, s: AddressStyle): string {
  const op = t.operation === 1 ? 'delegatecall' : 'call';
  const value = BigInt(t.value) > 0n ? ` · ${formatValueShort(BigInt(t.value))}` : '';
  const data = t.call !== undefined ? callText(t.call, s) : t.data === '0x' ? 'no data' : shortHex(t.data, 8);
  return `${op} ${showAddress(t.to, { ...s, short: true })}${value}: ${data}`;
}

/** A nested call's own lines: the calls inside it, or where the depth bound cut them, that they are not decoded. */
function* innerLines(d: Decoded, l: Lines, depth: number): Generator<string> {
  if (d.nestedCut === 'depth') yield `${' '.repeat(l.pad + 2 * depth)}${l.c.dim(`… the calls inside it are not decoded (more than ${NESTED_DEPTH} levels down)`)}\n`;
  else yield* callLines(d, l, depth);
}

function* callLines(d: Decoded, l: Lines, depth: number): Generator<string> {
  for (const [i, a] of d.args.entries()) {
    const name = a.name ? escapeText(a.name) : `arg${i}`;
    if (a.call !== undefined) {
      yield line(l, depth, name, callText(a.call, l.s));
      yield* innerLines(a.call, l, depth + 1);
    }
    for (const n of a.calls ?? []) {
      yield line(l, depth, `${name}${escapeText(n.path)}`, callText(n.call, l.s));
      yield* innerLines(n.call, l, depth + 1);
    }
    if (a.transactions !== undefined) yield line(l, depth, name, `${a.transactions.length} packed ${a.transactions.length === 1 ? 'transaction' : 'transactions'} (${formatBytes((String(a.value).length - 2) / 2)})`);
    for (const [k, t] of (a.transactions ?? []).entries()) {
      yield line(l, depth + 1, `[${k}]`, packedText(t, l.s));
      if (t.call !== undefined) yield* innerLines(t.call, l, depth + 2);
    }
  }
}

/** The text shows at most this many nested lines (a batch of thousands stays readable); --json has them all. */
export const MAX_NESTED_LINES = 100;

/** The nested calls of a decoded input, `pad` columns in, fitted to `width`. */
export function* nestedRows(d: Decoded, c: ChalkInstance, s: AddressStyle, width: number, pad: number): Generator<string> {
  let shown = 0;
  let left = 0;
  for (const text of callLines(d, { c, s, width, pad }, 0)) {
    if (shown < MAX_NESTED_LINES) {
      shown++;
      yield text;
    } else left++;
  }
  if (left > 0) yield `${' '.repeat(pad)}${c.dim(`… ${left} more ${left === 1 ? 'line' : 'lines'} of nested calls (--json has them all)`)}\n`;
}
