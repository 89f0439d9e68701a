/**
 * `txray debug call …`: a call simulated in txray's EVM with every step recorded, taking the words
 * and options of `txray call` (the target, signature and arguments, --from, --value, --block, the
 * state overrides…) and --at; then the same view as `txray debug <hash>` (showStepLog.ts), or with
 * --dap the editor's debugger (serveDap.ts: its launch runs the call of the command line).
 */
import { resolve } from 'node:path';
import { projectRoot } from '../decode/loadAbis.js';
import { UsageError } from '../errors.js';
import type { DebugStepLog } from '../debug/types.js';
import type { DebugCallArgs } from './createDebugProgram.js';
import { type DoorOpener, type FrontDoor, readOptions } from './frontDoor.js';
import { showStepLog } from './showStepLog.js';
import { jsonIndent } from './writeOutcomes.js';

/** The call's step log, run as `txray call` plans it; its hash where it came signed. */
async function recordCall(door: FrontDoor): Promise<{ readonly rec: DebugStepLog; readonly hash: string | null }> {
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
  const { log } = door;
  // The latest block where none is named: a pending block's state is not one every node serves to read.
  const block = planned.block === 'default' ? 'latest' : planned.block;
  const plan = { ...planned, overrides: await resolveCodes(async () => client, codes, given.overrides, block, opts.timeoutMs) };
  const { debugCall } = await import('../pipeline/debugCall.js');
  const rec = await debugCall(client, plan, block, decoder, { timeoutMs: opts.timeoutMs, debug: opts.debug ? (line) => log.debug(line) : undefined });
  return { rec, hash: plan.hash };
}

/** `txray debug call …` as parsed; the exit code. */
export async function runDebugCall(args: DebugCallArgs, doors: DoorOpener): Promise<number> {
  const { io } = doors;
  const { parseAt } = await import('../debug/parseAt.js');
  const at = args.at === undefined ? null : parseAt(args.at);
  const json = args.call.options.json === true;
  if (args.dap && (json || at !== null)) throw new UsageError('txray debug --dap takes no --at or --json: the editor says where to stop.');
  if (json && at === null) throw new UsageError('--json prints one step: say which with --at <file>:<line> | step:<i> | failure.');
  const terminal = io.terminal;
  if (!args.dap && !json && (terminal === undefined || terminal.input.isTTY !== true || terminal.output.isTTY !== true)) throw new UsageError('txray debug opens a full-screen view and needs a terminal; to script it, use --at <file>:<line> | step:<i> | failure --json.');
  const door = await doors.open((await readOptions(args.call, io)).opts);
  if (args.dap) {
    const { serveDap } = await import('./serveDap.js');
    return serveDap(async (launch) => {
      // The call is the command line's: a launch names no other.
      if (launch.hash !== undefined) throw new UsageError('this adapter steps through the call of its command line (txray debug call … --dap): launch names no hash.');
      const { rec } = await recordCall(door);
      const cwd = resolve(io.cwd ?? '.');
      // Said, not passed over in silence: an editor's configuration made for transactions names them.
      const unused = (['rpcUrl', 'cwd'] as const).filter((k) => launch[k] !== undefined);
      const warnings = unused.length === 0 ? [] : [`launch's ${unused.join(' and ')} not used: txray debug call … --dap runs the call of its command line on its node, in its folder`];
      return { rec, warnings, what: 'the call', cwd: projectRoot(cwd) ?? cwd, artifacts: (await (await door.decoder()).decoderReady).index.artifacts };
    }, doors);
  }
  const { rec, hash } = await recordCall(door);
  return await showStepLog({ rec, warnings: [], at, json, hash, what: 'the call' }, terminal, door.out, door.log, jsonIndent(io));
}
