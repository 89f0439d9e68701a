/** How a failure is said: its exit code, its code name in the --json error document, its one line. */
import { Interrupted, NotFound, RpcFailure, UsageError } from '../errors.js';
import { ExitCode } from '../exitCodes.js';
import { escapeShort } from '../raw/escape.js';

export function exitCodeForError(err: unknown): ExitCode {
  if (err instanceof UsageError) return ExitCode.usage;
  if (err instanceof RpcFailure) return ExitCode.rpcFailure;
  if (err instanceof NotFound) return ExitCode.notFound;
  if (err instanceof Interrupted) return ExitCode.interrupted;
  return ExitCode.internal;
}

export function errorCodeName(err: unknown): string {
  if (err instanceof UsageError) return 'usage';
  if (err instanceof RpcFailure) return err.kind;
  if (err instanceof NotFound) return 'not_found';
  return 'internal';
}

/** The error's own message; for a bug, one line that says so and asks for a report. */
export function errorMessage(e: unknown): string {
  return exitCodeForError(e) === ExitCode.internal
    ? `internal error: ${escapeShort(e instanceof Error ? e.message : String(e), 200)}. This is a bug in txray; please report it (run again with --debug for details).`
    : e instanceof Error
      ? e.message
      : String(e);
}
