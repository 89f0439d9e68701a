/**
 * The one terminal module: raw mode, the alternate screen, keys in, one redraw per key from a virtual
 * screen diff (only the rows that changed are written), and the terminal put back as it was on every
 * way out — `q`, Ctrl-C (a key in raw mode, not a signal), SIGTERM or SIGHUP, an error thrown while
 * drawing, and the process's exit. Raw ANSI: the terminal UI libraries that would do this need
 * Node 22 (ink) or are unmaintained (blessed).
 */
import { UsageError } from '../errors.js';

/** The streams a terminal UI runs on (process.stdin and process.stdout). */
export interface TerminalIo {
  readonly input: NodeJS.ReadStream;
  readonly output: NodeJS.WriteStream;
}

/** A screen driven by keys: `draw` makes its rows, `key` the next state. */
export interface Screen<S> {
  readonly initial: S;
  draw(state: S, width: number, height: number): string[];
  key(state: S, key: string): S;
  done(state: S): boolean;
}

const ENTER = '\x1b[?1049h\x1b[?25l\x1b[H\x1b[2J';
const LEAVE = '\x1b[0m\x1b[?25h\x1b[?1049l';

/** A chunk of input as keys: CSI and SS3 sequences whole (arrows), a lone ESC as Escape, else one character each. */
function keysOf(chunk: string): string[] {
  const keys: string[] = [];
  let i = 0;
  while (i < chunk.length) {
    if (chunk[i] === '\x1b' && (chunk[i + 1] === '[' || chunk[i + 1] === 'O') && i + 2 < chunk.length) {
      let end = i + 2;
      while (end < chunk.length && !/[@-~]/.test(chunk[end]!)) end++;
      keys.push(chunk.slice(i, end + 1));
      i = end + 1;
    } else {
      const cp = String.fromCodePoint(chunk.codePointAt(i)!);
      keys.push(cp);
      i += cp.length;
    }
  }
  return keys;
}

/** Run `screen` full-screen until it is done, or a signal ends it ('signal'); the terminal is restored however it ends. */
export async function runScreen<S>(t: TerminalIo, screen: Screen<S>): Promise<'done' | 'signal'> {
  const { input, output } = t;
  if (input.isTTY !== true || output.isTTY !== true) throw new UsageError('txray debug needs a terminal (stdin and stdout); to script it, use --at <file>:<line> | step:<i> | failure --json.');
  let state = screen.initial;
  let shown: string[] = [];
  let restored = false;
  const restore = (): void => {
    if (restored) return;
    restored = true;
    input.setRawMode(false);
    input.pause();
    output.write(LEAVE);
  };
  process.once('exit', restore);
  const draw = (): void => {
    const rows = screen.draw(state, output.columns ?? 80, output.rows ?? 24);
    let out = '';
    rows.forEach((row, r) => {
      if (shown[r] !== row) out += `\x1b[${r + 1};1H${row}\x1b[K`;
    });
    shown = rows;
    if (out !== '') output.write(out);
  };
  try {
    output.write(ENTER);
    input.setRawMode(true);
    input.setEncoding('utf8');
    return await new Promise<'done' | 'signal'>((resolve, reject) => {
      const stop = (how: 'done' | 'signal'): void => {
        input.off('data', onData);
        output.off('resize', onResize);
        process.off('SIGTERM', onSignal);
        process.off('SIGHUP', onSignal);
        resolve(how);
      };
      const onSignal = (): void => stop('signal');
      // An error while drawing ends the view (and is the run's error), never an uncaught exception.
      const guarded = (go: () => void) => (): void => {
        try {
          go();
        } catch (err) {
          stop('done');
          reject(err);
        }
      };
      const onData = (chunk: string): void =>
        guarded(() => {
          for (const key of keysOf(chunk)) {
            state = screen.key(state, key);
            if (screen.done(state)) return stop('done');
          }
          draw();
        })();
      const onResize = guarded(() => {
        shown = [];
        output.write('\x1b[2J');
        draw();
      });
      input.on('data', onData);
      output.on('resize', onResize);
      process.once('SIGTERM', onSignal);
      process.once('SIGHUP', onSignal);
      input.resume();
      draw();
    });
  } finally {
    restore();
    process.off('exit', restore);
  }
}
