/**
 * --state: what each token says of itself, symbol() and decimals() by eth_call at the transaction's
 * block, for at most MAX_TOKENS tokens, all in one JSON-RPC batch request. Best effort: when the node
 * refuses the batch or a call fails, those amounts are shown raw.
 */
import { Interrupted } from '../errors.js';
import type { Hex } from '../raw/types.js';
import type { RpcClient } from './createRpcClient.js';
import { messageOf } from './types.js';
import { deadlineSignal } from './deadline.js';
import { lowerHex } from '../raw/hex.js';

export const MAX_TOKENS = 32;
const SYMBOL = '0x95d89b41';
const DECIMALS = '0x313ce567';

/** token → the raw results of symbol() and decimals() (undefined where the call failed). */
export type TokenAnswers = Map<string, { readonly symbol?: unknown; readonly decimals?: unknown }>;

export async function fetchTokenMeta(client: RpcClient, tokens: readonly Hex[], block: string, timeoutMs: number, warnings: string[]): Promise<TokenAnswers> {
  const asked = [...new Set(tokens.map((t) => lowerHex(t)))].slice(0, MAX_TOKENS);
  const out: TokenAnswers = new Map();
  if (asked.length === 0) return out;
  const at = block;
  const calls = asked.flatMap((to) => [SYMBOL, DECIMALS].map((data) => ({ method: 'eth_call', params: [{ to, data }, at] })));
  try {
    const answers = await client.batch(calls, deadlineSignal(timeoutMs));
    asked.forEach((token, i) => {
      const [symbol, decimals] = [answers[2 * i]!, answers[2 * i + 1]!];
      out.set(token, { ...('result' in symbol ? { symbol: symbol.result } : {}), ...('result' in decimals ? { decimals: decimals.result } : {}) });
    });
  } catch (err) {
    if (err instanceof Interrupted) throw err;
    warnings.push(`token symbols and decimals could not be read (${messageOf(err)}); token amounts are shown raw.`);
  }
  return out;
}
