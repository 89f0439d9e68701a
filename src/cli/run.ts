/** Entry point of the bundle: wires the real process to main and sets the exit code (never process.exit). */
import { main } from './main.js';

export async function run(): Promise<void> {
  const interrupt = new AbortController();
  process.once('SIGINT', () => {
    process.exitCode = 130;
    interrupt.abort();
  });
  const code = await main(process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    interrupt: interrupt.signal,
  });
  process.exitCode = interrupt.signal.aborted ? 130 : code;
}
