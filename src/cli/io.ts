/** Output plumbing: chunked writes that respect backpressure and end quietly on a closed pipe. */
import type { TerminalIo } from './terminal.js';

export interface OutStream {
  write(chunk: string): boolean;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  removeListener(event: string, listener: (...args: unknown[]) => void): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
  readonly writableEnded?: boolean;
}

export interface Io {
  readonly stdout: OutStream;
  readonly stderr: OutStream;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Aborted on SIGINT. */
  readonly interrupt?: AbortSignal;
  /** All of stdin as text (for "txray -"). */
  readonly readStdin?: () => Promise<string>;
  /** Where the project's ABIs are looked for (the working directory). */
  readonly cwd?: string;
  /** The sharded signature database shipped beside the bundle. */
  readonly sigdb?: URL;
  /** What became of the bundle's V8 code cache (used, rejected, absent), for --debug. */
  readonly codeCache?: string;
  /** The terminal, for `txray debug`'s full-screen view (process.stdin and process.stdout). */
  readonly terminal?: TerminalIo;
}

/** Tracks whether a stream has failed (EPIPE from `| head`, a closed terminal). */
export class SafeWriter {
  private broken = false;
  constructor(private readonly stream: OutStream) {
    // Without a listener an EPIPE becomes an uncaught exception with a stack trace.
    stream.on('error', () => {
      this.broken = true;
    });
  }

  get failed(): boolean {
    return this.broken;
  }

  /** Write chunks, batching small ones and waiting for 'drain' when the stream asks. */
  async writeAll(chunks: Iterable<string>, batch = 1 << 16): Promise<void> {
    let buf = '';
    for (const chunk of chunks) {
      if (this.broken) return;
      buf += chunk;
      if (buf.length >= batch) {
        await this.write(buf);
        buf = '';
      }
    }
    if (buf !== '') await this.write(buf);
  }

  async write(text: string): Promise<void> {
    if (this.broken) return;
    let ok: boolean;
    try {
      ok = this.stream.write(text);
    } catch {
      this.broken = true;
      return;
    }
    if (!ok && !this.broken) await this.drained();
  }

  /**
   * Resolves on 'drain', or on the 'error' or 'close' that a dead pipe sends instead, and removes its
   * listeners. Plain listeners, because an aborted events.once() throws AbortErrors with stack traces
   * at every wait, and a large output waits hundreds of times (docs/speed.md).
   */
  private drained(): Promise<void> {
    const stream = this.stream;
    return new Promise((resolve) => {
      const done = (): void => {
        stream.removeListener('drain', done);
        stream.removeListener('error', done);
        stream.removeListener('close', done);
        resolve();
      };
      stream.on('drain', done);
      stream.on('error', done);
      stream.on('close', done);
    });
  }
}
