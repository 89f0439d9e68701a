/**
 * `txray debug <hash>`: the transaction run again in txray's EVM with every step recorded (on its
 * parent block's state, the block's earlier transactions replayed where the receipt says they matter),
 * each frame named and mapped by the project's artifacts, then either one step as JSON (`--at … --json`)
 * or the full-screen debugger (the terminal module, cli/terminal.ts). Its own front door: its options
 * are the node's and the artifacts', and --at.
 */
import { NotFound, RpcFailure, UsageError } from '../errors.js';
import { ExitCode } from '../exitCodes.js';
import type { DebugRecording } from '../debug/types.js';
import { isQuantity, isRecord } from '../raw/hex.js';
import type { Hex } from '../raw/types.js';
import type { Decoder } from '../decode/createDecoder.js';
import type { RpcClient } from '../rpc/createRpcClient.js';
import { deadlineSignal } from '../rpc/deadline.js';
import type { DebugArgs } from './createDebugProgram.js';
import { type DoorOpener, readOptions } from './frontDoor.js';
import { parseHash } from './parseOptions.js';
import { recordingOf } from './recordingOf.js';
import { showRecording } from './showRecording.js';
import { writeErrorDocument } from './writeFailure.js';
import { jsonIndent } from './writeOutcomes.js';

/** The transaction and its receipt (null: not mined yet); NotFound (exit 3) where the node does not know it. */
async function minedTransaction(client: RpcClient, hash: Hex, timeoutMs: number): Promise<{ tx: Record<string, unknown>; receipt: Record<string, unknown> } | null> {
  const deadline = deadlineSignal(timeoutMs);
  const [tx, receipt] = await Promise.all([client.call('eth_getTransactionByHash', [hash], deadline), client.call('eth_getTransactionReceipt', [hash], deadline)]);
  if (tx === null || tx === undefined) throw new NotFound(`the node does not know transaction ${hash}.`);
  if (!isRecord(tx)) throw new RpcFailure('malformed', `the node gave a malformed transaction for ${hash}.`);
  if (!isQuantity(tx.blockNumber)) return null;
  // Mined, and no receipt: the node's fault, not a pending transaction.
  if (!isRecord(receipt)) throw new RpcFailure('malformed', `the node gave no receipt for the mined transaction ${hash}.`);
  return { tx, receipt };
}

/** The recording: the run with steps, and the code of every frame's account (to match artifacts). */
async function record(client: RpcClient, decoder: Promise<Decoder>, hash: Hex, timeoutMs: number): Promise<{ rec: DebugRecording; warnings: string[] } | null> {
  const mined = await minedTransaction(client, hash, timeoutMs);
  if (mined === null) return null;
  const { tx, receipt } = mined;
  const { runMined } = await import('../sources/runMined.js');
  const local = await runMined(client, tx, receipt, deadlineSignal(timeoutMs), { steps: true });
  const rec = await recordingOf(client, { steps: local.steps, root: local.calls.tree.root }, { block: tx.blockNumber as string }, (await decoder).index.artifacts, timeoutMs);
  const warnings = local.mismatch.length > 0 ? [`the run here differs from the receipt (${local.mismatch.join('; ')}): the steps may not be the chain's`] : [];
  return { rec, warnings };
}

/** `txray debug <hash>` as parsed; the exit code. */
export async function runDebug(args: DebugArgs, doors: DoorOpener): Promise<number> {
  const { io } = doors;
  if (args.json === true && args.at === undefined) throw new UsageError('--json prints one step: say which with --at <file>:<line> | step:<i> | failure.');
  const hash = parseHash(args.hash);
  const { parseAt } = await import('../debug/parseAt.js');
  const at = args.at === undefined ? null : parseAt(args.at);
  const terminal = io.terminal;
  // Said before the node is asked anything: the run would be wasted.
  if (args.json !== true && (terminal === undefined || terminal.input.isTTY !== true || terminal.output.isTTY !== true)) throw new UsageError('txray debug opens a full-screen view and needs a terminal; to script it, use --at <file>:<line> | step:<i> | failure --json.');
  const { hash: _hash, at: _at, ...options } = args;
  const door = await doors.open((await readOptions({ hashes: [hash], options }, io)).opts);
  const timeoutMs = door.opts.timeoutMs;
  // Made beside the node's answers: only the artifacts are read of it, once the run is done.
  const decoder = door.decoder().then((d) => d.decoderReady);
  decoder.catch(() => undefined);
  const recorded = await record(await door.connect(), decoder, hash, timeoutMs);
  if (recorded === null) {
    const message = `transaction ${hash} is not mined yet; txray debug steps through mined transactions.`;
    await door.log.say(`txray: ${message}`);
    if (args.json === true) await writeErrorDocument('debug', hash, { code: 'pending', message }, door);
    return ExitCode.pending;
  }
  return await showRecording({ ...recorded, at, json: args.json === true, hash, what: `transaction ${hash}` }, terminal, door.out, door.log, jsonIndent(io));
}
