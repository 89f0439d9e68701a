/**
 * --html: one self-contained HTML file per transaction. The --json document is embedded once, in
 * `<script type="application/json" id="txray-data">`: as JSON (every "<" written as \u003c, so no text
 * from the chain can close the element), or, above COMPRESS_ABOVE, gzip-compressed and base64-encoded
 * with `data-encoding="gzip+base64"` (the exact bytes --json prints; a browser reads 40 MB of JSON
 * text far slower than 1 MB of base64 that it decompresses itself). Compressed, the node's raw answers
 * that the page never shows (the receipt's logs, the trace: the bulk of a large document) are gzip members
 * of their own, listed in `script#txray-parts`, so that the page leaves them compressed and unparsed;
 * gunzip reads the members as one stream, the same bytes. The page's own script and styles
 * (src/report/, bundled and inlined by the build) draw it. A Content-Security-Policy allows that one
 * script and that one style sheet by their hashes and nothing else: no requests, no other code.
 * Pure: (document, assets) → chunks.
 */
import { gzipSync } from 'node:zlib';
import type { SummaryRow } from './renderSummary.js';
import type { JsonDocument } from './renderJson.js';
import { type FlowMovement, fundFlowSection } from './fundFlow.js';
import { escapeHtml } from './html.js';
import { documentParts } from './documentParts.js';

/** The page's script and styles with their CSP hashes ("sha256-…"), made by scripts/build.mjs. */
export interface ReportAssets {
  readonly js: string;
  readonly css: string;
  readonly jsHash: string;
  readonly cssHash: string;
}

/** The page's Content-Security-Policy: its own script (where it has one) and styles, nothing else. */
export const csp = (a: ReportAssets, script: boolean): string =>
  `default-src 'none'; ${script ? `script-src '${a.jsHash}'; ` : ''}style-src '${a.cssHash}'; img-src data:; base-uri 'none'; form-action 'none'`;

export { escapeHtml };

/** Documents larger than this (characters of JSON) are embedded compressed. */
export const COMPRESS_ABOVE = 1 << 20;

/**
 * `movements`: what moved, in the order it ran (the action stage's), for the fund flow, which is laid
 * out here and written as markup the page's script only moves into place.
 */
export function* renderHtml(doc: JsonDocument, assets: ReportAssets, movements: readonly FlowMovement[] = [], compressAbove = COMPRESS_ABOVE): Generator<string> {
  const hash = typeof doc.hash === 'string' ? doc.hash : doc.simulation ? 'simulation' : 'transaction';
  yield '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n';
  yield `<meta http-equiv="Content-Security-Policy" content="${csp(assets, true)}">\n`;
  yield '<meta name="viewport" content="width=device-width, initial-scale=1">\n<meta name="referrer" content="no-referrer">\n';
  yield `<title>txray ${escapeHtml(hash)}</title>\n<style>${assets.css}</style>\n</head>\n<body>\n`;
  yield '<noscript>This report draws itself with JavaScript; its data is the JSON in script#txray-data (gzip and base64 when it is large).</noscript>\n';
  yield fundFlowSection({ movements, actor: doc.action?.actor ?? null, labels: doc.labels, etherUnknown: doc.etherInsideCallsKnown === false });
  const parts = documentParts(doc);
  const size = parts.reduce((n, part) => n + part.text.length, 0);
  if (size > compressAbove) {
    // Level 3: a 43 MB document of 20,000 calls compresses to ~1 MB in ~60 ms (level 6: 0.9 MB, ~240 ms).
    // The last part ends with the newline --json ends with: gunzip gives the exact bytes it prints.
    const members = parts.map((part, i) => gzipSync(Buffer.from(i === parts.length - 1 ? `${part.text}\n` : part.text, 'utf8'), { level: 3 }));
    const unread = parts.flatMap((part, i) => (part.unread ? [i] : []));
    yield `<script type="application/json" id="txray-parts">${JSON.stringify({ members: members.map((m) => m.length), unread })}</script>\n`;
    yield `<script type="application/json" id="txray-data" data-encoding="gzip+base64">${Buffer.concat(members).toString('base64')}`;
  } else {
    yield '<script type="application/json" id="txray-data">';
    // JSON has "<" only inside strings, where \u003c reads back as the same character. The document
    // stays on the tag's line, so one sed line pulls it back out.
    for (const { text } of parts) yield text.includes('<') ? text.replaceAll('<', '\\u003c') : text;
  }
  yield `</script>\n<script type="module">${assets.js}</script>\n</body>\n</html>\n`;
}

/** With several hashes: index.html, the summary table with a link to each transaction's page. */
export function* renderHtmlIndex(rows: ReadonlyArray<{ readonly row: SummaryRow; readonly file: string | null; readonly status: string; readonly what: string }>, assets: ReportAssets): Generator<string> {
  yield '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n';
  yield `<meta http-equiv="Content-Security-Policy" content="${csp(assets, false)}">\n`;
  yield `<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>txray: ${rows.length} transactions</title>\n<style>${assets.css}</style>\n</head>\n<body>\n<main>\n`;
  yield `<h1>${rows.length} transactions</h1>\n<table class="grid">\n<thead><tr><th>hash</th><th>status</th><th>what</th></tr></thead>\n<tbody>\n`;
  for (const { row, file, status, what } of rows) {
    const name = escapeHtml(row.input);
    const link = file === null ? `<code>${name}</code>` : `<a href="${escapeHtml(file)}"><code>${name}</code></a>`;
    yield `<tr><td>${link}</td><td><span class="status ${escapeHtml(status)}">${escapeHtml(status)}</span></td><td>${escapeHtml(what)}</td></tr>\n`;
  }
  yield '</tbody>\n</table>\n</main>\n</body>\n</html>\n';
}
