/**
 * Several hashes in text: one table row per hash, then totals. Pure: (rows, chalk) → lines.
 */
import type { ChalkInstance } from 'chalk';
import Table from 'cli-table3';
import { describeRevert } from '../model/decodeRevert.js';
import type { InspectModel } from '../model/types.js';
import { byteLength } from '../raw/hex.js';
import { cutToWidth, escapeShort } from '../raw/escape.js';
import { formatUnits, groupDigits, shortHash } from '../format/format.js';
import { formatDecoded, showAddress } from './formatDecoded.js';
import { statusBadge } from './renderText.js';

export type SummaryRow = { readonly input: string; readonly model: InspectModel } | { readonly input: string; readonly error: string };

function firstError(m: InspectModel): string {
  const f = m.failure;
  if (f === null) return '';
  // A custom error the ABIs name, as the single view names it (formatDecoded escapes).
  const custom = m.decoded?.error;
  if (custom) return cutToWidth(formatDecoded(custom, { decoded: m.decoded, short: true }), 48);
  if (f.revert !== null) return escapeShort(describeRevert(f.revert), 48);
  return escapeShort(f.error ?? 'reverted (no trace)', 48);
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
    statusBadge(m.status, c),
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

export function* renderSummary(rows: readonly SummaryRow[], c: ChalkInstance): Generator<string> {
  // cli-table3 colours headers and borders itself unless told not to; colour is ours to decide.
  const table = new Table({
    head: ['hash', 'status', 'block', 'from', 'to', 'method', 'action', 'gas used', 'fee (ETH)', 'first error'].map((h) => c.bold(h)),
    style: { head: [], border: [], compact: true },
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
  });
  for (const row of rows) table.push(cells(row, c));
  yield `${table.toString()}\n`;
  const count = (pred: (r: SummaryRow) => boolean): number => rows.filter(pred).length;
  const by = (status: string) => count((r) => 'model' in r && r.model.status === status);
  yield `${rows.length} ${rows.length === 1 ? 'transaction' : 'transactions'}: ${by('success')} succeeded, ${by('reverted')} reverted, ${by('pending')} pending, ${by('not_found')} not found, ${count((r) => 'error' in r)} failed to inspect\n`;
}
