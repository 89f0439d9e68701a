/** The documented exit codes, in one place (README "Exit codes", --help). */
export const ExitCode = {
  success: 0,
  reverted: 1,
  usage: 2,
  notFound: 3,
  pending: 4,
  rpcFailure: 5,
  partial: 6,
  internal: 70,
  interrupted: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/**
 * Several hashes give one code: the most severe of theirs. By number, except partial (6): a success whose
 * operation failed is less severe than a reverted transaction or a node that could not answer.
 */
export function worstExitCode(codes: readonly number[]): number {
  const rank = (code: number): number => (code === ExitCode.partial ? 0.5 : code);
  return codes.reduce((worst, code) => (rank(code) > rank(worst) ? code : worst), 0);
}

export const exitCodeHelp = `Exit codes:
  0    success: the transaction was mined and succeeded
  1    the transaction reverted (receipt status 0x0)
  2    usage error (bad hash, URL or option)
  3    not found: the node does not know the transaction
  4    pending: known to the node, no receipt yet (or succeeded with fewer --confirmations than asked)
  5    node or RPC failure (unreachable, timeout, HTTP error, JSON-RPC error, malformed answer)
  6    partial: the transaction succeeded, but a user operation or Safe transaction it carried failed
       (a failure the caller allowed, as Multicall3's allowFailure, is not partial)
  70   internal error in txray (please report it)
  130  interrupted (Ctrl-C)`;

export const callExitCodeHelp = `Exit codes:
  0    the call would succeed
  1    the call would revert (the reason decoded as for a mined transaction)
  2    usage error (bad address, signature, argument, amount, override or raw transaction), before any request
  3    --tx: the node does not know the transaction
  5    the node could not run it (insufficient funds, nonce, unsupported method, unreachable, …)
  6    the call would succeed, but a user operation or Safe transaction it carries would fail
  70   internal error in txray (please report it)
  130  interrupted (Ctrl-C)`;

export const blockExitCodeHelp = `Exit codes:
  0    the block was read (transactions that reverted inside it do not change that)
  2    usage error (a bad block id, URL or option), before any request
  3    not found: the node does not know the block
  5    node or RPC failure (unreachable, timeout, HTTP error, JSON-RPC error, malformed answer)
  70   internal error in txray (please report it)
  130  interrupted (Ctrl-C)`;
