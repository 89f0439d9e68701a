/**
 * A small loopback JSON-RPC server for tests: serves recorded answers (fixtures) or forwards to a
 * real node, and can misbehave on purpose (fault injection). It never invents an answer: a method
 * nobody planned for gets a JSON-RPC error and is recorded in `unexpected`.
 */
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

export type Handler = (req: { method: string; params: unknown[]; id: unknown; path: string; headers: IncomingMessage['headers'] }, res: ServerResponse) =>
  | { result: unknown }
  | { error: { code: number; message: string } }
  | 'handled'
  | undefined
  | Promise<{ result: unknown } | { error: { code: number; message: string } } | 'handled' | undefined>;

export interface RpcServer {
  readonly url: string;
  readonly port: number;
  readonly unexpected: string[];
  /** Every request by method; those that came inside a JSON-RPC batch carry the batch's size. */
  readonly requests: Array<{ method: string; params?: unknown[]; path: string; headers: IncomingMessage['headers']; batch?: number }>;
  close(): Promise<void>;
}

/** `tls`: serve HTTPS with this key and certificate instead of plain HTTP; `refuseBatches`: answer any batch with one error. */
export async function startRpcServer(handler: Handler, options: { tls?: { key: Buffer; cert: Buffer }; refuseBatches?: boolean } = {}): Promise<RpcServer> {
  const unexpected: string[] = [];
  const requests: RpcServer['requests'] = [];
  const listener: RequestListener = (req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => (body += d));
    req.on('end', () => {
      void (async () => {
        let msg: { method: string; params: unknown[]; id: unknown };
        try {
          msg = JSON.parse(body);
        } catch {
          res.writeHead(400).end();
          return;
        }
        if (Array.isArray(msg)) {
          // A JSON-RPC batch: each request through the handler, the answers in one array; or refused
          // as a whole with one error object, as some providers do.
          const batch = msg as Array<{ method: string; params: unknown[]; id: unknown }>;
          res.writeHead(200, { 'content-type': 'application/json' });
          if (options.refuseBatches) {
            requests.push({ method: 'batch', path: req.url ?? '/', headers: req.headers });
            res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'batch requests are not served here' } }));
            return;
          }
          const answers = [];
          for (const m of batch) {
            requests.push({ method: m.method, params: m.params, path: req.url ?? '/', headers: req.headers, batch: batch.length });
            const answer = await handler({ ...m, path: req.url ?? '/', headers: req.headers }, res);
            if (answer === undefined || answer === 'handled') unexpected.push(m.method);
            answers.push({ jsonrpc: '2.0', id: m.id, ...(answer === undefined || answer === 'handled' ? { error: { code: -32000, message: `test server: unexpected method ${m.method}` } } : answer) });
          }
          res.end(JSON.stringify(answers));
          return;
        }
        requests.push({ method: msg.method, params: msg.params, path: req.url ?? '/', headers: req.headers });
        const answer = await handler({ ...msg, path: req.url ?? '/', headers: req.headers }, res);
        if (answer === 'handled') return;
        if (answer === undefined) {
          unexpected.push(msg.method);
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, error: { code: -32000, message: `test server: unexpected method ${msg.method}` } }));
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, ...answer }));
      })();
    });
  };
  const server = options.tls ? createTlsServer(options.tls, listener) : createServer(listener);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    port,
    unexpected,
    requests,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** Forward a JSON-RPC request to a real node and return its answer (result or error). */
export async function forward(url: string, method: string, params: unknown[]): Promise<{ result: unknown } | { error: { code: number; message: string } }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const body = (await res.json()) as { result?: unknown; error?: { code: number; message: string } };
  return body.error ? { error: body.error } : { result: body.result };
}
