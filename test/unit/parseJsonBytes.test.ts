/**
 * parseJsonBytes parses a large answer in slices cut at `},{`: whatever the bytes, it gives what
 * JSON.parse of their text gives, or throws where JSON.parse throws, and leaves the bytes as they were.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parseJsonBytes } from '../../src/rpc/parseJsonBytes.js';

/** Bytes past the size where slicing starts (1 MiB). */
const MIB = 1 << 20;

/** JSON.parse of the text, or the error's class where it throws. */
function outcomeOf(parse: () => unknown): unknown {
  try {
    return { value: parse() };
  } catch (err) {
    return { threw: (err as Error).constructor.name };
  }
}

/** parseJsonBytes agrees with JSON.parse on this text, and the buffer is unchanged after it. */
function expectSameAsJsonParse(text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  const copy = Buffer.from(bytes);
  expect(outcomeOf(() => parseJsonBytes(bytes))).toEqual(outcomeOf(() => JSON.parse(text)));
  expect(bytes.equals(copy)).toBe(true);
}

/** A Parity-style trace entry, `extra` in a string field. */
const entry = (i: number, extra = ''): Record<string, unknown> => ({
  action: { from: `0x${'11'.repeat(20)}`, callType: 'call', gas: '0x5208', input: `0x${i.toString(16).padStart(64, '0')}`, to: `0x${'22'.repeat(20)}`, value: '0x0' },
  blockHash: `0x${'ab'.repeat(32)}`,
  result: { gasUsed: '0x10', output: '0x' },
  subtraces: 0,
  traceAddress: [i],
  type: 'call',
  ...(extra === '' ? {} : { error: extra }),
});

/** A JSON-RPC answer whose result is n trace entries (about 550 bytes each). */
const traceAnswer = (n: number, extra: (i: number) => string = () => ''): string =>
  JSON.stringify({ jsonrpc: '2.0', id: 3, result: Array.from({ length: n }, (_, i) => entry(i, extra(i))) });

describe('parseJsonBytes: what JSON.parse gives, for any bytes', () => {
  test('a trace answer of several MB (many slices) and a receipt whose logs sit among other fields', () => {
    expectSameAsJsonParse(traceAnswer(12_000));
    const log = (i: number) => ({ address: `0x${'33'.repeat(20)}`, topics: [`0x${'44'.repeat(32)}`, `0x${i.toString(16).padStart(64, '0')}`], data: '0x', logIndex: `0x${i.toString(16)}` });
    const receipt = { jsonrpc: '2.0', id: 2, result: { type: '0x2', status: '0x1', logs: Array.from({ length: 8_000 }, (_, i) => log(i)), logsBloom: `0x${'00'.repeat(256)}`, to: null } };
    expectSameAsJsonParse(JSON.stringify(receipt));
  });

  test('strings that hold the bytes slices are cut at (`},{`, `}]`, `[{`), escaped quotes, backslashes and non-ASCII text', () => {
    const tricky = ['},{', '}]', '[{', '"},{"a":1}]', '\\', '\\"},{', 'ü €  😀 },{', '\u0000txray: the array'];
    expectSameAsJsonParse(traceAnswer(4_000, (i) => tricky[i % tricky.length]!));
    // Now and then (sliced, each such cut and end passed over) rather than in every few entries (parsed whole).
    expectSameAsJsonParse(traceAnswer(6_000, (i) => (i % 40 === 0 ? tricky[(i / 40) % tricky.length]! : '')));
    // The same where a string field ends right at a slice's cut and the array's end.
    expectSameAsJsonParse(traceAnswer(4_000, () => '}'));
  });

  test('shapes that are not one flat array of objects: nested arrays of objects, white space, one element, an array of arrays', () => {
    const nested = (depth: number): unknown => (depth === 0 ? { leaf: true } : { calls: [nested(depth - 1), nested(depth - 1)] });
    expectSameAsJsonParse(JSON.stringify({ jsonrpc: '2.0', id: 1, result: nested(15) }));
    expectSameAsJsonParse(JSON.stringify(JSON.parse(traceAnswer(2_500)), null, 1));
    expectSameAsJsonParse(JSON.stringify({ result: [{ input: `0x${'ab'.repeat(MIB)}` }] }));
    expectSameAsJsonParse(JSON.stringify({ result: Array.from({ length: 3_000 }, (_, i) => [entry(i), entry(i + 1)]) }));
    // A batch answer: the array is the whole text.
    expectSameAsJsonParse(JSON.stringify(Array.from({ length: 3_000 }, (_, i) => ({ jsonrpc: '2.0', id: i, result: entry(i) }))));
  });

  test('the array given twice under one key, and the marker txray puts in its place sent by the node', () => {
    const big = traceAnswer(3_000);
    expectSameAsJsonParse(`${big.slice(0, -1)},"result":5}`);
    expectSameAsJsonParse(`{"result":7,${big.slice(1)}`);
    expectSameAsJsonParse(`${big.slice(0, -1)},"other":"\\u0000txray: the array"}`);
  });

  test('invalid text throws as JSON.parse does, where slices alone would have parsed', () => {
    const big = traceAnswer(3_000);
    const cases = [
      big.slice(0, -5), // truncated
      `${big}x`, // something after the answer
      big.replace('"result":[', '"result":"x[').replace(/\]\}$/, ']"}'), // the array inside a string that never closes right
      big.replace('"result":[', '"result\\":['), // the key's quote escaped: the `[` stands inside a string
      big.replace(/\]\}$/, ']]}'), // one `]` too many
      big.replace('},{', '},,{'), // an empty element
      // A backslash before the `[` (no escape JSON knows) that would take in the marker's quote, the marker sent later.
      `{"k":"\\${big.slice(big.indexOf('['), big.lastIndexOf(']') + 1)},"m":"\\u0000txray: the array"}`,
    ];
    for (const text of cases) expectSameAsJsonParse(text);
  });

  test('property: any JSON value with large arrays of objects inside, as JSON.parse gives it', () => {
    const value = fc.letrec((tie) => ({
      leaf: fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.boolean(), fc.constantFrom('},{', '}]', '[{', '\\', '"')),
      obj: fc.dictionary(fc.oneof(fc.string(), fc.constantFrom('},{', 'result')), fc.oneof(tie('leaf'), tie('obj'), tie('arr')), { maxKeys: 4 }),
      arr: fc.array(fc.oneof(tie('leaf'), tie('obj')), { maxLength: 4 }),
    }));
    fc.assert(
      fc.property(value.obj, value.obj, fc.integer({ min: 0, max: 3 }), (around, element, where) => {
        const text = JSON.stringify(around);
        const array = JSON.stringify(Array.from({ length: Math.ceil(MIB / (JSON.stringify(element).length + 1)) + 1 }, () => element));
        // The large array put in at one of a few places of the surrounding value (where it has room for a value).
        const at = [text.indexOf(':') + 1, text.lastIndexOf(':') + 1, 1, text.length - 1][where]!;
        const joined = at <= 0 ? `{"result":${array}}` : `${text.slice(0, at)}${array}${at === 1 || at === text.length - 1 ? ',' : ''}${text.slice(at)}`;
        expectSameAsJsonParse(joined);
      }),
      { numRuns: 25 },
    );
  });
});

test('a string full of cut bytes costs a few parses of the text at most, not one per miss', () => {
  // One element whose string holds `},{` 70 times (each a cut that does not parse): every miss used to
  // parse again from the array's start, 65 times the body before giving up. Counted in bytes given to
  // JSON.parse, not in time.
  const text = JSON.stringify({ jsonrpc: '2.0', id: 1, result: [{ a: `${'x'.repeat(2 * MIB)}${'},{'.repeat(70)}` }, { b: 1 }] });
  const parse = JSON.parse;
  let parsed = 0;
  JSON.parse = ((t: string, reviver?: (k: string, v: unknown) => unknown) => {
    parsed += t.length;
    return parse(t, reviver);
  }) as typeof JSON.parse;
  try {
    expect(parseJsonBytes(Buffer.from(text, 'utf8'))).toEqual(parse(text));
  } finally {
    JSON.parse = parse;
  }
  expect(parsed).toBeLessThanOrEqual(3 * text.length);
});
