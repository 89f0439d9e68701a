/**
 * The editor's debugger, as the Debug Adapter Protocol says it: what a launch names, what the adapter
 * debugs once it is loaded (the same step log as the terminal's view), and the messages it sends.
 */
import type { Artifact } from '../decode/abiIndex.js';
import type { DebugStepLog } from '../debug/types.js';

/** `launch`'s arguments (each checked: a client's JSON is hostile). */
export interface LaunchArgs {
  readonly hash?: string;
  /** A URL or a foundry.toml alias; the command line's (or its default) where absent. */
  readonly rpcUrl?: string;
  /** The project whose artifacts and sources are used; the adapter's working directory where absent. */
  readonly cwd?: string;
  readonly stopOnEntry?: boolean;
}

/** What a session debugs: a transaction's (or a call's) step log and where its files are. */
export interface DebugTarget {
  readonly rec: DebugStepLog;
  /** The thread's name: `transaction 0x…`, `the call`. */
  readonly what: string;
  readonly warnings: readonly string[];
  /** The project's folder: the compiler's paths are relative to it. */
  readonly cwd: string;
  /** The artifacts loaded (their storage layouts name state variables). */
  readonly artifacts: readonly Artifact[];
}

/** Loads a launch's target; rejects with an Error whose message is one line for the user. */
export type LoadTarget = (args: LaunchArgs) => Promise<DebugTarget>;

/** A message the adapter sends: a response or an event, numbered by the session. */
export type DapMessage =
  | { readonly seq: number; readonly type: 'response'; readonly request_seq: number; readonly command: string; readonly success: boolean; readonly message?: string; readonly body?: object }
  | { readonly seq: number; readonly type: 'event'; readonly event: string; readonly body?: object };

/** A variable as the protocol shows it (the adapter's are leaves: no children). */
export interface DapVariable {
  readonly name: string;
  readonly value: string;
  readonly type?: string;
  readonly variablesReference: 0;
}
