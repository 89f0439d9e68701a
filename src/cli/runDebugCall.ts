/**
 * `txray debug call …`: a call simulated in txray's EVM with every step recorded, taking the words
 * and options of `txray call` (the target, signature and arguments, --from, --value, --block, the
 * state overrides…) and --at; then the same view as `txray debug <hash>` (showStepLog.ts).
 */
import { UsageError } from '../errors.js';
import type { DebugCallArgs } from './createDebugProgram.js';
import { type DoorOpener, readOptions } from './frontDoor.js';
import { showStepLog } from './showStepLog.js';
import { jsonIndent } from './writeOutcomes.js';

/** `txray debug call …` as parsed; the exit code. */
export async function runDebugCall(args: DebugCallArgs, doors: DoorOpener): Promise<number> {
  const { io } = doors;
  const { parseAt } = await import('../debug/parseAt.js');
  const at = args.at === undefined ? null : parseAt(args.at);
  const json = args.call.options.json === true;
  if (json && at === null) throw new UsageError('--json prints one step: say which with --at <file>:<line> | step:<i> | failure.');
  const terminal = io.terminal;
  if (!json && (terminal === undefined || terminal.input.isTTY !== true || terminal.output.isTTY !== true)) throw new UsageError('txray debug opens a full-screen view and needs a terminal; to script it, use --at <file>:<line> | step:<i> | failure --json.');
  const door = await doors.open((await readOptions(args.call, io)).opts);
  const opts = door.opts;
  if (opts.command.kind !== 'call') throw new UsageError('missing the call; see txray debug call --help.');
  const decoder = await (await door.decoder()).decoderReady;
  // A mined transaction is stepped through at its own position by txray debug <hash>.
  if (opts.command.call.replay !== undefined) throw new UsageError('txray debug call takes no --tx: to step through a mined transaction where it ran, use txray debug <hash>.');
  // Contract names and artifact files of --override-code, as txray call takes them (a name the project lacks is exit 2, before any request).
  const { namedCodes, resolveCodes } = await import('../pipeline/resolveCodes.js');
  const codes = namedCodes(opts.command.call.codes, decoder.index.artifacts);
  const { planCall } = await import('../pipeline/planCall.js');
  const given = opts.command.call;
  const planned = await planCall(given, decoder.index);
  const client = await door.connect();
  const { out, log } = door;
  // The latest block where none is named: a pending block's state is not one every node serves to read.
  const block = planned.block === 'default' ? 'latest' : planned.block;
  const plan = { ...planned, overrides: await resolveCodes(async () => client, codes, given.overrides, block, opts.timeoutMs) };
  const { debugCall } = await import('../pipeline/debugCall.js');
  const rec = await debugCall(client, plan, block, decoder, { timeoutMs: opts.timeoutMs, debug: opts.debug ? (line) => log.debug(line) : undefined });
  return await showStepLog({ rec, warnings: [], at, json, hash: plan.hash, what: 'the call' }, terminal, out, log, jsonIndent(io));
}
