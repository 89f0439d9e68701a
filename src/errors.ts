/**
 * Every failure txray reports on purpose is one of these classes; main maps them to exit codes.
 * Messages are complete sentences that say what happened and what to do; they never contain
 * a URL's credentials or path (see rpc/redactUrl.ts) nor header values.
 */

/** Bad command line: exit 2, raised before any network call. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** A bare function name several loaded functions fit (exit 2 unless the target's own ABI tells which). */
export class AmbiguousFunction extends UsageError {}

export type RpcFailureKind =
  | 'unreachable'
  | 'timeout'
  | 'http'
  | 'rate-limited'
  | 'not-json'
  | 'too-large'
  | 'protocol'
  | 'rpc-error'
  | 'malformed';

/** The node could not be asked or answered badly: exit 5. */
export class RpcFailure extends Error {
  override readonly name = 'RpcFailure';
  constructor(
    readonly kind: RpcFailureKind,
    message: string,
    options?: { cause?: unknown; rpcCode?: number; method?: string; data?: string },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.rpcCode = options?.rpcCode;
    this.method = options?.method;
    this.data = options?.data;
  }
  readonly rpcCode: number | undefined;
  readonly method: string | undefined;
  /** The error's `data` when it is hex (eth_call's revert data), else undefined. */
  readonly data: string | undefined;
}

/** The node does not know what was asked for (`txray block`: the block): exit 3. */
export class NotFound extends Error {
  override readonly name = 'NotFound';
}

/** The run was interrupted (SIGINT): exit 130, nothing printed. */
export class Interrupted extends Error {
  override readonly name = 'Interrupted';
}
