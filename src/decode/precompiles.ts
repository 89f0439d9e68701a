/**
 * Calls to the precompiled contracts, decoded by address: their input is not ABI call data (no
 * selector; most take packed bytes), so each has its own layout. A call whose input does not have the
 * length its precompile reads is left raw, as is anything at an address that is not a precompile.
 */
import type { Hex } from '../raw/types.js';

import { checksumAddress } from './keccak.js';
import type { Decoded, DecodedArg, JsonValue } from '../model/types.js';

export interface PrecompileCall {
  readonly function: Decoded;
  readonly outputs?: DecodedArg[];
}

const PRECOMPILE = 'precompile';
const word = (hex: string, i: number): string => hex.slice(i * 64, i * 64 + 64);
const bytes = (hex: string): string => `0x${hex}`;
const uint = (hex: string): string => (hex === '' ? '0' : BigInt(`0x${hex}`).toString());

function call(name: string, params: ReadonlyArray<readonly [string, string, JsonValue]>): Decoded {
  return {
    name,
    signature: `${name}(${params.map(([, type]) => type).join(',')})`,
    args: params.map(([argName, type, value]) => ({ name: argName, type, value })),
    source: 'builtin',
    contract: PRECOMPILE,
  };
}

/** The address a 32-byte word holds, when its top 12 bytes are zero. */
function addressWord(hex: string): string | null {
  return hex.length === 64 && /^0{24}/.test(hex) ? checksumAddress(`0x${hex.slice(24)}`) : null;
}

type DecodePrecompile = (input: string, output: string | null) => PrecompileCall | null;

const DECODERS: Record<string, DecodePrecompile> = {
  // ecrecover(hash, v, r, s) → the signer's address (nothing when the signature is invalid).
  '0x0000000000000000000000000000000000000001': (input, output) => {
    if (input.length !== 4 * 64) return null;
    const fn = call('ecrecover', [['hash', 'bytes32', bytes(word(input, 0))], ['v', 'uint256', uint(word(input, 1))], ['r', 'bytes32', bytes(word(input, 2))], ['s', 'bytes32', bytes(word(input, 3))]]);
    const signer = output === null ? null : addressWord(output);
    return signer === null ? { function: fn } : { function: fn, outputs: [{ name: 'signer', type: 'address', value: signer }] };
  },
  '0x0000000000000000000000000000000000000002': (input, output) => ({
    function: call('sha256', [['data', 'bytes', bytes(input)]]),
    ...(output?.length === 64 ? { outputs: [{ name: 'hash', type: 'bytes32', value: bytes(output) }] } : {}),
  }),
  '0x0000000000000000000000000000000000000003': (input, output) => ({
    function: call('ripemd160', [['data', 'bytes', bytes(input)]]),
    ...(output?.length === 64 && /^0{24}/.test(output) ? { outputs: [{ name: 'hash', type: 'bytes20', value: bytes(output.slice(24)) }] } : {}),
  }),
  '0x0000000000000000000000000000000000000004': (input) => ({ function: call('identity', [['data', 'bytes', bytes(input)]]) }),
  // modexp: three lengths, then base, exponent and modulus packed at those lengths.
  '0x0000000000000000000000000000000000000005': (input, output) => {
    if (input.length < 3 * 64) return null;
    const [b, e, m] = [0, 1, 2].map((i) => BigInt(`0x${word(input, i)}`));
    if (b! + e! + m! !== BigInt(input.length / 2 - 96)) return null;
    const at = 192;
    const base = input.slice(at, at + Number(b) * 2);
    const exponent = input.slice(at + base.length, at + base.length + Number(e) * 2);
    const modulus = input.slice(at + base.length + exponent.length);
    return {
      function: call('modexp', [['base', 'bytes', bytes(base)], ['exponent', 'bytes', bytes(exponent)], ['modulus', 'bytes', bytes(modulus)]]),
      ...(output !== null && output.length > 0 ? { outputs: [{ name: 'result', type: 'bytes', value: bytes(output) }] } : {}),
    };
  },
  '0x0000000000000000000000000000000000000006': (input, output) => {
    if (input.length !== 4 * 64) return null;
    return withPoint(call('ecAdd', [['x1', 'uint256', uint(word(input, 0))], ['y1', 'uint256', uint(word(input, 1))], ['x2', 'uint256', uint(word(input, 2))], ['y2', 'uint256', uint(word(input, 3))]]), output);
  },
  '0x0000000000000000000000000000000000000007': (input, output) => {
    if (input.length !== 3 * 64) return null;
    return withPoint(call('ecMul', [['x', 'uint256', uint(word(input, 0))], ['y', 'uint256', uint(word(input, 1))], ['scalar', 'uint256', uint(word(input, 2))]]), output);
  },
  // ecPairing: pairs of (G1, G2) points, 192 bytes each → 1 when the pairing check holds.
  '0x0000000000000000000000000000000000000008': (input, output) => {
    if (input.length % 384 !== 0) return null;
    const fn = call('ecPairing', [['pairs', 'uint256', String(input.length / 384)], ['points', 'bytes', bytes(input)]]);
    return output?.length === 64 ? { function: fn, outputs: [{ name: 'success', type: 'bool', value: BigInt(`0x${output}`) === 1n }] } : { function: fn };
  },
  // blake2f: rounds (4 bytes), h (64), m (128), t (16), final flag (1).
  '0x0000000000000000000000000000000000000009': (input) => {
    if (input.length !== 213 * 2) return null;
    const f = input.slice(424, 426);
    if (f !== '00' && f !== '01') return null;
    return {
      function: call('blake2f', [['rounds', 'uint32', uint(input.slice(0, 8))], ['h', 'bytes', bytes(input.slice(8, 136))], ['m', 'bytes', bytes(input.slice(136, 392))], ['t', 'bytes', bytes(input.slice(392, 424))], ['final', 'bool', f === '01']]),
    };
  },
  // EIP-4844 point evaluation: versioned hash, z, y (32 bytes each), commitment and proof (48 each).
  '0x000000000000000000000000000000000000000a': (input) => {
    if (input.length !== 192 * 2) return null;
    return {
      function: call('pointEvaluation', [['versionedHash', 'bytes32', bytes(input.slice(0, 64))], ['z', 'bytes32', bytes(input.slice(64, 128))], ['y', 'bytes32', bytes(input.slice(128, 192))], ['commitment', 'bytes', bytes(input.slice(192, 288))], ['proof', 'bytes', bytes(input.slice(288))]]),
    };
  },
  // RIP-7212 / EIP-7951 P-256 verification: hash, r, s, x, y → 1 when valid (nothing otherwise).
  '0x0000000000000000000000000000000000000100': (input, output) => {
    if (input.length !== 5 * 64) return null;
    const fn = call('p256Verify', ['hash', 'r', 's', 'x', 'y'].map((name, i) => [name, 'bytes32', bytes(word(input, i))] as const));
    return output?.length === 64 ? { function: fn, outputs: [{ name: 'valid', type: 'bool', value: BigInt(`0x${output}`) === 1n }] } : { function: fn };
  },
};

function withPoint(fn: Decoded, output: string | null): PrecompileCall {
  if (output?.length !== 128) return { function: fn };
  return { function: fn, outputs: [{ name: 'x', type: 'uint256', value: uint(word(output, 0)) }, { name: 'y', type: 'uint256', value: uint(word(output, 1)) }] };
}

/** A precompile call decoded by its address, or null (not a precompile this knows, or an input it does not read). */
export function decodePrecompile(to: Hex, input: Hex, output: Hex | null): PrecompileCall | null {
  const decode = DECODERS[to.toLowerCase()];
  if (decode === undefined) return null;
  const body = input.slice(2).toLowerCase();
  if (!/^[0-9a-f]*$/.test(body) || body.length % 2 !== 0) return null;
  const out = output === null ? null : output.slice(2).toLowerCase();
  return decode(body, out !== null && /^[0-9a-f]*$/.test(out) ? out : null);
}

/** Whether an address is one of the precompiles decoded here. */
export const isPrecompile = (to: string): boolean => to.startsWith('0x00000000000000000000000000000000000') && DECODERS[to.toLowerCase()] !== undefined;
