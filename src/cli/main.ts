/**
 * The one place that decides exit codes: options → the pipeline (a source, then the shared stages) for
 * each input → the writers (cli/writeOutcomes.ts).
 */
import { CommanderError } from 'commander';
import { AmbiguousFunction, Interrupted, RpcFailure, UsageError } from '../errors.js';
import { ExitCode } from '../exitCodes.js';
import type { InspectModel } from '../model/types.js';
import type { Hex } from '../raw/types.js';
import { escapeShort } from '../raw/escape.js';
import { shortHash } from '../render/format.js';
import { errorDocument, renderJson } from '../render/renderJson.js';
import { createRpcClient, nowMs, type RpcClient } from '../rpc/createRpcClient.js';
import { proxyFor, shownProxy } from '../rpc/proxy.js';
import { redactUrl, scrub, secretsOf } from '../rpc/redactUrl.js';
import { createCallProgram, createProgram, type ParsedArgs } from './createProgram.js';
import type { InspectSettings } from '../pipeline/lookupHash.js';
import { planCall } from '../pipeline/planCall.js';
import type { Decoder } from '../decode/createDecoder.js';
import { deadlineSignal } from '../rpc/deadline.js';
import { isData } from '../raw/hex.js';
import { runPipeline } from '../pipeline/runPipeline.js';
import type { CallPlan } from '../pipeline/simulateCall.js';
import { type Io, SafeWriter } from './io.js';
import { type Input, type InspectOptions, looksLikeAlias, parseHash, parseOptions } from './parseOptions.js';
import { createWriters, type Outcome } from './writeOutcomes.js';

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

/**
 * By status, except that a transaction that succeeded with fewer confirmations than --confirmations
 * asked is not final yet (4). A revert stays 1: what it did is the more important fact, and it fails a
 * script either way.
 */
export function exitCodeForModel(model: InspectModel): ExitCode {
  const c = model.confirmations;
  if (c != null && c.reached < c.wanted && model.status === 'success') return ExitCode.pending;
  return exitCodeForStatus(model.status);
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

const COMPLETIONS_HELP = `Usage: txray completions <bash|zsh|fish>

Print a completion script for the shell (options, --tracer's modes, files, foundry.toml's endpoints).
  bash:  source <(txray completions bash)                      # in ~/.bashrc
  zsh:   txray completions zsh > "\${fpath[1]}/_txray"         # then start a new shell
  fish:  txray completions fish > ~/.config/fish/completions/txray.fish
`;

async function completions(words: readonly string[]): Promise<string> {
  if (words.length === 1 && (words[0] === '-h' || words[0] === '--help')) return COMPLETIONS_HELP;
  if (words.length > 1) throw new UsageError('txray completions takes one shell: bash, zsh or fish.');
  return (await import('./completions.js')).completionScript(words[0] ?? '');
}

/** The name of the artifact the target's code is (at the call's block, or as --override-code sets it), or null. */
async function targetArtifact(client: RpcClient, decoder: Decoder, to: Hex, block: string, timeoutMs: number, override?: Hex): Promise<string | null> {
  const code = override ?? (await client.call('eth_getCode', [to, block === 'default' ? 'latest' : block], deadlineSignal(timeoutMs)));
  if (!isData(code)) return null;
  return decoder.nameByCode(new Map([[to.toLowerCase(), code]])).get(to.toLowerCase()) ?? null;
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
type PipelineInput = Input | { readonly kind: 'call'; readonly text: string; readonly hash: Hex | null; readonly plan: CallPlan };

/** --debug: which requests go through a proxy, said by its host and port only. */
function proxyLines(opts: InspectOptions): string[] {
  const targets: Array<readonly [string, URL]> = [['the node', opts.url]];
  if (opts.online !== null) targets.push(['--online: Sourcify', opts.online.sourcifyUrl], ['--online: the signature database', opts.online.signaturesUrl], ['--online: Etherscan', opts.online.etherscanUrl]);
  return targets.flatMap(([what, url]) => {
    const proxy = proxyFor(url, opts.proxy);
    return proxy === null ? [] : [`${what} through the proxy ${shownProxy(proxy)}`];
  });
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
    // `txray completions <shell>`: a script for the shell, made from the options' own definitions.
    if (argv[0] === 'completions') {
      await out.write(await completions(argv.slice(1)));
      return ExitCode.success;
    }
    const args = parseArgv(argv, out);
    if (args === 'done') return ExitCode.success;
    const stdin = args.hashes.includes('-') ? await (io.readStdin?.() ?? Promise.resolve('')) : undefined;
    // A word for the node (`--rpc-url mainnet`) is looked up in the Foundry project's [rpc_endpoints].
    const named = args.options.rpcUrl ?? io.env.ETH_RPC_URL;
    const foundry = looksLikeAlias(named) ? (await import('./foundryEndpoints.js')).foundryEndpoints(io.cwd ?? '.', io.env) : null;
    const opts = parseOptions(args.hashes, args.options, io.env, stdin, args.call, foundry);
    debugOn = opts.debug;
    // A proxy's credentials are secrets too (undici sends them as Proxy-Authorization; nothing prints them).
    const proxyCredentials = [opts.proxy.http, opts.proxy.https].flatMap((p) => (p === null ? [] : [new URL(p).username, new URL(p).password]));
    secrets = secretsOf(opts.url, [...opts.headers.map(([, v]) => v), ...proxyCredentials]);
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
        m.createDecoder({ abiPaths: opts.abiPaths, projectAbis: opts.projectAbis, cwd: io.cwd ?? '.', env: io.env, labels: opts.labels, labelsFile: opts.labelsFile, dbDir: io.sigdb ?? null }),
      );
    if (needsDecoderFirst) await decoderReady;
    else decoderReady.catch(() => undefined);
    // The call encoded (or the signed transaction read back) before any request: bad input is exit 2.
    const connect = (): Promise<RpcClient> =>
      createRpcClient({
        url: opts.url,
        headers: opts.headers,
        interrupt: io.interrupt,
        timeoutMs: opts.timeoutMs,
        maxResponseBytes: opts.maxResponseBytes,
        debug: opts.debug ? debug : undefined,
        proxy: opts.proxy,
        defaultEndpoint: opts.defaultEndpoint,
      });
    let plan: CallPlan | null = null;
    if (opts.call !== null) {
      const decoder = await decoderReady;
      try {
        plan = await planCall(opts.call, decoder.index);
      } catch (err) {
        // A bare name several loaded functions fit: the target's own code may tell which (one request).
        if (!(err instanceof AmbiguousFunction) || opts.call.to === null) throw err;
        client = await connect();
        const override = (opts.call.overrides?.[opts.call.to.toLowerCase()] as { code?: unknown } | undefined)?.code;
        const prefer = await targetArtifact(client, decoder, opts.call.to, opts.call.block, opts.timeoutMs, isData(override) ? override : undefined);
        plan = await planCall(opts.call, decoder.index, prefer);
      }
    }
    // One pipeline: each input is a source (a hash to look up, or the call to simulate) followed by the same stages.
    const inputs: readonly PipelineInput[] = plan === null ? opts.inputs : [{ kind: 'call', text: 'call', hash: plan.hash, plan }];

    const single = inputs.length === 1;
    const where = redactUrl(opts.url);
    const writers = await createWriters({
      opts,
      io,
      out,
      say,
      errorMessage,
      errorCodeName,
      scrubbed: (text) => scrub(text, secrets),
      debugOn: () => debugOn,
      single,
      afterRequests,
      decoderReady,
      where,
    });
    // The gas profile is made once where a view shows it.
    const needsGasProfile = opts.json || opts.html !== undefined || opts.gas || opts.gasOut !== undefined;
    // The views that show transfers: --quiet shows nothing, the many-hashes summary no transfer.
    const tokenAmounts = !opts.quiet && (single || opts.full || opts.json || opts.html !== undefined);
    client ??= await connect();
    if (opts.debug) for (const line of proxyLines(opts)) debug(line);
    const settings: InspectSettings = {
      timeoutMs: opts.timeoutMs,
      waitMs: opts.waitMs,
      confirmations: opts.confirmations,
      tracer: { mode: opts.tracer, traceMissing: false, replayMissing: false },
      state: opts.state,
      interrupt: io.interrupt,
      keepAnswers: opts.json || opts.html !== undefined,
    };

    // Results are written in input order as soon as every earlier one is done (NDJSON, --full);
    // the summary table waits for all of them.
    const outcomes: Array<Outcome | undefined> = new Array(inputs.length);
    let flushed = 0;
    let writing = Promise.resolve();
    const progress = !single && !opts.json && !opts.quiet && io.stderr.isTTY === true && inputs.length >= 10;
    let done = 0;
    // A single text lookup writes its head (transaction and logs) while the trace is still coming,
    // when nothing in the trace can change it: the part after it is then all that is left at the end.
    // With --online, names may come from what the trace shows: the head waits for them.
    const writesHead = single && !opts.json && !opts.quiet && opts.html !== '-' && opts.online === null;
    const flush = (): void => {
      while (flushed < outcomes.length && outcomes[flushed] !== undefined) {
        const o = outcomes[flushed++]!;
        writing = writing.then(() => writers.emit(o));
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
            const model = await runPipeline(client!, input, {
              lookup: settings,
              complete: { timeoutMs: opts.timeoutMs, needsGasProfile, warnPartialGas: opts.gas || opts.gasOut !== undefined, tokenAmounts, online: opts.online, interrupt: io.interrupt, debug: opts.debug ? (line) => debug(`${tag}${line}`) : undefined },
              decoderReady,
              onHead: writesHead ? (hash, head, logs) => void writers.writeHead(hash, head, logs) : undefined,
              onStage: opts.debug ? (stage) => debug(`${tag}${stage} at ${elapsed()}`) : undefined,
            });
            outcome = { input: input.text, hash: input.hash, model, code: exitCodeForModel(model) };
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
    await writers.finish(all);
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
