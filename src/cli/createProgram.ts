/** The command-line surface (commander), writing only through the given callbacks. */
import { Command, Option } from 'commander';
import { exitCodeHelp } from '../exitCodes.js';
import { DEFAULT_CONCURRENCY, DEFAULT_MAX_RESPONSE_MB, DEFAULT_TIMEOUT_S, DEFAULT_WAIT_S, type RawCliOptions } from './parseOptions.js';

declare const __TXRAY_VERSION__: string | undefined;
export const VERSION = typeof __TXRAY_VERSION__ === 'string' ? __TXRAY_VERSION__ : '0.0.0-dev';

const EXAMPLES = `
Examples:
  txray 0x5c504ed4…c060 --rpc-url http://127.0.0.1:8545
  ETH_RPC_URL=https://node.example.org txray 0x5c504ed4…c060
  txray 0x5c504ed4…c060 --json | jq '.status'
  txray 0x5c504ed4…c060 -H "Authorization: Bearer $TOKEN" --timeout 10
  txray - < hashes.txt            # a summary table; --json gives one JSON line per hash
  txray "$(cast send …)" --wait 60 --confirmations 2

  The hash is 64 hex digits, with or without the 0x prefix.
  The call tree comes from trace_transaction (Erigon, Reth, Nethermind, Besu, anvil) or,
  where a node lacks it (geth), from debug_traceTransaction's callTracer; --tracer chooses.

Environment:
  With several hashes the exit code is the largest of the per-hash codes.

  ETH_RPC_URL   the endpoint when --rpc-url is not given
  NO_COLOR      turn colour off (FORCE_COLOR=0..3 forces a level; --color/--no-color win over both)

${exitCodeHelp}
`;

export interface ProgramIo {
  writeOut(text: string): void;
}

export interface ParsedArgs {
  readonly hashes: readonly string[];
  readonly options: RawCliOptions;
}

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

/** Build the commander program; `onParsed` receives the hash and raw options when parsing succeeds. */
export function createProgram(io: ProgramIo, onParsed: (args: ParsedArgs) => void): Command {
  return new Command('txray')
    .description('Show what an Ethereum transaction did: status, why it failed, logs and the full call tree.')
    .argument('[hashes...]', 'transaction hashes (0x + 64 hex digits); - reads them from stdin, one per line')
    .option('-r, --rpc-url <url>', 'JSON-RPC endpoint (default: $ETH_RPC_URL); only scheme://host:port is ever printed')
    .option('--json', 'print one JSON document (schema version 1) instead of text')
    .option('--color', 'force colour')
    .option('--no-color', 'no colour (also NO_COLOR=1)')
    .option('--timeout <seconds>', `deadline for the whole lookup, retries included (default: ${DEFAULT_TIMEOUT_S})`)
    .option('-H, --header <header>', 'extra HTTP header "Name: value", repeatable (values are never printed)', collect)
    .option('--tracer <mode>', 'auto: trace_transaction, else debug_traceTransaction (callTracer); parity; geth (events placed inside the tree); none', 'auto')
    .addOption(new Option('--max-response-mb <n>', `refuse any answer larger than this (default: ${DEFAULT_MAX_RESPONSE_MB})`))
    .option('--abi <path>', 'ABI to decode with, repeatable: a JSON ABI, one signature per line, a Foundry/Hardhat artifact, or a directory of them', collect)
    .option('--no-project-abis', "do not read the ABIs of the Foundry/Hardhat project in the working directory")
    .option('--labels <0xaddr:Name>', 'name an address in the output, repeatable', collect)
    .option('--labels-file <file>', 'names for addresses from a JSON object {"0xaddress": "Name"}')
    .option('--state', 'also show state changes: balances (ETH with the fee split, tokens), storage by variable name, accounts')
    .option('--gas', 'also show the gas profile: gas and self gas per contract and function, after the call tree')
    .option('--gas-out <file>', 'write the gas profile as folded stacks ("a;b;c <self gas>" a line) for flamegraph.pl, inferno or speedscope')
    .option('--html <file>', 'also write a self-contained HTML report (call tree, gas flame graph, search); - writes it to stdout instead of the text view; with several hashes, a folder (one page each and index.html)')
    .option('--full', 'with several hashes: the whole view for each instead of the summary table')
    .option('-q, --quiet', 'print nothing on stdout; only the exit code says how it went (errors still on stderr)')
    .option('--concurrency <n>', `lookups at once with several hashes (default: ${DEFAULT_CONCURRENCY})`)
    .option('--wait [seconds]', `poll a pending or unknown transaction until it is mined (default: ${DEFAULT_WAIT_S} s)`)
    .option('--confirmations <n>', 'with --wait: also wait for n blocks on top of the transaction\'s block')
    .option('--debug', 'stack traces and request timings on stderr')
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show this help')
    .addHelpText('after', EXAMPLES)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.writeOut(s),
      writeErr: (s) => io.writeOut(s), // only help-on-error would use it; errors are reported by main
      outputError: () => undefined,
    })
    .action((hashes: string[], options: RawCliOptions) => onParsed({ hashes, options }));
}
