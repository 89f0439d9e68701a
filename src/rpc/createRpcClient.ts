import { Interrupted, RpcFailure } from '../errors.js';
import { escapeShort } from '../raw/escape.js';
import { eitherSignal } from './deadline.js';
import type { HttpBody, HttpTransport } from './httpTransport.js';
import { NO_PROXY_SETTINGS, proxyFor, type ProxySettings, shownProxy } from './proxy.js';
import { type BodyText, parseBody, readCapped, tooLarge } from './readBody.js';
import { redactUrl } from './redactUrl.js';

/** Milliseconds from a monotonic clock (performance.now() would load perf_hooks at start-up). */
export const nowMs = (): number => Number(process.hrtime.bigint()) / 1e6;

export interface RpcClientOptions {
  readonly url: URL;
  readonly headers: ReadonlyArray<readonly [string, string]>;
  /** Aborted on SIGINT. */
  readonly interrupt?: AbortSignal;
  /** The --timeout budget, for messages: each lookup passes its own deadline signal to call(). */
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly debug?: (line: string) => void;
  /** Backoff base for 429/503 retries (tests shorten it). */
  readonly retryBaseMs?: number;
  /** Proxies from the environment (none when absent). */
  readonly proxy?: ProxySettings;
  /** The URL is the default (no --rpc-url, no ETH_RPC_URL): an unreachable node says how to name another. */
  readonly defaultEndpoint?: boolean;
}

export interface RpcClient {
  /**
   * JSON-RPC call; resolves to `result` (any shape: validation is the next stage's job). `deadline`
   * bounds everything the call does, retries included. `speculative`: asked ahead of a need that may
   * not come (see BatchRequest).
   */
  call(method: string, params: readonly unknown[], deadline: AbortSignal, speculative?: boolean): Promise<unknown>;
  /**
   * Several calls in one JSON-RPC batch request; the answers in the order of `calls`, each its result
   * or the node's error. Throws (as call does) when the request fails or the answer is not a batch.
   */
  batch(calls: readonly BatchRequest[], deadline: AbortSignal): Promise<BatchAnswer[]>;
  readonly where: string;
  close(): Promise<void>;
}

export interface BatchRequest {
  readonly method: string;
  readonly params: readonly unknown[];
  /**
   * Asked ahead of a need that may not come (a prefetch): the run does without its answer. A replay
   * whose recording lacks it (one made by a txray that did not ask it) answers it with an error
   * instead of naming it missing; the node is asked it as any other.
   */
  readonly speculative?: boolean;
}

export type BatchAnswer = { readonly result: unknown } | { readonly error: string };

const RETRY_STATUSES = new Set([429, 503]);
const MAX_RETRY_DELAY_MS = 8_000;

/** Messages nodes use when a method is not served (geth, Erigon, Nethermind, Besu, hosted providers). */
const METHOD_MISSING =
  /method .*(does not exist|is not available|not found|not supported)|method not found|not supported|not enabled|unsupported method|not whitelisted|not allowed/i;

/** The node has the method but not the tracer asked of it (Hardhat: -32602 "only supports the default tracer"). */
export function isTracerRefused(err: unknown): boolean {
  return isMethodNotFound(err) || (err instanceof RpcFailure && err.kind === 'rpc-error' && err.rpcCode === -32602 && /tracer/i.test(err.message));
}

export function isMethodNotFound(err: unknown): boolean {
  if (!(err instanceof RpcFailure) || err.kind !== 'rpc-error') return false;
  return err.rpcCode === -32601 || METHOD_MISSING.test(err.message);
}

function retryAfterMs(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Drop a body we will not read; its connection is not reused. */
function discard(body: HttpBody): void {
  body.on('error', () => undefined);
  body.destroy();
}

const TLS_CODES = /^(ERR_TLS|ERR_SSL|CERT_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_|ERR_OSSL)/;

/** Turn a transport-level exception into a one-line RpcFailure (or Interrupted). */
function transportFailure(err: unknown, where: string, opts: RpcClientOptions, method: string, deadline: AbortSignal): Error {
  if (opts.interrupt?.aborted) return new Interrupted('interrupted');
  if (deadline.aborted) {
    return new RpcFailure('timeout', `no complete answer from ${where} within ${opts.timeoutMs / 1000}s; raise --timeout or check the node.`, {
      cause: err,
      method,
    });
  }
  const code = (err as { code?: unknown })?.code;
  const codeText = typeof code === 'string' ? code : '';
  const hint = (text: string): RpcFailure => new RpcFailure('unreachable', text, { cause: err, method });
  // Through a proxy, the one connection txray makes is to the proxy; the proxy connects to the node.
  const via = proxyFor(opts.url, opts.proxy ?? NO_PROXY_SETTINGS);
  if (via !== null) {
    const proxy = `the proxy ${shownProxy(via)}`;
    // undici's words: a tunnel the proxy refused, or a plain request it answered 407.
    const refused = /^Proxy response \((\d{3})\)|^Proxy Authentication Required \((407)\)/.exec(err instanceof Error ? err.message : '')?.slice(1).find((x) => x !== undefined);
    if (refused !== undefined) return hint(`${proxy} answered HTTP ${refused} when asked to connect to ${where}; ${refused === '407' ? "check the proxy's credentials" : 'can it reach the node? (NO_PROXY lists hosts to reach directly)'}.`);
    if (codeText === 'ECONNREFUSED') return hint(`connection refused by ${proxy} on the way to ${where}: is the proxy running, and is its port right?`);
    if (codeText === 'ENOTFOUND' || codeText === 'EAI_AGAIN') return hint(`cannot resolve the host of ${proxy} on the way to ${where}: check ${opts.url.protocol === 'https:' ? 'HTTPS_PROXY' : 'HTTP_PROXY'}.`);
  }
  if (opts.defaultEndpoint === true && ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EADDRNOTAVAIL', 'UND_ERR_CONNECT_TIMEOUT'].includes(codeText))
    return hint(`cannot reach ${where} (the default; pass --rpc-url or set ETH_RPC_URL).`);
  if (codeText === 'ECONNREFUSED') return hint(`connection refused by ${where}: is the node running, and is the port right?`);
  if (codeText === 'ENOTFOUND' || codeText === 'EAI_AGAIN') return hint(`cannot resolve the host of ${where}: check the URL.`);
  if (codeText === 'ECONNRESET' || codeText === 'EPIPE' || codeText === 'UND_ERR_SOCKET')
    // undici's "other side closed" is a reset by another name: said as the faults table always said it.
    return hint(`the connection to ${where} was closed before the answer was complete (${codeText === 'UND_ERR_SOCKET' ? 'ECONNRESET' : codeText}); try again, or check the node.`);
  // undici's own timers (set to the deadline, so the deadline's check above usually comes first).
  if (codeText === 'UND_ERR_HEADERS_TIMEOUT' || codeText === 'UND_ERR_BODY_TIMEOUT' || codeText === 'UND_ERR_CONNECT_TIMEOUT')
    return new RpcFailure('timeout', `no complete answer from ${where} within ${opts.timeoutMs / 1000}s; raise --timeout or check the node.`, { cause: err, method });
  // A header past the limit: undici says so in its own code, Node's parser said HPE_HEADER_OVERFLOW.
  if (codeText === 'UND_ERR_HEADERS_OVERFLOW') return hint(`${where} did not answer in HTTP that txray can read (HPE_HEADER_OVERFLOW); check the URL and the port.`);
  // Node's HTTP parser refusing the bytes it got (HPE_INVALID_CONSTANT, HPE_HEADER_OVERFLOW…): not an HTTP server, or a broken one.
  // undici 7's HTTPParserError loses llhttp's code (it looks the number up in a table keyed by name): its reason says what was wrong.
  if (codeText.startsWith('HPE_') || (err instanceof Error && err.name === 'HTTPParserError')) {
    const reason = codeText || escapeShort(/\((.*)\)$/.exec((err as Error).message)?.[1] ?? 'not HTTP/1.1', 60);
    return hint(`${where} did not answer in HTTP that txray can read (${reason}); check the URL and the port.`);
  }
  // EPROTO on an https: URL is OpenSSL failing the handshake (a server that speaks plain HTTP, say).
  if (TLS_CODES.test(codeText) || (codeText === 'EPROTO' && opts.url.protocol === 'https:')) return hint(`TLS failure talking to ${where} (${codeText}): check the certificate or use the right scheme.`);
  if (err instanceof RpcFailure) return err;
  const detail = codeText || (err instanceof Error ? err.name : 'error');
  return hint(`cannot talk to ${where} (${escapeShort(detail, 60)}); check the URL and the network.`);
}

/** What every request of one client shares: its transport, its settings, and the backoff of the run. */
interface Link {
  readonly transport: HttpTransport;
  readonly opts: RpcClientOptions;
  readonly headers: Readonly<Record<string, string>>;
  readonly where: string;
  /** Backoff is shared by every request of the run: once the node says 429/503, nobody asks before this. */
  notBefore: number;
}

/** The request headers: JSON, the URL's credentials as Basic auth, then -H (which wins). */
function requestHeaders(opts: RpcClientOptions): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (opts.url.username !== '' || opts.url.password !== '') {
    const user = decodeURIComponent(opts.url.username);
    const pass = decodeURIComponent(opts.url.password);
    headers.authorization = `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;
  }
  for (const [name, value] of opts.headers) headers[name.toLowerCase()] = value;
  return headers;
}

/** One POST: the answer's text, or the status that is to be retried or said. */
async function attempt(link: Link, body: string, signal: AbortSignal): Promise<{ status: number; retryAfter?: number; text?: BodyText }> {
  const { opts, where } = link;
  const res = await link.transport.request(opts.url, { method: 'POST', headers: link.headers, body, signal });
  if (RETRY_STATUSES.has(res.status)) {
    discard(res.body);
    return { status: res.status, retryAfter: retryAfterMs(res.headers['retry-after']) };
  }
  if (res.status < 200 || res.status >= 300) {
    discard(res.body);
    return { status: res.status };
  }
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > opts.maxResponseBytes) {
    discard(res.body);
    throw tooLarge(opts.maxResponseBytes, where);
  }
  const expected = Number.isSafeInteger(declared) && declared > 0 ? declared : undefined;
  return { status: res.status, text: await readCapped(res.body, opts.maxResponseBytes, where, expected) };
}

/** An HTTP status that is no answer and not retried, said with its likely fix. */
function statusFailure(link: Link, method: string, status: number): RpcFailure {
  const fix =
    status === 401 || status === 403
      ? ' check your API key or the -H authorization header.'
      : status === 404
        ? ' check the URL path.'
        : status === 413
          ? ' the node refused the request size.'
          : ' check the URL and the node.';
  // Through a proxy the status may be the proxy's own (a plain-HTTP node is asked through it, not tunnelled).
  const via = proxyFor(link.opts.url, link.opts.proxy ?? NO_PROXY_SETTINGS);
  const through = via === null ? '' : ` (through the proxy ${shownProxy(via)}, which may have answered itself)`;
  return new RpcFailure('http', `${method}: ${link.where} answered HTTP ${status}${through};${fix}`, { method });
}

/** POST one request body; the answer's text (or bytes), after 429/503 retries inside the deadline. */
async function post(link: Link, body: string, method: string, deadline: AbortSignal): Promise<BodyText> {
  const linked = eitherSignal(deadline, link.opts.interrupt);
  try {
    return await postUntil(link, body, method, deadline, linked.signal);
  } finally {
    linked.release();
  }
}

/** post's work: `signal` is the deadline's or the interrupt's, whichever comes first. */
async function postUntil(link: Link, body: string, method: string, deadline: AbortSignal, signal: AbortSignal): Promise<BodyText> {
  const { opts, where } = link;
  const started = nowMs();
  for (let tries = 0; ; tries++) {
    let outcome: Awaited<ReturnType<typeof attempt>>;
    try {
      const hold = link.notBefore - Date.now();
      if (hold > 0) await sleep(hold, signal);
      outcome = await attempt(link, body, signal);
    } catch (err) {
      throw transportFailure(err, where, opts, method, deadline);
    }
    if (outcome.text !== undefined) {
      opts.debug?.(`${method}: ${Math.round(nowMs() - started)} ms, ${outcome.text.length} bytes`);
      return outcome.text;
    }
    const status = outcome.status;
    if (!RETRY_STATUSES.has(status)) throw statusFailure(link, method, status);
    // 429 / 503: the three reads are idempotent, so retrying a POST is safe. Capped exponential
    // backoff with full jitter, or the server's Retry-After, always inside the overall deadline.
    const backoff = Math.min(MAX_RETRY_DELAY_MS, (opts.retryBaseMs ?? 250) * 2 ** tries) * (0.5 + Math.random() / 2);
    const wait = outcome.retryAfter ?? backoff;
    link.notBefore = Math.max(link.notBefore, Date.now() + wait);
    opts.debug?.(`${method}: HTTP ${status}, retry ${tries + 1} in ${Math.round(wait)} ms`);
    const elapsed = nowMs() - started;
    if (elapsed + wait >= opts.timeoutMs || wait > MAX_RETRY_DELAY_MS * 4) {
      throw new RpcFailure(
        'rate-limited',
        `${method}: ${where} is rate limiting (HTTP ${status}) and did not answer within ${opts.timeoutMs / 1000}s after ${tries + 1} tries; wait and try again, or raise --timeout.`,
        { method },
      );
    }
    try {
      await sleep(Math.max(wait, link.notBefore - Date.now()), signal);
    } catch (err) {
      throw transportFailure(err, where, opts, method, deadline);
    }
  }
}

/** The HTTP client is loaded on first use, so --help and usage errors never pay for it. */
export async function createRpcClient(opts: RpcClientOptions): Promise<RpcClient> {
  const transport = await (await import('./httpTransport.js')).createHttpTransport(8, opts.proxy ?? NO_PROXY_SETTINGS, opts.timeoutMs);
  const where = redactUrl(opts.url);
  const link: Link = { transport, opts, headers: requestHeaders(opts), where, notBefore: 0 };
  let nextId = 1;
  return {
    async call(method, params, deadline) {
      const id = nextId++;
      const text = await post(link, JSON.stringify({ jsonrpc: '2.0', id, method, params }), method, deadline);
      return parseEnvelope(text, method, id, where);
    },
    async batch(calls, deadline) {
      if (calls.length === 0) return [];
      const first = nextId;
      nextId += calls.length;
      const body = JSON.stringify(calls.map((c, i) => ({ jsonrpc: '2.0', id: first + i, method: c.method, params: c.params })));
      const label = `batch of ${calls.length} ${calls[0]!.method}`;
      return parseBatch(await post(link, body, label, deadline), label, first, calls.length, where);
    },
    where,
    async close() {
      await transport.close();
    },
  };
}

/** Check the JSON-RPC 2.0 envelope and return `result`, or throw the node's error object as an RpcFailure. */
function parseEnvelope(text: BodyText, method: string, id: number, where: string): unknown {
  const first = firstChar(text);
  if (first !== '{' && first !== '[') {
    const looks = first === '<' ? 'an HTML page' : first === '' ? 'an empty body' : 'text that is not JSON';
    throw new RpcFailure('not-json', `${method}: ${where} answered with ${looks}, not JSON-RPC; check that the URL is a JSON-RPC endpoint.`, {
      method,
    });
  }
  let doc: unknown;
  try {
    doc = parseBody(text);
  } catch {
    throw new RpcFailure('not-json', `${method}: the answer from ${where} is not valid JSON (truncated or corrupt); try again, or check the node.`, {
      method,
    });
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
    throw new RpcFailure('protocol', `${method}: the answer from ${where} is not a JSON-RPC response object.`, { method });
  }
  const envelope = doc as Record<string, unknown>;
  if (envelope.id !== id) {
    const shown = typeof envelope.id === 'object' && envelope.id !== null ? (Array.isArray(envelope.id) ? 'an array' : 'an object') : String(envelope.id);
    const got = envelope.id === undefined ? 'no id' : `id ${escapeShort(shown, 40)}`;
    throw new RpcFailure('protocol', `${method}: the answer from ${where} has ${got}, expected id ${id}; the node or a proxy mixed up answers.`, {
      method,
    });
  }
  if ('error' in envelope && envelope.error !== undefined && envelope.error !== null) {
    const e = envelope.error as Record<string, unknown>;
    const code = typeof e.code === 'number' ? e.code : undefined;
    const message = typeof e.message === 'string' ? escapeShort(e.message, 200) : 'no message';
    throw new RpcFailure('rpc-error', `${method}: the node answered error ${code ?? '(no code)'}: ${message}`, { rpcCode: code, method, data: typeof e.data === 'string' && /^0x([0-9a-fA-F]{2})*$/.test(e.data) ? e.data : undefined });
  }
  if (!('result' in envelope)) {
    throw new RpcFailure('protocol', `${method}: the answer from ${where} has neither result nor error.`, { method });
  }
  return envelope.result;
}

/** A body's first character past JSON's white space ('' where there is none). */
function firstChar(text: BodyText): string {
  if (typeof text === 'string') return text.trimStart().charAt(0);
  const at = text.findIndex((b) => b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09);
  return at === -1 ? '' : String.fromCharCode(text[at]!);
}

/**
 * A batch answer: an array holding one response per request, in any order, matched by id. A node
 * that refuses batches answers with one error object instead: that, or any answer that is not a full
 * set of responses, throws.
 */
export function parseBatch(text: BodyText, label: string, firstId: number, count: number, where: string): BatchAnswer[] {
  let doc: unknown;
  try {
    doc = parseBody(text);
  } catch {
    throw new RpcFailure('not-json', `${label}: the answer from ${where} is not valid JSON.`, { method: label });
  }
  if (!Array.isArray(doc)) {
    const error = (doc as { error?: { message?: unknown } } | null)?.error;
    const why = typeof error?.message === 'string' ? `: ${escapeShort(error.message, 120)}` : '';
    throw new RpcFailure('protocol', `${label}: ${where} did not answer the batch with a batch${why}.`, { method: label });
  }
  const answers: Array<BatchAnswer | undefined> = Array.from({ length: count }, () => undefined);
  for (const r of doc) {
    const id = (r as { id?: unknown } | null)?.id;
    if (typeof id !== 'number' || id < firstId || id >= firstId + count || answers[id - firstId] !== undefined) continue;
    const e = (r as { error?: unknown }).error;
    if (e !== undefined && e !== null) {
      const m = (e as { message?: unknown }).message;
      answers[id - firstId] = { error: typeof m === 'string' ? escapeShort(m, 200) : 'no message' };
    } else if ('result' in (r as object)) answers[id - firstId] = { result: (r as { result: unknown }).result };
  }
  if (answers.some((a) => a === undefined)) throw new RpcFailure('protocol', `${label}: the batch answer from ${where} misses responses.`, { method: label });
  return answers as BatchAnswer[];
}
