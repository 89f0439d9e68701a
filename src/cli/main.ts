/**
 * The one place that does I/O and decides exit codes: parse → fetch → validate → model → render → write.
 */
import { CommanderError } from 'commander';
import { Interrupted, RpcFailure, UsageError } from '../errors.js';
import { ExitCode } from '../exitCodes.js';
import { buildModel } from '../model/buildModel.js';
import type { InspectModel } from '../model/types.js';
import { parseCallTrace } from '../raw/parseCallTrace.js';
import { parseReceipt, parseTrace, parseTransaction } from '../raw/parseRaw.js';
import { escapeShort } from '../render/escape.js';
import { errorDocument, jsonDocument, renderJson } from '../render/renderJson.js';
import { renderText } from '../render/renderText.js';
import { makeChalk, resolveColor } from '../render/style.js';
import { createRpcClient } from '../rpc/createRpcClient.js';
import { fetchBundle } from '../rpc/fetchBundle.js';
import { redactUrl, scrub, secretsOf } from '../rpc/redactUrl.js';
import { createProgram, type ParsedArgs } from './createProgram.js';
import { type Io, SafeWriter } from './io.js';
import { type InspectOptions, parseHash, parseOptions } from './parseOptions.js';

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
  const program = createProgram({ writeOut: (s) => (helpText += s) }, (a) => (parsed = a));
  try {
    program.parse([...argv], { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') {
        void out.write(helpText);
        return 'done';
      }
      throw new UsageError(`${escapeShort(err.message.replace(/^error: /, ''), 200)}; see txray --help.`);
    }
    throw err;
  }
  if (parsed === undefined) throw new UsageError('missing the transaction hash; see txray --help.');
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

async function inspect(opts: InspectOptions, io: Io, debug: (line: string) => void): Promise<InspectModel> {
  const deadline = AbortSignal.timeout(opts.timeoutMs);
  const client = await createRpcClient({
    url: opts.url,
    headers: opts.headers,
    deadline,
    interrupt: io.interrupt,
    timeoutMs: opts.timeoutMs,
    maxResponseBytes: opts.maxResponseBytes,
    debug: opts.debug ? debug : undefined,
  });
  try {
    const bundle = await fetchBundle(client, opts.hash, { tracer: opts.tracer });
    const warnings = bundle.warnings;
    const warn = (m: string): void => {
      warnings.push(m);
    };
    const tx = parseTransaction(bundle.transaction, opts.hash, warn);
    const receipt = parseReceipt(bundle.receipt, opts.hash, warn);
    if (bundle.traceSource === 'debug_traceTransaction') {
      const converted = parseCallTrace(bundle.callTrace, warn);
      return buildModel(opts.hash, bundle, { tx, receipt, trace: converted?.entries ?? null, frameLogs: converted?.logs ?? null }, warnings);
    }
    const trace = parseTrace(bundle.trace, opts.hash, warn);
    return buildModel(opts.hash, bundle, { tx, receipt, trace, frameLogs: null }, warnings);
  } finally {
    await client.close();
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
  const started = performance.now();
  try {
    const args = parseArgv(argv, out);
    if (args === 'done') return ExitCode.success;
    const opts = parseOptions(args.hash, args.options, io.env);
    debugOn = opts.debug;
    secrets = secretsOf(opts.url, opts.headers.map(([, v]) => v));
    if (opts.debug) debug(`node ${redactUrl(opts.url)}, timeout ${opts.timeoutMs} ms`);

    const model = await inspect(opts, io, debug);
    for (const w of model.warnings) await say(`txray: warning: ${w}`);
    if (opts.json) {
      await out.writeAll(renderJson(jsonDocument(model), io.stdout.isTTY ? 2 : 0));
    } else {
      const chalk = makeChalk(resolveColor({ flag: opts.color, env: io.env, isTTY: io.stdout.isTTY === true }));
      const columns = io.stdout.isTTY ? io.stdout.columns : Number(io.env.COLUMNS);
      const width = columns !== undefined && Number.isFinite(columns) && columns > 0 ? columns : Number.POSITIVE_INFINITY;
      await out.writeAll(renderText(model, { chalk, width, where: redactUrl(opts.url) }));
    }
    if (opts.debug) debug(`done in ${Math.round(performance.now() - started)} ms`);
    return exitCodeForStatus(model.status);
  } catch (e) {
    const code = exitCodeForError(e);
    if (code === ExitCode.interrupted) return code;
    const message =
      code === ExitCode.internal
        ? `internal error: ${escapeShort(e instanceof Error ? e.message : String(e), 200)}. This is a bug in txray; please report it (run again with --debug for details).`
        : (e as Error).message;
    await say(`txray: ${message}`);
    if (debugOn && e instanceof Error && e.stack) await say(e.stack);
    if (wantsJson) {
      const doc = errorDocument(pickHash(argv), { code: errorCodeName(e), message: scrub(message, secrets) }, []);
      await out.writeAll(renderJson(doc, io.stdout.isTTY ? 2 : 0));
    }
    return code;
  }
}
