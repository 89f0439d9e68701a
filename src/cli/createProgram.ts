/** The command-line surface (commander), writing only through the given callbacks. */
import { Command, Option } from 'commander';
import { UsageError } from '../errors.js';
import { escapeShort } from '../raw/escape.js';
import { blockExitCodeHelp, callExitCodeHelp, exitCodeHelp } from '../exitCodes.js';
import type { RawCallOptions } from './parseCall.js';
import { DEFAULT_CONCURRENCY, DEFAULT_MAX_RESPONSE_MB, DEFAULT_RPC_URL, DEFAULT_TIMEOUT_S, DEFAULT_WAIT_S, type RawCliOptions, TRACERS } from './parseOptions.js';

declare const __TXRAY_VERSION__: string | undefined;
export const VERSION = typeof __TXRAY_VERSION__ === 'string' ? __TXRAY_VERSION__ : '0.0.0-dev';

const EXAMPLES = `
Examples:
  txray 0x5c504ed4…c060 --rpc-url http://127.0.0.1:8545
  txray 0x5c504ed4…c060 --rpc-url mainnet      # from foundry.toml's [rpc_endpoints]
  ETH_RPC_URL=https://node.example.org txray 0x5c504ed4…c060
  txray 0x5c504ed4…c060 --json | jq '.status'
  txray 0x5c504ed4…c060 -H "Authorization: Bearer $TOKEN" --timeout 10
  txray - < hashes.txt            # a summary table; --json gives one JSON line per hash
  txray "$(cast send --async …)" --wait 60 --confirmations 2   # --async: cast prints only the hash

  The hash is 64 hex digits, with or without the 0x prefix.
  The call tree comes from trace_transaction (Erigon, Reth, Nethermind, Besu, anvil) or,
  where a node lacks it (geth), from debug_traceTransaction's callTracer; --tracer chooses.

Environment:
  ETH_RPC_URL   the endpoint (or a foundry.toml alias) when --rpc-url is not given; else http://localhost:8545
  HTTP_PROXY, HTTPS_PROXY, NO_PROXY (or lower case)   proxies for every request
  NO_COLOR      turn colour off (FORCE_COLOR=0..3 forces a level; --color/--no-color win over both)

${exitCodeHelp}
  With several hashes the exit code is the most severe of the per-hash codes (6 ranks just above 0).
`;

export interface ProgramIo {
  writeOut(text: string): void;
}

export interface ParsedArgs {
  readonly hashes: readonly string[];
  readonly options: RawCliOptions;
  /** `txray call`: its words and options. */
  readonly call?: { readonly words: readonly string[]; readonly options: RawCallOptions };
  /** `txray block`: the block's id as typed. */
  readonly block?: string;
}

export const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

/**
 * --tracer, with its modes as the option's choices: --help lists them and the shell completions offer
 * them. parseTracer checks the value (its message names them), not commander.
 */
function tracerOption(description: string): Option {
  const option = new Option('--tracer <mode>', description).default('auto');
  option.argChoices = [...TRACERS];
  return option;
}

/**
 * The options the front doors share: the node, the output views, the names. `oneTransaction`: the
 * views of one transaction (--state, --gas, --gas-out), which `txray block` does not take.
 */
function withCommonOptions(cmd: Command, what: string, io: ProgramIo, oneTransaction = true): Command {
  cmd
    .addOption(nodeOption.rpcUrl('; only scheme://host:port is ever printed'))
    .option('--json', 'print one JSON document (schema version 1) instead of text')
    .option('--color', 'force colour')
    .option('--no-color', 'no colour (also NO_COLOR=1)')
    .addOption(nodeOption.timeout(`the whole ${what}, retries included`))
    .addOption(nodeOption.header())
    .addOption(nodeOption.maxResponse())
    .option('--abi <path>', 'ABI to decode with, repeatable: a JSON ABI, one signature per line, a Foundry/Hardhat artifact, or a directory of them', collect)
    .option('--no-project-abis', "do not read the ABIs of the Foundry/Hardhat project in the working directory")
    .option('--labels <0xaddr:Name>', 'name an address in the output, repeatable', collect)
    .option('--labels-file <file>', 'names for addresses from a JSON object {"0xaddress": "Name"}')
    .option('--as <address>', "the action's view: whose movements the one-line summary takes (default: the sender; the Safe, the smart account)")
    .option('--online', 'also name what offline sources do not: verified ABIs from Sourcify (and Etherscan with ETHERSCAN_API_KEY), signatures from a signature service; cached on disk (also TXRAY_ONLINE=1)')
    .option('--no-online', 'ask nothing but the node (overrides TXRAY_ONLINE=1)')
    .option('--sourcify-url <url>', 'Sourcify server for --online (default: https://sourcify.dev/server)')
    .option('--signatures-url <url>', 'signature service for --online (default: https://api.4byte.sourcify.dev)')
    .option('--etherscan-url <url>', 'Etherscan-compatible API for --online (default: https://api.etherscan.io/v2/api)');
  if (oneTransaction) {
    cmd
      .option('--state', 'also show state changes: balances (ETH with the fee split, tokens), storage by variable name, accounts')
      .option('--gas', 'also show the gas profile: gas and self gas per contract and function, after the call tree')
      .option('--gas-out <file>', 'write the gas profile as folded stacks ("a;b;c <self gas>" a line) for flamegraph.pl, inferno or speedscope')
      .option('--internal', 'also show the Solidity internal functions each call ran, where its code matches an artifact with a source map (runs the transaction in txray\'s EVM)')
      .option('--storage', 'also show every storage read and write of each call, in order, by variable name where a storage layout is known (runs the transaction in txray\'s EVM)')
      .addOption(new Option('--with-state-changes', 'the same as --storage (cast\'s word)').hideHelp());
  }
  return cmd
    .option('--record <file>', 'also write every answer the run read into <file> (no secrets), for txray replay <file> with no node; see docs/record.md')
    .option('-q, --quiet', 'print nothing on stdout; only the exit code says how it went (errors still on stderr)')
    .option('--debug', 'stack traces and request timings on stderr')
    .helpOption('-h, --help', 'show this help')
    // commander leaves descriptions unwrapped where fewer than 40 columns are left beside the options;
    // txray call's longest option (--override-state-diff <addr:slot:value>) leaves 37 at 80 columns.
    .configureHelp({ minWidthToWrap: 30 })
    .configureOutput(outputTo(io));
}

/** Where a program's help goes (the caller's writer); its errors are thrown (exitOverride) and reported by main. */
export function outputTo(io: ProgramIo): { writeOut: (s: string) => void; writeErr: (s: string) => void; outputError: () => void } {
  // Only help-on-error would write to writeErr.
  return { writeOut: (s) => io.writeOut(s), writeErr: (s) => io.writeOut(s), outputError: () => undefined };
}

/**
 * The options of every front door that asks the node (the lookup, call, block, debug, debug call): one
 * declaration each, the defaults from parseOptions' constants; `txray debug` words two of them its own way.
 */
export const nodeOption = {
  rpcUrl: (more = ''): Option => new Option('-r, --rpc-url <url>', `JSON-RPC endpoint, or an alias of foundry.toml [rpc_endpoints] (default: $ETH_RPC_URL, else ${DEFAULT_RPC_URL})${more}`),
  timeout: (what: string): Option => new Option('--timeout <seconds>', `deadline for ${what} (default: ${DEFAULT_TIMEOUT_S})`),
  header: (): Option => new Option('-H, --header <header>', 'extra HTTP header "Name: value", repeatable (values are never printed)').argParser(collect),
  maxResponse: (): Option => new Option('--max-response-mb <n>', `refuse any answer larger than this (default: ${DEFAULT_MAX_RESPONSE_MB})`),
};

/** Build the commander program; `onParsed` receives the hash and raw options when parsing succeeds. */
export function createProgram(io: ProgramIo, onParsed: (args: ParsedArgs) => void): Command {
  return withCommonOptions(new Command('txray'), 'lookup', io)
    .description('Show what an Ethereum transaction did: status, why it failed, logs and the full call tree.\n\nTo see what a call would do before it is sent: txray call --help.\nTo step through a transaction in the terminal: txray debug --help.\nA run recorded with --record, again with no node: txray replay --help.\nShell completions: txray completions bash|zsh|fish.')
    .argument('[hashes...]', 'transaction hashes (0x + 64 hex digits); - reads them from stdin, one per line')
    .addOption(tracerOption('auto: trace_transaction, else debug_traceTransaction (callTracer), else re-executed locally on the node\'s state; parity; geth (events placed inside the tree); local; none'))
    .option('--html <file>', 'also write a self-contained HTML report (call tree, gas flame graph, search); - writes it to stdout instead of the text view; with several hashes, a folder (one page each and index.html)')
    .option('--full', 'every line: the call tree and logs without folding runs of 10 or more alike calls or events; with several hashes, the whole view for each instead of the summary table')
    .option('--concurrency <n>', `lookups at once with several hashes (default: ${DEFAULT_CONCURRENCY})`)
    .option('--wait [seconds]', `poll a pending or unknown transaction until it is mined (default: ${DEFAULT_WAIT_S} s)`)
    .option('--confirmations <n>', 'with --wait: also wait for n blocks on top of the transaction\'s block')
    .version(VERSION, '-V, --version', 'print the version')
    .addHelpText('after', EXAMPLES)
    .action((hashes: string[], options: RawCliOptions) => onParsed({ hashes, options }));
}

const CALL_EXAMPLES = `
Examples:
  txray call 0xA0b8…eB48 "transfer(address,uint256)" 0x7099…79C8 1.5ether --from 0xf39F…2266
  txray call 0xA0b8…eB48 transfer 0x7099…79C8 100 --from 0xf39F…2266   # a name the loaded ABIs know
  txray call 0xA0b8…eB48 --data 0xa9059cbb… --block 19000000 --json | jq .status
  txray call 0xA0b8…eB48 "approve(address,uint256)" 0x7099…79C8 1 --override-balance 0xf39F…2266:10ether
  txray call --create 0x6080… "constructor(uint256)" 42 --from 0xf39F…2266
  txray call --raw "$(cast mktx …)"       # a signed transaction, simulated exactly; never sent
  txray call --tx 0x5c50…e3a1 --override-code 0x5FbD…0aa3:Bank   # would the fixed Bank in out/ have worked?

  Arguments take the forms cast takes: decimal or 0x-hex integers, amounts with a unit (1.5ether,
  10gwei), true/false, hex bytes, strings, tuples as (a,b) and arrays as [a,b].
  Nothing is ever sent: debug_traceCall (callTracer), else trace_call, else eth_call (no tree).

${callExitCodeHelp}
`;

/** \`txray call\`: the second front door, with the same output options. */
export function createCallProgram(io: ProgramIo, onParsed: (args: ParsedArgs) => void): Command {
  return withCommonOptions(new Command('call'), 'simulation', io)
    .description('Simulate a call or a signed transaction at a block and show what it would do (never sent): would it revert and why, the call tree, events, state changes.')
    .argument('[words...]', '<to> [signature] [arguments...]; with --create: [constructor(types)] [arguments...]; with --tx: [signature] [arguments...] (a new input)')
    .option('--from <address>', 'the sender (default: the zero address)')
    .option('--value <amount>', 'ETH to send, in wei or with a unit (1.5ether, 10gwei)')
    .option('--data <hex>', 'the calldata itself instead of a signature and arguments')
    .option('--create <initcode>', 'simulate a contract creation with this init code (no <to>)')
    .option('--raw <hex>', 'simulate this signed transaction exactly as it is (its sender recovered); never broadcast')
    .option('--block <block>', 'a number, a tag (latest, pending, safe, finalized, earliest) or a block hash (default: latest; with --raw, pending where the node has it)')
    .option('--gas-limit <n>', 'the gas limit (default: the node\'s; eth_estimateGas is asked and shown)')
    .option('--override-balance <addr:wei>', 'simulate with this balance (wei or with a unit), repeatable', collect)
    .option('--override-nonce <addr:n>', 'simulate with this nonce, repeatable', collect)
    .option('--override-code <addr:code>', 'simulate with this runtime code (hex, an artifact or hex file, or a contract name of the project), repeatable', collect)
    .option('--override-state-diff <addr:slot:value>', 'simulate with this storage slot set, repeatable', collect)
    .option('--state-override <file>', "simulate on geth's state-override object from a JSON file: {addr: {balance, nonce, code, state, stateDiff}}")
    .option('--tx <hash>', 'run this mined transaction again at its position in its block (or at --block), with the changes the other options make; compared with the mined one')
    .addOption(tracerOption('auto: debug_traceCall (callTracer), else trace_call, else run locally on the node\'s state; geth; parity; local; none (eth_simulateV1, else eth_call: no tree)'))
    .option('--html <file>', 'also write a self-contained HTML report; - writes it to stdout instead of the text view')
    .option('--full', 'every line: the call tree and logs without folding runs of 10 or more alike calls or events')
    .addHelpText('after', CALL_EXAMPLES)
    .action((words: string[], options: RawCliOptions & RawCallOptions) => onParsed({ hashes: [], options, call: { words, options } }));
}

const BLOCK_EXAMPLES = `
Examples:
  txray block --rpc-url http://127.0.0.1:8545         # the latest block, as cast block shows it
  txray block 19000000 --json | jq '.mev'
  txray block 0x88e96d4537bea4d9c05d12549907b32561d3bf31f45aae734cdc119f13406cb6 --html block.html

  A block is a decimal number, 0x and 1 to 16 hex digits (a number), 0x and 64 hex digits (a hash),
  or latest, pending, safe, finalized, earliest; without one, latest. With --html, each transaction's own page is written
  into a folder beside the file (block.html → block-transactions/), and the table links to them.
  The block, its receipts and its traces come in a few requests: trace_block, else
  debug_traceBlockByHash (callTracer), else each transaction's trace in batches.

${blockExitCodeHelp}
`;

/** \`txray block\`: every transaction of a block, what failed and why, what looks like MEV. */
export function createBlockProgram(io: ProgramIo, onParsed: (args: ParsedArgs) => void): Command {
  return withCommonOptions(new Command('block'), 'block', io, false)
    .description('Show every transaction of a block: status, gas, fee, what it did; the failed ones with their reasons; what looks like MEV (sandwiches, arbitrages, liquidations, payments to the fee recipient).')
    .argument('[block]', 'a block number, 0x-hex number, block hash, or latest | pending | safe | finalized | earliest', 'latest')
    .addOption(tracerOption("auto: trace_block, else debug_traceBlockByHash (callTracer), else each transaction's trace; parity; geth; local (re-execute each transaction here); none (statuses from the receipts only)"))
    .option('--html <file>', "also write an HTML page of the block (each transaction's page in a folder beside it); - writes it to stdout instead of the text view")
    .addHelpText('after', BLOCK_EXAMPLES)
    // Its own word for a second argument: commander's ends in a full stop that main's "; see --help" would follow.
    .allowExcessArguments()
    .action((block: string, options: RawCliOptions, cmd: Command) => {
      if (cmd.args.length > 1) throw new UsageError(`txray block takes one block, and ${cmd.args.length} were given (${escapeShort(cmd.args.join(' '), 80)}); see txray block --help.`);
      onParsed({ hashes: [], options, block });
    });
}
