/**
 * `txray replay <file> [view options]`: the recorded command run again from the file alone, in the view it
 * was recorded with, or with the view options given here where any are. Nothing goes out: the node, the
 * services and the disk are the recording's seams (createReplayer). Its output is the live run's with the
 * same view options; stderr says first where it came from (and the recorded view, where it is used). What
 * it writes waits for the end of the run: where the view needs an answer the recording lacks, nothing but
 * the line naming it is printed (exit 5).
 */
import { RpcFailure, UsageError } from '../errors.js';
import { escapeShort } from '../raw/escape.js';
import { type Io, type OutStream, SafeWriter } from './io.js';
import { VERSION } from './createProgram.js';
import { createReplayer, type Replayer } from '../record/createReplayer.js';
import { readRecording } from '../record/readRecording.js';
import type { Recording } from '../record/types.js';
import { REPLAY_OPTIONS } from '../record/replayOptions.js';
import { type CommandWords, type GivenOption, wordsOf } from '../record/commandWords.js';

export interface RunSeams {
  readonly replay?: Replayer;
}

export type Main = (argv: readonly string[], io: Io, seams?: RunSeams) => Promise<number>;

/** What a recorded command line may not bring into a replay: its own views, and a file to write (a hostile file's --record). */
const NOT_REPLAYED = new Set([...REPLAY_OPTIONS.flags, ...REPLAY_OPTIONS.valued, REPLAY_OPTIONS.record]);

/**
 * Of the recorded run's options, those that chose what it printed, by their long flags: a replay takes them
 * where its own command line gives no view option (colour apart: the recorded colour where none is given).
 * Never a file to write (--gas-out, --html <file>: a hostile file's paths), nor --debug or --record.
 */
const SHOWN = new Set(['--json', '--state', '--gas', '--full', '--quiet', '--as']);
const COLOUR = new Set(['--color', '--no-color']);

/** The recorded view options a replay with the view options `view` (as words) runs with. */
function recordedView(options: readonly GivenOption[], view: readonly string[]): GivenOption[] {
  // The flags given, not their values.
  const given = view.filter((_w, i) => i === 0 || !(REPLAY_OPTIONS.valued.has(view[i - 1] ?? '') || view[i - 1] === REPLAY_OPTIONS.record));
  const viewGiven = given.some((w) => w !== '--debug' && w !== REPLAY_OPTIONS.record && !COLOUR.has(w));
  const colourGiven = given.some((w) => COLOUR.has(w));
  return options.filter(({ flag, value }) => (COLOUR.has(flag) ? !colourGiven : !viewGiven && (SHOWN.has(flag) || (flag === '--html' && value === '-'))));
}

/**
 * The recorded command line, as commander reads it, without the options a replay does not take from it
 * (but the recorded view, where `view` gives none). One that is no lookup, call or block as commander reads
 * it is not one --record wrote (checkRecording refuses such a first word; this, one hidden behind an
 * option): it is refused before anything runs.
 */
function recordedRun(words: CommandWords | undefined, file: string, view: readonly string[]): { argv: readonly string[]; kept: readonly string[] } {
  if (words === undefined) throw new UsageError(`replay ${escapeShort(file, 80)}: its command line is not one txray records; give a file that txray --record wrote.`);
  const kept = recordedView(words.options, view);
  const argv = wordsOf({ ...words, options: [...words.options.filter((o) => !NOT_REPLAYED.has(o.flag)), ...kept] });
  return { argv, kept: wordsOf({ path: [], operands: [], options: kept }) };
}

/** The environment a replay runs in: the terminal's (colour, width), none of the node's, the services' or the proxies'. */
function replayEnv(env: Io['env'], rec: Recording): Io['env'] {
  const kept = Object.entries(env).filter(([name]) => !/^(ETH_RPC_URL|TXRAY_ONLINE|ETHERSCAN_API_KEY|TXRAY_CACHE_DIR|FOUNDRY_.*|(HTTPS?|NO|ALL)_PROXY)$/i.test(name));
  // A key only so that Etherscan is asked as it was; the recording's answers are found without it.
  return Object.fromEntries(rec.made.etherscan ? [...kept, ['ETHERSCAN_API_KEY', 'replayed-without-a-key']] : kept);
}

/** A stream that keeps what is written, as the terminal it stands for would show it. */
function held(real: OutStream): { stream: OutStream; chunks: string[] } {
  const chunks: string[] = [];
  const stream: OutStream = { write: (c) => chunks.push(c) > 0, on: () => undefined, removeListener: () => undefined, isTTY: real.isTTY, columns: real.columns };
  return { stream, chunks };
}

/**
 * `txray replay <file> [view options]` as parsed (the view options as words again); its own failures are
 * thrown to main. `read`: a recorded command line as the one parse reads it (cli/commandLine.ts), if it is a
 * lookup, a call or a block.
 */
export async function runReplay({ file, view }: { readonly file: string; readonly view: readonly string[] }, io: Io, main: Main, read: (argv: readonly string[]) => CommandWords | undefined): Promise<number> {
  const stderr = new SafeWriter(io.stderr);
  const rec = await readRecording(file);
  const words = read(rec.argv);
  const block = words?.path[0] === 'block';
  if (view.includes('--state') && !rec.made.state && !block) throw new RpcFailure('unreachable', `replay ${escapeShort(file, 80)}: the recording holds no state changes (it was made without --state); record again with --state.`);
  const run = recordedRun(words, file, view);
  const argv = [...run.argv, '--rpc-url', rec.endpoint, rec.made.online ? '--online' : '--no-online', ...view];
  const replayer = createReplayer(rec);
  const out = held(io.stdout);
  const err = held(io.stderr);
  const code = await main(argv, { ...io, env: replayEnv(io.env, rec), stdout: out.stream, stderr: err.stream, readStdin: async () => rec.stdin ?? '' }, { replay: replayer });
  const [missing] = replayer.missing;
  if (missing !== undefined) {
    throw new RpcFailure('unreachable', `replay ${escapeShort(file, 80)}: the recording holds no answer to ${escapeShort(missing, 80)}, which this view needs; record again with the view options you replay with.`);
  }
  // A view the replay's command line did not ask for is said: the options it was recorded with.
  const as = run.kept.length === 0 ? '' : `, in its recorded view ${escapeShort(run.kept.join(' '), 120)}`;
  await stderr.write(`txray: replayed from ${escapeShort(file, 80)}, recorded ${escapeShort(rec.recorded, 40)}${as}\n`);
  // txray's own data (built-in ABIs, the signature database, the address book) is the replaying txray's.
  if (rec.txray !== VERSION) await stderr.write(`txray: recorded by txray ${escapeShort(rec.txray, 40)}, replayed by ${VERSION}: names from txray's own data may differ from the recorded run's.\n`);
  await stderr.writeAll(err.chunks);
  await new SafeWriter(io.stdout).writeAll(out.chunks);
  return code;
}
