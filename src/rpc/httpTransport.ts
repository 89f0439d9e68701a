/**
 * HTTP/1.1 requests over Node's own client (node:http, node:https), with keep-alive connections kept
 * per transport. Imported on first use (a dynamic import), so --help and usage errors never load
 * node:http; node:https (and with it TLS and crypto) is loaded only for an https: URL.
 *
 * Node's client parses with the native llhttp and hands the body over in the socket's own buffers;
 * undici's Pool, used before, parsed with llhttp compiled to WebAssembly (compiled again by every run)
 * and copied each piece in and out of its memory. Side by side: a lookup through a 40 ms/request proxy
 * 165 → 155 ms, 55 → 50 MB; bench case (b) against anvil 1,190 → 1,116 ms (docs/speed.md).
 */
import { Agent, type IncomingMessage, request as plainRequest } from 'node:http';

export interface HttpRequest {
  readonly method: 'GET' | 'POST';
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly signal: AbortSignal;
}

export interface HttpAnswer {
  readonly status: number;
  readonly headers: IncomingMessage['headers'];
  /** The body as it streams in; read it whole (readCapped) or drop it (discard). */
  readonly body: IncomingMessage;
}

export interface HttpTransport {
  request(url: URL, req: HttpRequest): Promise<HttpAnswer>;
  /** Close every kept connection. */
  close(): void;
}

/** Node's default header limit, named here so a change in Node's default does not change txray. */
const MAX_HEADER_BYTES = 16 * 1024;

type Send = typeof plainRequest;

interface Client {
  readonly agent: Agent;
  readonly send: Send;
}

export function createHttpTransport(maxSockets: number): HttpTransport {
  // One client per scheme, made by the first request that needs it (concurrent first requests share it).
  const clients = new Map<string, Promise<Client>>();
  const made: Client[] = [];
  const make = async (protocol: string): Promise<Client> => {
    const client =
      protocol === 'https:'
        ? await import('./httpsModule.js').then((https) => ({ agent: new https.Agent({ keepAlive: true, maxSockets }), send: https.request }))
        : { agent: new Agent({ keepAlive: true, maxSockets }), send: plainRequest };
    made.push(client);
    return client;
  };
  const clientFor = (protocol: string): Promise<Client> => {
    let client = clients.get(protocol);
    if (client === undefined) clients.set(protocol, (client = make(protocol)));
    return client;
  };
  return {
    async request(url, req) {
      const { agent, send } = await clientFor(url.protocol);
      const headers: Record<string, string | number> = { ...req.headers };
      if (req.body !== undefined) headers['content-length'] = Buffer.byteLength(req.body);
      return new Promise<HttpAnswer>((resolve, reject) => {
        const outgoing = send(
          {
            protocol: url.protocol,
            // An IPv6 literal without its brackets; credentials never go in the request line.
            hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
            port: url.port,
            path: `${url.pathname}${url.search}`,
            method: req.method,
            headers,
            agent,
            signal: req.signal,
            maxHeaderSize: MAX_HEADER_BYTES,
          },
          (res) => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: res }),
        );
        outgoing.on('error', reject);
        outgoing.end(req.body);
      });
    },
    close() {
      for (const { agent } of made) agent.destroy();
    },
  };
}
