import type { Cursor, DebugRecording } from './types.js';

/** The cursor where a recording opens: its failing step, else its first. */
export function openCursor(rec: DebugRecording): Cursor {
  return { step: rec.failure ?? 0, breakpoints: new Set(), help: false, command: null, message: null, quit: false };
}
