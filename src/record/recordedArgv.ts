/**
 * The command line as a recording keeps it: without the node's URL (the recording names it by scheme,
 * host and port), without -H's values (secrets), without --record itself, and without what was read from
 * disk through options (--abi, --labels, --labels-file: the recording holds what they gave). A service's
 * URL keeps no key in its query (`--etherscan-url …?apikey=…`).
 */
import { answerKeys } from './answerKeys.js';
import { withoutOptions } from './withoutOptions.js';

const FLAGS = new Set(['--no-project-abis']);
const VALUED = new Set(['--record', '-H', '--header', '-r', '--rpc-url', '--abi', '--labels', '--labels-file']);
const SERVICES = new Set(['--sourcify-url', '--signatures-url', '--etherscan-url']);

/** The URL without a key in its query; as given where its query has none (or it is no URL: parseOptions says so). */
function keyless(text: string): string {
  try {
    const url = new URL(text);
    return url.search === '' ? text : answerKeys.http(url);
  } catch {
    return text;
  }
}

export function recordedArgv(argv: readonly string[]): string[] {
  const kept = withoutOptions(argv, FLAGS, VALUED);
  return kept.map((word, i) => {
    const [name, value] = word.split(/=(.*)/s);
    if (value !== undefined && SERVICES.has(name!)) return `${name}=${keyless(value)}`;
    return i > 0 && SERVICES.has(kept[i - 1]!) ? keyless(word) : word;
  });
}
