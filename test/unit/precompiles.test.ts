/**
 * Precompile calls decoded by address (decode/precompiles.ts): each layout with values computed
 * independently (viem signs and hashes), and inputs of the wrong length left raw.
 */
import { encodePacked, keccak256, sha256, toHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, test } from 'vitest';
import { decodePrecompile, isPrecompile } from '../../src/decode/precompiles.js';
import type { Hex } from '../../src/raw/types.js';

const at = (n: number): Hex => `0x${n.toString(16).padStart(40, '0')}` as Hex;
const word = (v: bigint | number): string => BigInt(v).toString(16).padStart(64, '0');

describe('precompiles by address', () => {
  test('ecrecover: hash, v, r, s in; the signer out', async () => {
    const account = privateKeyToAccount(`0x${'11'.repeat(32)}`);
    const hash = keccak256(toHex('txray'));
    const sig = await account.sign({ hash });
    const r = sig.slice(2, 66);
    const s = sig.slice(66, 130);
    const v = parseInt(sig.slice(130, 132), 16);
    const input = `0x${hash.slice(2)}${word(v)}${r}${s}` as Hex;
    const output = `0x${'00'.repeat(12)}${account.address.slice(2).toLowerCase()}` as Hex;
    const d = decodePrecompile(at(1), input, output);
    expect(d?.function).toMatchObject({ name: 'ecrecover', source: 'builtin', contract: 'precompile', args: [{ name: 'hash', value: hash }, { name: 'v', value: String(v) }, { name: 'r', value: `0x${r}` }, { name: 's', value: `0x${s}` }] });
    expect(d?.outputs).toEqual([{ name: 'signer', type: 'address', value: account.address }]);
    // An invalid signature returns nothing: no output, the call still decoded.
    expect(decodePrecompile(at(1), input, '0x')?.outputs).toBeUndefined();
    expect(decodePrecompile(at(1), `${input}00` as Hex, output)).toBeNull();
  });

  test('sha256, ripemd160 and identity take raw bytes', () => {
    const data = toHex('hello');
    expect(decodePrecompile(at(2), data, sha256(data))).toEqual({
      function: { name: 'sha256', signature: 'sha256(bytes)', args: [{ name: 'data', type: 'bytes', value: data }], source: 'builtin', contract: 'precompile' },
      outputs: [{ name: 'hash', type: 'bytes32', value: sha256(data) }],
    });
    const rip = `0x${'00'.repeat(12)}${'ab'.repeat(20)}` as Hex;
    expect(decodePrecompile(at(3), data, rip)?.outputs).toEqual([{ name: 'hash', type: 'bytes20', value: `0x${'ab'.repeat(20)}` }]);
    expect(decodePrecompile(at(4), data, data)?.function.args).toEqual([{ name: 'data', type: 'bytes', value: data }]);
  });

  test('modexp: three lengths, then base, exponent and modulus at those lengths', () => {
    const input = `0x${word(1)}${word(2)}${word(1)}03${'0005'}07` as Hex;
    expect(decodePrecompile(at(5), input, '0x06')).toMatchObject({
      function: { name: 'modexp', args: [{ name: 'base', value: '0x03' }, { name: 'exponent', value: '0x0005' }, { name: 'modulus', value: '0x07' }] },
      outputs: [{ name: 'result', value: '0x06' }],
    });
    expect(decodePrecompile(at(5), `${input}ff` as Hex, null)).toBeNull(); // the lengths do not add up
  });

  test('ecAdd, ecMul and ecPairing on the alt_bn128 curve', () => {
    const g = `${word(1)}${word(2)}`;
    expect(decodePrecompile(at(6), `0x${g}${g}` as Hex, `0x${word(3)}${word(4)}` as Hex)).toMatchObject({ function: { name: 'ecAdd', args: [{ name: 'x1', value: '1' }, { name: 'y1', value: '2' }, { name: 'x2' }, { name: 'y2' }] }, outputs: [{ name: 'x', value: '3' }, { name: 'y', value: '4' }] });
    expect(decodePrecompile(at(7), `0x${g}${word(5)}` as Hex, null)?.function).toMatchObject({ name: 'ecMul', args: [{ name: 'x' }, { name: 'y' }, { name: 'scalar', value: '5' }] });
    expect(decodePrecompile(at(8), `0x${'00'.repeat(384)}` as Hex, `0x${word(1)}` as Hex)).toMatchObject({ function: { name: 'ecPairing', args: [{ name: 'pairs', value: '2' }, { name: 'points' }] }, outputs: [{ name: 'success', value: true }] });
    expect(decodePrecompile(at(8), `0x${'00'.repeat(100)}` as Hex, null)).toBeNull();
  });

  test('blake2f, point evaluation and p256Verify: their fixed layouts', () => {
    const blake = `0x0000000c${'aa'.repeat(64)}${'bb'.repeat(128)}${'cc'.repeat(16)}01` as Hex;
    expect(decodePrecompile(at(9), blake, null)?.function).toMatchObject({ name: 'blake2f', args: [{ name: 'rounds', value: '12' }, { name: 'h' }, { name: 'm' }, { name: 't' }, { name: 'final', value: true }] });
    expect(decodePrecompile(at(9), `${blake.slice(0, -2)}02` as Hex, null)).toBeNull(); // the flag is 0 or 1
    const point = encodePacked(['bytes32', 'bytes32', 'bytes32'], [`0x${'01'.repeat(32)}`, `0x${'02'.repeat(32)}`, `0x${'03'.repeat(32)}`]);
    const evaluation = `${point}${'04'.repeat(48)}${'05'.repeat(48)}` as Hex;
    expect(decodePrecompile(at(10), evaluation, null)?.function.args.map((a) => [a.name, (a.value as string).length])).toEqual([['versionedHash', 66], ['z', 66], ['y', 66], ['commitment', 98], ['proof', 98]]);
    const p256 = `0x${'01'.repeat(160)}` as Hex;
    expect(decodePrecompile(at(0x100), p256, `0x${word(1)}` as Hex)).toMatchObject({ function: { name: 'p256Verify', args: [{ name: 'hash' }, { name: 'r' }, { name: 's' }, { name: 'x' }, { name: 'y' }] }, outputs: [{ name: 'valid', value: true }] });
  });

  test('other addresses and malformed hex are not precompile calls', () => {
    expect(isPrecompile(at(1))).toBe(true);
    expect(isPrecompile(at(0x12))).toBe(false);
    expect(decodePrecompile(at(0x12), '0x00', null)).toBeNull();
    expect(decodePrecompile(at(2), '0xzz' as Hex, null)).toBeNull();
  });
});
