/**
 * The debugger's step log: every step of one transaction's run in txray's EVM (a StepLog), and what
 * each frame the steps ran in is (its contract and function where an artifact names them, its source
 * map where one matched). The screen, the keys and `--at` are pure views of it and a cursor.
 */
import type { StepLog } from '../evm/stepLog.js';
import type { CodeDebug, MapTable, SourceTable } from '../locate/sourceMap.js';
import type { InternalItem } from '../model/types.js';

/** A frame's code with its matched source map: each pc's instruction index, and the map's entries. */
export interface FrameSource {
  readonly index: Int32Array;
  readonly map: MapTable;
  readonly sources: SourceTable;
  /** The artifact's map and files as matched (what internalCallsOf reads). */
  readonly debug: CodeDebug;
}

export interface DebugFrame {
  readonly traceAddress: readonly number[];
  /** The call's kind as the EVM made it (call, staticcall, delegatecall, callcode, create, create2). */
  readonly kind: string;
  /** The account whose code ran (a create's new address; null where a create failed). */
  readonly codeAddress: string | null;
  /** The account whose storage the frame reads and writes (a delegatecall's caller). */
  readonly storageAddress: string | null;
  /** The matched artifact's name, or null. */
  readonly contract: string | null;
  /** The function the matched artifact's ABI names for the input's selector (`constructor` for a create), or null. */
  readonly function: string | null;
  /** The input's first four bytes, where it has them. */
  readonly selector: string | null;
  readonly error: string | null;
  /** The frame it was called from (index into the step log's frames), null for the top one. */
  readonly parent: number | null;
  /** Its first and last step (last < first where it ran none). */
  readonly first: number;
  readonly last: number;
  readonly source: FrameSource | null;
  /** What the lookup calls the frame where no artifact matched: its account's label and its function by any loaded ABI (absent: not asked). */
  readonly lookup?: { readonly label: string | null; readonly function: string | null };
  /** The code that ran (for the opcode listing where no map matched), or null where it is not known. */
  readonly code: Uint8Array | null;
}

export interface DebugStepLog {
  readonly steps: StepLog;
  readonly frames: readonly DebugFrame[];
  /** The step where the failure began (the failing frame's last step; in a transaction that did not fail, a failed user operation's, Safe transaction's or batch call's), or null where nothing failed. */
  readonly failure: number | null;
  /** Where each failure began, in step order: the failure's, and each caught call's (a failed call whose caller went on or reverted with other data). */
  readonly failures: readonly number[];
  /** Every step's line (lineTable.ts). */
  readonly lines: LineTable;
  /** The frames' internal function calls, where known (internalTable.ts). */
  readonly internal: InternalTable;
}

/** By frame: its internal calls with step indexes as positions (empty: it made none; null: not known); by step: how many are open, its callers' included. */
export interface InternalTable {
  readonly calls: ReadonlyArray<readonly InternalItem[] | null>;
  readonly open: Int32Array;
}

/** Each step's line as a number (-1: no place), the same for the same frame, file and line; and each number's place. */
export interface LineTable {
  readonly ids: Int32Array;
  readonly places: readonly SourcePlace[];
}

/** Where the cursor is and what the screen shows beside it. */
export interface Cursor {
  /** 0-based. */
  readonly step: number;
  /** Breakpoints as `file:line` (the file as the compiler named it). */
  readonly breakpoints: ReadonlySet<string>;
  /** The help is open; or a `:` command being typed (null: none). */
  readonly help: boolean;
  readonly command: string | null;
  /** A one-line message under the panes (what a command did, why a key did nothing). */
  readonly message: string | null;
  readonly quit: boolean;
  /** Ended by Ctrl-C (exit 130, as an interrupted run), not by q. */
  readonly interrupted?: boolean;
}

/** A place in the source: the file as the compiler named it, a 1-based line. */
export interface SourcePlace {
  readonly file: string;
  readonly line: number;
  /** The compilation's id of the file (the frame's source table reads it). */
  readonly id: number;
}
