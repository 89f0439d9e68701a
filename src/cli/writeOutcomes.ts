/**
 * The writers: what each input's outcome becomes on stdout, stderr and in files, whichever source it
 * came from. Text, --json, --html pages and their
 * index, --gas's table, --gas-out's folded stacks, the summary table for several inputs. The views are
 * loaded while the node works, and only those asked for.
 */
import type { ChalkInstance } from 'chalk';
// node:fs's promises, read at first use: loading node:fs/promises (with readline) costs every run at start-up.
import { promises as fsp } from 'node:fs';
import { basename, join } from 'node:path';
import { Readable } from 'node:stream';
import { movementsInOrder } from '../action/flowOrder.js';
import type { Decoder } from '../decode/createDecoder.js';
import { UsageError } from '../errors.js';
import type { GasProfile, InspectModel } from '../model/types.js';
import { escapeShort } from '../raw/escape.js';
import type { Hex } from '../raw/types.js';
import { shortHash } from '../format/format.js';
import { errorDocument, jsonDocument, renderJson } from '../render/renderJson.js';
import type { SummaryRow } from '../render/renderSummary.js';
import { renderText } from '../render/renderText.js';
import { makeChalk, resolveColor } from '../render/style.js';
import { redactUrl } from '../rpc/redactUrl.js';
import { errorCodeName, errorMessage } from './errorWords.js';
import type { Io, SafeWriter } from './io.js';
import type { InspectOptions } from './parseOptions.js';
import type { RunLog } from './runLog.js';

/** One input's outcome: the model, or the error that stopped it, with its exit code. */
export type InputOutcome =
  | { readonly input: string; readonly hash: Hex | null; readonly model: InspectModel; readonly code: number }
  | { readonly input: string; readonly hash: Hex | null; readonly error: unknown; readonly code: number };

/** Write a file the command line named (checked before any request); a failure now is one line, exit 2. */
export async function writeOutput(path: string, chunks: Iterable<string>, option: string): Promise<void> {
  try {
    await fsp.writeFile(path, Readable.from(chunks));
  } catch (err) {
    throw new UsageError(`${option} ${escapeShort(path, 80)}: could not write it (${escapeShort(String((err as { code?: unknown }).code ?? 'error'), 20)}).`);
  }
}

/**
 * --gas-out: every lookup's call paths with their self gas, in one file (with several hashes each
 * path starts with its transaction's short hash).
 */
async function writeFolded(path: string, outcomes: readonly InputOutcome[], folded: (m: InspectModel, p: GasProfile, prefix?: string) => Generator<string>): Promise<void> {
  const lines: string[] = [];
  for (const o of outcomes) {
    if (!('model' in o) || o.model.tree === null) continue;
    const profile = o.model.decoded?.gasProfile;
    if (profile !== undefined) for (const line of folded(o.model, profile, outcomes.length > 1 && o.hash !== null ? shortHash(o.hash) : undefined)) lines.push(line);
  }
  await writeOutput(path, lines, '--gas-out');
}

export interface WriterContext {
  readonly opts: InspectOptions;
  readonly io: Io;
  readonly out: SafeWriter;
  readonly log: RunLog;
  readonly single: boolean;
  /** Resolves once the requests are written: the views load then, while the node works. */
  readonly afterRequests: Promise<void>;
  readonly decoderReady: Promise<Decoder>;
}

export interface Writers {
  /** One outcome, in input order. */
  emit(o: InputOutcome): Promise<void>;
  /** After all of them: the summary table, --gas-out's file, --html's index. */
  finish(all: readonly InputOutcome[]): Promise<void>;
}

/** Warnings on stderr, one line each, tagged with their transaction (`tag`) where several are shown. */
export async function sayWarnings(log: RunLog, warnings: readonly string[], tag = ''): Promise<void> {
  for (const w of warnings) await log.say(`txray: warning: ${tag}${w}`);
}

/** The terminal's width for text views (COLUMNS off a terminal; unbounded where neither says). */
export function outputWidth(io: Io): number {
  const columns = io.stdout.isTTY ? io.stdout.columns : Number(io.env.COLUMNS);
  return columns !== undefined && Number.isFinite(columns) && columns > 0 ? columns : Number.POSITIVE_INFINITY;
}

/** chalk at the colour level the options and the terminal give. */
export const chalkFor = (opts: Pick<InspectOptions, 'color'>, io: Io): Promise<ChalkInstance> => makeChalk(resolveColor({ flag: opts.color, env: io.env, isTTY: io.stdout.isTTY === true }));

/** A JSON document indented for a person at a terminal (one document only), else on one line. */
export const jsonIndent = (io: Io, single = true): number => (single && io.stdout.isTTY ? 2 : 0);

/** The --html renderer and its inlined script and styles. */
export type HtmlViews = typeof import('../render/renderHtml.js') & typeof import('../report/assets.js');

/** A transaction's --html page, as every front door writes it: its document, and what moved in the order it ran. */
export const transactionPage = (html: HtmlViews, model: InspectModel, doc = jsonDocument(model)): Iterable<string> => html.renderHtml(doc, html.reportAssets(), movementsInOrder(model));

/** The views the options ask for, each loaded after the requests are written (while the node works), and only those. */
interface Views {
  /** chalk, for text output; --json and --quiet never load it. */
  readonly chalk: () => Promise<ChalkInstance>;
  /** --state's text sections. */
  readonly state?: Promise<typeof import('../render/renderState.js')>;
  /** --html's page renderer and its inlined script and styles. */
  readonly html?: Promise<HtmlViews>;
  /** --gas's table (cli-table3) and --gas-out's folded stacks. */
  readonly gas?: Promise<typeof import('../render/renderGasProfile.js')>;
}

function loadViews(opts: InspectOptions, io: Io, afterRequests: Promise<void>): Views {
  let chalkReady: Promise<ChalkInstance> | undefined;
  const chalk = (): Promise<ChalkInstance> => (chalkReady ??= afterRequests.then(() => chalkFor(opts, io)));
  const text = opts.view === 'text' && !opts.quiet;
  if (text) chalk().catch(() => undefined);
  const views: Views = {
    chalk,
    state: opts.state && text ? afterRequests.then(() => import('../render/renderState.js')) : undefined,
    html: opts.html !== undefined ? afterRequests.then(async () => ({ ...(await import('../render/renderHtml.js')), ...(await import('../report/assets.js')) })) : undefined,
    gas: (opts.gas && text) || opts.gasOut !== undefined ? afterRequests.then(() => import('../render/renderGasProfile.js')) : undefined,
  };
  // A view that fails to load says so where it is awaited.
  for (const view of [views.state, views.html, views.gas]) view?.catch(() => undefined);
  return views;
}

export async function createWriters(c: WriterContext): Promise<Writers> {
  const views = loadViews(c.opts, c.io, c.afterRequests);
  if (c.opts.html !== undefined && !c.single) await fsp.mkdir(c.opts.html, { recursive: true }).catch(() => undefined);
  return new OutcomeWriters(c, views);
}

class OutcomeWriters implements Writers {
  /** --html with several inputs: each page's file by hash, for the index. */
  private readonly pages = new Map<string, string>();
  private readonly width: number;
  /** The node, redacted, for "not found". */
  private readonly where: string;

  constructor(
    private readonly c: WriterContext,
    private readonly views: Views,
  ) {
    this.width = outputWidth(c.io);
    this.where = redactUrl(c.opts.url);
  }

  async emit(o: InputOutcome): Promise<void> {
    const { opts, single, out, log } = this.c;
    const tag = single ? '' : `${o.hash !== null ? shortHash(o.hash) : escapeShort(o.input, 20)}: `;
    if ('model' in o) await sayWarnings(log, o.model.warnings, tag);
    else await log.say(`txray: ${tag}${errorMessage(o.error)}`);
    if ('error' in o && log.debugOn && o.error instanceof Error && o.error.stack) await log.say(o.error.stack);
    // The --json document, made once when both --json and --html show it.
    const doc = 'model' in o && (opts.view === 'json' || this.views.html !== undefined) ? jsonDocument(o.model) : undefined;
    const html = this.views.html;
    if (doc !== undefined && 'model' in o && html !== undefined && opts.html !== undefined && (await this.writePage(o.model, doc, await html, opts.html)) === 'stdout') return;
    if (opts.quiet) return;
    if (opts.view === 'json') {
      const printed = 'model' in o ? (doc ?? jsonDocument(o.model)) : errorDocument(o.hash, { code: errorCodeName(o.error), message: log.scrubbed(errorMessage(o.error)) }, []);
      await out.writeAll(renderJson(printed, jsonIndent(this.c.io, single)));
    } else if (single || opts.full) {
      if ('model' in o) await this.writeText(o.model);
      if (!single) await out.write('\n');
    }
  }

  /** --html's page for one model: on stdout (`target` -), or its file (`target` the file, or the folder with several). */
  private async writePage(model: InspectModel, doc: ReturnType<typeof jsonDocument>, views: HtmlViews, target: string): Promise<'stdout' | 'file'> {
    const { single, out } = this.c;
    const hash = model.hash;
    const page = transactionPage(views, model, doc);
    if (target === '-') {
      await out.writeAll(page);
      return 'stdout';
    }
    const file = single ? target : join(target, `${hash}.html`);
    await writeOutput(file, page, '--html');
    if (hash !== null) this.pages.set(hash, basename(file));
    return 'file';
  }

  /** The text view, then --gas's table. */
  private async writeText(model: InspectModel): Promise<void> {
    const { opts, out } = this.c;
    const renderState = this.views.state === undefined ? undefined : (await this.views.state).renderState;
    const chalk = await this.views.chalk();
    await out.writeAll(renderText(model, { chalk, width: this.width, where: this.where, renderState, full: opts.full }));
    const profile = model.decoded?.gasProfile;
    const gas = this.views.gas;
    if (profile !== undefined && opts.gas && gas !== undefined) {
      const { renderGasProfile } = await gas;
      await out.writeAll(renderGasProfile(model, profile, chalk));
    }
  }

  async finish(all: readonly InputOutcome[]): Promise<void> {
    const { opts, single, out } = this.c;
    const rowOf = (o: InputOutcome): SummaryRow => ('model' in o ? { input: o.input, model: o.model } : { input: o.input, error: errorMessage(o.error) });
    const rows = all.map(rowOf);
    if (!single && opts.view === 'text' && !opts.full && !opts.quiet) {
      // cli-table3 is loaded only here: a single lookup never needs it.
      const { renderSummary } = await import('../render/renderSummary.js');
      await out.writeAll(renderSummary(rows, await this.views.chalk(), this.width));
    }
    const { gas, html } = this.views;
    if (opts.gasOut !== undefined && gas !== undefined) await writeFolded(opts.gasOut, all, (await gas).foldedStacks);
    if (opts.html !== undefined && html !== undefined && !single) {
      const { renderHtmlIndex, reportAssets } = await html;
      const index = all.map((o) => ({
        row: rowOf(o),
        file: o.hash !== null ? (this.pages.get(o.hash) ?? null) : null,
        status: 'model' in o ? o.model.status : 'error',
        what: 'model' in o ? (o.model.decoded?.function?.name ?? o.model.failure?.error ?? '') : errorMessage(o.error),
      }));
      await writeOutput(join(opts.html, 'index.html'), renderHtmlIndex(index, reportAssets()), '--html');
    }
  }
}
