import type { Cursor, DebugStepLog } from './types.js';

/** The cursor where a step log opens: its failing step, else its first. */
export function openCursor(rec: DebugStepLog): Cursor {
  return { step: rec.failure ?? 0, breakpoints: new Set(), help: false, command: null, message: null, quit: false };
}
