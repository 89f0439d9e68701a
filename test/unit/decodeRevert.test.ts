import fc from 'fast-check';
import { encodeErrorResult, parseAbi } from 'viem';
import { describe, expect, test } from 'vitest';
import { decodeRevert, describeRevert } from '../../src/model/decodeRevert.js';
import { formatEth, formatGwei, formatUnits, groupDigits, percent, shortHex } from '../../src/format/format.js';

const abi = parseAbi(['error Error(string)', 'error Panic(uint256)', 'error Nope(address who, uint256 have)']);
const errorData = (s: string) => encodeErrorResult({ abi, errorName: 'Error', args: [s] });
const panicData = (n: bigint) => encodeErrorResult({ abi, errorName: 'Panic', args: [n] });

describe('decodeRevert', () => {
  test.each([
    ['Error(string)', errorData('not enough tokens'), 'Error: not enough tokens'],
    ['Error(string) empty message', errorData(''), 'Error: '],
    ['Panic assert', panicData(1n), 'Panic(0x01): assertion failed'],
    ['Panic overflow', panicData(0x11n), 'Panic(0x11): arithmetic overflow or underflow'],
    ['Panic division', panicData(0x12n), 'Panic(0x12): division or modulo by zero'],
    ['Panic enum', panicData(0x21n), 'Panic(0x21): invalid enum value'],
    ['Panic pop', panicData(0x31n), 'Panic(0x31): pop on an empty array'],
    ['Panic index', panicData(0x32n), 'Panic(0x32): array index out of bounds'],
    ['Panic memory', panicData(0x41n), 'Panic(0x41): out of memory (too much allocated)'],
    ['Panic function pointer', panicData(0x51n), 'Panic(0x51): call to a zero-initialised function pointer'],
    ['Panic unknown', panicData(0x99n), 'Panic(0x99): unknown panic code'],
    ['custom error', encodeErrorResult({ abi, errorName: 'Nope', args: [`0x${'12'.repeat(20)}`, 5n] }), 'custom error 0x'],
    ['no data', '0x', 'reverted without data'],
    ['bare string', `0x${Buffer.from('plain words').toString('hex')}`, '"plain words"'],
    ['short data', '0x1234', 'revert data 0x1234'],
    ['Error(string) with a lying length falls back to raw', `0x08c379a0${'0'.repeat(62)}20${'f'.repeat(64)}`, 'custom error 0x08c379a0'],
    ['Error(string) with a lying offset falls back to raw', `0x08c379a0${'f'.repeat(64)}`, 'custom error 0x08c379a0'],
  ])('%s', (_name, data, expected) => {
    expect(describeRevert(decodeRevert(data as `0x${string}`)).startsWith(expected)).toBe(true);
  });
});

describe('format', () => {
  test('property: groupDigits groups as en-US does, negatives and numbers included', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 80n), max: 10n ** 80n }), (n) => {
        expect(groupDigits(n)).toBe(n.toLocaleString('en-US'));
        if (n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER)) expect(groupDigits(Number(n))).toBe(n.toLocaleString('en-US'));
      }),
      { numRuns: 2000 },
    );
    for (const n of [0n, 7n, 999n, 1000n, -1000n, 123456n, 1234567n]) expect(groupDigits(n)).toBe(n.toLocaleString('en-US'));
  });

  test.each([
    [0n, '0 ETH'],
    [1500000000000000000n, '1.5 ETH'],
    [1n, '0.000000000000000001 ETH (1 wei)'],
    [1234567000000000000000n, '1,234.567 ETH'],
  ])('formatEth(%s)', (wei, text) => expect(formatEth(wei)).toBe(text));
  test('gwei, units, percent, shortHex', () => {
    expect(formatGwei(1_500_000_000n)).toBe('1.5 gwei');
    expect(formatUnits(-5n, 1)).toBe('-0.5');
    expect(percent(21_000n, 30_000n)).toBe('70.0%');
    expect(percent(1n, 0n)).toBe('–');
    expect(shortHex(`0x${'ab'.repeat(41)}`)).toBe('0xabababab…abababab (41 bytes)');
    expect(shortHex('0xa9059cbb')).toBe('0xa9059cbb');
  });
});
