/**
 * The command line as a recording keeps it: without the node's URL (the recording names it by scheme,
 * host and port), without -H's values (secrets), without --record itself, and without what was read from
 * disk through options (--abi, --labels, --labels-file: the recording holds what they gave). A service's
 * URL keeps no key in its query (`--etherscan-url …?apikey=…`). An --override-code that named a file or a
 * project contract is kept as the code the run used (the file and the project may be gone where it replays).
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

/** `<addr>:<code>` with the code the run used at that address where it was not given as hex. */
function usedCode(value: string, codeAt: (address: string) => string | undefined): string {
  const at = value.indexOf(':');
  if (at < 0 || /^0x/i.test(value.slice(at + 1).trim())) return value;
  const code = codeAt(value.slice(0, at).trim().toLowerCase());
  return code === undefined ? value : `${value.slice(0, at)}:${code}`;
}

/** `codeAt`: the code an --override-code set at an address (lower case), once the run resolved it. */
export function recordedArgv(argv: readonly string[], codeAt: (address: string) => string | undefined = () => undefined): string[] {
  const kept = withoutOptions(argv, FLAGS, VALUED);
  return kept.map((word, i) => {
    const [name = '', value] = word.split(/=(.*)/s);
    if (value !== undefined && SERVICES.has(name)) return `${name}=${keyless(value)}`;
    if (value !== undefined && name === '--override-code') return `${name}=${usedCode(value, codeAt)}`;
    if (i > 0 && kept[i - 1] === '--override-code') return usedCode(word, codeAt);
    return i > 0 && SERVICES.has(kept[i - 1] ?? '') ? keyless(word) : word;
  });
}
