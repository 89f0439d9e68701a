/**
 * A command line as commander read it (cli/commandLine.ts): the subcommand's name, its operands, and
 * each option in the order given, by its long flag, with its value. --record keeps one without some of
 * its options (recordedArgv.ts) and a replay runs one again with its own view options (cli/runReplay.ts):
 * both choose options by what commander said they are, never by reading the words again.
 */
export interface GivenOption {
  /** The long flag, as declared (`--quiet` for `-q`, `--no-color`). */
  readonly flag: string;
  /** The option's value; none for a flag (or an optional value not given). */
  readonly value?: string;
}

export interface CommandWords {
  /** The subcommand (`call`, `block`), or none for the lookup. */
  readonly path: readonly string[];
  readonly operands: readonly string[];
  readonly options: readonly GivenOption[];
}

/** An operand commander would read as an option: those from the first of them go after `--`. */
const looksLikeOption = (word: string): boolean => word.length > 1 && word.startsWith('-');

/**
 * The words that commander reads back as `words`: each option as `--flag value` (`--flag=value` for a value
 * that looks like an option: an optional value would not take it), an operand that looks like an option after `--`.
 */
export function wordsOf(words: CommandWords): string[] {
  const split = words.operands.findIndex(looksLikeOption);
  const before = split < 0 ? words.operands : words.operands.slice(0, split);
  const after = split < 0 ? [] : ['--', ...words.operands.slice(split)];
  const options = words.options.flatMap((o) => (o.value === undefined ? [o.flag] : looksLikeOption(o.value) ? [`${o.flag}=${o.value}`] : [o.flag, o.value]));
  return [...words.path, ...before, ...options, ...after];
}
