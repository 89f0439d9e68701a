/**
 * What `txray debug` (a mined transaction) and `txray debug call` (a simulated call) do once the run is
 * recorded: the step `--at` names as one JSON document, or the full-screen debugger on the terminal.
 * Returns the exit code.
 */
import type { AtTarget } from '../debug/parseAt.js';
import { findStep } from '../debug/findStep.js';
import type { DebugStepLog } from '../debug/types.js';
import { NotFound } from '../errors.js';
import { ExitCode } from '../exitCodes.js';
import { escapeShort } from '../raw/escape.js';
import { writeJson } from '../render/writeJson.js';
import type { SafeWriter } from './io.js';
import type { RunLog } from './runLog.js';
import type { TerminalIo } from './terminal.js';

export interface Shown {
  readonly rec: DebugStepLog;
  readonly warnings: readonly string[];
  readonly at: AtTarget | null;
  readonly json: boolean;
  /** The transaction's hash (a simulated call: the one it would have, where it came signed; else null). */
  readonly hash: string | null;
  /** What ran, for the line that says there is nothing to step through. */
  readonly what: string;
}

export async function showStepLog(s: Shown, terminal: TerminalIo | undefined, out: SafeWriter, log: RunLog, indent: number): Promise<number> {
  const { rec, warnings } = s;
  for (const w of warnings) await log.say(`txray: warning: ${escapeShort(w, 300)}`);
  const found = s.at === null ? null : findStep(rec, s.at);
  // Said as every other error is (one line, and with --json the error document): exit 3.
  if (found !== null && 'none' in found) throw new NotFound(escapeShort(found.none, 200));
  if (s.json && found !== null) {
    const { stepJson } = await import('../debug/stepJson.js');
    // Escaped as every JSON document of txray is (a file name or a warning could hold controls); indented on a terminal.
    await out.writeAll(writeJson({ ...stepJson(rec, found.step, s.hash), truncated: rec.steps.truncated, warnings }, indent));
    await out.write('\n');
    return ExitCode.success;
  }
  if (rec.steps.count === 0) {
    await log.say(`txray: ${s.what} ran no code (a plain transfer, or a call to an account without code): there is no step to show.`);
    return ExitCode.success;
  }
  const [{ runScreen }, { openCursor }, { moveCursor }, { renderScreen }] = await Promise.all([import('./terminal.js'), import('../debug/openCursor.js'), import('../debug/moveCursor.js'), import('../debug/renderScreen.js')]);
  const first = openCursor(rec);
  let interrupted = false;
  const how = await runScreen(terminal!, {
    initial: found === null ? { ...first, message: warnings[0] ?? null } : { ...first, step: found.step },
    draw: (c, width, height) => renderScreen(rec, c, width, height),
    key: (c, key) => moveCursor(rec, c, key),
    done: (c) => {
      interrupted = c.interrupted === true;
      return c.quit;
    },
  });
  return how === 'signal' || interrupted ? ExitCode.interrupted : ExitCode.success;
}
