/** Entry point of the bundle: wires the real process to main and sets the exit code (never process.exit). */
import { pathToFileURL } from 'node:url';
import { UsageError } from '../errors.js';
import { readUpTo } from '../rpc/readBody.js';
import { makesNoCodeCache, tuneForText } from '../v8Tuning.js';
import { main } from './main.js';

export { main } from './main.js';

/** What bin/loadBundle.cjs tells the bundle: where dist/ is and what became of the V8 code cache. */
export interface Boot {
  readonly dist: string;
  readonly codeCache: string;
}

/** Hash lists are small; a stdin larger than this is refused rather than held in memory. */
const MAX_STDIN_BYTES = 64 * 1024 * 1024;

async function readStdin(): Promise<string> {
  const tooMuch = (): never => {
    throw new UsageError('stdin holds more than 64 MiB; pass fewer hashes at a time.');
  };
  return (await readUpTo(process.stdin as AsyncIterable<Buffer>, MAX_STDIN_BYTES, tooMuch)).toString('utf8');
}

export async function run(boot: Boot): Promise<void> {
  const interrupt = new AbortController();
  process.once('SIGINT', () => {
    process.exitCode = 130;
    interrupt.abort();
  });
  const argv = process.argv.slice(2);
  makesNoCodeCache();
  // Set here, once main has parsed the command line and before its work starts, not in main: the build's
  // warm-up runs main in-process and must make its code cache under V8's defaults.
  const tune = (seen: { readonly json: boolean }): void => {
    if (!seen.json) tuneForText();
  };
  const code = await main(argv, {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    interrupt: interrupt.signal,
    readStdin,
    cwd: process.cwd(),
    sigdb: pathToFileURL(`${boot.dist}/sigdb/`),
    codeCache: boot.codeCache,
    // process.stdin is made on first touch (a file's or /dev/null's brings Node's file streams and
    // fs/promises with it): only txray debug's full-screen view reads it.
    terminal: {
      get input() {
        return process.stdin;
      },
      output: process.stdout,
    },
  }, {}, tune);
  process.exitCode = interrupt.signal.aborted ? 130 : code;
}
