/**
 * `txray block --html`: one page with the block's header, its transactions' table and what looks like
 * MEV. Each row links to that transaction's own page (renderHtml's), written beside it in a folder
 * (`pages`); the block page itself runs no script. Pure: (view, pages, assets) → chunks.
 */
import type { BlockView } from '../block/types.js';
import type { InspectModel } from '../model/types.js';
import { failureReason, feeRecipientWords } from './renderBlock.js';
import { formatEth, formatGwei, formatUnits, groupDigits } from '../format/format.js';
import { csp, escapeHtml, type ReportAssets } from './renderHtml.js';

function actionOf(m: InspectModel): string {
  if (m.action) return m.action.summary;
  if (m.status === 'reverted') return failureReason(m);
  return m.decoded?.function?.name ?? '';
}

function row(m: InspectModel, i: number, page: string | null): string {
  const hash = m.hash ?? '';
  const link = page === null ? `<code>${escapeHtml(hash)}</code>` : `<a href="${escapeHtml(page)}"><code>${escapeHtml(hash)}</code></a>`;
  const to = m.tx === null ? '' : (m.tx.to ?? `create ${m.receipt?.contractAddress ?? ''}`);
  const cells = [
    String(m.tx?.transactionIndex ?? i),
    link,
    `<code>${escapeHtml(m.tx?.from ?? '')}</code> → <code>${escapeHtml(to)}</code>`,
    `<span class="status ${escapeHtml(m.status)}">${escapeHtml(m.status)}</span>`,
    m.receipt?.gasUsed !== undefined ? groupDigits(m.receipt.gasUsed) : '',
    m.fee !== null ? formatUnits(m.fee.total, 18) : '',
    escapeHtml(actionOf(m)),
  ];
  return `<tr>${cells.map((c) => `<td>${c}</td>`).join('')}</tr>\n`;
}

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
    ['fee recipient', h.miner ?? ''],
    ['gas used', `${groupDigits(h.gasUsed)} of ${groupDigits(h.gasLimit)}`],
    ...(h.baseFeePerGas !== null ? [['base fee', formatGwei(h.baseFeePerGas)] as [string, string]] : []),
    ...(v.fees.burnt !== null ? [['burnt', formatEth(v.fees.burnt)] as [string, string]] : []),
    ...(v.fees.tips !== null ? [['tips', formatEth(v.fees.tips)] as [string, string]] : []),
    ['paid to the fee recipient', paidToRecipient(v)],
    ['transactions', String(h.transactionCount)],
  ];
  for (const [k, val] of facts) yield `<tr><th>${escapeHtml(k)}</th><td>${escapeHtml(val)}</td></tr>\n`;
  yield '</tbody>\n</table>\n<h2>Transactions</h2>\n<table class="grid">\n';
  yield '<thead><tr><th>#</th><th>hash</th><th>from → to</th><th>status</th><th>gas used</th><th>fee (ETH)</th><th>what</th></tr></thead>\n<tbody>\n';
  for (let i = 0; i < v.models.length; i++) {
    const m = v.models[i]!;
    yield row(m, i, m.hash === null ? null : (pages.get(m.hash) ?? null));
  }
  yield '</tbody>\n</table>\n<h2>Looks like MEV</h2>\n';
  if (v.mev.length === 0) yield '<p>nothing: no sandwich, arbitrage, liquidation or payment to the fee recipient.</p>\n';
  else {
    yield '<ul>\n';
    for (const f of v.mev) {
      const ether = f.etherNotKnown === true ? ' (ether not known: a transaction was not traced)' : '';
      const flows = f.profit === null || f.profit.length === 0 ? (f.etherNotKnown === true ? 'not known' : null) : f.profit.map((p) => `${p.amount} ${p.symbol ?? p.asset}`).join(', ');
      const profit = flows === null ? '' : `; net for the actor: ${flows}${ether}`;
      const payment = f.payment !== undefined ? `; paid ${formatEth(f.payment)}` : '';
      yield `<li>looks like ${escapeHtml(f.kind)} by <code>${escapeHtml(f.actor ?? '?')}</code> in ${f.transactions.map((t) => `<code>${escapeHtml(t)}</code>`).join(', ')}${escapeHtml(payment + profit)}</li>\n`;
    }
    yield '</ul>\n';
  }
  yield '</main>\n</body>\n</html>\n';
}
