/**
 * Whether each EIP-7702 authorization took effect, decided as clients decide it, in list order: its
 * chain id is 0 or the chain's, the signer recovers, the authority's account has no code or a
 * delegation, and its nonce equals the authority's nonce at that point. That nonce is the account's
 * before the transaction, plus one when the authority sent the transaction (the sender's nonce is
 * bumped before the list is processed), plus one per earlier authorization of it that applied.
 */
import type { Authorization, AuthorizationFact } from './types.js';
import { delegateOf } from './accountCode.js';
import type { Hex } from '../raw/types.js';

/** An account before the transaction: its nonce and code. */
export interface AccountAt {
  readonly nonce: bigint;
  readonly code: Hex;
}

/** The state the verdicts read: the authorities' accounts before the transaction, or why there are none. */
export type StateBefore = { readonly accounts: ReadonlyMap<string, AccountAt> } | { readonly unknown: string };

/** EIP-7702 caps the nonce below 2^64 − 1. */
const MAX_NONCE = 2n ** 64n - 1n;
const ZERO = /^0x0{40}$/i;

type Verdict = Pick<AuthorizationFact, 'applied' | 'reason'>;

/** The facts of one transaction's list; `authorities` recovered beside it, `chainId` the chain's (null: not known). */
export function authorizationFacts(list: readonly Authorization[], authorities: readonly (Hex | null)[], sender: Hex, chainId: bigint | null, state: StateBefore): AuthorizationFact[] {
  // The authorities' nonces and codes as the list changes them.
  const now = new Map<string, AccountAt>();
  const verdict = (a: Authorization, authority: Hex | null): Verdict => {
    if (a.chainId === undefined || a.nonce === undefined) return { applied: null, reason: 'the node did not give its chain id and nonce' };
    if (a.chainId !== 0n && chainId === null) return { applied: null, reason: 'the chain id is not known' };
    if (a.chainId !== 0n && a.chainId !== chainId) return { applied: false, reason: `chain id ${a.chainId}, not this chain's (${chainId})` };
    if (a.nonce >= MAX_NONCE) return { applied: false, reason: 'its nonce is out of range' };
    if (authority === null) return { applied: false, reason: 'its signature recovers no signer' };
    if ('unknown' in state) return { applied: null, reason: state.unknown };
    const before = now.get(authority) ?? state.accounts.get(authority);
    if (before === undefined) return { applied: null, reason: 'the node\'s state before the transaction does not list the authority' };
    const at = now.has(authority) || authority !== sender.toLowerCase() ? before : { ...before, nonce: before.nonce + 1n };
    if (at.code !== '0x' && delegateOf(at.code) === null) return { applied: false, reason: 'the authority\'s account is a contract' };
    if (at.nonce !== a.nonce) return { applied: false, reason: `nonce ${a.nonce}, the authority's was ${at.nonce}` };
    const code: Hex = ZERO.test(a.address) ? '0x' : `0xef0100${a.address.slice(2).toLowerCase()}`;
    now.set(authority, { nonce: at.nonce + 1n, code });
    return { applied: true, reason: null };
  };
  return list.map((a, i) => {
    const authority = authorities[i] ?? null;
    const base = { chainId: a.chainId ?? null, address: a.address, nonce: a.nonce ?? null, authority, revocation: ZERO.test(a.address) };
    return { ...base, ...verdict(a, authority) };
  });
}
