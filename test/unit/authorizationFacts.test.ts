import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, test } from 'vitest';
import { recoverAuthority } from '../../src/decode/recoverAuthority.js';
import { type AccountAt, authorizationFacts } from '../../src/model/authorizationFacts.js';
import type { Authorization } from '../../src/model/types.js';
import type { Hex } from '../../src/raw/types.js';

const A = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8' as Hex;
const B = '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc' as Hex;
const SENDER = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266' as Hex;
const D = '0x5fbdb2315678afecb367f032d93f642f64180aa3' as Hex;
const ZERO = '0x0000000000000000000000000000000000000000' as Hex;
const auth = (nonce: bigint, address: Hex = D, chainId = 31337n): Authorization => ({ chainId, address, nonce });
const state = (entries: Array<[Hex, bigint, Hex?]>) => ({ accounts: new Map<string, AccountAt>(entries.map(([a, nonce, code]) => [a, { nonce, code: code ?? '0x' }])) });

describe('authorizationFacts: applied as clients decide it, in list order', () => {
  test('the sender authorizing itself needs its nonce + 1; a second one of the same authority needs the next', () => {
    const facts = authorizationFacts([auth(4n), auth(5n), auth(5n)], [SENDER, SENDER, SENDER], SENDER, 31337n, state([[SENDER, 3n]]));
    expect(facts.map((f) => [f.applied, f.reason])).toEqual([
      [true, null],
      [true, null],
      [false, "nonce 5, the authority's was 6"],
    ]);
  });

  test('chain id 0 applies anywhere, another chain\'s never; a contract never delegates; a revocation is said', () => {
    const code = '0x6080' as Hex;
    const facts = authorizationFacts([auth(0n, ZERO, 0n), auth(0n, D, 1n), auth(0n)], [A, A, B], SENDER, 31337n, state([[A, 0n], [B, 0n, code]]));
    expect(facts).toEqual([
      { chainId: 0n, address: ZERO, nonce: 0n, authority: A, applied: true, reason: null, revocation: true },
      { chainId: 1n, address: D, nonce: 0n, authority: A, applied: false, reason: "chain id 1, not this chain's (31337)", revocation: false },
      { chainId: 31337n, address: D, nonce: 0n, authority: B, applied: false, reason: "the authority's account is a contract", revocation: false },
    ]);
  });

  test('an account already delegated may delegate again; no signer is not applied; an unknown state is null, never a guess', () => {
    const delegated = `0xef0100${D.slice(2)}` as Hex;
    expect(authorizationFacts([auth(2n)], [A], SENDER, 31337n, state([[A, 2n, delegated]]))[0]!.applied).toBe(true);
    expect(authorizationFacts([auth(2n)], [null], SENDER, 31337n, state([]))[0]).toMatchObject({ applied: false, authority: null });
    expect(authorizationFacts([auth(2n)], [A], SENDER, 31337n, { unknown: 'no state' })[0]).toMatchObject({ applied: null, reason: 'no state' });
    expect(authorizationFacts([auth(2n)], [A], SENDER, 31337n, state([]))[0]!.applied).toBeNull();
  });
});

describe('recoverAuthority', () => {
  test('the signer viem signed with; another nonce recovers someone else; a high s or a bad parity recovers nothing', async () => {
    const signer = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
    const signed = await signer.signAuthorization({ chainId: 0, contractAddress: D, nonce: 7 });
    const a = { chainId: 0n, address: D, nonce: 7n, yParity: BigInt(signed.yParity!), r: BigInt(signed.r), s: BigInt(signed.s) };
    expect(await recoverAuthority(a)).toBe(signer.address.toLowerCase());
    expect(await recoverAuthority({ ...a, nonce: 8n })).not.toBe(signer.address.toLowerCase());
    const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
    expect(await recoverAuthority({ ...a, s: N - a.s, yParity: 1n - a.yParity })).toBeNull();
    expect(await recoverAuthority({ ...a, yParity: 27n })).toBeNull();
    expect(await recoverAuthority({ chainId: 1n, address: D, nonce: 1n })).toBeNull();
  });
});
