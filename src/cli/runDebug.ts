/**
 * `txray debug <hash>`: the transaction run again in txray's EVM with every step recorded (on its
 * parent block's state, the block's earlier transactions replayed where the receipt says they matter),
 * each frame named and mapped by the project's artifacts, then either one step as JSON (`--at … --json`)
 * or the full-screen debugger (the terminal module, cli/terminal.ts). Its own front door: its options
 * are the node's and the artifacts', and --at.
 */
import { UsageError } from '../errors.js';
import { ExitCode } from '../exitCodes.js';
import type { DebugStepLog } from '../debug/types.js';
import type { Hex } from '../raw/types.js';
import { createRpcClient, type RpcClient } from '../rpc/createRpcClient.js';
import { proxySettingsOf } from '../rpc/proxy.js';
import { createDebugProgram, type DebugArgs } from './createDebugProgram.js';
import { parseFrontDoor } from './parseFrontDoor.js';
import type { Io, SafeWriter } from './io.js';
import { looksLikeAlias, parseEndpoint, parseHash, parseHeaders, parseMaxResponse, parseTimeout } from './parseOptions.js';
import { debugTransaction } from '../pipeline/debugTransaction.js';
import type { RunLog } from './runLog.js';
import { showStepLog } from './showStepLog.js';

/** The arguments, or 'help' when help was printed. */
function parseDebugArgs(argv: readonly string[], write: (s: string) => void): DebugArgs | 'help' {
  // Words after `--` are not options; before them, --record is refused by name (the other front doors take it).
  const options = argv.indexOf('--') < 0 ? argv : argv.slice(0, argv.indexOf('--'));
  if (options.some((w) => w === '--record' || w.startsWith('--record='))) {
    throw new UsageError('txray debug takes no --record: a recording replays a lookup, a call or a block (txray <hash> --record <file>), not the debugger.');
  }
  const got = parseFrontDoor(createDebugProgram, argv, 'txray debug --help');
  if ('help' in got) {
    write(got.help.replace(/^\n+/, ''));
    return 'help';
  }
  const parsed = got.parsed;
  if (parsed === undefined) throw new UsageError('missing the transaction hash; see txray debug --help.');
  if (parsed.json === true && parsed.at === undefined) throw new UsageError('--json prints one step: say which with --at <file>:<line> | step:<i> | failure.');
  return parsed;
}

/** The step log: the run with steps, and the code of every frame's account (to match artifacts). */
async function record(client: RpcClient, args: DebugArgs, hash: Hex, io: Io, timeoutMs: number, log: RunLog): Promise<{ rec: DebugStepLog; warnings: string[] } | null> {
  const decoder = import('../decode/createDecoder.js').then((m) => m.createDecoder({ abiPaths: args.abi ?? [], projectAbis: args.projectAbis !== false, cwd: io.cwd ?? '.', env: io.env, labels: [], labelsFile: undefined, dbDir: null }));
  decoder.catch(() => undefined);
  return debugTransaction(client, hash, decoder.then((d) => d.index.artifacts), timeoutMs, log.debugOn ? (line) => log.debug(line) : undefined);
}

/** `txray debug …` (argv after the word `debug`); the exit code. */
export async function runDebug(argv: readonly string[], io: Io, out: SafeWriter, log: RunLog): Promise<number> {
  // `txray debug call …`: a call simulated here, as `txray call` takes it.
  if (argv[0] === 'call') return (await import('./runDebugCall.js')).runDebugCall(argv.slice(1), io, out, log);
  const args = parseDebugArgs(argv, (s) => void out.write(s));
  if (args === 'help') return ExitCode.success;
  const hash = parseHash(args.hash);
  const { parseAt } = await import('../debug/parseAt.js');
  const at = args.at === undefined ? null : parseAt(args.at);
  const terminal = io.terminal;
  // Said before the node is asked anything: the run would be wasted.
  if (args.json !== true && (terminal === undefined || terminal.input.isTTY !== true || terminal.output.isTTY !== true)) throw new UsageError('txray debug opens a full-screen view and needs a terminal; to script it, use --at <file>:<line> | step:<i> | failure --json.');
  const named = args.rpcUrl ?? io.env.ETH_RPC_URL;
  const foundry = looksLikeAlias(named) ? (await import('./foundryEndpoints.js')).foundryEndpoints(io.cwd ?? '.', io.env) : null;
  const endpoint = parseEndpoint(args.rpcUrl, io.env, foundry);
  const timeoutMs = parseTimeout(args.timeout);
  const client = await createRpcClient({ url: endpoint.url, headers: parseHeaders(args.header), interrupt: io.interrupt, timeoutMs, maxResponseBytes: parseMaxResponse(args.maxResponseMb), proxy: proxySettingsOf(io.env), defaultEndpoint: endpoint.isDefault });
  try {
    const recorded = await record(client, args, hash, io, timeoutMs, log);
    if (recorded === null) {
      const message = `transaction ${hash} is not mined yet; txray debug steps through mined transactions.`;
      await log.say(`txray: ${message}`);
      if (args.json === true) {
        const [{ errorJson }, { writeJson }] = await Promise.all([import('../debug/errorJson.js'), import('../render/writeJson.js')]);
        await out.writeAll(writeJson(errorJson(hash, 'pending', message), io.stdout.isTTY === true ? 2 : 0));
        await out.write('\n');
      }
      return ExitCode.pending;
    }
    return await showStepLog({ ...recorded, at, json: args.json === true, hash, what: `transaction ${hash}` }, terminal, out, log, io.stdout.isTTY === true ? 2 : 0);
  } finally {
    await client.close();
  }
}
