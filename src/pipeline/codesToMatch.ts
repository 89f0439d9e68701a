/**
 * The runtime codes the source-map stages (source locations, --internal) match against artifacts: those
 * fetched already, and those of `addresses` still missing where a match is possible at all (any address
 * with the project's source maps at hand, else only the verified ones), asked in one batch.
 */
import type { Decoder } from '../decode/createDecoder.js';
import type { DebugSource } from '../locate/sourceMap.js';
import type { InspectModel } from '../model/types.js';
import type { Hex } from '../raw/types.js';
import type { RpcClient } from '../rpc/createRpcClient.js';
import { blockOf } from './blockOf.js';
import { codesAt } from './codesAt.js';

/** null where nothing can match (no source map at hand, nothing verified). */
export async function codesToMatch(
  client: RpcClient,
  decoder: Decoder,
  model: InspectModel,
  addresses: readonly string[],
  given: { readonly codes: ReadonlyMap<string, Hex>; readonly verified: ReadonlyMap<string, DebugSource> },
  timeoutMs: number,
): Promise<ReadonlyMap<string, Hex> | null> {
  const fromArtifacts = decoder.index.artifacts.some((a) => a.debug !== undefined);
  if (!fromArtifacts && given.verified.size === 0) return null;
  const missing = addresses.filter((a) => !given.codes.has(a) && (fromArtifacts || given.verified.has(a)));
  return missing.length === 0 ? given.codes : new Map([...given.codes, ...(await codesAt(client, missing, blockOf(model), timeoutMs))]);
}
