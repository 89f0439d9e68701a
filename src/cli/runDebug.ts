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
import type { Decoder } from '../decode/createDecoder.js';
import { debugTransaction } from '../pipeline/debugTransaction.js';
import type { RpcClient } from '../rpc/createRpcClient.js';
import type { DebugArgs } from './createDebugProgram.js';
import { type DoorOpener, readOptions } from './frontDoor.js';
import { parseHash } from './parseOptions.js';
import type { RunLog } from './runLog.js';
import { showStepLog } from './showStepLog.js';
import { writeErrorDocument } from './writeFailure.js';
import { jsonIndent } from './writeOutcomes.js';

/** The step log: the run with steps, and the code of every frame's account (to match artifacts). */
async function record(client: RpcClient, decoder: Promise<Decoder>, hash: Hex, timeoutMs: number, log: RunLog): Promise<{ rec: DebugStepLog; warnings: string[] } | null> {
  return debugTransaction(client, hash, decoder, timeoutMs, log.debugOn ? (line) => log.debug(line) : undefined);
}

/** `txray debug <hash>` as parsed; the exit code. */
export async function runDebug(args: DebugArgs, doors: DoorOpener): Promise<number> {
  const { io } = doors;
  if (args.dap === true) {
    if (args.at !== undefined || args.json === true) throw new UsageError('txray debug --dap takes no --at or --json: the editor says where to stop.');
    return (await import('./runDap.js')).runDap(args, doors);
  }
  if (args.hash === undefined) throw new UsageError("missing required argument 'hash'; see txray debug --help.");
  if (args.json === true && args.at === undefined) throw new UsageError('--json prints one step: say which with --at <file>:<line> | step:<i> | failure.');
  const hash = parseHash(args.hash);
  const { parseAt } = await import('../debug/parseAt.js');
  const at = args.at === undefined ? null : parseAt(args.at);
  const terminal = io.terminal;
  // Said before the node is asked anything: the run would be wasted.
  if (args.json !== true && (terminal === undefined || terminal.input.isTTY !== true || terminal.output.isTTY !== true)) throw new UsageError('txray debug opens a full-screen view and needs a terminal; to script it, use --at <file>:<line> | step:<i> | failure --json.');
  const { hash: _hash, at: _at, dap: _dap, ...options } = args;
  const door = await doors.open((await readOptions({ hashes: [hash], options }, io)).opts);
  const timeoutMs = door.opts.timeoutMs;
  // Made beside the node's answers: only the artifacts are read of it, once the run is done.
  const decoder = door.decoder().then((d) => d.decoderReady);
  decoder.catch(() => undefined);
  const recorded = await record(await door.connect(), decoder, hash, timeoutMs, door.log);
  if (recorded === null) {
    const message = `transaction ${hash} is not mined yet; txray debug steps through mined transactions.`;
    await door.log.say(`txray: ${message}`);
    if (args.json === true) await writeErrorDocument('debug', hash, { code: 'pending', message }, door);
    return ExitCode.pending;
  }
  return await showStepLog({ ...recorded, at, json: args.json === true, hash, what: `transaction ${hash}` }, terminal, door.out, door.log, jsonIndent(io));
}
