/**
 * What an account's code and storage say about which code runs on it: an EIP-7702 delegation, the
 * EIP-1967 implementation slot. Shared by the --state stages (model, decode) and the code lookups.
 */
import type { Hex } from '../raw/types.js';

/** EIP-1967: the proxy slot holding the implementation's address (keccak256("eip1967.proxy.implementation") − 1). */
export const EIP1967_IMPLEMENTATION = '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc';

/** EIP-7702: a delegated account's code is exactly 0xef0100 followed by the 20-byte address. */
const DELEGATION = /^0xef0100([0-9a-f]{40})$/;

export const delegateOf = (code: Hex | undefined): Hex | null => {
  const m = code === undefined ? null : DELEGATION.exec(code.toLowerCase());
  return m ? `0x${m[1]}` : null;
};
