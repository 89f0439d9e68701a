/**
 * Types guessed from call data's layout (decode/guessTypes.ts) and the decoder's use of them
 * (guessCallData): the shapes real calls take, what must not be guessed, and hostile layouts.
 */
import fc from 'fast-check';
import { encodeAbiParameters, encodeFunctionData, parseAbi, parseAbiParameters } from 'viem';
import { describe, expect, test } from 'vitest';
import { guessCallData } from '../../src/decode/callData.js';
import { guessTypes } from '../../src/decode/guessTypes.js';
import type { Hex } from '../../src/raw/types.js';

const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const USDT = '0xdac17f958d2ee523a2206206994597c13d831ec7';
const typesOf = (params: ReturnType<typeof guessTypes>): string[] | null =>
  params === null ? null : params.map((p) => (p.type.startsWith('tuple') ? `(${((p as { components: ReadonlyArray<{ type: string }> }).components).map((c) => c.type).join(',')})${p.type.slice(5)}` : p.type));

describe('layouts read back as the types that wrote them', () => {
  test.each([
    ['address,uint256,bytes', [USDC, 12n, '0xdeadbeef']],
    ['uint256[],address', [[1n, 2n, 3n], USDC]],
    ['bytes[],uint256', [['0x01', '0x0203'], 5n]],
    ['string', ['hello world']],
    ['bytes32,int256', [`0x${'ab'.repeat(32)}`, -5n]],
    ['uint256[][]', [[[1n], [2n, 3n]]]],
    ['bytes,bytes', ['0x', '0x00']],
    ['(address,uint256)[]', [[[USDC, 7n], [USDT, 8n]]]],
    ['address[],uint256,uint256', [[USDC, USDT], 100n, 1700000000n]],
  ])('%s', (types, values) => {
    const body = encodeAbiParameters(parseAbiParameters(types), values as readonly unknown[]);
    expect(typesOf(guessTypes(body))?.join(',')).toBe(types);
  });

  test('a struct with a dynamic member is a tuple', () => {
    const body = encodeAbiParameters(parseAbiParameters('(address,uint256,bytes),uint256'), [[USDC, 7n, '0x1234'], 9n]);
    expect(typesOf(guessTypes(body))).toEqual(['(address,uint256,bytes)', 'uint256']);
  });

  test('no arguments at all: an empty list, not null', () => {
    expect(guessTypes('0x')).toEqual([]);
  });
});

describe('what is not guessed', () => {
  test.each([
    ['a body that is not whole words', '0x1234'],
    ['33 bytes', `0x${'00'.repeat(33)}`],
    ['not hex', `0x${'zz'.repeat(32)}`],
    ['more than 32 KiB', `0x${'00'.repeat(32 * 1024 + 32)}`],
  ])('%s → null', (_, body) => {
    expect(guessTypes(body as Hex)).toBeNull();
  });

  test('guessCallData: a selector alone with a partial word is raw, not guessed', () => {
    expect(guessCallData('0xe10076ad1234' as Hex)).toBeNull();
    expect(guessCallData('0xe100' as Hex)).toBeNull();
  });
});

describe('guessCallData: the decoder\'s view', () => {
  test('name null, the selector, guessed, and args with a type and a value but no name', () => {
    const input = encodeFunctionData({ abi: parseAbi(['function mystery(address, uint256, bytes)']), args: [USDC, 12n, '0xbeef'] });
    const d = guessCallData(input);
    expect(d).toEqual({
      name: null,
      selector: input.slice(0, 10),
      guessed: true,
      signature: null,
      source: 'guessed',
      args: [
        { type: 'address', value: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48' },
        { type: 'uint256', value: '12' },
        { type: 'bytes', value: '0xbeef' },
      ],
    });
  });

  test('the same selector again reuses the types while they fit, and guesses afresh when they do not', () => {
    const abi = parseAbi(['function again(uint256, bytes)']);
    const a = guessCallData(encodeFunctionData({ abi, args: [1n, '0x01'] }));
    const b = guessCallData(encodeFunctionData({ abi, args: [2n, '0x0203'] }));
    expect(a?.args.map((x) => x.type)).toEqual(['uint256', 'bytes']);
    expect(b?.args.map((x) => x.value)).toEqual(['2', '0x0203']);
    const other = `${encodeFunctionData({ abi, args: [1n, '0x01'] }).slice(0, 10)}${'00'.repeat(31)}07` as Hex;
    expect(guessCallData(other)?.args).toEqual([{ type: 'uint256', value: '7' }]);
  });
});

describe('hostile layouts', () => {
  test('a maze of words that all look like offsets ends fast, with a guess or null', () => {
    for (const n of [8, 32, 64, 200]) {
      const words = Array.from({ length: n }, (_, i) => (32 * ((i % n) + 1)).toString(16).padStart(64, '0'));
      const started = performance.now();
      const g = guessTypes(`0x${words.join('')}` as Hex);
      expect(performance.now() - started).toBeLessThan(2000);
      if (g !== null) expect(Array.isArray(g)).toBe(true);
    }
  });

  test('whatever the types, a guess is kept only when it re-encodes to the very same bytes', () => {
    const word = fc.oneof(
      fc.bigInt({ min: 0n, max: (1n << 256n) - 1n }),
      fc.bigInt({ min: 0n, max: 1000n }),
      fc.constantFrom(32n, 64n, 96n, 128n, 160n, 192n),
    );
    fc.assert(
      fc.property(fc.array(word, { maxLength: 24 }), (ws) => {
        const input = `0x12345678${ws.map((w) => w.toString(16).padStart(64, '0')).join('')}` as Hex;
        const d = guessCallData(input);
        if (d === null) return;
        const types = d.args.map((a) => a.type);
        expect(types.every((t) => typeof t === 'string' && t.length > 0)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  test('real ABI encodings of random shapes are typed (not null) nearly always', () => {
    const scalar = fc.constantFrom('uint256', 'address', 'bytes32', 'bytes', 'string', 'uint256[]', 'address[]', 'bytes[]');
    const arbitraryOf = (t: string): fc.Arbitrary<unknown> =>
      t === 'uint256' ? fc.bigInt({ min: 0n, max: (1n << 96n) - 1n })
      : t === 'address' ? fc.constantFrom(USDC, USDT)
      : t === 'bytes32' ? fc.constantFrom(`0x${'ab'.repeat(32)}`, `0x${'7f'.repeat(32)}`)
      : t === 'bytes' ? fc.uint8Array({ maxLength: 70 }).map((b) => `0x${Buffer.from(b).toString('hex')}`)
      : t === 'string' ? fc.string({ maxLength: 40 })
      : t === 'uint256[]' ? fc.array(fc.bigInt({ min: 0n, max: 1n << 64n }), { maxLength: 5 })
      : t === 'address[]' ? fc.array(fc.constantFrom(USDC, USDT), { maxLength: 5 })
      : fc.array(fc.uint8Array({ maxLength: 40 }).map((b) => `0x${Buffer.from(b).toString('hex')}`), { maxLength: 4 });
    let typed = 0;
    let runs = 0;
    fc.assert(
      fc.property(
        fc.array(scalar, { minLength: 1, maxLength: 6 }).chain((types) => fc.tuple(fc.constant(types), fc.tuple(...types.map(arbitraryOf)))),
        ([types, values]) => {
          runs++;
          const body = encodeAbiParameters(parseAbiParameters(types.join(',')), values as unknown[]);
          const d = guessCallData(`0xfeedf00d${body.slice(2)}` as Hex);
          if (d !== null) typed++;
        },
      ),
      { numRuns: 400, seed: 17 },
    );
    expect(typed / runs).toBeGreaterThan(0.95);
  });
});
