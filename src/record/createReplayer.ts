/**
 * `txray replay`: the seams a run reads through, answered from a recording alone. A request is answered
 * by its key with the answers in the order they were recorded (the last one again once they run out), so
 * a retry, a fallback from a refused batch or --wait's polling meets what the recorded run met. A request
 * the recording lacks fails, and is noted: main then prints nothing but the line naming it (exit 5).
 */
import { RpcFailure } from '../errors.js';
import type { DecoderParts } from '../decode/createDecoder.js';
import type { BatchAnswer, RpcClient } from '../rpc/createRpcClient.js';
import type { OnlineGet } from '../rpc/fetchOnline.js';
import { answerKeys } from './answerKeys.js';
import { replaySourceMaps } from './replaySourceMaps.js';
import type { Recording, RpcAnswer } from './types.js';

export interface Replayer {
  readonly client: RpcClient;
  readonly online: OnlineGet;
  parts(): DecoderParts;
  /** What was asked that the recording has no answer to (a method, a service's URL), in the order asked. */
  readonly missing: string[];
}

/** The next answer under `key`, or undefined where the recording has none. */
function reader<T>(lists: ReadonlyArray<readonly [string, readonly T[]]>): (key: string) => T | undefined {
  const book = new Map(lists);
  const at = new Map<string, number>();
  return (key) => {
    const list = book.get(key);
    if (list === undefined || list.length === 0) return undefined;
    const i = at.get(key) ?? 0;
    at.set(key, Math.min(i + 1, list.length - 1));
    return list[i];
  };
}

/** An answer as the client gives it: the result, or the failure thrown as it was met. */
function resultOf(method: string, a: RpcAnswer): unknown {
  if ('r' in a) return a.r;
  if ('e' in a) throw new RpcFailure('rpc-error', `${method}: the node answered error (no code): ${a.e}`, { method });
  throw new RpcFailure(a.f.kind, a.f.message, { method, rpcCode: a.f.code, data: a.f.data });
}

/** The node's own words of an error txray said as `<method>: the node answered error <code>: <words>`. */
const nodeWords = (message: string): string => /: the node answered error [^:]*: (.*)$/.exec(message)?.[1] ?? message;

function replayClient(rec: Recording, missing: string[]): RpcClient {
  const next = reader(rec.rpc);
  const answerTo = (method: string, params: readonly unknown[], speculative = false): RpcAnswer => {
    const a = next(answerKeys.rpc(method, params));
    if (a !== undefined) return a;
    if (speculative) return { e: 'not in the recording' };
    missing.push(method);
    throw new RpcFailure('unreachable', `${method}: the recording holds no answer to it.`, { method });
  };
  return {
    call: async (method, params, _deadline, speculative) => resultOf(method, answerTo(method, params, speculative)),
    async batch(calls) {
      const answers = calls.map((c) => answerTo(c.method, c.params, c.speculative));
      // A request that failed as a whole fails the batch; an error the node answered one call (asked alone when
      // recorded) is that call's error in the batch, in the node's own words.
      const failed = answers.find((a) => 'f' in a && a.f.kind !== 'rpc-error');
      if (failed !== undefined) resultOf(calls[answers.indexOf(failed)]!.method, failed);
      return answers.map((a): BatchAnswer => ('r' in a ? { result: a.r } : 'e' in a ? { error: a.e } : { error: nodeWords(a.f.message) }));
    },
    where: rec.endpoint,
    close: async () => undefined,
  };
}

export function createReplayer(rec: Recording): Replayer {
  const missing: string[] = [];
  const nextHttp = reader(rec.http);
  return {
    client: replayClient(rec, missing),
    async online(url) {
      const key = answerKeys.http(url);
      const a = nextHttp(key);
      if (a !== undefined) return a;
      missing.push(`--online ${url.origin}`);
      throw new Error('not in the recording');
    },
    parts: () => ({
      labels: rec.disk?.labels ?? [],
      artifacts: (rec.disk?.artifacts ?? []).map(({ debug, ...a }) => (debug === undefined ? a : { ...a, debug: replaySourceMaps(debug) })),
    }),
    missing,
  };
}
