// A loopback proxy for the bench: the latency of a hosted endpoint, and one without traces.
import { createServer } from 'node:http';

/**
 * A loopback proxy that waits `delayMs` before forwarding each request; with `noTraces`, it answers
 * trace_* and debug_* as a public endpoint does (method not found).
 */
export async function delayProxy(target, delayMs, noTraces = false) {
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      await new Promise((r) => setTimeout(r, delayMs));
      if (noTraces) {
        const msg = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        if (!Array.isArray(msg) && /^(trace|debug)_/.test(msg.method)) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: `the method ${msg.method} does not exist/is not available` } }));
          return;
        }
      }
      const upstream = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.concat(chunks) });
      res.writeHead(upstream.status, { 'content-type': 'application/json' });
      res.end(Buffer.from(await upstream.arrayBuffer()));
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) };
}
