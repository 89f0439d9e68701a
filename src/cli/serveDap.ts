/**
 * `txray debug … --dap`: the Debug Adapter Protocol on stdin and stdout for an editor — framed messages in
 * (readFrames), one session (src/dap) answering them in order, framed messages out; nothing else on stdout,
 * lines for a person on stderr. A `disconnect` is answered at once, even while a launch is loading, and
 * ends the run (exit 0), as does the end of stdin.
 */
import { createDapSession } from '../dap/dapSession.js';
import { frameMessage } from '../dap/frameMessage.js';
import { readFrames } from '../dap/readFrames.js';
import type { LoadTarget } from '../dap/types.js';
import { UsageError } from '../errors.js';
import { ExitCode } from '../exitCodes.js';
import { escapeShort } from '../raw/escape.js';
import { errorMessage } from './errorWords.js';
import type { DoorOpener } from './frontDoor.js';

const isDisconnect = (m: unknown): boolean => typeof m === 'object' && m !== null && 'command' in m && m.command === 'disconnect';

export async function serveDap(load: LoadTarget, doors: DoorOpener): Promise<number> {
  const { io, out, log } = doors;
  // stdin: the terminal's input stream is process.stdin, a pipe from the editor here.
  const input = io.terminal?.input;
  if (input === undefined) throw new UsageError('txray debug --dap reads the Debug Adapter Protocol on stdin.');
  const session = createDapSession(
    async (args) => {
      try {
        return await load(args);
      } catch (e) {
        const message = errorMessage(e);
        await log.say(`txray: ${escapeShort(message, 300)}`);
        throw new Error(message);
      }
    },
    (m) => void out.write(frameMessage(m)),
  );
  return await new Promise<number>((resolve) => {
    let queue: Promise<unknown> = Promise.resolve();
    const finish = (): void => {
      input.removeListener('data', onData);
      input.removeListener('end', finish);
      input.destroy();
      resolve(ExitCode.success);
    };
    const onData = readFrames((f) => {
      if ('bad' in f) void log.say(`txray: dap: ${f.bad}`);
      // Answered out of turn: a launch still loading does not hold up the end.
      if ('message' in f && isDisconnect(f.message)) {
        void session.handle(f).then(finish);
        return;
      }
      queue = queue.then(() => session.handle(f)).catch((e: unknown) => log.say(`txray: dap: ${escapeShort(errorMessage(e), 300)}`));
    });
    input.on('data', onData);
    input.once('end', finish);
  });
}
