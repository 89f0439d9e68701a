/**
 * The command line, parsed once by one commander program: the lookup (`txray <hash…>`) with its
 * subcommands call, block, debug (and debug call), replay and completions. Each subcommand is hidden
 * from the lookup's help, which names them in its description. What the parse learns of the front door
 * and its --json and --debug is noted in `seen` as it goes, also when it fails: main writes the failure's
 * document from it (writeFailure.ts).
 */
import { type Command, CommanderError, Command as Program } from 'commander';
import { UsageError } from '../errors.js';
import { escapeShort } from '../raw/escape.js';
import type { CommandWords, GivenOption } from '../record/commandWords.js';
import { REPLAY_OPTIONS } from '../record/replayOptions.js';
import { createDebugCallProgram, createDebugProgram, type DebugArgs, type DebugCallArgs } from './createDebugProgram.js';
import { createBlockProgram, createCallProgram, createProgram, outputTo, type ParsedArgs } from './createProgram.js';

/** A front door: which one a command line opened (`call` and `block` write their failures as the lookup and the block do). */
export type Door = 'lookup' | 'call' | 'block' | 'debug' | 'replay' | 'completions';
const DOORS: readonly Door[] = ['lookup', 'call', 'block', 'debug', 'replay', 'completions'];

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

Run a command recorded with --record again from the file alone: no node, no service, no project files.
View options: --json, --color, --no-color, --state, --gas, --gas-out <file>, --html <file>, --full, --as <address>,
-q/--quiet, --debug; --record <file> records the replay again. Format and limits: docs/record.md.
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

/** Every command with its door, and each one's errors thrown as they come (exitOverride), noted in `seen`. */
function doors(root: Command): Map<Command, Door> {
  const door = new Map<Command, Door>([[root, 'lookup']]);
  const visit = (cmd: Command, d: Door): void => {
    door.set(cmd, d);
    for (const sub of cmd.commands) visit(sub, d);
  };
  for (const sub of root.commands) visit(sub, DOORS.find((d) => d === sub.name()) ?? 'lookup');
  return door;
}

/** The words parsed, once; help and version are what they print; a usage error is thrown with `seen` noted. */
export function parseCommandLine(argv: readonly string[], seen: Seen): CommandLine {
  let line: ParsedLine | undefined;
  let help = '';
  const io = { writeOut: (s: string) => void (help += s) };
  const root = createProgram(io, (args) => (line = { kind: 'run', args })).enablePositionalOptions().helpCommand(false).usage('[options] [hashes...]');
  const debug = createDebugProgram(io, (args) => (line = { kind: 'debug', args })).enablePositionalOptions().helpCommand(false).usage('[options] <hash>');
  debug.addCommand(createDebugCallProgram(io, (args) => (line = { kind: 'debug call', args })), { hidden: true });
  const replay = createReplayProgram(root, (file, view, excess) => {
    if (excess.length > 0) throw new UsageError(`txray replay takes a recording and view options, not '${escapeShort(excess[0] ?? '', 40)}'; see txray replay --help.`);
    if (file === undefined) throw new UsageError('txray replay needs the file a --record wrote; see txray replay --help.');
    line = { kind: 'replay', file, view };
  });
  const completions = createCompletionsProgram((words) => {
    if (words.length > 1) throw new UsageError('txray completions takes one shell: bash, zsh or fish.');
    line = { kind: 'completions', shell: words[0] ?? '' };
  });
  for (const sub of [createCallProgram(io, (args) => (line = { kind: 'run', args })), createBlockProgram(io, (args) => (line = { kind: 'run', args })), debug, replay, completions]) root.addCommand(sub, { hidden: true });
  const doorOf = doors(root);
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
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return { kind: 'help', text: help };
    note(failedAt);
    throw usageErrorOf(err, failedAt, doorOf.get(failedAt) ?? 'lookup');
  }
  if (line === undefined) throw new UsageError('missing the transaction hash; see txray --help.');
  if (line.kind !== 'run') return line;
  if (line.args.hashes.length === 0 && line.args.call === undefined && line.args.block === undefined) throw new UsageError('missing the transaction hash; see txray --help.');
  // What a subcommand's options before its name said is not the subcommand's: the run never reads it.
  return { ...line, words: { path: acted === root ? [] : [acted.name()], operands: [...acted.args], options: given.get(acted) ?? [] } };
}

/** A line as an action gives it: the run's words are added once the parse is done. */
type ParsedLine = Exclude<CommandLine, { readonly kind: 'run' }> | { readonly kind: 'run'; readonly args: ParsedArgs };

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
