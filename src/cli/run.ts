/** Entry point of the bundle: wires the real process to main and sets the exit code (never process.exit). */
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { UsageError } from '../errors.js';
import { readUpTo } from '../rpc/readBody.js';
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

/**
 * V8 doubles its young generation (up to 2 x 16 MB) each time most of it survives a scavenge, as the
 * model of a 20,000-call transaction does; once grown it stays committed. For a text run that growth
 * was ~20 MB of the peak (155 → 135 MB, bench case (b)) for ~40–60 ms more scavenging; for --json, which
 * allocates far more while writing, the small young generation cost ~25% of its time, so it keeps the
 * default. The growth factor is read at each growth, so unlike the sizes it can be set once running.
 * Only on V8 11 (Node 20), where it was measured: V8 prints an error line for a flag it does not know.
 */
function keepYoungGenerationSmall(): void {
  if (process.versions.v8.startsWith('11.')) setFlagsFromString('--semi-space-growth-factor=1');
}

export async function run(boot: Boot): Promise<void> {
  const interrupt = new AbortController();
  process.once('SIGINT', () => {
    process.exitCode = 130;
    interrupt.abort();
  });
  const argv = process.argv.slice(2);
  // Decided here from the raw argv (as main's own early --json check), not in main: the build's warm-up
  // runs main in-process and must make its code cache under V8's default flags.
  if (!argv.includes('--json')) keepYoungGenerationSmall();
  const code = await main(argv, {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    interrupt: interrupt.signal,
    readStdin,
    cwd: process.cwd(),
    sigdb: pathToFileURL(`${boot.dist}/sigdb/`),
    codeCache: boot.codeCache,
  });
  process.exitCode = interrupt.signal.aborted ? 130 : code;
}
