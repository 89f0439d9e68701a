/**
 * `txray debug`'s command line (commander): its own options, --at, and the keys in its help. Read by
 * runDebug.ts and by the shell completions (completions.ts), so the two never drift apart.
 */
import { Command } from 'commander';
import type { ProgramIo } from './createProgram.js';

export interface DebugArgs {
  readonly hash: string;
  readonly rpcUrl?: string;
  readonly at?: string;
  readonly json?: boolean;
  readonly timeout?: string;
  readonly header?: string[];
  readonly maxResponseMb?: string;
  readonly abi?: string[];
  readonly projectAbis?: boolean;
}

const HELP_AFTER = `
A call, simulated and stepped through: txray debug call <to> [signature] [args…] [txray call's options] [--at …]
Keys: n next line (over calls)  s step into  o step out  p previous line  j/k one opcode forward/back
      g/G first/last step  f the failing step  c continue to a breakpoint  b toggle a breakpoint here
      :break <file>:<line>  :step <i>  ? help  q quit
Exit codes: 0 done; 2 usage error (a bad hash, --at); 3 the node does not know the transaction, or --at matched no step;
  4 not mined yet; 5 the node failed. See docs/debug.md.
`;

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

/** Its options: flags, help text, and whether it may be given again (its values collected). */
const OPTIONS: ReadonlyArray<readonly [string, string, boolean?]> = [
  ['-r, --rpc-url <url>', 'JSON-RPC endpoint, or an alias of foundry.toml [rpc_endpoints] (default: $ETH_RPC_URL, else http://localhost:8545)'],
  ['--at <where>', '<file>:<line> (the first step on it), step:<i> (from 1) or failure; with --json, print that step and exit'],
  ['--json', 'with --at: print the step as one JSON document instead of opening the debugger'],
  ['--timeout <seconds>', 'deadline for reading the transaction and the state it runs on (default: 30)'],
  ['-H, --header <header>', 'extra HTTP header "Name: value", repeatable (values are never printed)', true],
  ['--max-response-mb <n>', 'refuse any answer larger than this (default: 256)'],
  ['--abi <path>', 'artifacts to name and map the code with (a Foundry/Hardhat artifact or a directory of them), repeatable', true],
  ['--no-project-abis', 'do not read the artifacts of the Foundry/Hardhat project in the working directory'],
  ['--debug', 'stack traces on stderr'],
];

export function createDebugProgram(io: ProgramIo, onParsed: (args: DebugArgs) => void): Command {
  const program = new Command('txray debug')
    .description('Step through a transaction in the terminal: its run in txray\'s EVM, line by line in the source where the project\'s artifacts match its code, opening at the failure.')
    .argument('<hash>', 'the transaction hash (0x + 64 hex digits)');
  for (const [flags, description, repeatable] of OPTIONS) {
    if (repeatable === true) program.option(flags, description, collect);
    else program.option(flags, description);
  }
  return program
    .helpOption('-h, --help', 'show this help')
    .addHelpText('after', HELP_AFTER)
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.writeOut(s), writeErr: (s) => io.writeOut(s), outputError: () => undefined })
    .action((hash: string, options: Omit<DebugArgs, 'hash'>) => onParsed({ hash, ...options }));
}
