/**
 * The command line as a recording keeps it: without the node's URL (the recording names it by scheme,
 * host and port), without -H's values (secrets), without --record itself, and without what was read from
 * disk through options (--abi, --labels, --labels-file: the recording holds what they gave).
 */
import { withoutOptions } from './withoutOptions.js';

const FLAGS = new Set(['--no-project-abis']);
const VALUED = new Set(['--record', '-H', '--header', '-r', '--rpc-url', '--abi', '--labels', '--labels-file']);

export function recordedArgv(argv: readonly string[]): string[] {
  return withoutOptions(argv, FLAGS, VALUED);
}
