/**
 * A Debug Adapter Protocol client for the tests: spawns the built bin (`txray debug … --dap`), frames
 * requests (`Content-Length`), reads the adapter's stdout with a framing reader of its own (not the
 * adapter's), and waits for a response or an event with a generous deadline that fails naming what it
 * waited for and what came instead — never a timing assertion.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { BIN, txrayEnv } from './runTxray.js';

export interface DapResponse {
  readonly seq: number;
  readonly type: 'response';
  readonly request_seq: number;
  readonly command: string;
  readonly success: boolean;
  readonly message?: string;
  readonly body?: any;
}

export interface DapEvent {
  readonly seq: number;
  readonly type: 'event';
  readonly event: string;
  readonly body?: any;
}

type Message = DapResponse | DapEvent;

/** How long a wait may take on a busy machine before the test fails saying what never came. */
const WAIT_MS = 60_000;

export class DapClient {
  readonly messages: Message[] = [];
  stderr = '';
  /** Bytes on stdout that are not a framed message (there must be none). */
  stray = '';
  readonly exited: Promise<{ readonly code: number | null; readonly signal: NodeJS.Signals | null }>;
  private readonly child: ChildProcessWithoutNullStreams;
  private buf = Buffer.alloc(0);
  private seq = 1;
  private read = 0;
  private waiters: Array<() => void> = [];

  constructor(args: readonly string[], cwd: string) {
    this.child = spawn(process.execPath, [BIN, ...args], { env: txrayEnv(), stdio: ['pipe', 'pipe', 'pipe'], cwd });
    this.child.stdout.on('data', (d: Buffer) => this.onData(d));
    this.child.stderr.setEncoding('utf8').on('data', (d: string) => (this.stderr += d));
    this.child.stdin.on('error', () => undefined);
    this.exited = new Promise((resolve) => this.child.on('close', (code, signal) => resolve({ code, signal })));
  }

  private onData(d: Buffer): void {
    this.buf = Buffer.concat([this.buf, d]);
    for (;;) {
      const text = this.buf.toString('latin1');
      const m = /^Content-Length: (\d+)\r\n\r\n/.exec(text);
      if (m === null) {
        const header = 'Content-Length: ';
        if (!text.startsWith(header) && !header.startsWith(text)) {
          this.stray += text;
          this.buf = Buffer.alloc(0);
        }
        break;
      }
      const start = m[0].length;
      const n = Number(m[1]);
      if (this.buf.length < start + n) break;
      this.messages.push(JSON.parse(this.buf.subarray(start, start + n).toString('utf8')));
      this.buf = this.buf.subarray(start + n);
    }
    for (const w of this.waiters.splice(0)) w();
  }

  /** Bytes as they are, to the adapter's stdin. */
  write(raw: string | Buffer): void {
    this.child.stdin.write(raw);
  }

  /** A request framed and sent; its seq. */
  send(command: string, args?: object): number {
    const seq = this.seq++;
    const json = JSON.stringify({ seq, type: 'request', command, ...(args === undefined ? {} : { arguments: args }) });
    this.write(`Content-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`);
    return seq;
  }

  /** The first message from the `from`-th on that fits, waited for. */
  async waitFor<M extends Message>(what: string, fits: (m: Message) => m is M, from = 0): Promise<M> {
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const found = this.messages.slice(from).find(fits);
      if (found !== undefined) return found;
      if (Date.now() > deadline || this.child.exitCode !== null) throw new Error(`the adapter never sent ${what}; it sent:\n${this.messages.map((m) => JSON.stringify(m).slice(0, 300)).join('\n')}\nstderr:\n${this.stderr}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 1000);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** A request sent and its response (success or not). */
  async request(command: string, args?: object): Promise<DapResponse> {
    const seq = this.send(command, args);
    return this.waitFor(`the response to ${command} (${seq})`, (m): m is DapResponse => m.type === 'response' && m.request_seq === seq);
  }

  /** The next `event` after those already taken by nextEvent. */
  async nextEvent(event: string): Promise<DapEvent> {
    const found = await this.waitFor(`the event ${event}`, (m): m is DapEvent => m.type === 'event' && m.event === event && this.messages.indexOf(m) >= this.read, 0);
    this.read = this.messages.indexOf(found) + 1;
    return found;
  }

  /** A request that moves the cursor, and the stopped (or terminated) event after its response. */
  async move(command: string, args: object = { threadId: 1 }): Promise<DapEvent> {
    const r = await this.request(command, args);
    if (!r.success) throw new Error(`${command} failed: ${r.message}`);
    const after = this.messages.indexOf(r);
    const e = await this.waitFor(`stopped or terminated after ${command}`, (m): m is DapEvent => m.type === 'event' && (m.event === 'stopped' || m.event === 'terminated'), after);
    this.read = this.messages.indexOf(e) + 1;
    return e;
  }

  /** stdin closed, as an editor that went away closes it. */
  end(): void {
    this.child.stdin.end();
  }

  kill(): void {
    if (this.child.exitCode === null) this.child.kill();
  }
}
