import { expect, test } from 'vitest';
import { createRpcClient } from '../../src/rpc/createRpcClient.js';
import { startRpcServer } from '../support/rpcServer.js';

test('a 429 holds back every request of the run until Retry-After has passed, not only the one refused', async () => {
  const arrivals: Array<{ method: string; at: number }> = [];
  let refused = false;
  const server = await startRpcServer(({ method }, res) => {
    arrivals.push({ method, at: Date.now() });
    if (!refused) {
      refused = true;
      res.writeHead(429, { 'retry-after': '1' }).end();
      return 'handled';
    }
    return { result: method };
  });
  const client = await createRpcClient({ url: new URL(server.url), headers: [], timeoutMs: 10_000, maxResponseBytes: 1 << 20 });
  try {
    const t0 = Date.now();
    const first = client.call('first', [], AbortSignal.timeout(10_000));
    await new Promise((r) => setTimeout(r, 200)); // the 429 has arrived by now
    const second = await client.call('second', [], AbortSignal.timeout(10_000));
    expect(second).toBe('second');
    expect(await first).toBe('first');
    const secondArrival = arrivals.find((a) => a.method === 'second')!;
    expect(secondArrival.at - t0).toBeGreaterThanOrEqual(950);
    expect(arrivals.filter((a) => a.method === 'first')).toHaveLength(2);
  } finally {
    await client.close();
    await server.close();
  }
});
