/**
 * `txray block`: the block's pipeline (pipeline/inspectBlock.ts), then its views: the text, --json's
 * one document, --html's page with each transaction's own page in a folder beside it. The exit code is
 * 0 once the block was read, whatever its transactions did; failures to read it are thrown to main.
 */
import { mkdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { BlockView } from '../block/types.js';
import type { Decoder } from '../decode/createDecoder.js';
import { ExitCode } from '../exitCodes.js';
import { inspectBlock } from '../pipeline/inspectBlock.js';
import { shortHash } from '../format/format.js';
import type { RpcClient } from '../rpc/createRpcClient.js';
import type { BlockId } from '../sources/fetchBlock.js';
import type { Io, SafeWriter } from './io.js';
import { blockPagesFolder, type InspectOptions } from './parseOptions.js';
import type { RunLog } from './runLog.js';
import { completeSettingsOf } from './completeSettingsOf.js';
import { chalkFor, jsonIndent, outputWidth, sayWarnings, transactionPage, writeOutput } from './writeOutcomes.js';

export interface BlockRun {
  readonly opts: InspectOptions;
  readonly io: Io;
  readonly out: SafeWriter;
  readonly log: RunLog;
  readonly decoderReady: Promise<Decoder>;
}

/** --html: the block's page, and (to a file) each transaction's page in the folder beside it, linked from its row. */
async function writeHtml(v: BlockView, r: BlockRun): Promise<void> {
  const file = r.opts.html!;
  const [{ renderBlockHtml }, html, { reportAssets }] = await Promise.all([import('../render/renderBlockHtml.js'), import('../render/renderHtml.js'), import('../report/assets.js')]);
  const assets = reportAssets();
  const pages = new Map<string, string>();
  if (file !== '-') {
    const folder = blockPagesFolder(file);
    await mkdir(folder, { recursive: true }).catch(() => undefined);
    for (const m of v.models) {
      if (m.hash === null || m.raw === null) continue;
      await writeOutput(join(folder, `${m.hash}.html`), transactionPage({ ...html, reportAssets }, m), '--html');
      pages.set(m.hash, `${basename(folder)}/${m.hash}.html`);
    }
    await writeOutput(file, renderBlockHtml(v, pages, assets), '--html');
  } else await r.out.writeAll(renderBlockHtml(v, pages, assets));
}

export async function runBlock(client: RpcClient, id: BlockId, r: BlockRun): Promise<number> {
  const { opts, io, out, log } = r;
  const view = await inspectBlock(client, id, {
    tracer: { mode: opts.tracer, traceMissing: false, replayMissing: false },
    timeoutMs: opts.timeoutMs,
    // Each transaction's page is made from its answers verbatim, as a lookup's is.
    keepAnswers: opts.html !== undefined && opts.html !== '-',
    // As a lookup's; the gas profile for the transactions' --html pages, which show it as a lookup's does.
    complete: completeSettingsOf(opts, io, log, opts.html !== undefined && opts.html !== '-'),
    decoderReady: r.decoderReady,
    onStage: opts.debug ? (stage) => log.debug(`${stage} at ${log.elapsed()}`) : undefined,
  });
  await sayWarnings(log, view.warnings);
  for (const m of view.models) await sayWarnings(log, m.warnings, m.hash === null ? '' : `${shortHash(m.hash)}: `);
  if (opts.html !== undefined) await writeHtml(view, r);
  if (opts.quiet || opts.view === 'html') return ExitCode.success;
  if (opts.view === 'json') {
    const { blockDocument, renderBlockJson } = await import('../render/renderBlockJson.js');
    await out.writeAll(renderBlockJson(blockDocument(view), jsonIndent(io)));
  } else {
    const { renderBlock } = await import('../render/renderBlock.js');
    await out.writeAll(renderBlock(view, { chalk: await chalkFor(opts, io), width: outputWidth(io) }));
  }
  if (opts.debug) log.debug(`done in ${log.elapsed()}`);
  return ExitCode.success;
}
