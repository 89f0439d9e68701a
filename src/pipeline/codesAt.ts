/**
 * Code by address, for naming contracts by artifact and placing failed frames in their source.
 */
import { Interrupted } from '../errors.js';
import { isData } from '../raw/hex.js';
import type { Hex } from '../raw/types.js';
import type { RpcClient } from '../rpc/createRpcClient.js';
import { deadlineSignal } from '../rpc/deadline.js';

/** The runtime code of `asked` at `block`, in one batch request (one by one where the node refuses batches); best effort. */
export async function codesAt(client: RpcClient, asked: readonly string[], block: string, timeoutMs: number): Promise<Map<string, Hex>> {
  const deadline = deadlineSignal(timeoutMs);
  const codes = new Map<string, Hex>();
  if (asked.length === 0) return codes;
  // One batch request; a node that refuses batches is asked one by one instead.
  let answers: unknown[];
  try {
    answers = (await client.batch(asked.map((address) => ({ method: 'eth_getCode', params: [address, block] })), deadline)).map((a) => ('result' in a ? a.result : undefined));
  } catch (err) {
    if (err instanceof Interrupted) throw err;
    answers = await Promise.all(
      asked.map((address) =>
        client.call('eth_getCode', [address, block], deadline).catch((e: unknown) => {
          if (e instanceof Interrupted) throw e;
          return undefined;
        }),
      ),
    );
  }
  asked.forEach((address, i) => {
    const code = answers[i];
    if (isData(code)) codes.set(address, code);
  });
  return codes;
}
