/**
 * --storage in the call tree's text view: one line per access under its call ("read total = 1,000",
 * "write balances[0x7099…79C8]: 100 → 90", "(undone by the revert)"), a run of identical reads folded
 * into one line with a count, and past MAX_ACCESS_LINES lines one line saying how many more (--full
 * shows every one).
 */
import { groupDigits, shortAddress } from '../format/format.js';
import type { JsonValue, StorageItem } from '../model/types.js';
import { escapeShort } from '../raw/escape.js';

/** One access line: the access, and how many identical reads in a row it stands for. */
export interface AccessLine {
  readonly access: StorageItem;
  readonly count: number;
}

/** The accesses of a call past the lines it shows. */
export interface AccessesLeft {
  readonly accessesLeft: number;
}

/** Lines per call, unless --full. */
const MAX_ACCESS_LINES = 20;

const sameRead = (a: StorageItem, b: StorageItem): boolean => a.op === 'read' && b.op === 'read' && a.address === b.address && a.slot === b.slot && a.value === b.value && a.transient === b.transient;

export function accessLines(items: readonly StorageItem[], full: boolean): Array<AccessLine | AccessesLeft> {
  const lines: AccessLine[] = [];
  for (const access of items) {
    const last = lines.at(-1);
    if (last !== undefined && sameRead(last.access, access)) lines[lines.length - 1] = { access, count: last.count + 1 };
    else lines.push({ access, count: 1 });
  }
  if (full || lines.length <= MAX_ACCESS_LINES) return lines;
  const left = lines.slice(MAX_ACCESS_LINES - 1).reduce((n, l) => n + l.count, 0);
  return [...lines.slice(0, MAX_ACCESS_LINES - 1), { accessesLeft: left }];
}

/** A word as text: small numbers in decimal, others in hex, long ones cut in the middle. */
function wordText(hex: string | undefined): string {
  const n = BigInt(hex ?? '0x0');
  if (n < 1n << 32n) return groupDigits(n);
  const h = `0x${n.toString(16)}`;
  return h.length > 20 ? `${h.slice(0, 10)}…${h.slice(-8)}` : h;
}

/** A decoded value as text: integers grouped, addresses shortened. */
function valueText(v: JsonValue): string {
  if (typeof v === 'boolean') return String(v);
  if (typeof v !== 'string') return escapeShort(JSON.stringify(v), 80);
  if (/^-?\d+$/.test(v)) return groupDigits(v);
  if (/^0x[0-9a-fA-F]{40}$/.test(v)) return shortAddress(v);
  return escapeShort(v, 80);
}

const isChange = (v: JsonValue): v is { before: JsonValue; after: JsonValue } => typeof v === 'object' && v !== null && !Array.isArray(v) && 'before' in v && 'after' in v;

/** What the access read or wrote: by name where a layout named it, else by slot. */
function whatText(a: StorageItem): string {
  const d = a.decoded;
  const read = a.op === 'read';
  const one = (v: JsonValue): string => (read ? ` = ${valueText(v)}` : isChange(v) ? `: ${valueText(v.before)} → ${valueText(v.after)}` : '');
  if (a.name !== undefined && d !== undefined) {
    const name = escapeShort(a.name, 200).replace(/0x[0-9a-fA-F]{40}/g, shortAddress);
    // Several variables packed in the slot: each with its value.
    if (typeof d === 'object' && !Array.isArray(d) && !isChange(d)) return Object.entries(d).map(([p, v]) => `${escapeShort(p, 200).replace(/0x[0-9a-fA-F]{40}/g, shortAddress)}${one(v)}`).join(', ');
    return `${name}${one(d)}`;
  }
  const slot = `${a.name === undefined ? '' : `${escapeShort(a.name, 80)} `}slot ${wordText(a.slot)}`;
  return read ? `${slot} = ${wordText(a.value)}` : `${slot}: ${wordText(a.before)} → ${wordText(a.after)}`;
}

/** The line's text, without its paint. */
export function accessText(line: AccessLine): string {
  const a = line.access;
  const count = line.count > 1 ? ` (${groupDigits(line.count)} ×)` : '';
  return `${a.op}${a.transient ? ' transient' : ''} ${whatText(a)}${count}${a.reverted ? ' (undone by the revert)' : ''}`;
}
