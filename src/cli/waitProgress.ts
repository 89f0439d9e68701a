/**
 * --wait on a terminal: one line on stderr, rewritten in place each second, saying what the wait is
 * for and how long it has run (`waiting for 0x5c504ed4…a1c060 (pending) 3 s of 30 s`); cleared
 * when the wait ends. main gives it only when stderr is a terminal.
 */
import type { Waiting } from '../pipeline/lookupHash.js';
import { nowMs } from '../rpc/createRpcClient.js';
import { shortHash } from '../format/format.js';
import type { RunLog } from './runLog.js';

/** Erase the terminal's current line and return to its start. */
const CLEAR_LINE = '\r\u001b[2K';

function lineOf(w: Waiting, elapsedS: number): string {
  const what = w.confirmations === null ? (w.known ? 'pending' : 'not known to the node yet') : `mined, ${w.confirmations} of ${w.wanted} confirmation${w.wanted === 1 ? '' : 's'}`;
  return `waiting for ${shortHash(w.hash)} (${what}) ${elapsedS} s of ${Math.round(w.waitMs / 1000)} s`;
}

export function waitProgress(log: RunLog): (waiting: Waiting | null) => void {
  let started = 0;
  let last: Waiting | null = null;
  let ticker: NodeJS.Timeout | undefined;
  const draw = (): void => {
    if (last !== null) void log.write(`${CLEAR_LINE}txray: ${lineOf(last, Math.floor((nowMs() - started) / 1000))}`);
  };
  return (waiting) => {
    if (waiting === null) {
      clearInterval(ticker);
      ticker = undefined;
      if (last !== null) void log.write(CLEAR_LINE);
      last = null;
      return;
    }
    if (last === null) started = nowMs();
    last = waiting;
    draw();
    // Between polls (up to seconds apart) the seconds still count; the timer never keeps the process alive.
    ticker ??= setInterval(draw, 1000).unref();
  };
}
