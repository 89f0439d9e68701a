/**
 * The run, and its exit code: options → the pipeline (a source, then the shared stages) for each input
 * → the writers (cli/writeOutcomes.ts). The code is the most severe of the inputs' (by the model's status,
 * or by the error: cli/errorWords.ts).
 */
import { AmbiguousFunction, Interrupted } from '../errors.js';
import { ExitCode, worstExitCode } from '../exitCodes.js';
import type { InspectModel } from '../model/types.js';
import type { Hex, StateOverride } from '../raw/types.js';
import { shortHash } from '../format/format.js';
import type { RpcClient } from '../rpc/createRpcClient.js';
import { proxyFor, shownProxy } from '../rpc/proxy.js';
import { redactUrl } from '../rpc/redactUrl.js';
import { runInOrder } from '../rpc/runInOrder.js';
import { type ParsedArgs, VERSION } from './createProgram.js';
import { newSeen, parseCommand, type Seen } from './commandLine.js';
import { DoorOpener, readOptions } from './frontDoor.js';
import { writeFailure } from './writeFailure.js';
import type { InspectSettings } from '../pipeline/lookupHash.js';
import { type CallInput, planCall } from '../pipeline/planCall.js';
import { isChanged, rerunInput, stateBlockOf } from '../pipeline/rerunInput.js';
import type { RerunPlan } from '../sources/rerunPlan.js';
import { namedCodes, resolveCodes } from '../pipeline/resolveCodes.js';
import type { Decoder } from '../decode/createDecoder.js';
import type { RunSeams } from './runReplay.js';
import type { CommandWords } from '../record/commandWords.js';
import type { Recorder } from '../record/createRecorder.js';
import { RECORDING_FORMAT, RECORDING_VERSION, type RecordingMeta } from '../record/types.js';
import { deadlineSignal } from '../rpc/deadline.js';
import { isAddress, isData, lowerHex } from '../raw/hex.js';
import { type Lookup, runPipeline } from '../pipeline/runPipeline.js';
import type { CallPlan } from '../pipeline/simulateCall.js';
import { type Io, SafeWriter } from './io.js';
import { type Input, type InspectOptions, parseOutputFile } from './parseOptions.js';
import { completeSettingsOf } from './completeSettingsOf.js';
import type { InputOutcome, Writers } from './writeOutcomes.js';
import { errorMessage, exitCodeForError } from './errorWords.js';
import { RunLog } from './runLog.js';
import { txOutcome } from '../operations/txOutcome.js';
import { waitProgress } from './waitProgress.js';

export { exitCodeForError } from './errorWords.js';

function exitCodeForStatus(status: InspectModel['status']): ExitCode {
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
 * asked is not final yet (4), and one whose user operation or Safe transaction failed is partial (6). A revert stays 1: what it did is the more important fact, and it fails a
 * script either way.
 */
function exitCodeForModel(model: InspectModel): ExitCode {
  const c = model.confirmations;
  if (c != null && c.reached < c.wanted && model.status === 'success') return ExitCode.pending;
  if (txOutcome(model) === 'partial') return ExitCode.partial;
  return exitCodeForStatus(model.status);
}

/** The name of the artifact the target's code is (at the call's block, or as --override-code sets it), or null. */
async function targetArtifact(client: RpcClient, decoder: Decoder, to: Hex, block: string, timeoutMs: number, override?: Hex): Promise<string | null> {
  const code = override ?? (await client.call('eth_getCode', [to, block === 'default' ? 'latest' : block], deadlineSignal(timeoutMs)));
  if (!isData(code)) return null;
  return decoder.nameByCode(new Map([[to.toLowerCase(), code]])).get(to.toLowerCase()) ?? null;
}

/** One input of the pipeline: what it starts from (a hash to look up, or the call to simulate) as given, or the usage error a hash earned. */
type PipelineInput = Input | (Lookup & { readonly text: string });

/** --debug: which requests go through a proxy, said by its host and port only. */
function proxyLines(opts: InspectOptions): string[] {
  const targets: Array<readonly [string, URL]> = [['the node', opts.url]];
  if (opts.online !== null) targets.push(['--online: Sourcify', opts.online.sourcifyUrl], ['--online: the signature database', opts.online.signaturesUrl], ['--online: Etherscan', opts.online.etherscanUrl]);
  return targets.flatMap(([what, url]) => {
    const proxy = proxyFor(url, opts.proxy);
    return proxy === null ? [] : [`${what} through the proxy ${shownProxy(proxy)}`];
  });
}

/**
 * `seams`: set by `txray replay` (src/cli/runReplay.ts), whose run reads the recording instead of the
 * node, the services and the disk. `onParsed`: called once the command line is parsed, before any work
 * (cli/run.ts sets V8's flags there).
 */
export async function main(argv: readonly string[], io: Io, seams: RunSeams = {}, onParsed?: (seen: Readonly<Seen>) => void): Promise<number> {
  const recording: { done?: (code: number) => Promise<number> } = {};
  const code = await runMain(argv, io, seams, recording, onParsed);
  return recording.done === undefined ? code : recording.done(code);
}

/** main's run: the command line parsed once, then its command; with --record, `recording.done` writes the file once the client is closed. */
async function runMain(argv: readonly string[], io: Io, seams: RunSeams, recording: { done?: (code: number) => Promise<number> }, onParsed?: (seen: Readonly<Seen>) => void): Promise<number> {
  const out = new SafeWriter(io.stdout);
  const log = new RunLog(new SafeWriter(io.stderr), false);
  const seen = newSeen();
  const doors = new DoorOpener({ io, out, log });
  try {
    const { run } = parseCommand(argv, seen);
    onParsed?.(seen);
    log.debugOn = seen.debug;
    // Each command's runner, as its declaration carries it (commandLine.ts); the lookup's, call's and block's is runCommand.
    return await run({ io, out, doors, replayed: seams.replay !== undefined, main, inspect: (line) => runCommand(line.args, line.words, seams, recording, doors) });
  } catch (e) {
    // A run stopped by its own command line (a bad --abi, a call that does not encode) read nothing worth replaying.
    if (exitCodeForError(e) === ExitCode.usage) recording.done = undefined;
    // A command line that did not parse says its --debug through `seen` only.
    if (!log.debugOn) log.debugOn = seen.debug;
    return await writeFailure(e, seen.door, seen.json, argv, { io, out, log });
  } finally {
    await doors.close();
  }
}

/** The lookup, `txray call` (and --tx) or `txray block`, through its front door. */
async function runCommand(args: ParsedArgs, words: CommandWords, seams: RunSeams, recording: { done?: (code: number) => Promise<number> }, doors: DoorOpener): Promise<number> {
  const { io, log } = doors;
  const given = await readOptions(args, io);
  const record = args.options.record === undefined ? undefined : parseOutputFile(args.options.record, '--record');
  const door = await doors.open(given.opts, { record: record !== undefined, replay: seams.replay });
  const opts = door.opts;
  // A call's overrides once resolved: --record keeps an --override-code file's or name's code as it was used.
  let overrides: StateOverride | null = null;
  if (door.recorder !== null && record !== undefined) recording.done = recordingWriter(door.recorder, record, words, given.stdin, opts, log, (address) => codeSetAt(overrides, address));
  if (opts.debug) log.debug(`node ${redactUrl(opts.url)}, timeout ${opts.timeoutMs} ms, ${opts.command.kind === 'call' ? 'a call to simulate' : opts.command.kind === 'block' ? 'a block' : `${opts.command.inputs.length} hash(es)`}${io.codeCache ? `, code cache ${io.codeCache}` : ''}`);
  const { decoderReady } = await door.decoder();
  if (opts.command.kind === 'block') return await (await import('./runBlock.js')).runBlock(await door.connect(), opts.command.block, { opts, io, out: door.out, log, decoderReady });
  const inputs = await pipelineInputs(opts, decoderReady, door.connect);
  const first = inputs[0];
  overrides = first !== undefined && 'kind' in first && first.kind === 'call' ? first.plan.overrides : null;
  const single = inputs.length === 1;
  const writers = await door.writers(single);
  const node = await door.connect();
  if (opts.debug) for (const line of proxyLines(opts)) log.debug(line);
  return await inspectAll(node, inputs, { opts, io, log, writers, decoderReady, minedDecoderReady: minedDecoder(opts, decoderReady), lookup: lookupSettings(opts, io, single && !opts.quiet && io.stderr.isTTY === true ? log : null) });
}

/** The code a call's overrides set at `address`, if any. */
function codeSetAt(overrides: StateOverride | null, address: string): Hex | undefined {
  return isAddress(address) ? overrides?.[address]?.code : undefined;
}

/** --record: once the run is done, its recording written to `file` (a file that cannot be written is said, exit 2 where the run was a success). */
function recordingWriter(recorder: Recorder, file: string, words: CommandWords, stdin: string | undefined, opts: InspectOptions, log: RunLog, codeAt: (address: string) => string | undefined): (code: number) => Promise<number> {
  return async (code) => {
    const { recordedArgv } = await import('../record/recordedArgv.js');
    const { writeRecording } = await import('../record/writeRecording.js');
    const online = opts.online !== null;
    const made = { state: opts.state, online, etherscan: opts.online !== null && opts.online.etherscanKey !== null };
    const meta: RecordingMeta = { format: RECORDING_FORMAT, version: RECORDING_VERSION, txray: VERSION, recorded: new Date().toISOString(), endpoint: redactUrl(opts.url), argv: recordedArgv(words, codeAt), stdin: stdin ?? null, made };
    try {
      const bytes = await writeRecording(file, recorder.recording(meta));
      if (opts.debug) log.debug(`--record: ${bytes} bytes written`);
      return code;
    } catch (e) {
      await log.say(`txray: ${errorMessage(e)}`);
      return code === ExitCode.success ? exitCodeForError(e) : code;
    }
  };
}

/**
 * `txray call --tx` with an artifact file in --override-code: that file's ABI and name describe the new
 * code, not the mined one, so the mined transaction's lookup decodes without them (as `txray <hash>` would
 * decode it). Made from what the run's decoder read, not from the disk again: a recording holds one
 * reading, and its replay (whose command line carries the code as hex) makes the same decoder from it.
 */
function minedDecoder(opts: InspectOptions, decoderReady: Promise<Decoder>): Promise<Decoder> | undefined {
  if (opts.command.kind !== 'call' || opts.command.call.replay === undefined) return undefined;
  const ready = decoderReady.then((d) => d.withoutOverrides?.() ?? d);
  ready.catch(() => undefined);
  return ready;
}

/**
 * One pipeline: each input is a source (a hash to look up, or the call to simulate) followed by the
 * same stages. The call is encoded (or the signed transaction read back) before any request: bad input is exit 2.
 */
async function pipelineInputs(opts: InspectOptions, decoderReady: Promise<Decoder>, connect: () => Promise<RpcClient>): Promise<readonly PipelineInput[]> {
  const command = opts.command;
  if (command.kind === 'lookup') return command.inputs;
  if (command.kind !== 'call') return [];
  const decoder = await decoderReady;
  // Contract names of --override-code are looked up before any request (a name the project lacks is exit 2).
  const named = namedCodes(command.call.codes, decoder.index.artifacts);
  const { call, replay } = await callOfReplay(command.call, connect, opts.timeoutMs);
  const withCodes = { ...call, overrides: await resolveCodes(connect, named, call.overrides, replay === null ? (call.block === 'default' ? 'latest' : call.block) : stateBlockOf(replay), opts.timeoutMs) };
  let plan: CallPlan;
  try {
    plan = await planCall(withCodes, decoder.index);
  } catch (err) {
    // A bare name several loaded functions fit: the target's own code may tell which (one request).
    if (!(err instanceof AmbiguousFunction) || withCodes.to === null) throw err;
    const override = withCodes.overrides?.[lowerHex(withCodes.to)]?.code;
    const prefer = await targetArtifact(await connect(), decoder, withCodes.to, replay === null ? withCodes.block : stateBlockOf(replay), opts.timeoutMs, override);
    plan = await planCall(withCodes, decoder.index, prefer);
  }
  if (replay !== null) plan = { ...plan, replay: { ...replay, changed: isChanged(plan.call, plan.overrides, replay.tx) } };
  return [{ kind: 'call', text: 'call', hash: plan.hash, plan }];
}

/** --tx: the call the mined transaction makes, with the changes asked; a plain call as it is. */
async function callOfReplay(given: CallInput, connect: () => Promise<RpcClient>, timeoutMs: number): Promise<{ readonly call: CallInput; readonly replay: Omit<RerunPlan, 'changed'> | null }> {
  if (given.replay === undefined) return { call: given, replay: null };
  const { input, replay } = await rerunInput(await connect(), given, timeoutMs);
  return { call: input, replay };
}

interface Run {
  readonly opts: InspectOptions;
  readonly io: Io;
  readonly log: RunLog;
  readonly writers: Writers;
  readonly decoderReady: Promise<Decoder>;
  /** --tx: the mined transaction's lookup decodes without --override-code's artifact files (see minedDecoder). */
  readonly minedDecoderReady: Promise<Decoder> | undefined;
  /** One for the run: the tracer the node has is learned once. */
  readonly lookup: InspectSettings;
}

/**
 * Every input through the pipeline, `--concurrency` at a time. Results are written in input order as
 * soon as every earlier one is done (NDJSON, --full); the summary table waits for all of them.
 * Returns the most severe exit code (worstExitCode).
 */
async function inspectAll(client: RpcClient, inputs: readonly PipelineInput[], r: Run): Promise<number> {
  const { opts, io, log, writers } = r;
  const progress = inputs.length >= 10 && opts.view !== 'json' && !opts.quiet && io.stderr.isTTY === true;
  let done = 0;
  let writing = Promise.resolve();
  const inspectOne = async (i: number): Promise<InputOutcome> => {
    const input = inputs[i]!;
    const outcome: InputOutcome = 'error' in input ? { input: input.text, hash: null, error: input.error, code: ExitCode.usage } : await outcomeOf(client, input, inputs.length === 1, r);
    done++;
    if (progress) void log.write(`\rtxray: ${done}/${inputs.length} inspected`);
    return outcome;
  };
  let all: InputOutcome[] = [];
  let interrupted = false;
  try {
    all = await runInOrder(inputs.length, opts.concurrency, inspectOne, (o) => void (writing = writing.then(() => writers.emit(o))));
  } catch (e) {
    if (!(e instanceof Interrupted)) throw e;
    interrupted = true;
  }
  await writing;
  if (progress) await log.write('\r\u001b[2K');
  if (interrupted) return ExitCode.interrupted;
  await writers.finish(all);
  if (opts.debug) log.debug(`done in ${log.elapsed()}`);
  return worstExitCode(all.map((o) => o.code));
}

/**
 * One input's outcome: its model, or (with several inputs) the error that stopped it. An interruption
 * stops the run; a single input's error is the run's. The input decodes with its own decoder, so what
 * --online adds for it names nothing in another input.
 */
async function outcomeOf(client: RpcClient, input: Exclude<PipelineInput, { readonly error: unknown }>, single: boolean, r: Run): Promise<InputOutcome> {
  const { opts, io, log } = r;
  const tag = single || input.hash === null ? '' : `${shortHash(input.hash)}: `;
  const decoderReady = r.decoderReady.then((d) => d.forInput());
  decoderReady.catch(() => undefined);
  try {
    const model = await runPipeline(client, input, {
      lookup: r.lookup,
      complete: completeSettingsOf(opts, io, log, opts.view === 'json' || opts.html !== undefined || opts.gas || opts.gasOut !== undefined, tag),
      decoderReady,
      minedDecoderReady: r.minedDecoderReady?.then((d) => d.forInput()),
      onStage: opts.debug ? (stage) => log.debug(`${tag}${stage} at ${log.elapsed()}`) : undefined,
    });
    return { input: input.text, hash: input.hash, model, code: exitCodeForModel(model) };
  } catch (e) {
    if (e instanceof Interrupted || single) throw e;
    return { input: input.text, hash: input.hash, error: e, code: exitCodeForError(e) };
  }
}

/** The lookup's settings; `progressTo`: where --wait's progress line goes (a terminal's stderr), or null for none. */
function lookupSettings(opts: InspectOptions, io: Io, progressTo: RunLog | null): InspectSettings {
  return {
    onWait: progressTo !== null && opts.waitMs !== null ? waitProgress(progressTo) : undefined,
    timeoutMs: opts.timeoutMs,
    waitMs: opts.waitMs,
    confirmations: opts.confirmations,
    tracer: { mode: opts.tracer, traceMissing: false, replayMissing: false },
    state: opts.state,
    interrupt: io.interrupt,
    keepAnswers: opts.view === 'json' || opts.html !== undefined,
  };
}
