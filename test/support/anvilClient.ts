/**
 * A test file's own anvil and a txray JSON-RPC client on it: started before the file's tests, stopped
 * after them. The fields are set once `beforeAll` has run.
 */
import { afterAll, beforeAll } from 'vitest';
import { startAnvil } from '../../scripts/lib/anvil.mjs';
import { createRpcClient, type RpcClient } from '../../src/rpc/createRpcClient.js';

export interface AnvilClient {
  anvil: Awaited<ReturnType<typeof startAnvil>>;
  client: RpcClient;
}

export function anvilClient(args: string[] = []): AnvilClient {
  const node = {} as AnvilClient;
  beforeAll(async () => {
    node.anvil = await startAnvil(args);
    node.client = await createRpcClient({ url: new URL(node.anvil.url), headers: [], timeoutMs: 20_000, maxResponseBytes: 1 << 24 });
  });
  afterAll(async () => {
    await node.client?.close();
    await node.anvil?.stop();
  });
  return node;
}
