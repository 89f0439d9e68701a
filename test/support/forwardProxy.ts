/**
 * A forward proxy on loopback, as a company proxy is: it forwards plain-HTTP requests written in
 * absolute form (what undici sends through HTTP_PROXY to an http: node) and tunnels CONNECT requests
 * (for https: targets), and counts both, with the Proxy-Authorization each carried. It relays bytes; it
 * answers nothing itself but 407 where `requireAuth` is set and the credentials are missing, and 502
 * where the target cannot be reached.
 */
import { createServer, type IncomingMessage, request } from 'node:http';
import { connect, type Socket } from 'node:net';

export interface ForwardProxy {
  readonly url: string;
  /** `host:port` of every request forwarded or tunnel opened, how, and the Proxy-Authorization it carried. */
  readonly through: Array<{ readonly target: string; readonly how: 'forward' | 'connect'; readonly auth: string | undefined }>;
  close(): Promise<void>;
}

export async function startForwardProxy(requireAuth?: string): Promise<ForwardProxy> {
  const through: ForwardProxy['through'] = [];
  const sockets = new Set<Socket>();
  const track = (s: Socket): void => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  };
  const server = createServer((req, res) => {
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end('absolute-form requests only');
      return;
    }
    const auth = req.headers['proxy-authorization'];
    through.push({ target: target.host, how: 'forward', auth });
    if (requireAuth !== undefined && auth !== requireAuth) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic' }).end();
      return;
    }
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const upstream = request({ host: target.hostname.replace(/^\[|\]$/g, ''), port: target.port, path: `${target.pathname}${target.search}`, method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.on('connection', track);
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    const target = req.url ?? '';
    const auth = req.headers['proxy-authorization'];
    through.push({ target, how: 'connect', auth });
    if (requireAuth !== undefined && auth !== requireAuth) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nproxy-authenticate: Basic\r\n\r\n');
      return;
    }
    const [host, port] = [target.slice(0, target.lastIndexOf(':')), Number(target.slice(target.lastIndexOf(':') + 1))];
    const upstream = connect(port, host.replace(/^\[|\]$/g, ''), () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    track(upstream);
    upstream.on('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'));
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    through,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
