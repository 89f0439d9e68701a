/**
 * A lookup's tokens asked for their symbol and decimals as soon as the transaction and its receipt are
 * in, while the trace (or the local run) is still on its way: on a remote node that is one round trip
 * fewer after the trace. Only where nothing that comes later can change which tokens are asked (no
 * --state: its diff adds tokens); completeModel uses the answers only where it would ask the same.
 */
import type { Decoder } from '../decode/createDecoder.js';
import type { TxHead } from '../decode/labels.js';
import { tokenTransfers } from '../decode/transfers.js';
import type { Hex } from '../raw/types.js';
import type { RpcClient } from '../rpc/createRpcClient.js';
import type { TokenAnswers } from '../rpc/fetchTokenMeta.js';
import { blockOf } from './blockOf.js';
import { tokensToAsk } from './tokensToAsk.js';

export interface EarlyTokens {
  /** The block they were asked at (blockOf's form). */
  readonly block: string;
  /** The tokens asked, as tokensToAsk gave them. */
  readonly tokens: readonly Hex[];
  readonly answers: Promise<TokenAnswers>;
  /** fetchTokenMeta's warning where the ask failed (filled once `answers` settles). */
  readonly warnings: string[];
}

/** null: nothing to ask (no token to scale, or the address book knows each one). */
export function earlyTokenMeta(client: RpcClient, decoder: Decoder, head: TxHead, timeoutMs: number): EarlyTokens | null {
  const tokens = tokensToAsk(head, decoder.index, tokenTransfers(head.receipt?.logs ?? []), false, true);
  if (tokens.length === 0) return null;
  const block = blockOf(head);
  const warnings: string[] = [];
  const answers = import('../rpc/fetchTokenMeta.js').then((m) => m.fetchTokenMeta(client, tokens, block, timeoutMs, warnings));
  // Awaited by completeModel, or never where the lookup ends before it (not found, a failure).
  answers.catch(() => undefined);
  return { block, tokens, answers, warnings };
}
