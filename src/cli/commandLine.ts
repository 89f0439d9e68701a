/**
 * The command line, parsed once by one commander program: the lookup (`txray <hash…>`) with its
 * subcommands call, block, debug (and debug call), replay and completions. Each subcommand is hidden
 * from the lookup's help, which names them in its description. What the parse learns of the front door
 * and its --json and --debug is noted in `seen` as it goes, also when it fails: main writes the failure's
 * document from it (writeFailure.ts). Each command's declaration (SUBCOMMANDS) carries its runner: a new
 * command is one entry there.
 */
import { type Command, CommanderError, Command as Program } from 'commander';
import { allowance, typoDistance } from '../decode/nearFunctions.js';
import { UsageError } from '../errors.js';
import { ExitCode } from '../exitCodes.js';
import { escapeShort } from '../raw/escape.js';
import type { CommandWords, GivenOption } from '../record/commandWords.js';
import { REPLAY_OPTIONS } from '../record/replayOptions.js';
import { createDebugCallProgram, createDebugProgram, type DebugArgs, type DebugCallArgs } from './createDebugProgram.js';
import { createBlockProgram, createCallProgram, createProgram, outputTo, type ParsedArgs, type ProgramIo } from './createProgram.js';
import type { DoorOpener } from './frontDoor.js';
import type { Io, SafeWriter } from './io.js';
import type { Main } from './runReplay.js';
import type { Door } from './writeFailure.js';

export type CommandLine =
  | { readonly kind: 'help'; readonly text: string }
  /** The lookup, `txray call` or `txray block` (ParsedArgs says which); `words`: its command line as commander read it, for --record. */
  | { readonly kind: 'run'; readonly args: ParsedArgs; readonly words: CommandWords }
  | { readonly kind: 'debug'; readonly args: DebugArgs }
  | { readonly kind: 'debug call'; readonly args: DebugCallArgs }
  /** `view`: the view options given, as words to append to the recorded command line. */
  | { readonly kind: 'replay'; readonly file: string; readonly view: readonly string[] }
  | { readonly kind: 'completions'; readonly shell: string };

/** What the parse has learned so far, also when it fails. */
export interface Seen {
  door: Door;
  json: boolean;
  debug: boolean;
}

export const newSeen = (): Seen => ({ door: 'lookup', json: false, debug: false });

const REPLAY_HELP = `Usage: txray replay <file> [view options]

Run a command recorded with --record again from the file alone: no node, no service, no project files;
in the view it was recorded with, unless view options are given: --json, --color, --no-color, --state,
--gas, --gas-out <file>, --html <file>, --full, --as <address>, -q/--quiet, --debug; --record <file>
records the replay again. Format and limits: docs/record.md.
`;

const COMPLETIONS_HELP = `Usage: txray completions <bash|zsh|fish>

Print a completion script for the shell (options, --tracer's modes, files, foundry.toml's endpoints).
  bash:  source <(txray completions bash)                      # in ~/.bashrc
  zsh:   txray completions zsh > "\${fpath[1]}/_txray"         # then start a new shell
  fish:  txray completions fish > ~/.config/fish/completions/txray.fish
`;

/** Where a front door refuses an option in its own words (`txray debug --record`; anything `txray replay` does not take). */
const REFUSALS: Partial<Record<Door, (flag: string) => string | undefined>> = {
  debug: (flag) => (flag === '--record' || flag.startsWith('--record=') ? 'txray debug takes no --record: a recording replays a lookup, a call or a block (txray <hash> --record <file>), not the debugger.' : undefined),
  replay: (flag) => `txray replay takes a recording and view options, not '${escapeShort(flag, 40)}'; see txray replay --help.`,
};

/** `txray replay <file> [view options]`: the lookup's own declarations of its view options, and --record. */
function createReplayProgram(lookup: Command, onParsed: (file: string | undefined, view: string[], excess: readonly string[]) => void): Command {
  const replay = new Program('replay').argument('[file]').allowExcessArguments().helpOption('-h, --help').configureHelp({ formatHelp: () => REPLAY_HELP });
  const taken = (name: string | undefined): boolean => name !== undefined && (REPLAY_OPTIONS.flags.has(name) || REPLAY_OPTIONS.valued.has(name) || name === REPLAY_OPTIONS.record);
  for (const option of lookup.options) if (taken(option.long)) replay.addOption(option);
  return replay.action((file: string | undefined, _options: unknown, cmd: Command) => {
    // The words again, from what was parsed: a flag (the last of --color/--no-color), or an option and its value.
    const view: string[] = [];
    for (const option of cmd.options) {
      const name = option.attributeName();
      if (option.long === undefined || cmd.getOptionValueSource(name) !== 'cli') continue;
      const value: unknown = cmd.getOptionValue(name);
      if (typeof value === 'string') view.push(option.long, value);
      else if (value === !option.negate) view.push(option.long);
    }
    onParsed(file, view, cmd.args.slice(1));
  });
}

function createCompletionsProgram(onParsed: (words: readonly string[]) => void): Command {
  // Its word is checked by the script's maker (completions.ts), options and all, as a shell name.
  return new Program('completions').argument('[shell]').allowExcessArguments().allowUnknownOption().helpOption('-h, --help').configureHelp({ formatHelp: () => COMPLETIONS_HELP }).action((_shell: unknown, _options: unknown, cmd: Command) => onParsed(cmd.args));
}

/** `txray debug …` (and its `call`) for the command line. */
function txrayCommand(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c !== null; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** commander's error as one line, naming where help is (or in the front door's own words); the door noted first. */
function usageErrorOf(err: CommanderError, cmd: Command, door: Door): UsageError {
  const flag = err.code === 'commander.unknownOption' ? /unknown option '([^']*)'/.exec(err.message)?.[1] : undefined;
  const refused = flag === undefined ? undefined : REFUSALS[door]?.(flag);
  if (refused !== undefined) return new UsageError(refused);
  const valued = err.code === 'commander.optionMissingArgument' && door === 'replay' ? /option '(?:-\w, )?(--[\w-]+)/.exec(err.message)?.[1] : undefined;
  if (valued !== undefined) return new UsageError(`${valued} needs a value; see txray replay --help.`);
  return new UsageError(`${escapeShort(err.message.replace(/^error: /, '').replace(/\s*\n\s*/g, ' ').replace(/\.$/, ''), 200)}; see ${txrayCommand(cmd)} --help.`);
}

/** What a command's runner is given: the run's output and front doors, and main's own runs. */
export interface RunContext {
  readonly io: Io;
  readonly out: SafeWriter;
  readonly doors: DoorOpener;
  /** A replay's run: it answers from its file only. */
  readonly replayed: boolean;
  /** The lookup, `txray call` (and --tx), `txray block`: main's one run of the pipeline. */
  readonly inspect: (line: Extract<CommandLine, { readonly kind: 'run' }>) => Promise<number>;
  /** main itself, for a replay's run of the recorded command line. */
  readonly main: Main;
}

export type Runner = (ctx: RunContext) => Promise<number>;

/** Where an action gives what was parsed: a lookup, call or block (main's run, once the words are known), or another command with its runner. */
interface Parsed {
  run(args: ParsedArgs): void;
  command(line: Exclude<CommandLine, { readonly kind: 'run' }>, run: Runner): void;
}

/** A subcommand: the door it opens, its declaration (options, help, what it parses to) and its runner, given to `parsed`. */
interface Subcommand {
  readonly door: Door;
  readonly program: (io: ProgramIo, parsed: Parsed, lookup: Command) => Command;
}

/** The debugger asks the node and opens the terminal: a replay, which answers from its file only, refuses it (checkRecording does too). */
function debuggerRunner(run: (doors: DoorOpener) => Promise<number>): Runner {
  return (ctx) => {
    if (ctx.replayed) throw new UsageError('txray debug cannot be replayed: a recording replays a lookup, a call or a block.');
    return run(ctx.doors);
  };
}

/** The words of a recorded command line as commander reads them, if they are a lookup, a call or a block. */
function recordedWords(argv: readonly string[]): CommandWords | undefined {
  try {
    const line = parseCommandLine(argv, newSeen());
    return line.kind === 'run' ? line.words : undefined;
  } catch {
    return undefined;
  }
}

/** Every subcommand of the lookup (`txray <hash…>`, whose runner is main's run, as call's and block's). */
const SUBCOMMANDS: readonly Subcommand[] = [
  { door: 'call', program: (io, parsed) => createCallProgram(io, (args) => parsed.run(args)) },
  { door: 'block', program: (io, parsed) => createBlockProgram(io, (args) => parsed.run(args)) },
  {
    door: 'debug',
    program: (io, parsed) =>
      createDebugProgram(io, (args) => parsed.command({ kind: 'debug', args }, debuggerRunner(async (doors) => (await import('./runDebug.js')).runDebug(args, doors))))
        .enablePositionalOptions()
        .helpCommand(false)
        .usage('[options] <hash>')
        .addCommand(
          createDebugCallProgram(io, (args) => parsed.command({ kind: 'debug call', args }, debuggerRunner(async (doors) => (await import('./runDebugCall.js')).runDebugCall(args, doors)))),
          { hidden: true },
        ),
  },
  {
    door: 'replay',
    program: (_io, parsed, lookup) =>
      createReplayProgram(lookup, (file, view, excess) => {
        if (excess.length > 0) throw new UsageError(`txray replay takes a recording and view options, not '${escapeShort(excess[0] ?? '', 40)}'; see txray replay --help.`);
        if (file === undefined) throw new UsageError('txray replay needs the file a --record wrote; see txray replay --help.');
        const line = { kind: 'replay', file, view } as const;
        parsed.command(line, async (ctx) => (await import('./runReplay.js')).runReplay(line, ctx.io, ctx.main, recordedWords));
      }),
  },
  {
    door: 'completions',
    program: (_io, parsed) =>
      createCompletionsProgram((words) => {
        if (words.length > 1) throw new UsageError('txray completions takes one shell: bash, zsh or fish.');
        const shell = words[0] ?? '';
        // A script for the shell, made from the options' own definitions.
        parsed.command({ kind: 'completions', shell }, async (ctx) => {
          await ctx.out.write((await import('./completions.js')).completionScript(shell));
          return ExitCode.success;
        });
      }),
  },
];

/** The words parsed, once; help and version are what they print; a usage error is thrown with `seen` noted. */
export function parseCommandLine(argv: readonly string[], seen: Seen): CommandLine {
  return parseCommand(argv, seen).line;
}

/** The words parsed, once, and the runner their command's declaration carries (see parseCommandLine). */
export function parseCommand(argv: readonly string[], seen: Seen): { readonly line: CommandLine; readonly run: Runner } {
  let args: ParsedArgs | undefined;
  let command: { readonly line: Exclude<CommandLine, { readonly kind: 'run' }>; readonly run: Runner } | undefined;
  let help = '';
  const io = { writeOut: (s: string) => void (help += s) };
  const parsed: Parsed = {
    run: (a) => void (args = a),
    command: (line, run) => void (command = { line, run }),
  };
  const root = createProgram(io, (args) => parsed.run(args)).enablePositionalOptions().helpCommand(false).usage('[options] [hashes...]');
  const doorOf = new Map<Command, Door>([[root, 'lookup']]);
  const visit = (cmd: Command, door: Door): void => {
    doorOf.set(cmd, door);
    for (const sub of cmd.commands) visit(sub, door);
  };
  for (const { door, program } of SUBCOMMANDS) {
    // Declared only where its name is one of the words: commander dispatches to a subcommand by a word
    // equal to its name, so one named nowhere is never reached, and declaring them all (most of the
    // lookup's options again, five times) would cost every start of the common lookup.
    if (!argv.includes(door)) continue;
    const sub = program(io, parsed, root);
    root.addCommand(sub, { hidden: true });
    visit(sub, door);
  }
  const note = (cmd: Command): void => {
    const door = doorOf.get(cmd) ?? 'lookup';
    const opts = cmd.opts();
    seen.door = door;
    seen.json = opts.json === true;
    // A replay's own failures say no stack trace (the replayed run's say theirs).
    seen.debug = door !== 'replay' && opts.debug === true;
  };
  let failedAt: Command = root;
  let acted: Command = root;
  const given = new Map<Command, GivenOption[]>();
  for (const [cmd] of doorOf) {
    cmd.configureOutput(outputTo(io)).exitOverride((err) => {
      failedAt = cmd;
      throw err;
    });
    given.set(cmd, listenToOptions(cmd));
  }
  root.hook('preAction', (_root, action) => {
    acted = action;
    note(action);
  });
  try {
    root.parse([...argv], { from: 'user' });
  } catch (err) {
    if (!(err instanceof CommanderError)) throw err;
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return { line: { kind: 'help', text: help }, run: writeHelp(help) };
    note(failedAt);
    throw usageErrorOf(err, failedAt, doorOf.get(failedAt) ?? 'lookup');
  }
  if (command !== undefined) return command;
  if (args === undefined || (args.hashes.length === 0 && args.call === undefined && args.block === undefined)) throw new UsageError('missing the transaction hash; see txray --help.');
  const word = acted === root ? args.hashes[0] : undefined;
  const near = word === undefined ? undefined : nearCommand(word, SUBCOMMANDS.map((c) => c.door));
  if (word !== undefined && near !== undefined) throw new UsageError(`unknown command '${escapeShort(word, 40)}' (Did you mean ${near}?); see txray --help.`);
  // What a subcommand's options before its name said is not the subcommand's: the run never reads it.
  const line = { kind: 'run', args, words: { path: acted === root ? [] : [acted.name()], operands: [...acted.args], options: given.get(acted) ?? [] } } as const;
  return { line, run: (ctx) => ctx.inspect(line) };
}

/**
 * The command a first word was likely meant to be (`txray blok 27`), as commander suggests for an
 * unknown option: a typo away by edit distance. A hash-shaped word (0x…) or - is never one.
 */
function nearCommand(word: string, names: readonly string[]): string | undefined {
  if (word === '-' || /^0x/i.test(word)) return undefined;
  const limit = allowance(word);
  const near = names.map((name) => ({ name, distance: typoDistance(word, name, limit) })).filter((n) => n.distance <= limit);
  near.sort((a, b) => a.distance - b.distance);
  return near[0]?.name;
}

function writeHelp(text: string): Runner {
  return async (ctx) => {
    await ctx.out.write(text);
    return ExitCode.success;
  };
}

/** Each option of `cmd` as commander reads it, in the order given: its long flag and value. */
function listenToOptions(cmd: Command): GivenOption[] {
  const given: GivenOption[] = [];
  for (const option of cmd.options) {
    const flag = option.long;
    if (flag === undefined) continue;
    cmd.on(`option:${option.name()}`, (value: unknown) => given.push(typeof value === 'string' ? { flag, value } : { flag }));
  }
  return given;
}
