/**
 * --state: from the checked state diff to what changed per account (balances, nonces, code,
 * delegations, storage), each account tagged by its role, and how the fee split.
 *
 * ETH is conserved inside a transaction except for what is burned: the sender pays value and
 * gasUsed × effectiveGasPrice, the coinbase receives gasUsed × (effectiveGasPrice − baseFee), and the
 * base fee (and any blob fee) is gone. So the diff's ETH changes add up to minus the burned part. On an
 * OP Stack chain nothing is burned (the vaults get it all): they add up to 0, or a deposit's mint.
 */
import type { Warn } from '../raw/parseRaw.js';
import { toBig } from '../raw/hex.js';
import type { Hex, RpcAccountDiff, RpcBlockHeader, StateSource } from '../raw/types.js';
import { delegateOf } from './accountCode.js';
import { BASE_FEE_VAULT, L1_FEE_VAULT, SEQUENCER_FEE_VAULT } from './chain.js';
import { feeSplit } from './feeSplit.js';
import type { AccountChange, AccountRole, DelegationChange, Receipt, StateModel, Transaction } from './types.js';

const OP_FEE_VAULTS = new Set<string>([BASE_FEE_VAULT, SEQUENCER_FEE_VAULT, L1_FEE_VAULT]);
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
  tx: Transaction | null,
  receipt: Receipt | null,
  block: RpcBlockHeader | null,
  warn: Warn = () => undefined,
): StateModel {
  // An OP Stack chain shows itself in the diff where its answers did not (anvil --network optimism):
  // the base fee went to the BaseFeeVault, the L1 fee to the L1FeeVault.
  const vaults = diff.filter((d) => OP_FEE_VAULTS.has(d.address) && d.balance !== undefined && toBig(d.balance.after) > toBig(d.balance.before));
  const fee = feeSplit(tx, receipt, block, vaults.length > 0 ? 'op-stack' : undefined);
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
  let feeInDiff: boolean;
  let expectedSum: bigint | null;
  if (fee?.rules === 'op-stack') {
    // Nothing burned: every wei of the fee lands in a vault the diff shows; a deposit adds its mint.
    feeInDiff = fee.total === 0n || vaults.length > 0;
    expectedSum = fee.mint ?? 0n;
    if (!feeInDiff) warn(`the state diff shows none of the OP Stack fee vaults although the transaction paid a fee of ${fee.total} wei: this node leaves the fee out of its diff, so the sender's change lacks it.`);
    else if (ethSum !== expectedSum) warn(`the state diff's ETH changes add up to ${ethSum} wei, not to ${fee.mint === null ? '0 (an OP Stack chain burns nothing)' : `the ${expectedSum} wei the deposit minted`}: the diff may be incomplete.`);
  } else if (fee?.rules === 'arbitrum') {
    // Where Arbitrum's fee goes the answers do not say: no sum to check it against.
    feeInDiff = true;
    expectedSum = null;
  } else {
    const paid = fee === null ? 0n : fee.total + fee.blobFee;
    feeInDiff = !(ethSum === 0n && paid > 0n);
    expectedSum = fee?.burned == null ? null : -(fee.burned + fee.blobFee);
    if (!feeInDiff) {
      warn(`the state diff's ETH changes add up to 0 wei although the transaction paid a fee of ${paid} wei: this node leaves the fee out of its diff, so the sender's change lacks it.`);
    } else if (expectedSum !== null && ethSum !== expectedSum) {
      warn(`the state diff's ETH changes add up to ${ethSum} wei, not to minus the burned fee (${expectedSum} wei): the diff may be incomplete.`);
    }
  }
  return { source, accounts, balances, fee, feeInDiff, ethSum, expectedSum };
}
