/**
 * --record: every answer the run reads, noted at the seams it passes (docs/record.md): the JSON-RPC
 * client (each request by method and params, whatever batch it went in), the one GET of --online, and
 * what the decoder read from disk. Nothing here knows a command: `txray <hash>`, `call` and `block` are
 * recorded alike, as is any command that reads through these seams.
 */
import { RpcFailure } from '../errors.js';
import type { DecoderParts } from '../decode/createDecoder.js';
import type { RpcClient } from '../rpc/createRpcClient.js';
import type { OnlineGet } from '../rpc/fetchOnline.js';
import { scrub } from '../rpc/redactUrl.js';
import { answerKeys } from './answerKeys.js';
import { recordSourceMaps } from './recordSourceMaps.js';
import type { HttpRecord, RecordedArtifact, RecordedSourceMaps, Recording, RecordingMeta, RpcAnswer } from './types.js';

export interface Recorder {
  client(inner: RpcClient): RpcClient;
  online(network: OnlineGet): OnlineGet;
  parts(load: () => DecoderParts): DecoderParts;
  /** What was recorded, with the run's facts (`meta`). */
  recording(meta: RecordingMeta): Recording;
}

/** A failure as it is kept: its kind and words, without any secret a library's message may hold. */
function failureOf(err: RpcFailure, secrets: readonly string[]): RpcAnswer {
  return { f: { kind: err.kind, message: scrub(err.message, secrets), ...(err.rpcCode === undefined ? {} : { code: err.rpcCode }), ...(err.data === undefined ? {} : { data: err.data }) } };
}

/**
 * Answers by key (sorted: answers come in an order that varies from run to run), each key's in the order
 * they came; a run of equal answers is kept once (a replay repeats the last one).
 */
function listsOf<T>(book: ReadonlyMap<string, T[]>): Array<[string, T[]]> {
  return [...book].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([key, answers]) => {
    const kept: T[] = [];
    let last = '';
    for (const a of answers) {
      const text = JSON.stringify(a);
      if (text !== last) kept.push(a);
      last = text;
    }
    return [key, kept];
  });
}

function recordingClient(inner: RpcClient, noteAny: (key: string, a: RpcAnswer) => void, secrets: readonly string[]): RpcClient {
  // A request still on its way when the run closes its client (one asked ahead that nothing waited for)
  // fails as the connection is torn down: that failure is not an answer the run read, nor the node's.
  let closed = false;
  const note = (key: string, a: RpcAnswer): void => {
    if (!closed) noteAny(key, a);
  };
  return {
    async call(method, params, deadline, speculative) {
      const key = answerKeys.rpc(method, params);
      try {
        const result = await inner.call(method, params, deadline, speculative);
        note(key, { r: result });
        return result;
      } catch (err) {
        if (err instanceof RpcFailure) note(key, failureOf(err, secrets));
        throw err;
      }
    },
    async batch(calls, deadline) {
      try {
        const answers = await inner.batch(calls, deadline);
        // The client answers every call of a batch, in order.
        calls.forEach((c, i) => {
          const a = answers[i];
          if (a !== undefined) note(answerKeys.rpc(c.method, c.params), 'result' in a ? { r: a.result } : { e: a.error });
        });
        return answers;
      } catch (err) {
        // The request failed as a whole: each call of it met that failure (a replay meets it again, then whatever came next).
        if (err instanceof RpcFailure) for (const c of calls) note(answerKeys.rpc(c.method, c.params), failureOf(err, secrets));
        throw err;
      }
    },
    where: inner.where,
    close: () => {
      closed = true;
      return inner.close();
    },
  };
}

/** The chain id the node said, where it was asked. */
function chainIdOf(rpc: ReadonlyMap<string, RpcAnswer[]>): number | null {
  const said = rpc.get(answerKeys.rpc('eth_chainId', []))?.find((a) => 'r' in a);
  const text = said !== undefined && 'r' in said && typeof said.r === 'string' && /^0x[0-9a-fA-F]{1,13}$/.test(said.r) ? said.r : null;
  return text === null ? null : Number(text);
}

/** A service's body without the Etherscan key, should the service say it back (its words about a bad key may). */
function keyless(json: unknown, key: string | null): unknown {
  if (key === null || key.length < 4) return json;
  const text = JSON.stringify(json);
  if (text === undefined || !text.includes(key)) return json;
  try {
    return JSON.parse(text.split(key).join('***'));
  } catch {
    return null;
  }
}

/** `secrets`: what a failure's words must never carry (the URL's credentials and key, -H values); `serviceKey`: ETHERSCAN_API_KEY. */
export function createRecorder(secrets: readonly string[], serviceKey: string | null): Recorder {
  const rpc = new Map<string, RpcAnswer[]>();
  const http = new Map<string, HttpRecord[]>();
  let disk: { readonly labels: DecoderParts['labels']; readonly artifacts: ReadonlyArray<{ readonly kept: RecordedArtifact; readonly seen?: () => RecordedSourceMaps }> } | null = null;
  const note = <T>(book: Map<string, T[]>, key: string, answer: T): void => {
    const list = book.get(key);
    if (list === undefined) book.set(key, [answer]);
    else list.push(answer);
  };
  return {
    client: (inner) => recordingClient(inner, (key, a) => note(rpc, key, a), secrets),
    online: (network) => async (url, signal) => {
      const answer = await network(url, signal);
      note(http, answerKeys.http(url), { status: answer.status, json: keyless(answer.json, serviceKey), retryAfterMs: answer.retryAfterMs });
      return answer;
    },
    parts(load) {
      const loaded = load();
      const artifacts = loaded.artifacts.map((a) => {
        const { debug, ...kept } = a;
        if (debug === undefined) return { artifact: a, entry: { kept } };
        const watched = recordSourceMaps(debug);
        return { artifact: { ...a, debug: watched.debug }, entry: { kept, seen: watched.seen } };
      });
      disk = { labels: loaded.labels, artifacts: artifacts.map((x) => x.entry) };
      return { labels: loaded.labels, artifacts: artifacts.map((x) => x.artifact) };
    },
    recording: (meta) => ({
      ...meta,
      chainId: chainIdOf(rpc),
      rpc: listsOf(rpc),
      http: listsOf(http),
      disk: disk === null ? null : { labels: disk.labels, artifacts: disk.artifacts.map((a) => (a.seen === undefined ? a.kept : { ...a.kept, debug: a.seen() })) },
    }),
  };
}
