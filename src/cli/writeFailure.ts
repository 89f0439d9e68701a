/**
 * A failed run as every front door says it: one line on stderr (with --debug, the stack), and with
 * --json the door's own error document on stdout (the lookup's and `txray call`'s, `txray block`'s,
 * `txray debug`'s). The exit code by the error (errorWords.ts).
 */
import { ExitCode } from '../exitCodes.js';
import type { Hex } from '../raw/types.js';
import { errorDocument, renderJson } from '../render/renderJson.js';
import { writeJson } from '../render/writeJson.js';
import { errorCodeName, errorMessage, exitCodeForError } from './errorWords.js';
import type { Io, SafeWriter } from './io.js';
import { parseHash } from './parseOptions.js';
import type { RunLog } from './runLog.js';
import { jsonIndent } from './writeOutcomes.js';

/** A front door: which one a command line opened (`call` and `block` write their failures as the lookup and the block do). */
export type Door = 'lookup' | 'call' | 'block' | 'debug' | 'replay' | 'completions';

export interface FailureOut {
  readonly io: Io;
  readonly out: SafeWriter;
  readonly log: RunLog;
}

/** The hash for an error document: the first word of the command line that is a valid hash, if any. */
function pickHash(argv: readonly string[]): Hex | null {
  for (const word of argv) {
    try {
      return parseHash(word);
    } catch {
      /* not a hash: an option or its value */
    }
  }
  return null;
}

/** The door's error document on stdout: `code` is the error's code name, `message` as stderr said it. */
export async function writeErrorDocument(door: Door, hash: Hex | null, error: { readonly code: string; readonly message: string }, to: FailureOut): Promise<void> {
  if (door === 'debug') {
    // txray debug's own small document (schema/debug.schema.json), not a lookup's.
    const { errorJson } = await import('../debug/errorJson.js');
    await to.out.writeAll(writeJson(errorJson(hash, error.code, error.message), jsonIndent(to.io)));
    await to.out.write('\n');
  } else if (door === 'block') {
    const { blockErrorDocument, renderBlockJson } = await import('../render/renderBlockJson.js');
    await to.out.writeAll(renderBlockJson(blockErrorDocument(error), jsonIndent(to.io)));
  } else await to.out.writeAll(renderJson(errorDocument(hash, error, []), jsonIndent(to.io)));
}

/** The failure said; its exit code. `argv`: where the document's hash is looked for (none for a replay's own failures). */
export async function writeFailure(e: unknown, door: Door, json: boolean, argv: readonly string[], to: FailureOut): Promise<ExitCode> {
  const code = exitCodeForError(e);
  if (code === ExitCode.interrupted) return code;
  const message = errorMessage(e);
  await to.log.say(`txray: ${message}`);
  if (to.log.debugOn && e instanceof Error && e.stack) await to.log.say(e.stack);
  if (json) await writeErrorDocument(door, door === 'replay' ? null : pickHash(argv), { code: errorCodeName(e), message: to.log.scrubbed(message) }, to);
  return code;
}
