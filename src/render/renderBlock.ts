/**
 * `txray block` in text: the header with the fees, one row per transaction in block order, the failed
 * ones with their reasons, and what looks like MEV. Pure: (view, chalk, width) → chunks.
 */
import type { ChalkInstance } from 'chalk';
import { txOutcome } from '../operations/txOutcome.js';
import type { BlockFees, BlockView, Flow, MevFinding } from '../block/types.js';
import type { DecodedModel, InspectModel } from '../model/types.js';
import { byteLength } from '../raw/hex.js';
import { cutToWidth, displayWidth, escapeShort, escapeText } from '../raw/escape.js';
import type { Hex } from '../raw/types.js';
import { failureLine } from '../words/failureLine.js';
import { formatEth, formatGwei, formatUnits, groupDigits, percent, shortHash } from '../format/format.js';
import { showAddress } from '../words/formatDecoded.js';

export interface BlockTextOptions {
  readonly chalk: ChalkInstance;
  /** Columns to fit the rows' last column into (Infinity: no limit). */
  readonly width: number;
}

const LABEL = 18;
const line = (c: ChalkInstance, label: string, value: string): string => `  ${c.dim(label.padEnd(LABEL))}${value}\n`;

const utc = (seconds: bigint): string => new Date(Number(seconds) * 1000).toISOString().replace('.000Z', 'Z');

/** Ether paid straight to the fee recipient: only a trace shows it, so untraced transactions make it unknown or a part. */
export function feeRecipientWords(f: BlockFees): { readonly amount: string; readonly note: string } {
  if (f.toFeeRecipient === null) return { amount: 'not known', note: 'no traces' };
  const part = f.untraced === 0 ? '' : `; a part: ${f.untraced} transaction${f.untraced === 1 ? ' was' : 's were'} not traced`;
  return { amount: formatEth(f.toFeeRecipient), note: `directly, by calls in its transactions${part}` };
}

function paidText(f: BlockFees, c: ChalkInstance): string {
  const { amount, note } = feeRecipientWords(f);
  return `${f.toFeeRecipient === null ? c.yellow(amount) : amount} ${c.dim(`(${note})`)}`;
}

function* header(v: BlockView, c: ChalkInstance, labels: DecodedModel | undefined): Generator<string> {
  const h = v.header;
  yield `${c.bold(`Block ${groupDigits(h.number)}`)}${h.hash !== null ? `  ${h.hash}` : c.yellow(v.pending ? '  (pending)' : '')}\n`;
  yield line(c, 'time', `${utc(h.timestamp)} ${c.dim(`(${h.timestamp})`)}`);
  if (h.miner !== null) yield line(c, 'fee recipient', showAddress(h.miner, { decoded: labels, short: false }));
  yield line(c, 'gas used', `${groupDigits(h.gasUsed)} of ${groupDigits(h.gasLimit)} ${c.dim(`(${percent(h.gasUsed, h.gasLimit)})`)}`);
  if (h.baseFeePerGas !== null) yield line(c, 'base fee', formatGwei(h.baseFeePerGas));
  if (h.blobGasUsed !== null) yield line(c, 'blob gas', `${groupDigits(h.blobGasUsed)}${h.excessBlobGas !== null ? c.dim(` (excess ${groupDigits(h.excessBlobGas)})`) : ''}`);
  if (v.fees.burnt !== null) yield line(c, 'burnt', formatEth(v.fees.burnt));
  if (v.fees.tips !== null) yield line(c, 'tips', formatEth(v.fees.tips));
  yield line(c, 'paid to recipient', paidText(v.fees, c));
  yield line(c, 'transactions', String(h.transactionCount));
}

/** The row's one line of what it did: the action stage's sentence; before it, the function called. */
function actionOf(m: InspectModel): { readonly text: string; readonly fallback: boolean } {
  if (m.action) return { text: escapeText(m.action.summary), fallback: false };
  const tx = m.tx;
  if (tx === null) return { text: '', fallback: true };
  if (tx.to === null) return { text: 'create', fallback: true };
  if (tx.input === undefined || byteLength(tx.input) === 0) return { text: '(ETH send)', fallback: true };
  const name = m.decoded?.function?.name;
  return { text: name ? escapeText(name) : tx.input.slice(0, 10), fallback: true };
}

const BADGE: Record<InspectModel['status'], [string, 'green' | 'red' | 'yellow']> = { success: ['✔', 'green'], reverted: ['✘', 'red'], pending: ['…', 'yellow'], not_found: ['?', 'yellow'] };

function cells(m: InspectModel, index: number, c: ChalkInstance): string[] {
  const s = { decoded: m.decoded, short: true };
  const tx = m.tx;
  const to = tx === null ? '' : tx.to !== null ? showAddress(tx.to, s) : m.receipt?.contractAddress ? `create ${showAddress(m.receipt.contractAddress, s)}` : 'create';
  // A success whose user operation or Safe transaction failed is partial, as the lookup's exit code 6 says.
  const [mark, colour] = txOutcome(m) === 'partial' ? (['◐', 'yellow'] as const) : BADGE[m.status];
  return [
    String(tx?.transactionIndex ?? index),
    m.hash === null ? '' : shortHash(m.hash),
    tx === null ? '' : `${showAddress(tx.from, s)} → ${to}`,
    c[colour](mark),
    m.receipt?.gasUsed !== undefined ? groupDigits(m.receipt.gasUsed) : '',
    m.fee !== null ? formatUnits(m.fee.total, 18) : '',
  ];
}

function* rows(v: BlockView, o: BlockTextOptions): Generator<string> {
  const c = o.chalk;
  yield `\n${c.bold('Transactions')}\n`;
  if (v.models.length === 0) {
    yield `  ${c.dim('none')}\n`;
    return;
  }
  const head = ['#', 'hash', 'from → to', '', 'gas used', 'fee (ETH)'];
  const table = v.models.map((m, i) => cells(m, i, c));
  const widths = head.map((h, col) => Math.max(displayWidth(h), ...table.map((r) => displayWidth(r[col] ?? ''))));
  const right = new Set([0, 4, 5]);
  const pad = (text: string, col: number): string => {
    const gap = ' '.repeat((widths[col] ?? 0) - displayWidth(text));
    return right.has(col) ? gap + text : text + gap;
  };
  const used = widths.reduce((sum, w) => sum + w + 2, 2);
  const room = Math.max(20, o.width - used);
  yield `  ${c.dim([...head.map(pad), 'action'].join('  '))}\n`;
  for (const [i, m] of v.models.entries()) {
    const action = actionOf(m);
    const text = Number.isFinite(room) ? cutToWidth(action.text, room) : action.text;
    yield `  ${(table[i] ?? []).map(pad).join('  ')}  ${action.fallback ? c.dim(text) : text}\n`;
  }
}


function* failed(v: BlockView, c: ChalkInstance): Generator<string> {
  const list = v.models.filter((m) => m.status === 'reverted');
  if (list.length === 0) return;
  yield `\n${c.bold(`Failed (${list.length})`)}\n`;
  for (const m of list) yield `  ${c.dim(`#${m.tx?.transactionIndex ?? '?'}`)} ${m.hash === null ? '' : shortHash(m.hash)}  ${c.red(failureLine(m, { decoded: m.decoded, short: true }))}\n`;
}

/** A token's symbol and decimals where known, else its short address and base units. */
export function flowText(f: Flow, labels: DecodedModel | undefined): string {
  const sign = f.amount < 0n ? '−' : '+';
  const abs = f.amount < 0n ? -f.amount : f.amount;
  if (f.asset === 'ETH') return `${sign}${formatUnits(abs, 18)} ETH`;
  const name = f.symbol !== undefined ? escapeShort(f.symbol, 16) : showAddress(f.asset, { decoded: labels, short: true });
  return `${sign}${f.decimals !== undefined ? formatUnits(abs, f.decimals) : groupDigits(abs)} ${name}`;
}

/** What a finding looks like, in words. */
export const MEV_KINDS: Record<MevFinding['kind'], string> = { sandwich: 'a sandwich', arbitrage: 'an arbitrage', liquidation: 'a liquidation', 'fee-recipient-payment': 'a payment to the fee recipient' };

function* mevRows(v: BlockView, c: ChalkInstance): Generator<string> {
  if (v.pending) return;
  yield `\n${c.bold('Looks like MEV')}\n`;
  if (v.mev.length === 0) {
    yield `  ${c.dim('nothing: no sandwich, arbitrage, liquidation or payment to the fee recipient')}\n`;
    return;
  }
  const byHash = new Map(v.models.map((m) => [m.hash, m]));
  const labelsOf = (hash: Hex): DecodedModel | undefined => byHash.get(hash)?.decoded;
  for (const f of v.mev) {
    const [first] = f.transactions;
    const labels = first === undefined ? undefined : labelsOf(first);
    const s = { decoded: labels, short: true };
    const by = f.actor !== null ? ` by ${showAddress(f.actor, s)}` : '';
    const pools = f.pools.length > 0 ? ` on ${f.pools.map((p) => showAddress(p, s)).join(', ')}` : '';
    yield `  ${c.yellow(`looks like ${MEV_KINDS[f.kind]}`)}${by}${pools}\n`;
    if (f.kind === 'sandwich') {
      const [front, ...rest] = f.transactions;
      const back = rest.pop();
      if (front !== undefined && back !== undefined) yield `    ${c.dim('front')} ${shortHash(front)}  ${c.dim(rest.length === 1 ? 'victim' : 'victims')} ${rest.map(shortHash).join(', ')}  ${c.dim('back')} ${shortHash(back)}\n`;
    } else {
      yield `    ${c.dim('in')} ${f.transactions.map(shortHash).join(', ')}${f.payment !== undefined ? `  ${c.dim('paid')} ${formatEth(f.payment)}` : ''}\n`;
    }
    const aside = f.etherNotKnown === true ? 'fees aside; ether not known: a transaction was not traced' : 'fees aside';
    if (f.profit !== null && f.profit.length > 0) yield `    ${c.dim('net for the actor')} ${f.profit.map((p) => flowText(p, labels)).join(', ')} ${c.dim(`(${aside})`)}\n`;
    else if (f.etherNotKnown === true) yield `    ${c.dim('net for the actor')} ${c.dim('not known: ether moved by untraced calls is not seen')}\n`;
  }
}

/** The decoding that names the fee recipient, where a transaction's did (else the first one's): its labels. */
export const feeRecipientLabels = (v: BlockView): DecodedModel | undefined => v.models.find((m) => v.header.miner !== null && m.decoded?.labels.has(v.header.miner))?.decoded ?? v.models[0]?.decoded;

export function* renderBlock(v: BlockView, o: BlockTextOptions): Generator<string> {
  const c = o.chalk;
  yield* header(v, c, feeRecipientLabels(v));
  yield* rows(v, o);
  yield* failed(v, c);
  yield* mevRows(v, c);
}
