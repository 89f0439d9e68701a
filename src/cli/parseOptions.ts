/**
 * From command-line words to checked options. Everything here runs before any network call, and
 * every failure is a UsageError (exit 2) whose message never repeats a URL or a header value.
 */
import { accessSync, constants, type Stats, statSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { UsageError } from '../errors.js';
import type { Hex } from '../raw/types.js';
import { escapeShort } from '../raw/escape.js';
import { cacheDirOf } from '../rpc/diskCache.js';
import type { OnlineSettings } from '../rpc/fetchOnline.js';
import { proxySettingsOf, type ProxySettings } from '../rpc/proxy.js';
import type { FoundryEndpoints } from './foundryEndpoints.js';
import type { TracerMode } from '../rpc/types.js';
import type { CallInput } from '../pipeline/planCall.js';
import type { Lookup } from '../pipeline/runPipeline.js';
import { parseCall, type RawCallOptions } from './parseCall.js';
import { parseBlockId } from './parseBlockId.js';
import type { BlockId } from '../sources/fetchBlock.js';

export interface RawCliOptions {
  readonly rpcUrl?: string;
  readonly json?: boolean;
  readonly color?: boolean;
  readonly timeout?: string;
  readonly header?: readonly string[];
  readonly maxResponseMb?: string;
  readonly debug?: boolean;
  readonly tracer?: string;
  readonly full?: boolean;
  readonly quiet?: boolean;
  readonly concurrency?: string;
  /** --wait alone is `true`; --wait 30 is "30". */
  readonly wait?: string | boolean;
  readonly confirmations?: string;
  readonly abi?: readonly string[];
  /** --no-project-abis sets this to false. */
  readonly projectAbis?: boolean;
  readonly labels?: readonly string[];
  readonly labelsFile?: string;
  readonly as?: string;
  readonly state?: boolean;
  readonly gas?: boolean;
  readonly gasOut?: string;
  readonly internal?: boolean;
  readonly storage?: boolean;
  readonly withStateChanges?: boolean;
  readonly html?: string;
  readonly online?: boolean;
  readonly sourcifyUrl?: string;
  readonly signaturesUrl?: string;
  readonly etherscanUrl?: string;
  /** --record: read by main (src/record/), not a setting of the run. */
  readonly record?: string;
}

/** One hash to inspect, as given (`text`): the pipeline's lookup of it where it parsed, else the usage error it earned. */
export type Input = (Extract<Lookup, { readonly kind: 'hash' }> & { readonly text: string }) | { readonly text: string; readonly error: UsageError };

/** What stdout shows, chosen once: the text view, the --json document, or the page (--html -). --quiet silences the first two. */
export type View = 'text' | 'json' | 'html';

/** What a run shows, with what only it takes: hashes to look up, a call to simulate, or a block. */
export type Command =
  | { readonly kind: 'lookup'; readonly inputs: readonly Input[] }
  | { readonly kind: 'call'; readonly call: CallInput }
  | { readonly kind: 'block'; readonly block: BlockId };

export interface InspectOptions {
  readonly command: Command;
  readonly url: URL;
  readonly view: View;
  readonly color: boolean | undefined;
  readonly timeoutMs: number;
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly maxResponseBytes: number;
  readonly debug: boolean;
  readonly tracer: TracerMode;
  /** Text with several hashes: the whole view for each instead of the summary table. */
  readonly full: boolean;
  /** Nothing on stdout; the exit code (and stderr) only. */
  readonly quiet: boolean;
  readonly concurrency: number;
  /** --wait: how long to poll for a pending or unknown transaction (null: do not wait). */
  readonly waitMs: number | null;
  /** --confirmations: blocks wanted on top of the transaction's block. */
  readonly confirmations: number;
  readonly abiPaths: readonly string[];
  readonly projectAbis: boolean;
  readonly labels: readonly string[];
  readonly labelsFile: string | undefined;
  /** --as: whose view the action takes (lower case). */
  readonly actor: Hex | undefined;
  /** --state: balance, storage and account changes from the node's state diff. */
  readonly state: boolean;
  /** --gas: the gas profile table after the call tree. */
  readonly gas: boolean;
  /** --internal: each call's internal function calls, from a local run. */
  readonly internal: boolean;
  /** --storage (--with-state-changes): each call's storage reads and writes, from a local run. */
  readonly storage: boolean;
  /** --gas-out: where to write the folded stacks (checked: a regular file, or a new one in a writable folder). */
  readonly gasOut: string | undefined;
  /**
   * --html: '-' (the page on stdout instead of the text view), a file (one hash), or a folder (several:
   * one page per hash and index.html); checked before any request.
   */
  readonly html: string | undefined;
  /** --online (or TXRAY_ONLINE=1): the services to ask and the cache; null: nothing but the node is asked. */
  readonly online: OnlineSettings | null;
  /** No --rpc-url and no ETH_RPC_URL: the url is DEFAULT_RPC_URL (and an unreachable node says so). */
  readonly defaultEndpoint: boolean;
  /** HTTP_PROXY, HTTPS_PROXY, NO_PROXY (and lower case): for every request, to the node and to the services. */
  readonly proxy: ProxySettings;
}

export const DEFAULT_TIMEOUT_S = 30;
export const DEFAULT_MAX_RESPONSE_MB = 256;
export const DEFAULT_CONCURRENCY = 8;
export const DEFAULT_WAIT_S = 120;

export function parseHash(input: string): Hex {
  const s = input.trim();
  if (s === '') throw new UsageError('the transaction hash is empty; expected 0x followed by 64 hex digits.');
  const body = /^0x/i.test(s) ? s.slice(2) : s;
  const shown = escapeShort(s, 80);
  if (!/^[0-9a-fA-F]*$/.test(body)) {
    throw new UsageError(`'${shown}' is not a transaction hash: it holds characters other than hex digits (expected 0x and 64 hex digits).`);
  }
  // An address pasted where the hash goes (a contract from a deploy's output): say what it is and what reads it.
  if (body.length === 40) throw new UsageError(`'${shown}' is not a transaction hash: that is an address (40 hex digits); to simulate a call to it: txray call 0x${body} <signature> [arguments...].`);
  if (body.length !== 64) {
    throw new UsageError(`'${shown}' is not a transaction hash: it has ${body.length} hex digits, a hash has 64.`);
  }
  return `0x${body.toLowerCase()}`;
}

/** cast's and anvil's port, where a user running a local node has it: the endpoint when none is named. */
export const DEFAULT_RPC_URL = 'http://localhost:8545';

/** A value that names an endpoint of foundry.toml rather than a URL: a word (no scheme, dot or colon). */
export const looksLikeAlias = (value: string | undefined): value is string => value !== undefined && /^[A-Za-z0-9_-]{1,64}$/.test(value.trim());

const tableOf = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/**
 * The node: --rpc-url, else ETH_RPC_URL, else the default (isDefault). Either may name an alias of the
 * Foundry project's `[rpc_endpoints]` (`foundry`, read by the caller where the value is a word), whose
 * `${VAR}`s are taken from the environment. The URL an alias resolves to is never shown, like any other.
 */
export function parseEndpoint(
  flag: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  foundry: FoundryEndpoints | null = null,
): { readonly url: URL; readonly isDefault: boolean } {
  const fromFlag = flag !== undefined;
  const text = fromFlag ? flag : env.ETH_RPC_URL;
  const source = fromFlag ? '--rpc-url' : 'ETH_RPC_URL';
  if (!fromFlag && (text === undefined || text.trim() === '')) return { url: new URL(DEFAULT_RPC_URL), isDefault: true };
  // host:port without a scheme (localhost:8545) is http://, as cast and curl take it.
  const hostPort = text !== undefined && /^(localhost|[0-9.]+|\[[0-9a-fA-F:.]+\]|[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+):\d{1,5}(\/\S*)?$/.test(text.trim());
  if (hostPort) return { url: parseRpcUrl(`http://${text.trim()}`, source), isDefault: false };
  if (!looksLikeAlias(text)) return { url: parseRpcUrl(text, source), isDefault: false };
  const alias = text.trim();
  // A word that long may be an API key pasted where the URL belongs: not repeated.
  const shown = alias.length <= 24 ? `'${alias}'` : 'its value (not shown: it may be a key)';
  if (foundry === null) throw new UsageError(`${source} ${shown} is not a URL, and no foundry.toml here or above names it in [rpc_endpoints]; pass http://… or https://….`);
  if (foundry.broken !== undefined) throw new UsageError(`${source} ${shown} is not a URL, and ${foundry.file} ${foundry.broken}, so its [rpc_endpoints] cannot name it.`);
  if (!Object.hasOwn(foundry.endpoints, alias)) {
    const known = Object.keys(foundry.endpoints).filter((k) => looksLikeAlias(k)).slice(0, 12);
    throw new UsageError(`no endpoint ${shown} in foundry.toml [rpc_endpoints] (${foundry.file}); ${known.length > 0 ? `it names ${known.join(', ')}` : 'it names none'}.`);
  }
  const value = foundry.endpoints[alias];
  const written = typeof value === 'string' ? value : (tableOf(value).url ?? tableOf(value).endpoint);
  if (typeof written !== 'string') throw new UsageError(`rpc_endpoints.${alias} in ${foundry.file} is not a URL (a string, or a table with url).`);
  // Foundry's interpolation: ${VAR} anywhere in the value, from the environment; an unset one is an error, as in forge.
  const url = written.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_all, name: string) => {
    const v = env[name];
    if (v === undefined || v.trim() === '') throw new UsageError(`${name} is ${v === undefined ? 'not set' : 'empty'} (used by rpc_endpoints.${alias}).`);
    return v;
  });
  return { url: parseRpcUrl(url, `rpc_endpoints.${alias}`), isDefault: false };
}

export function parseRpcUrl(input: string | undefined, source: string): URL {
  if (input === undefined || input.trim() === '') {
    throw new UsageError(
      source === 'ETH_RPC_URL'
        ? 'no RPC endpoint: pass --rpc-url <url> or set ETH_RPC_URL.'
        : `${source} is empty; pass the node's JSON-RPC URL, e.g. http://127.0.0.1:8545.`,
    );
  }
  const s = input.trim();
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(s)) {
    throw new UsageError(`the RPC URL from ${source} has no scheme; write it as http://… or https://… (e.g. http://127.0.0.1:8545).`);
  }
  let url: URL;
  try {
    url = new URL(s);
  } catch {
    // The text is not repeated: it may hold an API key.
    throw new UsageError(`the RPC URL from ${source} cannot be parsed; check it (it is not shown, in case it holds a key).`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    const hint = url.protocol === 'ws:' || url.protocol === 'wss:' ? ' Use the node\'s HTTP endpoint instead of its WebSocket one.' : '';
    throw new UsageError(`the RPC URL from ${source} uses ${escapeShort(url.protocol, 20)}//; txray speaks JSON-RPC over http:// or https:// only.${hint}`);
  }
  if (url.hostname === '') throw new UsageError(`the RPC URL from ${source} has no host.`);
  return url;
}

export function parseTimeout(input: string | undefined): number {
  if (input === undefined) return DEFAULT_TIMEOUT_S * 1000;
  const n = Number(input.trim());
  if (input.trim() === '' || !Number.isFinite(n) || n <= 0) {
    throw new UsageError(`--timeout takes a positive number of seconds, not '${escapeShort(input, 40)}'.`);
  }
  if (n > 86_400) throw new UsageError('--timeout is at most 86400 seconds (a day).');
  return Math.ceil(n * 1000);
}

export function parseMaxResponse(input: string | undefined): number {
  if (input === undefined) return DEFAULT_MAX_RESPONSE_MB * 1024 * 1024;
  const n = Number(input.trim());
  if (input.trim() === '' || !Number.isFinite(n) || n <= 0) {
    throw new UsageError(`--max-response-mb takes a positive number of MiB, not '${escapeShort(input, 40)}'.`);
  }
  if (n > 4096) throw new UsageError('--max-response-mb is at most 4096.');
  return Math.max(1024, Math.floor(n * 1024 * 1024));
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** "Name: value" → [name, value]. Values are secrets (API keys): never repeated in a message. */
export function parseHeaders(inputs: readonly string[] | undefined): Array<[string, string]> {
  return (inputs ?? []).map((h, i) => {
    const where = `-H header #${i + 1}`;
    const colon = h.indexOf(':');
    if (colon < 0) throw new UsageError(`${where} has no colon; write it as "Name: value" (its text is not shown, in case it is a key).`);
    const name = h.slice(0, colon).trim();
    const value = h.slice(colon + 1).trim();
    if (!TOKEN.test(name)) throw new UsageError(`${where} has no valid header name before the colon; write it as "Name: value".`);
    if (/[\r\n\0]/.test(value)) throw new UsageError(`${where} has a line break or NUL in its value.`);
    return [name, value];
  });
}

export const TRACERS: readonly TracerMode[] = ['auto', 'parity', 'geth', 'local', 'none'];

function parseTracer(input: string | undefined): TracerMode {
  if (input === undefined) return 'auto';
  const mode = TRACERS.find((t) => t === input.trim().toLowerCase());
  if (mode === undefined) throw new UsageError(`--tracer takes auto, parity, geth, local or none, not '${escapeShort(input, 40)}'.`);
  return mode;
}

function wholeNumber(input: string, option: string, min: number, max: number): number {
  const n = Number(input.trim());
  if (input.trim() === '' || !Number.isInteger(n) || n < min || n > max) {
    throw new UsageError(`${option} takes a whole number from ${min} to ${max}, not '${escapeShort(input, 40)}'.`);
  }
  return n;
}

/**
 * A file to write: an existing regular file (overwritten), or a new one in a folder that exists and
 * can be written to. Anything else is a usage error, before any request.
 */
export function parseOutputFile(path: string, option: string): string {
  if (path.trim() === '') throw new UsageError(`${option} needs a file name.`);
  return checkWritable(path, option, 'file', dirname(resolve(path)));
}

/** What a check of a path says instead of its own words, where the path is not the one the user typed. */
interface Wording {
  readonly notKind: string;
  readonly notWritable: string;
}

/**
 * What is at `path` (a file or a folder to write) must be of that kind, or nothing yet inside a
 * writable folder; a usage error otherwise, before any request.
 */
function checkWritable(path: string, option: string, kind: 'file' | 'folder', parent: string, words?: Wording): string {
  const shown = escapeShort(path, 80);
  let st: Stats | undefined;
  try {
    st = statSync(path);
  } catch {
    st = undefined;
  }
  if (st !== undefined && !(kind === 'file' ? st.isFile() : st.isDirectory())) {
    throw new UsageError(words?.notKind ?? (kind === 'file' ? `${option} ${shown}: not a regular file; give a file name to write.` : `${option} ${shown}: with several hashes this is a folder (one page per hash and index.html), and this is not one.`));
  }
  try {
    if (st === undefined && !statSync(parent).isDirectory()) throw new Error('not a folder');
    accessSync(st !== undefined ? path : parent, constants.W_OK);
  } catch {
    const what = kind === 'file' ? (st !== undefined ? 'the file is not writable' : 'its folder does not exist or is not writable') : st !== undefined ? 'the folder is not writable' : 'the folder it would be made in does not exist or is not writable';
    throw new UsageError(words?.notWritable ?? `${option} ${shown}: ${what}.`);
  }
  return path;
}

function parseWait(wait: string | boolean | undefined, confirmations: number): number | null {
  if (wait === undefined || wait === false) return confirmations > 0 ? DEFAULT_WAIT_S * 1000 : null;
  if (wait === true) return DEFAULT_WAIT_S * 1000;
  const n = Number(wait.trim());
  if (wait.trim() === '' || !Number.isFinite(n) || n < 0 || n > 86_400) {
    throw new UsageError(`--wait takes a number of seconds from 0 to 86400, not '${escapeShort(wait, 40)}'.`);
  }
  return Math.ceil(n * 1000);
}

/**
 * Hashes from stdin ("txray -"): one per line; blank lines and # comments skipped; whitespace trimmed.
 */
function hashesFromText(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter((line) => line !== '');
}

/**
 * The inputs in order: words from the command line, with "-" standing for the lines of stdin. One
 * input that is not a hash is a usage error (exit 2, before any request); in a longer list it becomes
 * that entry's error and the others are still inspected.
 */
function parseInputs(words: readonly string[], stdin: string | undefined): Input[] {
  const texts = words.flatMap((w) => (w === '-' ? hashesFromText(stdin ?? '') : [w]));
  if (texts.length === 0) {
    throw new UsageError(words.includes('-') ? 'no transaction hash on stdin (one per line; blank lines and # comments are skipped).' : 'missing the transaction hash; see txray --help.');
  }
  const [only] = texts;
  if (texts.length === 1 && only !== undefined) return [{ kind: 'hash', text: only, hash: parseHash(only) }];
  return texts.map((text) => {
    try {
      return { kind: 'hash' as const, text, hash: parseHash(text) };
    } catch (err) {
      if (err instanceof UsageError) return { text, error: err };
      throw err;
    }
  });
}

/** A folder to write pages into: an existing writable folder, or a new one inside one. */
function parseOutputDir(path: string, option: string): string {
  return checkWritable(path, option, 'folder', dirname(resolve(path)));
}

/** `txray block --html block.html`: the transactions' pages go into this folder beside the file (block-transactions). */
export function blockPagesFolder(file: string): string {
  return join(dirname(file), `${basename(file, extname(file))}-transactions`);
}

/**
 * `txray block --html`: '-' (the block's page on stdout, in place of the text view), or a file to write
 * with the folder for the transactions' pages beside it; both checked before any request.
 */
function parseBlockHtml(raw: RawCliOptions): string | undefined {
  if (raw.html === undefined) return undefined;
  if (raw.html === '-') {
    if (raw.json === true) throw new UsageError("--html - writes the block's page to stdout in place of the text view: it takes no --json (give a file instead).");
    return '-';
  }
  const file = parseOutputFile(raw.html, '--html');
  const folder = blockPagesFolder(file);
  // The file's own folder was found writable above, so a folder not there yet can be made.
  const beside = `--html ${escapeShort(file, 80)}: the transactions' pages go in the folder ${escapeShort(folder, 80)} beside it, and`;
  checkWritable(folder, '--html', 'folder', dirname(resolve(file)), { notKind: `${beside} that is not a folder.`, notWritable: `${beside} it is not writable.` });
  return file;
}

function parseHtml(raw: RawCliOptions, count: number): string | undefined {
  if (raw.html === undefined) return undefined;
  if (raw.html === '-') {
    if (count !== 1 || raw.json === true) throw new UsageError('--html - writes one page to stdout in place of the text view: it takes one hash and no --json (give a file or a folder instead).');
    return '-';
  }
  return count === 1 ? parseOutputFile(raw.html, '--html') : parseOutputDir(raw.html, '--html');
}

/** What a front door's options are made from: its words and options as parsed, and what they may need read first. */
export interface OptionsSource {
  /** The lookup's hashes as given ("-": the lines of `stdin`). */
  readonly hashes?: readonly string[];
  readonly options: RawCliOptions;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdin?: string;
  /** `txray call`: its words and options (the lookup-only options are then absent). */
  readonly call?: { readonly words: readonly string[]; readonly options: RawCallOptions };
  /** The Foundry project's endpoints, where --rpc-url (or ETH_RPC_URL) is a word (see looksLikeAlias). */
  readonly foundry?: FoundryEndpoints | null;
  /** `txray block`: its argument as typed. */
  readonly block?: string;
}

/** A lookup's options, `txray call`'s, or `txray block`'s: by what the source holds. */
export function parseOptions(source: OptionsSource): InspectOptions {
  const { hashes: words = [], options: raw, env, stdin, call, foundry = null, block: blockText } = source;
  const endpoint = parseEndpoint(raw.rpcUrl, env, foundry);
  const block = blockText === undefined ? null : parseBlockId(blockText);
  if (block !== null) {
    const unused = raw.state ? '--state' : raw.gas ? '--gas' : raw.gasOut !== undefined ? '--gas-out' : raw.internal ? '--internal' : raw.storage || raw.withStateChanges ? '--storage' : null;
    if (unused !== null) throw new UsageError(`txray block does not take ${unused}; look a transaction up (txray <hash> ${unused}) for it.`);
  }
  const inputs = call === undefined && block === null ? parseInputs(words, stdin) : [];
  const callInput = call === undefined ? null : parseCall(call.words, call.options);
  const confirmations = raw.confirmations === undefined ? 0 : wholeNumber(raw.confirmations, '--confirmations', 0, 10_000);
  const proxy = proxySettingsOf(env);
  const html = block !== null ? parseBlockHtml(raw) : parseHtml(raw, call === undefined ? inputs.length : 1);
  return {
    command: block !== null ? { kind: 'block', block } : callInput !== null ? { kind: 'call', call: callInput } : { kind: 'lookup', inputs },
    url: endpoint.url,
    defaultEndpoint: endpoint.isDefault,
    view: html === '-' ? 'html' : raw.json === true ? 'json' : 'text',
    color: raw.color,
    timeoutMs: parseTimeout(raw.timeout),
    headers: parseHeaders(raw.header),
    maxResponseBytes: parseMaxResponse(raw.maxResponseMb),
    debug: raw.debug === true,
    tracer: parseTracer(raw.tracer),
    full: raw.full === true,
    quiet: raw.quiet === true,
    concurrency: raw.concurrency === undefined ? DEFAULT_CONCURRENCY : wholeNumber(raw.concurrency, '--concurrency', 1, 64),
    waitMs: parseWait(raw.wait, confirmations),
    confirmations,
    // An --override-code artifact names and places its code as --abi's would.
    abiPaths: [...(raw.abi ?? []), ...(callInput?.codes.flatMap((c) => (c.source.kind === 'artifact' ? [c.source.file] : [])) ?? [])],
    projectAbis: raw.projectAbis !== false,
    state: raw.state === true,
    gas: raw.gas === true,
    internal: raw.internal === true,
    storage: raw.storage === true || raw.withStateChanges === true,
    gasOut: raw.gasOut === undefined ? undefined : parseOutputFile(raw.gasOut, '--gas-out'),
    html,
    labels: raw.labels ?? [],
    labelsFile: raw.labelsFile,
    actor: parseActor(raw.as),
    online: parseOnline(raw, env, proxy),
    proxy,
  };
}

/** --as: an address (0x and 40 hex digits), else a usage error before any request. */
function parseActor(text: string | undefined): Hex | undefined {
  if (text === undefined) return undefined;
  if (!/^0x[0-9a-fA-F]{40}$/.test(text)) throw new UsageError(`--as needs an address (0x and 40 hex digits), not '${escapeShort(text, 60)}'.`);
  if (/^0x0{40}$/.test(text)) throw new UsageError('--as cannot be the zero address: it stands for what was minted and burned, not for an actor.');
  return text.toLowerCase() as Hex;
}

const DEFAULT_SOURCIFY_URL = 'https://sourcify.dev/server';
const DEFAULT_SIGNATURES_URL = 'https://api.4byte.sourcify.dev';
const DEFAULT_ETHERSCAN_URL = 'https://api.etherscan.io/v2/api';

/** A service's base URL: http(s) only, no credentials (say where, not who). */
function serviceUrl(text: string | undefined, fallback: string, flag: string): URL {
  let url: URL;
  try {
    url = new URL(text ?? fallback);
  } catch {
    throw new UsageError(`${flag} is not a URL ('${escapeShort(text ?? '', 60)}').`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${flag} must be an http:// or https:// URL.`);
  if (url.username !== '' || url.password !== '') throw new UsageError(`${flag} must not carry credentials; Etherscan's key goes in ETHERSCAN_API_KEY.`);
  return url;
}

/** --online's settings; the URLs are checked even without it (they only say where), and nothing goes out without it. */
function parseOnline(raw: RawCliOptions, env: Readonly<Record<string, string | undefined>>, proxy: ProxySettings): OnlineSettings | null {
  const sourcifyUrl = serviceUrl(raw.sourcifyUrl, DEFAULT_SOURCIFY_URL, '--sourcify-url');
  const signaturesUrl = serviceUrl(raw.signaturesUrl, DEFAULT_SIGNATURES_URL, '--signatures-url');
  const etherscanUrl = serviceUrl(raw.etherscanUrl, DEFAULT_ETHERSCAN_URL, '--etherscan-url');
  const on = raw.online === true || (raw.online === undefined && env.TXRAY_ONLINE === '1');
  if (!on) return null;
  const key = env.ETHERSCAN_API_KEY?.trim();
  return { sourcifyUrl, signaturesUrl, etherscanUrl, etherscanKey: key ? key : null, cacheDir: cacheDirOf(env), proxy };
}
