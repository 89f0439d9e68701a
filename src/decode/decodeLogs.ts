/** The receipt's logs by name (events an ABI names), and the token transfers they record. */
import { withReverts } from './revertArgs.js';
import type { AbiEvent } from 'abitype';
import type { Decoded, Transfer } from '../model/types.js';
import type { RpcLog } from '../raw/types.js';
import type { AbiIndex, Artifact } from './abiIndex.js';
import { args, decodeParams, named, ownFirst } from './callData.js';
import { tokenTransfers } from './transfers.js';

/** Indexed parameters of these types are stored as their hash: the topic is all there is. */
const hashedInTopic = (type: string): boolean => type === 'string' || type === 'bytes' || type.startsWith('tuple') || type.endsWith(']');

/**
 * A log by a candidate of its (topic0, indexed count) key: indexed parameters from the topics, the
 * others from the data, which must hold all of them (a candidate that runs past its end does not fit).
 */
function decodeEvent(item: AbiEvent, log: RpcLog): unknown[] {
  const topics = log.topics.slice(1);
  const plain = item.inputs.filter((p) => !p.indexed);
  const fromData = plain.length === 0 ? [] : decodeParams(plain, log.data, false);
  let t = 0;
  let d = 0;
  return item.inputs.map((p) => {
    if (!p.indexed) return fromData[d++];
    const topic = topics[t++];
    if (topic === undefined) throw new Error('fewer topics than indexed parameters');
    return hashedInTopic(p.type) ? topic : decodeParams([p], topic, false)[0];
  });
}

/** A log by its candidates, those of `own` (the emitter's matched artifact) first. */
export function decodeLog(index: AbiIndex, log: RpcLog, own?: Artifact): Decoded | null {
  const topic0 = log.topics[0];
  if (topic0 === undefined) return null; // anonymous events stay raw
  for (const c of ownFirst(index.eventCandidates(topic0, log.topics.length - 1), own)) {
    try {
      return named(c.item, c, withReverts(args(c.item.inputs, decodeEvent(c.item, log), true), index));
    } catch {
      /* next */
    }
  }
  return null;
}

/** The receipt's share of the decoding: its logs by name and the token transfers they record. */
export interface LogDecoding {
  readonly logs: readonly RpcLog[];
  readonly events: ReadonlyArray<Decoded | null>;
  readonly tokens: readonly Transfer[];
}

/** Needs only the receipt, so it can run while the trace is still on its way. */
export function decodeLogs(logs: readonly RpcLog[], index: AbiIndex): LogDecoding {
  return { logs, events: logs.map((l) => decodeLog(index, l)), tokens: tokenTransfers(logs) };
}

/** `early` with the logs of emitters whose code matched an artifact decoded again, by that artifact first. */
export function byOwners(early: LogDecoding, index: AbiIndex, owners: ReadonlyMap<string, Artifact>): LogDecoding {
  if (owners.size === 0) return early;
  const events = early.logs.map((l, i) => {
    const own = owners.get(l.address.toLowerCase());
    return own === undefined ? early.events[i]! : decodeLog(index, l, own);
  });
  return { ...early, events };
}

