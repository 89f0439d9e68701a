/**
 * `txray debug [<hash>] --dap`: the editor's debugger for a mined transaction. Each launch names the
 * transaction (else the command line's hash), the node (a URL or a foundry.toml alias, else the command
 * line's or the default) and the project (its artifacts and sources, else the working directory); the
 * step log is made as `txray debug <hash>` makes it, through the same front door.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { DebugTarget, LaunchArgs } from '../dap/types.js';
import { projectRoot } from '../decode/loadAbis.js';
import { NotFound, UsageError } from '../errors.js';
import { debugTransaction } from '../pipeline/debugTransaction.js';
import type { DebugArgs } from './createDebugProgram.js';
import { DoorOpener, readOptions } from './frontDoor.js';
import { parseHash } from './parseOptions.js';
import { serveDap } from './serveDap.js';

/** A folder there (a path through a file, or one that cannot be read, is none). */
function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** One launch's transaction, recorded; its front door noted in `opened` to be closed at the end. */
async function loadTransaction(args: DebugArgs, launch: LaunchArgs, doors: DoorOpener, opened: DoorOpener[]): Promise<DebugTarget> {
  const text = launch.hash ?? args.hash;
  if (text === undefined) throw new UsageError('launch names no hash: give the transaction to step through ("hash": "0x…").');
  const hash = parseHash(text);
  const cwd = resolve(doors.io.cwd ?? '.', launch.cwd ?? '.');
  // A mistyped folder would show every frame without its source, silently.
  if (launch.cwd !== undefined && !isFolder(cwd)) throw new UsageError(`launch's cwd ${cwd} is not a folder: name the Foundry or Hardhat project whose sources to show.`);
  const io = { ...doors.io, cwd };
  const { hash: _hash, at: _at, json: _json, dap: _dap, ...options } = args;
  const opener = new DoorOpener({ io, out: doors.out, log: doors.log });
  opened.push(opener);
  const door = await opener.open((await readOptions({ hashes: [hash], options: { ...options, ...(launch.rpcUrl === undefined ? {} : { rpcUrl: launch.rpcUrl }) } }, io)).opts);
  const decoder = door.decoder().then((d) => d.decoderReady);
  decoder.catch(() => undefined);
  const recorded = await debugTransaction(await door.connect(), hash, decoder, door.opts.timeoutMs, door.log.debugOn ? (line) => door.log.debug(line) : undefined);
  if (recorded === null) throw new NotFound(`transaction ${hash} is not mined yet; txray debug steps through mined transactions.`);
  // The compiler's paths are the project's (foundry.toml's or hardhat.config's folder), also from a folder inside it.
  return { ...recorded, what: `transaction ${hash}`, cwd: projectRoot(cwd) ?? cwd, artifacts: (await decoder).index.artifacts };
}

export async function runDap(args: DebugArgs, doors: DoorOpener): Promise<number> {
  // A hash on the command line is checked before anything is served.
  if (args.hash !== undefined) parseHash(args.hash);
  const opened: DoorOpener[] = [];
  try {
    return await serveDap((launch) => loadTransaction(args, launch, doors, opened), doors);
  } finally {
    for (const o of opened) await o.close();
  }
}
