/**
 * HTTP/1.1 through undici, the one HTTP client (the JSON-RPC client and --online's services): keep-alive
 * pools per origin, and proxies from the environment through its EnvHttpProxyAgent (rpc/proxy.ts says
 * which). Loaded on first use (a dynamic import), so --help and usage errors never load it: only the
 * modules of undici that txray uses (rpc/undiciEngine.ts, its own file in the package), the proxy agent
 * only where a proxy variable is set. undici loads TLS only for an https: URL.
 */
import type { Dispatcher } from 'undici';
import type { ProxySettings } from './proxy.js';

export interface HttpRequest {
  readonly method: 'GET' | 'POST';
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly signal: AbortSignal;
}

/** A response body as it streams in: read it whole (readCapped) or drop it (destroy). */
export type HttpBody = AsyncIterable<Uint8Array> & { destroy(err?: Error): unknown; on(event: 'error', fn: () => void): unknown };

export interface HttpAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: HttpBody;
}

export interface HttpTransport {
  request(url: URL, req: HttpRequest): Promise<HttpAnswer>;
  /** Close every kept connection. */
  close(): Promise<void>;
}

/** Node's default header limit, named here so a change in Node's default does not change txray. */
const MAX_HEADER_BYTES = 16 * 1024;

/**
 * `connections` per origin. `timeoutMs` bounds undici's own waits (for the headers, and between two
 * pieces of a body); the caller's signal bounds the whole request (a slow drip defeats an idle timer).
 */
export async function createHttpTransport(connections: number, proxy: ProxySettings, timeoutMs: number): Promise<HttpTransport> {
  const undici = await import('./undiciEngine.js');
  const options = { connections, maxHeaderSize: MAX_HEADER_BYTES, headersTimeout: timeoutMs, bodyTimeout: timeoutMs, connect: { timeout: timeoutMs } };
  const dispatcher: Dispatcher =
    proxy.http !== null || proxy.https !== null
      ? // Every value given (never undefined): the agent would otherwise read process.env on its own. An
        // http: node is asked through the proxy in plain HTTP, as curl and cast do (a company proxy often
        // allows CONNECT to port 443 only); an https: one through a CONNECT tunnel.
        new (await undici.loadProxyAgent())({ ...options, proxyTunnel: false, httpProxy: proxy.http ?? '', httpsProxy: proxy.https ?? '', noProxy: proxy.noProxy })
      : new undici.Agent(options);
  const request = undici.request;
  return {
    async request(url, req) {
      const res = await request.call(dispatcher, {
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: req.method,
        headers: req.headers,
        body: req.body,
        signal: req.signal,
      });
      // A body nobody reads is destroyed by its reader; its 'error' then has a listener.
      return { status: res.statusCode, headers: res.headers, body: res.body };
    },
    async close() {
      await dispatcher.destroy().catch(() => undefined);
    },
  };
}
