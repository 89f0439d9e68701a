/**
 * The run's seams, as --record and `txray replay` set them: the node's client, --online's GET and the
 * decoder's disk reads, each answered by the recording (a replay), noted (--record), or both (a replay
 * recorded again). The disk cache of --online is left aside by both, so that every answer passes the seam.
 */
import type { DecoderOptions } from '../decode/createDecoder.js';
import type { InspectOptions } from './parseOptions.js';
import type { RpcClient } from '../rpc/createRpcClient.js';
import type { OnlineGet } from '../rpc/fetchOnline.js';
import { createRecorder, type Recorder } from '../record/createRecorder.js';
import type { Replayer } from '../record/createReplayer.js';

export interface Seams {
  readonly opts: InspectOptions;
  readonly parts: DecoderOptions['parts'];
  /** The client the run uses, from the one `connect` makes (not made at all in a replay). */
  client(connect: () => Promise<RpcClient>): Promise<RpcClient>;
  readonly recorder: Recorder | null;
}

export function seamsOf(opts: InspectOptions, record: boolean, replay: Replayer | undefined, secrets: readonly string[]): Seams {
  const recorder = record ? createRecorder(secrets, opts.online?.etherscanKey ?? null) : null;
  if (recorder === null && replay === undefined) return { opts, parts: undefined, client: (connect) => connect(), recorder };
  const seam = (network: OnlineGet): OnlineGet => {
    const get = replay?.online ?? network;
    return recorder === null ? get : recorder.online(get);
  };
  const online = opts.online === null ? null : { ...opts.online, cacheDir: null, seam };
  return {
    opts: { ...opts, online },
    parts: (fromDisk) => {
      const read = replay === undefined ? fromDisk : () => replay.parts();
      return recorder === null ? read() : recorder.parts(read);
    },
    async client(connect) {
      const inner = replay?.client ?? (await connect());
      return recorder === null ? inner : recorder.client(inner);
    },
    recorder,
  };
}
