/** What a run says on stderr: every line scrubbed of its secrets; --debug's lines with the time since the start. */
import { nowMs } from '../rpc/createRpcClient.js';
import { scrub } from '../rpc/redactUrl.js';
import type { SafeWriter } from './io.js';

export class RunLog {
  /** The URL's credentials, the headers' values, a proxy's credentials: known once the options are read. */
  secrets: string[] = [];
  private readonly started = nowMs();

  constructor(
    private readonly err: SafeWriter,
    /** --debug, as the command line's parse says (also when it failed), then the options. */
    public debugOn: boolean,
  ) {}

  /** One line on stderr, secrets scrubbed. */
  say(line: string): Promise<void> {
    return this.err.write(`${this.scrubbed(line)}\n`);
  }

  /** Text as it is, for the progress line (it holds no secret). */
  write(text: string): Promise<void> {
    return this.err.write(text);
  }

  debug(line: string): void {
    void this.say(`txray: debug: ${line}`);
  }

  scrubbed(text: string): string {
    return scrub(text, this.secrets);
  }

  elapsed(): string {
    return `${Math.round(nowMs() - this.started)} ms (${Math.round(process.memoryUsage.rss() / 2 ** 20)} MB resident)`;
  }
}
