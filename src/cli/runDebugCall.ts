/**
 * `txray debug call …`: a call simulated in txray's EVM with every step recorded, taking the words
 * and options of `txray call` (the target, signature and arguments, --from, --value, --block, the
 * state overrides…) and --at; then the same view as `txray debug <hash>` (showStepLog.ts).
 */
import { UsageError } from '../errors.js';
import { ExitCode } from '../exitCodes.js';
import { createRpcClient } from '../rpc/createRpcClient.js';
import { createCallProgram, type ParsedArgs } from './createProgram.js';
import { parseFrontDoor } from './parseFrontDoor.js';
import type { Io, SafeWriter } from './io.js';
import { looksLikeAlias, parseOptions } from './parseOptions.js';
import type { RunLog } from './runLog.js';
import { showStepLog } from './showStepLog.js';

/** `--at <where>` (or `--at=<where>`) taken out of the words: `txray call`'s own options do not have it. */
function takeAt(argv: readonly string[]): { readonly rest: string[]; readonly at: string | null } {
  const rest: string[] = [];
  let at: string | null = null;
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--at') {
      if (i + 1 >= argv.length) throw new UsageError('--at takes <file>:<line>, step:<i> or failure; see txray debug --help.');
      at = argv[++i]!;
    } else if (word.startsWith('--at=')) at = word.slice('--at='.length);
    else rest.push(word);
  }
  return { rest, at };
}

/** The call's words and options, or 'help' when help was printed. */
function parseCallArgs(words: readonly string[], write: (s: string) => void): ParsedArgs | 'help' {
  const got = parseFrontDoor(createCallProgram, words, 'txray debug call --help');
  if ('help' in got) {
    write(`txray debug call takes the words and options of txray call (below), and --at <file>:<line> | step:<i> | failure.\n\n${got.help}`);
    return 'help';
  }
  const parsed = got.parsed;
  if (parsed?.call === undefined) throw new UsageError('missing the call; see txray debug call --help.');
  return parsed;
}

export async function runDebugCall(argv: readonly string[], io: Io, out: SafeWriter, log: RunLog): Promise<number> {
  const { rest, at: atText } = takeAt(argv);
  const parsed = parseCallArgs(rest, (s) => void out.write(s));
  if (parsed === 'help') return ExitCode.success;
  const { parseAt } = await import('../debug/parseAt.js');
  const at = atText === null ? null : parseAt(atText);
  const json = parsed.options.json === true;
  if (json && at === null) throw new UsageError('--json prints one step: say which with --at <file>:<line> | step:<i> | failure.');
  const terminal = io.terminal;
  if (!json && (terminal === undefined || terminal.input.isTTY !== true || terminal.output.isTTY !== true)) throw new UsageError('txray debug opens a full-screen view and needs a terminal; to script it, use --at <file>:<line> | step:<i> | failure --json.');
  const named = parsed.options.rpcUrl ?? io.env.ETH_RPC_URL;
  const foundry = looksLikeAlias(named) ? (await import('./foundryEndpoints.js')).foundryEndpoints(io.cwd ?? '.', io.env) : null;
  const opts = parseOptions([], parsed.options, io.env, undefined, parsed.call, foundry);
  if (opts.command.kind !== 'call') throw new UsageError('missing the call; see txray debug call --help.');
  const { createDecoder } = await import('../decode/createDecoder.js');
  const decoder = createDecoder({ abiPaths: opts.abiPaths, projectAbis: opts.projectAbis, cwd: io.cwd ?? '.', env: io.env, labels: opts.labels, labelsFile: opts.labelsFile, dbDir: io.sigdb ?? null });
  // A mined transaction is stepped through at its own position by txray debug <hash>.
  if (opts.command.call.replay !== undefined) throw new UsageError('txray debug call takes no --tx: to step through a mined transaction where it ran, use txray debug <hash>.');
  // Contract names and artifact files of --override-code, as txray call takes them (a name the project lacks is exit 2, before any request).
  const { namedCodes, resolveCodes } = await import('../pipeline/resolveCodes.js');
  const codes = namedCodes(opts.command.call.codes, decoder.index.artifacts);
  const { planCall } = await import('../pipeline/planCall.js');
  const given = opts.command.call;
  const planned = await planCall(given, decoder.index);
  const client = await createRpcClient({ url: opts.url, headers: opts.headers, interrupt: io.interrupt, timeoutMs: opts.timeoutMs, maxResponseBytes: opts.maxResponseBytes, proxy: opts.proxy, defaultEndpoint: opts.defaultEndpoint });
  try {
    // The latest block where none is named: a pending block's state is not one every node serves to read.
    const block = planned.block === 'default' ? 'latest' : planned.block;
    const plan = { ...planned, overrides: await resolveCodes(async () => client, codes, given.overrides, block, opts.timeoutMs) };
    const { debugCall } = await import('../pipeline/debugCall.js');
    const rec = await debugCall(client, plan, block, decoder.index.artifacts, { timeoutMs: opts.timeoutMs, debug: opts.debug ? (line) => log.debug(line) : undefined });
    return await showStepLog({ rec, warnings: [], at, json, hash: plan.hash, what: 'the call' }, terminal, out, log, io.stdout.isTTY === true ? 2 : 0);
  } finally {
    await client.close();
  }
}
