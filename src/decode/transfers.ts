/**
 * The money flow: token transfers from the logs (ERC-20, ERC-721, ERC-1155) and native value from the
 * call tree. The start of what a transaction did (who sent what to whom), read by the views as is.
 */
import { decodeAbiParameters } from 'viem';
import type { CallNode, Transfer } from '../model/types.js';
import { walkCalls } from '../model/walk.js';
import { byteLength, lowerHex, toBig, wordToAddress, ZERO_WORD } from '../raw/hex.js';
import type { Hex, RpcLog } from '../raw/types.js';

/** Where minted tokens come from and burned ones go. */
export const ZERO_ADDRESS: Hex = '0x0000000000000000000000000000000000000000';
/** ERC-20 Approval(owner, spender, value). */
export const APPROVAL = '0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925';
/** WETH9's Deposit(address indexed dst, uint256 wad) and Withdrawal(address indexed src, uint256 wad). */
export const DEPOSIT = '0xe1fffcc4923d04b559f4d29a8bfc6cda04eb5b0d3c460751c2402c5c5cc9109c';
export const WITHDRAWAL = '0x7fcf532c15f0a6db0bd6d0e038bea71d30d808c7d98cb3bf7268a95bf5081b65';

/**
 * Tokens the logs name without a Transfer, which the views still show by symbol: those of ERC-20
 * Approvals (given by `owner`, when one is named) and the wrapped-native token of a Deposit or Withdrawal.
 */
export function tokensOfLogs(logs: readonly RpcLog[], owner?: string): Hex[] {
  const out: Hex[] = [];
  for (const l of logs) {
    const t0 = l.topics[0]?.toLowerCase();
    const t1 = l.topics[1];
    if (t0 === APPROVAL && l.topics.length === 3 && t1 !== undefined && (owner === undefined || wordToAddress(t1).toLowerCase() === owner.toLowerCase())) out.push(l.address);
    else if ((t0 === DEPOSIT || t0 === WITHDRAWAL) && l.topics.length === 2) out.push(l.address);
  }
  return out;
}

/** ERC-20's and ERC-721's Transfer(from, to, amount or id). */
export const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
const TRANSFER_SINGLE = '0xc3d58168c5ae7397731d063d5bbf3d657854427343f4c083240f7aacaa2d0f62';
const TRANSFER_BATCH = '0x4a39dc06d4c0dbc64b70af90fd698a233a518aa5d07e595d983b8c0526c8f7fb';


export function tokenTransfers(logs: readonly RpcLog[]): Transfer[] {
  const out: Transfer[] = [];
  for (const log of logs) {
    const first = log.topics[0]?.toLowerCase();
    if (first !== TRANSFER && first !== TRANSFER_SINGLE && first !== TRANSFER_BATCH) continue; // most logs: no copies made
    // Three topics then t1 and t2 are there, four then t3 too (the conditions below say so to the types).
    // ZERO_WORD stands for a topic the log does not have; never read, as each branch below checks the topic count first.
    const [t0, t1 = ZERO_WORD, t2 = ZERO_WORD, t3 = ZERO_WORD] = log.topics.map(lowerHex);
    if (t0 === TRANSFER && log.topics.length === 3 && byteLength(log.data) === 32) {
      out.push({ kind: 'ERC-20', token: log.address, from: wordToAddress(t1), to: wordToAddress(t2), amount: toBig(log.data) });
    } else if (t0 === TRANSFER && log.topics.length === 4 && byteLength(log.data) === 0) {
      out.push({ kind: 'ERC-721', token: log.address, from: wordToAddress(t1), to: wordToAddress(t2), amount: 1n, tokenId: BigInt(t3).toString() });
    } else if (t0 === TRANSFER_SINGLE && log.topics.length === 4 && byteLength(log.data) === 64) {
      out.push({ kind: 'ERC-1155', token: log.address, from: wordToAddress(t2), to: wordToAddress(t3), tokenId: BigInt(log.data.slice(0, 66)).toString(), amount: BigInt(`0x${log.data.slice(66)}`) });
    } else if (t0 === TRANSFER_BATCH && log.topics.length === 4) {
      try {
        const [ids, values] = decodeAbiParameters([{ type: 'uint256[]' }, { type: 'uint256[]' }], log.data);
        for (const [i, id] of ids.entries()) out.push({ kind: 'ERC-1155', token: log.address, from: wordToAddress(t2), to: wordToAddress(t3), tokenId: id.toString(), amount: values[i] ?? 0n });
      } catch {
        /* malformed batch: not a transfer we can read */
      }
    }
  }
  return out;
}

/** Value that really moved: calls (not delegate/static), creates and selfdestructs outside any failed subtree. */
export function nativeTransfers(root: CallNode): Transfer[] {
  const out: Transfer[] = [];
  walkCalls(root, (n) => {
    if (n.error !== null) return false; // reverted: nothing under it moved
    const value = n.value ?? 0n;
    const moves = n.type === 'suicide' || n.type === 'create' || (n.type === 'call' && (n.callType === undefined || n.callType === 'call'));
    if (value > 0n && moves && n.from !== null && n.to !== null) out.push({ kind: 'ETH', from: n.from, to: n.to, amount: value });
  });
  return out;
}

