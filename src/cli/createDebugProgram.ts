/**
 * `txray debug`'s command line (commander): the node's options as every front door declares them
 * (createProgram.ts's nodeOption), the artifacts', --at, and the keys in its help; `txray debug call`
 * is `txray call`'s words and options, and --at. Read by the command line (commandLine.ts) and by the
 * shell completions (completions.ts), so the two never drift apart.
 */
import { Command, Option } from 'commander';
import { UsageError } from '../errors.js';
import { collect, createCallProgram, nodeOption, outputTo, type ParsedArgs, type ProgramIo } from './createProgram.js';
import type { RawCallOptions } from './parseCall.js';
import type { RawCliOptions } from './parseOptions.js';

export interface DebugArgs {
  /** Absent only with --dap (the editor's launch names it). */
  readonly hash?: string;
  readonly rpcUrl?: string;
  readonly at?: string;
  readonly json?: boolean;
  readonly timeout?: string;
  readonly header?: string[];
  readonly maxResponseMb?: string;
  readonly abi?: string[];
  readonly projectAbis?: boolean;
  readonly debug?: boolean;
  readonly dap?: boolean;
}

/** `txray debug call …`: the call's words and options, and where to open (--at). */
export interface DebugCallArgs {
  readonly call: ParsedArgs;
  readonly at: string | undefined;
  readonly dap: boolean;
}

const HELP_AFTER = `
A call, simulated and stepped through: txray debug call <to> [signature] [args…] [txray call's options] [--at …]
In an editor: txray debug [<hash>] --dap (or txray debug call … --dap) serves the Debug Adapter Protocol; see docs/editors.md.
Keys: n next line (over calls)  s step into  o step out  p previous line  j/k one opcode forward/back
      g/G first/last step  f the failing step  c continue to a breakpoint  b toggle a breakpoint here
      :break <file>:<line>  :step <i>  ? help  q quit
Exit codes: 0 done; 2 usage error (a bad hash, --at); 3 the node does not know the transaction, or --at matched no step;
  4 not mined yet; 5 the node failed. See docs/debug.md.
`;

const dapOption = (): Option => new Option('--dap', 'serve the Debug Adapter Protocol on stdin/stdout, for an editor\'s debugger (docs/editors.md)');

const atOption = (): Option => new Option('--at <where>', '<file>:<line> (the first step on it), step:<i> (from 1) or failure; with --json, print that step and exit');

export function createDebugProgram(io: ProgramIo, onParsed: (args: DebugArgs) => void): Command {
  return new Command('debug')
    .description('Step through a transaction in the terminal: its run in txray\'s EVM, line by line in the source where the project\'s artifacts match its code, opening at the failure.')
    .argument('[hash]', 'the transaction hash (0x + 64 hex digits); with --dap, the editor\'s launch may name it instead')
    .addOption(nodeOption.rpcUrl())
    .addOption(atOption())
    .option('--json', 'with --at: print the step as one JSON document instead of opening the debugger')
    .addOption(dapOption())
    .addOption(nodeOption.timeout('reading the transaction and the state it runs on'))
    .addOption(nodeOption.header())
    .addOption(nodeOption.maxResponse())
    .option('--abi <path>', 'artifacts to name and map the code with (a Foundry/Hardhat artifact or a directory of them), repeatable', collect)
    .option('--no-project-abis', 'do not read the artifacts of the Foundry/Hardhat project in the working directory')
    .option('--debug', 'stack traces on stderr')
    .helpOption('-h, --help', 'show this help')
    .addHelpText('after', HELP_AFTER)
    .configureOutput(outputTo(io))
    .action((hash: string | undefined, options: Omit<DebugArgs, 'hash'>) => {
      // Said as commander says a missing argument: only the editor's adapter takes its hash later.
      if (hash === undefined && options.dap !== true) throw new UsageError("missing required argument 'hash'; see txray debug --help.");
      onParsed({ ...(hash === undefined ? {} : { hash }), ...options });
    });
}

/** `txray debug call`: `txray call`'s program, named under `debug`, with --at. */
export function createDebugCallProgram(io: ProgramIo, onParsed: (args: DebugCallArgs) => void): Command {
  return createCallProgram(io, () => undefined)
    .addOption(atOption())
    .addOption(dapOption())
    .addHelpText('before', 'txray debug call takes the words and options of txray call (below), and --at <file>:<line> | step:<i> | failure.\n')
    .action((words: string[], options: RawCliOptions & RawCallOptions & { readonly at?: string; readonly dap?: boolean }) => onParsed({ call: { hashes: [], options, call: { words, options } }, at: options.at, dap: options.dap === true }));
}
