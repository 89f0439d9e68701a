/**
 * --state: from the checked state diff to what changed per account (balances, nonces, code,
 * delegations, storage), each account tagged by its role, and how the fee split.
 *
 * ETH is conserved inside a transaction except for what is burned: the sender pays value and
 * gasUsed × effectiveGasPrice, the coinbase receives gasUsed × (effectiveGasPrice − baseFee), and the
 * base fee (and any blob fee) is gone. So the diff's ETH changes add up to minus the burned part.
 */
import type { Warn } from '../raw/parseRaw.js';
import { toBig } from '../raw/hex.js';
import type { Hex, RpcAccountDiff, RpcBlockHeader, RpcReceipt, RpcTransaction, StateSource } from '../raw/types.js';
import { delegateOf } from './accountCode.js';
import { feeSplit } from './feeSplit.js';
import type { AccountChange, AccountRole, DelegationChange, StateModel } from './types.js';

const size = (code: Hex): number => Math.floor((code.length - 2) / 2);
const abs = (n: bigint): bigint => (n < 0n ? -n : n);

function delegationOf(d: RpcAccountDiff): DelegationChange | null {
  if (d.code === undefined) return null;
  const before = delegateOf(d.code.before);
  const after = delegateOf(d.code.after);
  return before === null && after === null ? null : { before, after };
}

export function buildState(
  source: StateSource,
  diff: readonly RpcAccountDiff[],
  tx: RpcTransaction | null,
  receipt: RpcReceipt | null,
  block: RpcBlockHeader | null,
  warn: Warn = () => undefined,
): StateModel {
  const fee = feeSplit(tx, receipt, block);
  const sender = tx?.from.toLowerCase();
  const recipient = (tx?.to ?? receipt?.contractAddress ?? undefined)?.toLowerCase();
  const accounts: AccountChange[] = diff.map((d) => {
    const delegation = delegationOf(d);
    const code = d.code === undefined ? null : { before: size(d.code.before), after: size(d.code.after) };
    const created = code !== null && code.before === 0 && code.after > 0 && delegation?.after == null;
    const destroyed = !d.existsAfter || (code !== null && code.before > 0 && code.after === 0 && delegation?.before == null);
    const roles: AccountRole[] = [];
    if (d.address === sender) roles.push('sender');
    if (d.address === recipient) roles.push('recipient');
    if (fee?.coinbase != null && d.address === fee.coinbase) roles.push('coinbase');
    if (created) roles.push('created');
    else if (!d.existedBefore && d.existsAfter) roles.push('new');
    if (destroyed) roles.push('destroyed');
    return {
      address: d.address,
      roles,
      balance: d.balance === undefined ? null : { before: toBig(d.balance.before), after: toBig(d.balance.after) },
      nonce: d.nonce === undefined ? null : { before: toBig(d.nonce.before), after: toBig(d.nonce.after) },
      code,
      delegation,
      storage: d.storage,
      ...(d.knownCode !== undefined ? { knownCode: d.knownCode } : {}),
    };
  });
  const senderFirst = (a: AccountChange, b: AccountChange): number => Number(b.address === sender) - Number(a.address === sender);
  accounts.sort((a, b) => senderFirst(a, b) || (a.address < b.address ? -1 : 1));
  const change = (a: AccountChange): bigint => (a.balance === null ? 0n : a.balance.after - a.balance.before);
  const balances = accounts
    .filter((a) => a.balance !== null)
    .sort((a, b) => senderFirst(a, b) || (abs(change(b)) > abs(change(a)) ? 1 : abs(change(b)) < abs(change(a)) ? -1 : a.address < b.address ? -1 : 1));
  const ethSum = balances.reduce((n, a) => n + change(a), 0n);
  const feeInDiff = !(ethSum === 0n && fee !== null && fee.total + fee.blobFee > 0n);
  const expectedSum = fee?.burned == null ? null : -(fee.burned + fee.blobFee);
  if (!feeInDiff) {
    warn(`the state diff's ETH changes add up to 0 wei although the transaction paid a fee of ${fee!.total + fee!.blobFee} wei: this node leaves the fee out of its diff, so the sender's change lacks it.`);
  } else if (expectedSum !== null && ethSum !== expectedSum) {
    warn(`the state diff's ETH changes add up to ${ethSum} wei, not to minus the burned fee (${expectedSum} wei): the diff may be incomplete.`);
  }
  return { source, accounts, balances, fee, feeInDiff, ethSum, expectedSum };
}
