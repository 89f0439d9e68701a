/**
 * Several hashes in text: one table row per hash, then totals. Pure: (rows, chalk) → lines.
 */
import type { ChalkInstance } from 'chalk';
import Table from 'cli-table3';
import type { InspectModel } from '../model/types.js';
import { byteLength } from '../raw/hex.js';
import { cutToWidth, displayWidth, escapeShort } from '../raw/escape.js';
import { formatUnits, groupDigits, shortHash } from '../format/format.js';
import { failureLine } from '../words/failureLine.js';
import { showAddress } from '../words/formatDecoded.js';
import { statusBadge } from './renderText.js';
import { operationReason } from '../words/operationReason.js';
import { txOutcome } from '../operations/txOutcome.js';

export type SummaryRow = { readonly input: string; readonly model: InspectModel } | { readonly input: string; readonly error: string };

/** Why it failed, as the single view says it (failureLine escapes); a partial transaction's failed operation. */
const firstError = (m: InspectModel): string => (m.failure === null ? failedOperation(m) : cutToWidth(failureLine(m, { decoded: m.decoded, short: true }), 48));

/** A partial transaction's first failed user operation or Safe transaction: its reason, as the single view says it. */
function failedOperation(m: InspectModel): string {
  const failed = (m.operations ?? []).find((o) => o.kind !== 'batchCall' && !o.success);
  if (failed === undefined || failed.kind === 'batchCall') return '';
  // Without revert data the words say why there are none: marked as the operation's, not the transaction's.
  return failed.revert === null ? `an operation failed (${operationReason(failed, m.tree !== null, { decoded: m.decoded, short: true })})` : cutToWidth(operationReason(failed, m.tree !== null, { decoded: m.decoded, short: true }), 48);
}

function method(m: InspectModel): string {
  const input = m.tx?.input;
  if (input === undefined) return '';
  // No data: a plain ETH send, not a function called "transfer" (which an ERC-20 call would be).
  if (byteLength(input) === 0) return m.tx?.to === null ? '' : '(ETH send)';
  if (m.tx?.to === null) return 'create';
  return m.decoded?.function?.name ? escapeShort(m.decoded.function.name, 24) : input.slice(0, 10);
}

function cells(row: SummaryRow, c: ChalkInstance): string[] {
  if ('error' in row) {
    const shown = /^0x[0-9a-fA-F]{64}$/.test(row.input) ? shortHash(row.input) : escapeShort(row.input, 20);
    return [shown, c.red.bold('✘ error'), '', '', '', '', '', '', '', escapeShort(row.error, 60)];
  }
  const m = row.model;
  const tx = m.tx;
  const r = m.receipt;
  const block = tx?.blockNumber ?? r?.blockNumber;
  const to = tx?.to ?? null;
  const created = r?.contractAddress ?? null;
  const s = { decoded: m.decoded, short: true };
  const target = to !== null ? showAddress(to, s) : created !== null ? `create → ${showAddress(created, s)}` : tx ? 'create' : '';
  const gasUsed = r?.gasUsed;
  // The same fee as the text's Fee line and --json's fee.paid.
  const fee = m.fee === null ? '' : formatUnits(m.fee.total, 18);
  return [
    m.hash === null ? 'simulation' : shortHash(m.hash),
    txOutcome(m) === 'partial' ? c.yellow.bold('◐ partial') : statusBadge(m.status, c),
    block != null ? groupDigits(block) : '',
    tx ? showAddress(tx.from, s) : '',
    target,
    method(m),
    // The action's sentence, as the single view's head gives it (a failure's reason is in the last column).
    m.action && m.action.kind !== 'failed' ? escapeShort(m.action.summary, 60) : '',
    gasUsed !== undefined ? groupDigits(gasUsed) : '',
    fee,
    c.red(firstError(m)),
  ];
}

const HEAD = ['hash', 'status', 'block', 'from', 'to', 'method', 'action', 'gas used', 'fee (ETH)', 'first error'];
const [HASH, FROM, TO, METHOD, ACTION, FEE, ERROR] = [0, 3, 4, 5, 6, 8, 9];

/**
 * When the table is wider than the terminal, columns give way in this order: a column empty in every row
 * is left out; the action is cut (to
 * `min` columns), then left out; then the fee is left out; then the hash keeps its first 8 digits
 * (`0x454dcd21…`), and the first error and the method are cut; last, the to and from labels are cut
 * (`Showcase(0…`: the ellipsis says so) and the first error again; then the method is left out. The
 * status, block and gas always stay whole, so a very narrow terminal can still be too narrow.
 */
const GIVE_WAY: ReadonlyArray<{ readonly col: number; readonly min: number }> = [
  { col: ACTION, min: 24 },
  { col: ACTION, min: 0 },
  { col: FEE, min: 0 },
  { col: HASH, min: 11 },
  { col: ERROR, min: 16 },
  { col: METHOD, min: 10 },
  { col: TO, min: 12 },
  { col: FROM, min: 12 },
  { col: ERROR, min: 10 },
  { col: METHOD, min: 0 },
];

/** A cell's text without its colour codes (the cells' own text is escaped: it has no ESC of its own). */
const plainOf = (text: string): string => text.replace(/\u001b\[[0-9;]*m/g, '');
/** The columns a cell takes on screen (its colour codes take none). */
const cellWidth = (text: string): number => displayWidth(plainOf(text));

/** cli-table3's width: each column and its two spaces of padding, and a border between and around them. */
function tableWidth(widths: readonly number[]): number {
  return widths.reduce((sum, w) => sum + w + 3, 1);
}

/**
 * The columns kept and each one's width, so the table fits `width` terminal columns where it can:
 * `GIVE_WAY`'s steps are taken until it does.
 */
function fitColumns(rows: readonly string[][], width: number): { readonly keep: number[]; readonly cut: Map<number, number> } {
  const natural = HEAD.map((h, col) => Math.max(displayWidth(h), ...rows.map((r) => cellWidth(r[col] ?? ''))));
  const keep = HEAD.map((_, col) => col);
  const cut = new Map<number, number>();
  const widthOf = (col: number): number => cut.get(col) ?? natural[col] ?? 0;
  const used = (): number => tableWidth(keep.map(widthOf));
  // A column no row has anything in (no first error, no fee, no method) goes before any text is cut.
  for (const col of [ERROR, FEE, METHOD, ACTION]) if (used() > width && rows.every((r) => cellWidth(r[col] ?? '') === 0)) keep.splice(keep.indexOf(col), 1);
  for (const { col, min } of GIVE_WAY) {
    const over = used() - width;
    if (over <= 0) break;
    if (!keep.includes(col)) continue;
    if (min === 0) keep.splice(keep.indexOf(col), 1);
    else if (widthOf(col) > min) cut.set(col, Math.max(min, displayWidth(HEAD[col] ?? ''), widthOf(col) - over));
  }
  return { keep, cut };
}

export function* renderSummary(rows: readonly SummaryRow[], c: ChalkInstance, width = Number.POSITIVE_INFINITY): Generator<string> {
  const all = rows.map((row) => cells(row, c));
  const { keep, cut } = fitColumns(all, width);
  // cli-table3 colours headers and borders itself unless told not to; colour is ours to decide.
  const table = new Table({
    head: keep.map((col) => c.bold(HEAD[col] ?? '')),
    style: { head: [], border: [], compact: true },
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
  });
  for (const cellsOfRow of all) {
    table.push(keep.map((col) => {
      const cell = cellsOfRow[col] ?? '';
      const w = cut.get(col);
      return w === undefined ? cell : cutCell(cell, w, col === ERROR ? c.red : undefined);
    }));
  }
  yield `${table.toString()}\n`;
  const count = (pred: (r: SummaryRow) => boolean): number => rows.filter(pred).length;
  const by = (status: string) => count((r) => 'model' in r && r.model.status === status && txOutcome(r.model) !== 'partial');
  const partial = count((r) => 'model' in r && txOutcome(r.model) === 'partial');
  yield `${rows.length} ${rows.length === 1 ? 'transaction' : 'transactions'}: ${by('success')} succeeded, ${partial > 0 ? `${partial} partial, ` : ''}${by('reverted')} reverted, ${by('pending')} pending, ${by('not_found')} not found, ${count((r) => 'error' in r)} failed to inspect\n`;
}

/** A cell cut to `width` columns; its colour (the first error's red) put back on the cut text. */
function cutCell(text: string, width: number, paint?: (s: string) => string): string {
  const plain = plainOf(text);
  if (displayWidth(plain) <= width) return text;
  const shown = cutToWidth(plain, width);
  return paint === undefined || plain === text ? shown : paint(shown);
}
