/**
 * `txray block --html`: one page with the block's header, its transactions' table and what looks like
 * MEV. Each row links to that transaction's own page (renderHtml's), written beside it in a folder
 * (`pages`); the block page itself runs no script. Pure: (view, pages, assets) → chunks.
 */
import type { BlockView } from '../block/types.js';
import { checksumAddress } from '../decode/keccak.js';
import type { DecodedModel, InspectModel } from '../model/types.js';
import { feeRecipientLabels, feeRecipientWords, flowText, MEV_KINDS } from './renderBlock.js';
import { formatEth, formatGwei, formatUnits, groupDigits, shortHash } from '../format/format.js';
import { showAddress } from '../words/formatDecoded.js';
import { failureLine } from '../words/failureLine.js';
import { csp, escapeHtml, type ReportAssets } from './renderHtml.js';

/** An address as the terminal's block view shows it (short, with its label), the whole one on hover. */
function addressHtml(a: string, decoded: DecodedModel | undefined): string {
  return `<code title="${escapeHtml(checksumAddress(a))}">${escapeHtml(showAddress(a, { decoded, short: true }))}</code>`;
}

/** A hash as the terminal shortens it, the whole one on hover. */
const hashHtml = (hash: string): string => `<code title="${escapeHtml(hash)}">${escapeHtml(shortHash(hash))}</code>`;

function actionOf(m: InspectModel): string {
  if (m.action) return m.action.summary;
  if (m.status === 'reverted') return failureLine(m, { decoded: m.decoded, short: true });
  return m.decoded?.function?.name ?? '';
}

function row(m: InspectModel, i: number, page: string | null): string {
  const hash = m.hash === null ? '' : hashHtml(m.hash);
  const link = page === null ? hash : `<a href="${escapeHtml(page)}">${hash}</a>`;
  const tx = m.tx;
  const created = m.receipt?.contractAddress;
  const to = tx === null ? '' : tx.to !== null ? addressHtml(tx.to, m.decoded) : `create${created ? ` ${addressHtml(created, m.decoded)}` : ''}`;
  const number = (text: string): string => `<td class="num">${text}</td>`;
  const cells = [
    number(String(tx?.transactionIndex ?? i)),
    `<td>${link}</td>`,
    `<td class="nowrap">${tx === null ? '' : `${addressHtml(tx.from, m.decoded)} → ${to}`}</td>`,
    `<td><span class="status ${escapeHtml(m.status)}">${escapeHtml(m.status)}</span></td>`,
    number(m.receipt?.gasUsed !== undefined ? groupDigits(m.receipt.gasUsed) : ''),
    number(m.fee !== null ? formatUnits(m.fee.total, 18) : ''),
    `<td>${escapeHtml(actionOf(m))}</td>`,
  ];
  return `<tr>${cells.join('')}</tr>\n`;
}

const fact = (name: string, value: string): [string, string] => [name, value];

function paidToRecipient(v: BlockView): string {
  const { amount, note } = feeRecipientWords(v.fees);
  return `${amount} (${note})`;
}

/** `pages`: each transaction's page, relative to the block page, by hash (absent: no link). */
export function* renderBlockHtml(v: BlockView, pages: ReadonlyMap<string, string>, assets: ReportAssets): Generator<string> {
  const h = v.header;
  const title = `Block ${groupDigits(h.number)}`;
  yield '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n';
  yield `<meta http-equiv="Content-Security-Policy" content="${csp(assets, false)}">\n`;
  yield `<meta name="viewport" content="width=device-width, initial-scale=1">\n<meta name="referrer" content="no-referrer">\n<title>txray: ${escapeHtml(title)}</title>\n<style>${assets.css}</style>\n</head>\n<body>\n<main>\n`;
  yield `<h1>${escapeHtml(title)}</h1>\n<table class="grid">\n<tbody>\n`;
  const facts: Array<[string, string]> = [
    ['hash', h.hash ?? '(pending)'],
    ['time', `${new Date(Number(h.timestamp) * 1000).toISOString()} (${h.timestamp})`],
    ['fee recipient', h.miner === null ? '' : showAddress(h.miner, { decoded: feeRecipientLabels(v), short: false })],
    ['gas used', `${groupDigits(h.gasUsed)} of ${groupDigits(h.gasLimit)}`],
    ...(h.baseFeePerGas !== null ? [fact('base fee', formatGwei(h.baseFeePerGas))] : []),
    ...(v.fees.burnt !== null ? [fact('burnt', formatEth(v.fees.burnt))] : []),
    ...(v.fees.tips !== null ? [fact('tips', formatEth(v.fees.tips))] : []),
    ['paid to the fee recipient', paidToRecipient(v)],
    ['transactions', String(h.transactionCount)],
  ];
  for (const [k, val] of facts) yield `<tr><th>${escapeHtml(k)}</th><td>${escapeHtml(val)}</td></tr>\n`;
  yield '</tbody>\n</table>\n<h2>Transactions</h2>\n<table class="grid">\n';
  yield '<thead><tr><th class="num">#</th><th>hash</th><th>from → to</th><th>status</th><th class="num">gas used</th><th class="num">fee (ETH)</th><th>what</th></tr></thead>\n<tbody>\n';
  for (const [i, m] of v.models.entries()) yield row(m, i, m.hash === null ? null : (pages.get(m.hash) ?? null));
  yield '</tbody>\n</table>\n<h2>Looks like MEV</h2>\n';
  if (v.mev.length === 0) yield '<p>nothing: no sandwich, arbitrage, liquidation or payment to the fee recipient.</p>\n';
  else {
    yield '<ul>\n';
    for (const f of v.mev) {
      const ether = f.etherNotKnown === true ? ' (ether not known: a transaction was not traced)' : '';
      const decoded = v.models.find((m) => m.hash === f.transactions[0])?.decoded;
      // Amounts as the text view writes them: signed, in the token's decimals where known.
      const flows = f.profit === null || f.profit.length === 0 ? (f.etherNotKnown === true ? 'not known' : null) : f.profit.map((p) => flowText(p, decoded)).join(', ');
      const profit = flows === null ? '' : `; net for the actor: ${flows}${ether}`;
      const payment = f.payment !== undefined ? `; paid ${formatEth(f.payment)}` : '';
      yield `<li>looks like ${escapeHtml(MEV_KINDS[f.kind])} by ${f.actor === null ? '?' : addressHtml(f.actor, decoded)} in ${f.transactions.map(hashHtml).join(', ')}${escapeHtml(payment + profit)}</li>\n`;
    }
    yield '</ul>\n';
  }
  yield '</main>\n</body>\n</html>\n';
}
