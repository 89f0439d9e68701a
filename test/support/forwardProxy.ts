/**
 * A forward proxy on loopback, as a company proxy is: it tunnels CONNECT requests (what undici sends
 * through HTTP_PROXY, for http: and https: targets alike) and counts them, with the Proxy-Authorization
 * each one carried. It relays bytes; it answers nothing itself but 407 where `requireAuth` is set and the
 * credentials are missing, and 502 where the target cannot be reached.
 */
import { createServer, type IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';

export interface ForwardProxy {
  readonly url: string;
  /** `host:port` of every tunnel asked for, with the Proxy-Authorization it carried. */
  readonly tunnels: Array<{ readonly target: string; readonly auth: string | undefined }>;
  close(): Promise<void>;
}

export async function startForwardProxy(requireAuth?: string): Promise<ForwardProxy> {
  const tunnels: ForwardProxy['tunnels'] = [];
  const sockets = new Set<Socket>();
  const server = createServer((_req, res) => res.writeHead(405).end('CONNECT only'));
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    const target = req.url ?? '';
    const auth = req.headers['proxy-authorization'];
    tunnels.push({ target, auth });
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
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'));
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    tunnels,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
