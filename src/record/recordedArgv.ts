/**
 * The command line as a recording keeps it: without the node's URL (the recording names it by scheme,
 * host and port), without -H's values (secrets), without --record itself, and without what was read from
 * disk through options (--abi, --labels, --labels-file: the recording holds what they gave). A service's
 * URL keeps no key in its query (`--etherscan-url …?apikey=…`). An --override-code that named a file or a
 * project contract is kept as the code the run used (the file and the project may be gone where it replays).
 */
import { answerKeys } from './answerKeys.js';
import { type CommandWords, type GivenOption, wordsOf } from './commandWords.js';

/** By their long flags: -r and -H are --rpc-url's and --header's. */
const DROPPED = new Set(['--record', '--header', '--rpc-url', '--abi', '--labels', '--labels-file', '--no-project-abis']);
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

/** An option as the recording keeps it. */
function kept({ flag, value }: GivenOption, codeAt: (address: string) => string | undefined): GivenOption {
  if (value === undefined) return { flag };
  if (SERVICES.has(flag)) return { flag, value: keyless(value) };
  return { flag, value: flag === '--override-code' ? usedCode(value, codeAt) : value };
}

/** `words`: the command line as commander read it; `codeAt`: the code an --override-code set at an address (lower case), once the run resolved it. */
export function recordedArgv(words: CommandWords, codeAt: (address: string) => string | undefined = () => undefined): string[] {
  return wordsOf({ ...words, options: words.options.filter((o) => !DROPPED.has(o.flag)).map((o) => kept(o, codeAt)) });
}
