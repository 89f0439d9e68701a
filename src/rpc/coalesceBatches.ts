/**
 * A client whose batch() calls made in one turn of the event loop go out together, as one JSON-RPC
 * batch, each distinct call asked once. A block's transactions run the shared stages side by side, and
 * each asks for its own tokens' symbols and decimals (and its contracts' code) in a batch of its own:
 * through this client, the whole block asks once. Single calls pass straight through.
 */
import type { BatchAnswer, BatchRequest, RpcClient } from './createRpcClient.js';

interface QueuedBatch {
  readonly calls: readonly BatchRequest[];
  readonly deadline: AbortSignal;
  readonly resolve: (answers: BatchAnswer[]) => void;
  readonly reject: (err: unknown) => void;
}

/** At most this many calls in one request (geth refuses batches of more than 1,000). */
const MAX_CALLS = 500;

async function send(client: RpcClient, waiting: readonly QueuedBatch[]): Promise<void> {
  const index = new Map<string, number>();
  const unique: BatchRequest[] = [];
  const slots = waiting.map((w) =>
    w.calls.map((c) => {
      const key = JSON.stringify([c.method, c.params]);
      let at = index.get(key);
      if (at === undefined) {
        at = unique.length;
        index.set(key, at);
        unique.push(c);
      } else if (c.speculative !== true) {
        // Needed by one asker: not speculative for the batch.
        unique[at] = c;
      }
      return at;
    }),
  );
  try {
    const answers: BatchAnswer[] = [];
    for (let i = 0; i < unique.length; i += MAX_CALLS) answers.push(...(await client.batch(unique.slice(i, i + MAX_CALLS), waiting[0]!.deadline)));
    waiting.forEach((w, j) => {
      w.resolve(slots[j]!.map((at) => answers[at]!));
    });
  } catch (err) {
    for (const w of waiting) w.reject(err);
  }
}

export function coalesceBatches(client: RpcClient): RpcClient {
  let queue: QueuedBatch[] = [];
  const flush = (): void => {
    const waiting = queue;
    queue = [];
    void send(client, waiting);
  };
  return {
    call: (method, params, deadline, speculative) => client.call(method, params, deadline, speculative),
    batch(calls, deadline) {
      if (calls.length === 0) return Promise.resolve([]);
      return new Promise((resolve, reject) => {
        // The first call of a turn schedules the flush: setImmediate runs once every caller of this turn has asked.
        if (queue.length === 0) setImmediate(flush);
        queue.push({ calls, deadline, resolve, reject });
      });
    },
    where: client.where,
    close: () => client.close(),
  };
}
