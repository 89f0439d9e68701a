/**
 * A recording (docs/record.md): everything one run read, so that `txray replay` runs it again from the
 * file alone. Answers are kept by what was asked (a JSON-RPC method and its params; an online service's
 * URL without its key), never by batch: batches group differently from run to run.
 */
import type { Artifact } from '../decode/abiIndex.js';
import type { RpcFailureKind } from '../errors.js';

/** The first field of every recording, and the one version this txray reads and writes. */
export const RECORDING_FORMAT = 'txray-recording';
export const RECORDING_VERSION = 1;

/**
 * One answer of the node to one request: its result (`r`), its error inside a batch answer (`e`), or the
 * failure the request met (`f`: an error the node answered, or a transport failure said as txray says it).
 */
export type RpcAnswer =
  | { readonly r: unknown }
  | { readonly e: string }
  | { readonly f: { readonly kind: RpcFailureKind; readonly message: string; readonly code?: number; readonly data?: string } };

/** An online service's answer to one GET: its status, its body as JSON (null where it was not JSON), its Retry-After. */
export interface HttpRecord {
  readonly status: number;
  readonly json: unknown;
  readonly retryAfterMs: number | null;
}

/** A source file of a compilation as the run read it: its text, or that it was edited since the build (no text). */
export type RecordedFile = { readonly path: string; readonly text: string } | { readonly path: string; readonly base64: string } | { readonly path: string; readonly edited: true };

/** What locating read of one code: its map, whether via IR, its table's size, and the files asked for (by id; null: none to be had). */
export interface RecordedSourceMap {
  readonly map: string;
  readonly viaIR: boolean;
  readonly count: number;
  readonly files: Readonly<Record<string, RecordedFile | null>>;
  /** --internal: each file's AST as far as it reads one (astOutline.ts), by id; null: the build kept none. */
  readonly asts?: Readonly<Record<string, unknown>>;
}

/** An artifact's source maps (runtime and creation) as far as the run read them: absent where never asked, null where there was none. (The field is `debug`, as in the artifact and in the file's format.) */
export interface RecordedSourceMaps {
  readonly runtime?: RecordedSourceMap | null;
  readonly creation?: RecordedSourceMap | null;
}

/** An artifact read from disk (--abi, the project), as the decoder took it; its source maps as far as the run read them. */
export type RecordedArtifact = Omit<Artifact, 'debug'> & { readonly debug?: RecordedSourceMaps };

/** What the decoder read from disk: the artifacts, and the labels of --labels-file then --labels (address, name). */
export interface DiskParts {
  readonly artifacts: readonly RecordedArtifact[];
  readonly labels: ReadonlyArray<readonly [string, string]>;
}

export interface Recording {
  readonly format: typeof RECORDING_FORMAT;
  readonly version: typeof RECORDING_VERSION;
  /** The txray that recorded it. */
  readonly txray: string;
  /** ISO 8601, UTC. */
  readonly recorded: string;
  /** The node as --debug names it: scheme, host and port. */
  readonly endpoint: string;
  readonly chainId: number | null;
  /** The command line without secrets (see recordedArgv), and what stdin held for `-`. */
  readonly argv: readonly string[];
  readonly stdin: string | null;
  /** What the run was made with that its answers depend on. */
  readonly made: { readonly state: boolean; readonly online: boolean; readonly etherscan: boolean };
  /** [method and params as JSON, the answers in the order they came]. */
  readonly rpc: ReadonlyArray<readonly [string, readonly RpcAnswer[]]>;
  /** [the URL without its key, the answers in the order they came]. */
  readonly http: ReadonlyArray<readonly [string, readonly HttpRecord[]]>;
  readonly disk: DiskParts | null;
}

/** What the run says of itself; the rest of a recording is what the seams noted. */
export type RecordingMeta = Omit<Recording, 'rpc' | 'http' | 'disk' | 'chainId'>;
