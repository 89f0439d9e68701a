/**
 * From command-line words to checked options. Everything here runs before any network call, and
 * every failure is a UsageError (exit 2) whose message never repeats a URL or a header value.
 */
import { UsageError } from '../errors.js';
import type { Hex } from '../raw/types.js';
import { escapeShort } from '../render/escape.js';
import type { TracerMode } from '../rpc/fetchBundle.js';

export interface RawCliOptions {
  readonly rpcUrl?: string;
  readonly json?: boolean;
  readonly color?: boolean;
  readonly timeout?: string;
  readonly header?: readonly string[];
  readonly maxResponseMb?: string;
  readonly debug?: boolean;
  readonly tracer?: string;
}

export interface InspectOptions {
  readonly hash: Hex;
  readonly url: URL;
  readonly json: boolean;
  readonly color: boolean | undefined;
  readonly timeoutMs: number;
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly maxResponseBytes: number;
  readonly debug: boolean;
  readonly tracer: TracerMode;
}

export const DEFAULT_TIMEOUT_S = 30;
export const DEFAULT_MAX_RESPONSE_MB = 256;

export function parseHash(input: string): Hex {
  const s = input.trim();
  if (s === '') throw new UsageError('the transaction hash is empty; expected 0x followed by 64 hex digits.');
  const body = /^0x/i.test(s) ? s.slice(2) : s;
  const shown = escapeShort(s, 80);
  if (!/^[0-9a-fA-F]*$/.test(body)) {
    throw new UsageError(`'${shown}' is not a transaction hash: it holds characters other than hex digits (expected 0x and 64 hex digits).`);
  }
  if (body.length !== 64) {
    throw new UsageError(`'${shown}' is not a transaction hash: it has ${body.length} hex digits, a hash has 64.`);
  }
  return `0x${body.toLowerCase()}`;
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

const TRACERS: readonly TracerMode[] = ['auto', 'parity', 'geth', 'none'];

export function parseTracer(input: string | undefined): TracerMode {
  if (input === undefined) return 'auto';
  const mode = TRACERS.find((t) => t === input.trim().toLowerCase());
  if (mode === undefined) throw new UsageError(`--tracer takes auto, parity, geth or none, not '${escapeShort(input, 40)}'.`);
  return mode;
}

export function parseOptions(hash: string, raw: RawCliOptions, env: Readonly<Record<string, string | undefined>>): InspectOptions {
  const fromFlag = raw.rpcUrl !== undefined;
  return {
    hash: parseHash(hash),
    url: parseRpcUrl(fromFlag ? raw.rpcUrl : env.ETH_RPC_URL, fromFlag ? '--rpc-url' : 'ETH_RPC_URL'),
    json: raw.json === true,
    color: raw.color,
    timeoutMs: parseTimeout(raw.timeout),
    headers: parseHeaders(raw.header),
    maxResponseBytes: parseMaxResponse(raw.maxResponseMb),
    debug: raw.debug === true,
    tracer: parseTracer(raw.tracer),
  };
}
