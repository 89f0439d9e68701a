/**
 * `txray call --tx` at its position: the EVM checks the sender's balance and nonce, and that the gas
 * limit covers the intrinsic gas, before it runs a transaction, as a node does before it takes one (an
 * override or --gas-limit can make one fail). Its refusal is the node's kind of answer, in the node's
 * words (geth's and anvil's), exit 5; anything else is no refusal (null).
 */
import { RpcFailure } from '../errors.js';
import { groupDigits } from '../format/format.js';

export function refusedRun(err: unknown, sender: string): RpcFailure | null {
  if (!(err instanceof Error)) return null;
  const who = `the sender ${sender}`;
  const funds = /doesn't have enough funds.*upfront cost is: (\d+).*only has: (\d+)/s.exec(err.message);
  if (funds !== null) {
    return new RpcFailure('rpc-error', `--tx: insufficient funds for gas * price + value at its position: ${who} has ${groupDigits(BigInt(funds[2]!))} wei and it needs ${groupDigits(BigInt(funds[1]!))} wei; nothing was run.`);
  }
  const nonce = /doesn't have the correct nonce.*account has nonce of: (\d+).*tx has nonce of: (\d+)/s.exec(err.message);
  if (nonce !== null) {
    const [account, tx] = [nonce[1]!, nonce[2]!];
    return new RpcFailure('rpc-error', `--tx: nonce too ${BigInt(tx) < BigInt(account) ? 'low' : 'high'} at its position: ${who} is at nonce ${account} and the transaction has ${tx}; nothing was run.`);
  }
  const floor = /minimum gas limit of (\d+)/.exec(err.message);
  const limit = /tx gas limit (\d+)|the gas limit is: (\d+)/.exec(err.message);
  if (floor !== null && limit !== null) {
    return new RpcFailure('rpc-error', `--tx: intrinsic gas too low at its position: the gas limit is ${groupDigits(BigInt(limit[1] ?? limit[2]!))} and it needs at least ${groupDigits(BigInt(floor[1]!))}; nothing was run.`);
  }
  return null;
}
