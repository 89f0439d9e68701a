/**
 * The writers: what each input's outcome becomes on stdout, stderr and in files, whichever source it
 * came from. Text (the head early where the trace cannot change it), --json, --html pages and their
 * index, --gas's table, --gas-out's folded stacks, the summary table for several inputs. The views are
 * loaded while the node works, and only those asked for.
 */
import type { ChalkInstance } from 'chalk';
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Readable } from 'node:stream';
import type { Decoder } from '../decode/createDecoder.js';
import type { LogDecoding } from '../decode/decodeLogs.js';
import { UsageError } from '../errors.js';
import { feeSplit } from '../model/feeSplit.js';
import type { GasProfile, InspectModel } from '../model/types.js';
import type { Head } from '../pipeline/lookupHash.js';
import { escapeShort } from '../raw/escape.js';
import type { Hex } from '../raw/types.js';
import { shortHash } from '../render/format.js';
import { errorDocument, jsonDocument, renderJson } from '../render/renderJson.js';
import type { SummaryRow } from '../render/renderSummary.js';
import { renderHead, renderTail, renderText } from '../render/renderText.js';
import { makeChalk, resolveColor } from '../render/style.js';
import type { Io, SafeWriter } from './io.js';
import type { InspectOptions } from './parseOptions.js';

/** One input's outcome: the model, or the error that stopped it, with its exit code. */
export type Outcome =
  | { readonly input: string; readonly hash: Hex | null; readonly model: InspectModel; readonly code: number }
  | { readonly input: string; readonly hash: Hex | null; readonly error: unknown; readonly code: number };

/** Write a file the command line named (checked before any request); a failure now is one line, exit 2. */
async function writeOutput(path: string, chunks: Iterable<string>, option: string): Promise<void> {
  try {
    await writeFile(path, Readable.from(chunks));
  } catch (err) {
    throw new UsageError(`${option} ${escapeShort(path, 80)}: could not write it (${escapeShort(String((err as { code?: unknown }).code ?? 'error'), 20)}).`);
  }
}

/**
 * --gas-out: every lookup's call paths with their self gas, in one file (with several hashes each
 * path starts with its transaction's short hash).
 */
async function writeFolded(path: string, outcomes: readonly Outcome[], folded: (m: InspectModel, p: GasProfile, prefix?: string) => Generator<string>): Promise<void> {
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
  /** One line on stderr, secrets scrubbed. */
  readonly say: (line: string) => Promise<void>;
  readonly errorMessage: (e: unknown) => string;
  readonly errorCodeName: (e: unknown) => string;
  readonly scrubbed: (text: string) => string;
  readonly debugOn: () => boolean;
  readonly single: boolean;
  /** Resolves once the requests are written: the views load then, while the node works. */
  readonly afterRequests: Promise<void>;
  readonly decoderReady: Promise<Decoder>;
  /** The node, redacted, for "not found". */
  readonly where: string;
}

export interface Writers {
  /** A single text lookup's head (transaction and logs), written before the trace when nothing in it can change them. */
  writeHead(hash: Hex, head: Head, logs: Promise<LogDecoding | undefined> | undefined): Promise<boolean>;
  /** One outcome, in input order. */
  emit(o: Outcome): Promise<void>;
  /** After all of them: the summary table, --gas-out's file, --html's index. */
  finish(all: readonly Outcome[]): Promise<void>;
}

export async function createWriters(c: WriterContext): Promise<Writers> {
  const { opts, io, out, say, single, afterRequests } = c;
  const jsonIndent = io.stdout.isTTY ? 2 : 0;
  // Text output needs chalk, which loads while the node works too; --json and --quiet never load it.
  const colorLevel = resolveColor({ flag: opts.color, env: io.env, isTTY: io.stdout.isTTY === true });
  let chalkReady: Promise<ChalkInstance> | undefined;
  const chalk = (): Promise<ChalkInstance> => (chalkReady ??= afterRequests.then(() => makeChalk(colorLevel)));
  if (!opts.json && !opts.quiet) chalk().catch(() => undefined);
  // --state's text sections, loaded while the node works (a lookup without --state never loads them).
  const stateView = opts.state && !opts.json && !opts.quiet ? afterRequests.then(() => import('../render/renderState.js')) : undefined;
  stateView?.catch(() => undefined);
  // --html's page renderer and its inlined script and styles, likewise.
  const htmlView = opts.html !== undefined ? afterRequests.then(async () => ({ ...(await import('../render/renderHtml.js')), ...(await import('../report/assets.js')) })) : undefined;
  htmlView?.catch(() => undefined);
  const pages = new Map<string, string>();
  if (opts.html !== undefined && !single) await mkdir(opts.html, { recursive: true }).catch(() => undefined);
  // --gas's table (cli-table3) and --gas-out's folded stacks, likewise only when asked for.
  const gasView = (opts.gas && !opts.json && !opts.quiet) || opts.gasOut !== undefined ? afterRequests.then(() => import('../render/renderGasProfile.js')) : undefined;
  gasView?.catch(() => undefined);
  const columns = io.stdout.isTTY ? io.stdout.columns : Number(io.env.COLUMNS);
  const width = columns !== undefined && Number.isFinite(columns) && columns > 0 ? columns : Number.POSITIVE_INFINITY;
  const where = c.where;
  let head: Promise<boolean> | undefined;

  return {
    writeHead(hash, h, logs) {
      head ??= (async (): Promise<boolean> => {
        const decoder = await c.decoderReady;
        const early = await logs;
        if (decoder.namesFromTrace || early === undefined) return false;
        const partial: InspectModel = { hash, status: 'success', tx: h.tx, receipt: h.receipt, tree: null, traceSource: null, traceNote: null, events: null, failure: null, fee: feeSplit(h.tx, h.receipt, null), warnings: [], raw: null };
        const text = renderHead({ ...partial, decoded: decoder.decodeHead(partial, early) }, { chalk: await chalk(), width, where });
        await out.writeAll(text);
        return true;
      })();
      head.catch(() => undefined); // its failure is reported where it is awaited, or not at all when the lookup failed
      return head;
    },

    async emit(o) {
      const tag = single ? '' : `${o.hash !== null ? shortHash(o.hash) : escapeShort(o.input, 20)}: `;
      if ('model' in o) for (const w of o.model.warnings) await say(`txray: warning: ${tag}${w}`);
      else await say(`txray: ${tag}${c.errorMessage(o.error)}`);
      if ('error' in o && c.debugOn() && o.error instanceof Error && o.error.stack) await say(o.error.stack);
      // The --json document, made once when both --json and --html show it.
      const doc = 'model' in o && (opts.json || htmlView !== undefined) ? jsonDocument(o.model) : undefined;
      if (htmlView !== undefined && 'model' in o && doc !== undefined) {
        const { renderHtml, reportAssets } = await htmlView;
        const page = renderHtml(doc, reportAssets());
        if (opts.html === '-') {
          await out.writeAll(page);
          return;
        }
        const file = single ? opts.html! : join(opts.html!, `${o.hash}.html`);
        await writeOutput(file, page, '--html');
        if (o.hash !== null) pages.set(o.hash, basename(file));
      }
      if (opts.quiet) return;
      if (opts.json) {
        const printed = 'model' in o ? doc! : errorDocument(o.hash, { code: c.errorCodeName(o.error), message: c.scrubbed(c.errorMessage(o.error)) }, []);
        await out.writeAll(renderJson(printed, single ? jsonIndent : 0));
      } else if (single || opts.full) {
        const rest = single && head !== undefined && (await head) ? renderTail : renderText;
        const renderState = stateView === undefined ? undefined : (await stateView).renderState;
        if ('model' in o) await out.writeAll(rest(o.model, { chalk: await chalk(), width, where, renderState }));
        const profile = 'model' in o ? o.model.decoded?.gasProfile : undefined;
        if ('model' in o && profile !== undefined && opts.gas) {
          const { renderGasProfile } = await gasView!;
          await out.writeAll(renderGasProfile(o.model, profile, await chalk()));
        }
        if (!single) await out.write('\n');
      }
    },

    async finish(all) {
      if (!single && !opts.json && !opts.full && !opts.quiet) {
        const rows: SummaryRow[] = all.map((o) => ('model' in o ? { input: o.input, model: o.model } : { input: o.input, error: c.errorMessage(o.error) }));
        // cli-table3 is loaded only here: a single lookup never needs it.
        const { renderSummary } = await import('../render/renderSummary.js');
        await out.writeAll(renderSummary(rows, await chalk()));
      }
      if (opts.gasOut !== undefined) await writeFolded(opts.gasOut, all, (await gasView!).foldedStacks);
      if (opts.html !== undefined && !single) {
        const { renderHtmlIndex, reportAssets } = await htmlView!;
        const rows = all.map((o) => ({
          row: 'model' in o ? { input: o.input, model: o.model } : { input: o.input, error: c.errorMessage(o.error) },
          file: o.hash !== null ? (pages.get(o.hash) ?? null) : null,
          status: 'model' in o ? o.model.status : 'error',
          what: 'model' in o ? (o.model.decoded?.function?.name ?? o.model.failure?.error ?? '') : c.errorMessage(o.error),
        }));
        await writeOutput(join(opts.html, 'index.html'), renderHtmlIndex(rows, reportAssets()), '--html');
      }
    },
  };
}
