/**
 * An EIP-7702 authorization's signer: ecrecover(keccak256(0x05 ‖ rlp([chainId, address, nonce])),
 * yParity, r, s), by viem. Imported on demand, so a lookup without authorizations never loads it.
 */
import { concat, keccak256, recoverAddress, toRlp } from 'viem';
import type { Authorization } from '../model/types.js';
import type { Hex } from '../raw/types.js';
import { lowerHex } from '../raw/hex.js';

/** secp256k1's order halved: EIP-7702 refuses a signature whose s is above it (EIP-2's rule). */
const HALF_N = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n;

/** The authority (lower case), or null where the signature is missing, out of range or recovers nothing. */
export async function recoverAuthority(a: Authorization): Promise<Hex | null> {
  const { chainId, nonce, yParity, r, s } = a;
  if (chainId === undefined || nonce === undefined || yParity === undefined || r === undefined || s === undefined) return null;
  if ((yParity !== 0n && yParity !== 1n) || r === 0n || s === 0n || s > HALF_N || r >= 2n ** 256n) return null;
  const word = (n: bigint): Hex => `0x${n.toString(16).padStart(64, '0')}`;
  // RLP writes zero as the empty string, every other integer without leading zeros.
  const int = (n: bigint): Hex => (n === 0n ? '0x' : `0x${n.toString(16).padStart(n.toString(16).length + (n.toString(16).length % 2), '0')}`);
  try {
    const hash = keccak256(concat(['0x05', toRlp([int(chainId), lowerHex(a.address), int(nonce)])]));
    const signer = await recoverAddress({ hash, signature: { r: word(r), s: word(s), yParity: Number(yParity) } });
    return lowerHex(signer);
  } catch {
    return null;
  }
}
