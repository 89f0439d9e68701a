/**
 * One front door's words parsed by its commander program: what it parsed, or the help (or version) text it
 * printed; commander's own errors ("unknown option '--x'") as one-line UsageErrors naming where help is.
 */
import { type Command, CommanderError } from 'commander';
import { UsageError } from '../errors.js';
import { escapeShort } from '../raw/escape.js';
import type { ProgramIo } from './createProgram.js';

export function parseFrontDoor<T>(make: (io: ProgramIo, onParsed: (args: T) => void) => Command, words: readonly string[], helpCommand: string): { readonly parsed: T | undefined } | { readonly help: string } {
  let parsed: T | undefined;
  let help = '';
  const program = make({ writeOut: (s) => (help += s) }, (a) => (parsed = a));
  try {
    program.parse([...words], { from: 'user' });
  } catch (err) {
    if (!(err instanceof CommanderError)) throw err;
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return { help };
    throw new UsageError(`${escapeShort(err.message.replace(/^error: /, '').replace(/\s*\n\s*/g, ' ').replace(/\.$/, ''), 200)}; see ${helpCommand}.`);
  }
  return { parsed };
}
