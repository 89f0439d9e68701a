/**
 * The one place that does I/O and decides exit codes: parse → fetch → validate → model → render → write.
 */
import type { ChalkInstance } from 'chalk';
import { CommanderError } from 'commander';
import { Interrupted, RpcFailure, UsageError } from '../errors.js';
import { ExitCode } from '../exitCodes.js';
import type { GasProfile, InspectModel } from '../model/types.js';
import type { Hex, RpcLog } from '../raw/types.js';

import type { LogDecoding } from '../decode/decodeModel.js';
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Readable } from 'node:stream';
import { escapeShort } from '../raw/escape.js';
import { shortHash } from '../render/format.js';
import { errorDocument, jsonDocument, renderJson } from '../render/renderJson.js';
import type { SummaryRow } from '../render/renderSummary.js';
import { renderHead, renderTail, renderText } from '../render/renderText.js';
import { makeChalk, resolveColor } from '../render/style.js';
import { createRpcClient, nowMs, type RpcClient } from '../rpc/createRpcClient.js';
import { redactUrl, scrub, secretsOf } from '../rpc/redactUrl.js';
import { createCallProgram, createProgram, type ParsedArgs } from './createProgram.js';
import { completeModel } from '../pipeline/completeModel.js';
import { type Head, inspect, type InspectSettings } from '../pipeline/lookupHash.js';
import { planCall } from '../pipeline/planCall.js';
import { type CallPlan, simulateCall } from '../pipeline/simulateCall.js';
import { type Io, SafeWriter } from './io.js';
import { type Input, parseHash, parseOptions } from './parseOptions.js';

export function exitCodeForStatus(status: InspectModel['status']): ExitCode {
  switch (status) {
    case 'success':
      return ExitCode.success;
    case 'reverted':
      return ExitCode.reverted;
    case 'pending':
      return ExitCode.pending;
    case 'not_found':
      return ExitCode.notFound;
  }
}

export function exitCodeForError(err: unknown): ExitCode {
  if (err instanceof UsageError) return ExitCode.usage;
  if (err instanceof RpcFailure) return ExitCode.rpcFailure;
  if (err instanceof Interrupted) return ExitCode.interrupted;
  return ExitCode.internal;
}

function errorCodeName(err: unknown): string {
  if (err instanceof UsageError) return 'usage';
  if (err instanceof RpcFailure) return err.kind;
  return 'internal';
}

/** Commander's own errors ("unknown option '--x'") as UsageErrors; help and version are not errors. */
function parseArgv(argv: readonly string[], out: SafeWriter): ParsedArgs | 'done' {
  let parsed: ParsedArgs | undefined;
  let helpText = '';
  // `txray call …` is the second front door: its own words and options, the same output options.
  const isCall = argv[0] === 'call';
  const make = isCall ? createCallProgram : createProgram;
  const program = make({ writeOut: (s) => (helpText += s) }, (a) => (parsed = a));
  try {
    program.parse(isCall ? argv.slice(1) : [...argv], { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') {
        void out.write(helpText);
        return 'done';
      }
      throw new UsageError(`${escapeShort(err.message.replace(/^error: /, '').replace(/\s*\n\s*/g, ' '), 200)}; see txray ${isCall ? 'call ' : ''}--help.`);
    }
    throw err;
  }
  if (parsed === undefined) throw new UsageError('missing the transaction hash; see txray --help.');
  if (parsed.hashes.length === 0 && parsed.call === undefined) throw new UsageError('missing the transaction hash; see txray --help.');
  return parsed;
}

/** The hash for an error document: the first word of argv that is a valid hash, if any. */
function pickHash(argv: readonly string[]): string | null {
  for (const word of argv) {
    try {
      return parseHash(word);
    } catch {
      /* not a hash: an option or its value */
    }
  }
  return null;
}

/** One input of the pipeline: a hash to look up (or the usage error it earned), or the call to simulate. */
type PipelineInput = Input | { readonly text: string; readonly hash: Hex | null; readonly plan: CallPlan };

/** One input's outcome: the model, or the error that stopped it, with its exit code. */
type Outcome =
  | { readonly input: string; readonly hash: Hex | null; readonly model: InspectModel; readonly code: number }
  | { readonly input: string; readonly hash: Hex | null; readonly error: unknown; readonly code: number };

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

/** Write a file the command line named (checked before any request); a failure now is one line, exit 2. */
async function writeOutput(path: string, chunks: Iterable<string>, option: string): Promise<void> {
  try {
    await writeFile(path, Readable.from(chunks));
  } catch (err) {
    throw new UsageError(`${option} ${escapeShort(path, 80)}: could not write it (${escapeShort(String((err as { code?: unknown }).code ?? 'error'), 20)}).`);
  }
}

export async function main(argv: readonly string[], io: Io): Promise<number> {
  const out = new SafeWriter(io.stdout);
  const err = new SafeWriter(io.stderr);
  const wantsJson = argv.includes('--json');
  let debugOn = argv.includes('--debug');
  let secrets: string[] = [];
  const say = (line: string): Promise<void> => err.write(`${scrub(line, secrets)}\n`);
  const debug = (line: string): void => void say(`txray: debug: ${line}`);
  const jsonIndent = io.stdout.isTTY ? 2 : 0;
  const started = nowMs();
  const elapsed = (): string => `${Math.round(nowMs() - started)} ms (${Math.round(process.memoryUsage.rss() / 2 ** 20)} MB resident)`;
  const errorMessage = (e: unknown): string =>
    exitCodeForError(e) === ExitCode.internal
      ? `internal error: ${escapeShort(e instanceof Error ? e.message : String(e), 200)}. This is a bug in txray; please report it (run again with --debug for details).`
      : (e as Error).message;
  let client: RpcClient | undefined;
  try {
    const args = parseArgv(argv, out);
    if (args === 'done') return ExitCode.success;
    const stdin = args.hashes.includes('-') ? await (io.readStdin?.() ?? Promise.resolve('')) : undefined;
    const opts = parseOptions(args.hashes, args.options, io.env, stdin, args.call);
    debugOn = opts.debug;
    secrets = secretsOf(opts.url, opts.headers.map(([, v]) => v));
    if (opts.debug) debug(`node ${redactUrl(opts.url)}, timeout ${opts.timeoutMs} ms, ${opts.call !== null ? 'a call to simulate' : `${opts.inputs.length} hash(es)`}${io.codeCache ? `, code cache ${io.codeCache}` : ''}`);

    // Decoding data: a bad --abi/--labels is a usage error, so those are loaded before any request.
    // Otherwise loading waits for the event loop's check phase (setImmediate), which comes after the
    // first poll has connected and written the requests: it then runs while the node works.
    // A call's signature may be a bare name that the ABIs know, and its arguments are checked against them.
    const needsDecoderFirst = opts.abiPaths.length > 0 || opts.labels.length > 0 || opts.labelsFile !== undefined || opts.call !== null;
    const afterRequests = new Promise<void>((resolve) => setImmediate(resolve));
    const decoderReady = (needsDecoderFirst ? Promise.resolve() : afterRequests)
      .then(() => import('../decode/createDecoder.js'))
      .then((m) =>
        m.createDecoder({ abiPaths: opts.abiPaths, projectAbis: opts.projectAbis, cwd: io.cwd ?? '.', labels: opts.labels, labelsFile: opts.labelsFile, dbDir: io.sigdb ?? null }),
      );
    if (needsDecoderFirst) await decoderReady;
    else decoderReady.catch(() => undefined);
    // The call encoded (or the signed transaction read back) before any request: bad input is exit 2.
    const plan: CallPlan | null = opts.call === null ? null : await planCall(opts.call, (await decoderReady).index);
    // One pipeline: each input is a source (a hash to look up, or the call to simulate) followed by the same stages.
    const inputs: readonly PipelineInput[] = plan === null ? opts.inputs : [{ text: 'call', hash: plan.hash, plan }];

    const single = inputs.length === 1;
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
    const needsGasProfile = opts.json || opts.html !== undefined || opts.gas || opts.gasOut !== undefined;
    const gasView = (opts.gas && !opts.json && !opts.quiet) || opts.gasOut !== undefined ? afterRequests.then(() => import('../render/renderGasProfile.js')) : undefined;
    gasView?.catch(() => undefined);
    const columns = io.stdout.isTTY ? io.stdout.columns : Number(io.env.COLUMNS);
    const width = columns !== undefined && Number.isFinite(columns) && columns > 0 ? columns : Number.POSITIVE_INFINITY;
    const where = redactUrl(opts.url);
    client = await createRpcClient({
      url: opts.url,
      headers: opts.headers,
      interrupt: io.interrupt,
      timeoutMs: opts.timeoutMs,
      maxResponseBytes: opts.maxResponseBytes,
      debug: opts.debug ? debug : undefined,
    });
    const settings: InspectSettings = {
      timeoutMs: opts.timeoutMs,
      waitMs: opts.waitMs,
      confirmations: opts.confirmations,
      tracer: { mode: opts.tracer, traceMissing: false, replayMissing: false },
      state: opts.state,
      interrupt: io.interrupt,
      keepAnswers: opts.json || opts.html !== undefined,
    };

    // A single text lookup writes its head (transaction and logs) while the trace is still coming,
    // when nothing in the trace can change it: the part after it is then all that is left at the end.
    const writesHead = single && !opts.json && !opts.quiet && opts.html !== '-';
    let head: Promise<boolean> | undefined;
    const writeHead = async (hash: Hex, h: Head, logs: Promise<LogDecoding | undefined> | undefined): Promise<boolean> => {
      const decoder = await decoderReady;
      const early = await logs;
      if (decoder.namesFromTrace || early === undefined) return false;
      const partial: InspectModel = { hash, status: 'success', tx: h.tx, receipt: h.receipt, tree: null, traceSource: null, traceNote: null, events: null, failure: null, warnings: [], raw: null };
      const text = renderHead({ ...partial, decoded: decoder.decodeHead(partial, early) }, { chalk: await chalk(), width, where });
      await out.writeAll(text);
      return true;
    };

    // Results are written in input order as soon as every earlier one is done (NDJSON, --full);
    // the summary table waits for all of them.
    const outcomes: Array<Outcome | undefined> = new Array(inputs.length);
    let flushed = 0;
    let writing = Promise.resolve();
    const progress = !single && !opts.json && !opts.quiet && io.stderr.isTTY === true && inputs.length >= 10;
    let done = 0;
    const emit = async (o: Outcome): Promise<void> => {
      const tag = single ? '' : `${o.hash !== null ? shortHash(o.hash) : escapeShort(o.input, 20)}: `;
      if ('model' in o) for (const w of o.model.warnings) await say(`txray: warning: ${tag}${w}`);
      else await say(`txray: ${tag}${errorMessage(o.error)}`);
      if ('error' in o && debugOn && o.error instanceof Error && o.error.stack) await say(o.error.stack);
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
        const printed = 'model' in o ? doc! : errorDocument(o.hash, { code: errorCodeName(o.error), message: scrub(errorMessage(o.error), secrets) }, []);
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
    };
    const flush = (): void => {
      while (flushed < outcomes.length && outcomes[flushed] !== undefined) {
        const o = outcomes[flushed++]!;
        writing = writing.then(() => emit(o));
      }
    };
    let next = 0;
    let interrupted = false;
    const worker = async (): Promise<void> => {
      while (next < inputs.length && !interrupted) {
        const i = next++;
        const input = inputs[i]!;
        let outcome: Outcome;
        if ('error' in input) outcome = { input: input.text, hash: null, error: input.error, code: ExitCode.usage };
        else {
          try {
            const tag = single || input.hash === null ? '' : `${shortHash(input.hash)}: `;
            // The source: a simulated call, or a lookup by hash. A lookup's receipt logs are decoded as
            // soon as they arrive, while the trace is still coming, and its head may be written early.
            let earlyLogs: Promise<LogDecoding | undefined> | undefined;
            let plain: InspectModel;
            if ('plan' in input) {
              plain = await simulateCall(client!, input.plan, { timeoutMs: opts.timeoutMs, tracer: settings.tracer, state: opts.state, keepAnswers: settings.keepAnswers });
            } else {
              const hash = input.hash;
              const onLogs = (logs: readonly RpcLog[]): void => {
                earlyLogs = decoderReady.then((d) => d.decodeLogs(logs)).catch(() => undefined);
              };
              const onHead = (h: Head): void => {
                head ??= writeHead(hash, h, earlyLogs);
                head.catch(() => undefined); // its failure is reported where it is awaited, or not at all when the lookup failed
              };
              plain = await inspect(client!, hash, { ...settings, onLogs, onHead: writesHead ? onHead : undefined });
            }
            if (opts.debug) debug(`${tag}answers checked and modelled at ${elapsed()}`);
            // From here on, the same stages whatever the source.
            const model = await completeModel(client!, await decoderReady, plain, { timeoutMs: opts.timeoutMs, needsGasProfile, warnPartialGas: opts.gas || opts.gasOut !== undefined }, await earlyLogs);
            if (opts.debug) debug(`${tag}decoded at ${elapsed()}`);
            outcome = { input: input.text, hash: input.hash, model, code: exitCodeForStatus(model.status) };
          } catch (e) {
            if (e instanceof Interrupted) {
              interrupted = true;
              return;
            }
            if (single) throw e;
            outcome = { input: input.text, hash: input.hash, error: e, code: exitCodeForError(e) };
          }
        }
        outcomes[i] = outcome;
        done++;
        if (progress) void err.write(`\rtxray: ${done}/${inputs.length} inspected`);
        flush();
      }
    };
    await Promise.all(Array.from({ length: Math.min(opts.concurrency, inputs.length) }, worker));
    await writing;
    if (progress) await err.write('\r\u001b[2K');
    if (interrupted) return ExitCode.interrupted;
    const all = outcomes as Outcome[];
    if (!single && !opts.json && !opts.full && !opts.quiet) {
      const rows: SummaryRow[] = all.map((o) => ('model' in o ? { input: o.input, model: o.model } : { input: o.input, error: errorMessage(o.error) }));
      // cli-table3 is loaded only here: a single lookup never needs it.
      const { renderSummary } = await import('../render/renderSummary.js');
      await out.writeAll(renderSummary(rows, await chalk()));
    }
    if (opts.gasOut !== undefined) await writeFolded(opts.gasOut, all, (await gasView!).foldedStacks);
    if (opts.html !== undefined && !single) {
      const { renderHtmlIndex, reportAssets } = await htmlView!;
      const rows = all.map((o) => ({
        row: 'model' in o ? { input: o.input, model: o.model } : { input: o.input, error: errorMessage(o.error) },
        file: o.hash !== null ? (pages.get(o.hash) ?? null) : null,
        status: 'model' in o ? o.model.status : 'error',
        what: 'model' in o ? (o.model.decoded?.function?.name ?? o.model.failure?.error ?? '') : errorMessage(o.error),
      }));
      await writeOutput(join(opts.html, 'index.html'), renderHtmlIndex(rows, reportAssets()), '--html');
    }
    if (opts.debug) debug(`done in ${elapsed()}`);
    return all.reduce((max, o) => Math.max(max, o.code), 0);
  } catch (e) {
    const code = exitCodeForError(e);
    if (code === ExitCode.interrupted) return code;
    const message = errorMessage(e);
    await say(`txray: ${message}`);
    if (debugOn && e instanceof Error && e.stack) await say(e.stack);
    if (wantsJson) {
      const doc = errorDocument(pickHash(argv), { code: errorCodeName(e), message: scrub(message, secrets) }, []);
      await out.writeAll(renderJson(doc, jsonIndent));
    }
    return code;
  } finally {
    await client?.close();
  }
}
