import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { escapeText, isSafeRun } from '../../src/raw/escape.js';
import { jsonString, writeJson } from '../../src/render/writeJson.js';

/** Characters that must never reach a terminal raw: C0, DEL, C1, format (bidi, zero-width), line/paragraph separators, surrogates. */
const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;
const UNSAFE_UNITS = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/;

describe('escapeText', () => {
  test.each([
    ['plain ascii', 'hello, world', 'hello, world'],
    ['unicode letters stay', 'naïve 日本 €', 'naïve 日本 €'],
    ['ESC sequence', '\u001b[31mred', '\\x1b[31mred'],
    ['CR and LF and TAB', 'a\r\nb\tc', 'a\\r\\nb\\tc'],
    ['BEL, NUL, DEL', '\u0007\u0000\u007f', '\\x07\\x00\\x7f'],
    ['C1 CSI', '\u009b2J', '\\x9b2J'],
    ['bidi override', 'abc\u202Eexe', 'abc\\u{202e}exe'],
    ['isolates', '\u2066x\u2069', '\\u{2066}x\\u{2069}'],
    ['zero width', 'a\u200bb\ufeff', 'a\\u{200b}b\\u{feff}'],
    ['lone surrogate', 'x\ud800y', 'x\\u{d800}y'],
    ['backslash is escaped so escapes stay unambiguous', 'a\\x1b', 'a\\\\x1b'],
  ])('%s', (_name, input, expected) => {
    expect(escapeText(input)).toBe(expected);
  });

  test('property: the output never holds an unsafe character', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        expect(escapeText(s)).not.toMatch(UNSAFE);
        expect(escapeText(s)).not.toMatch(UNSAFE_UNITS);
      }),
      { numRuns: 2000 },
    );
  });

  test("txray's own characters (…, ·, ×, −, arrows, box drawing, ✓ to ✗) pass as the Unicode classes pass them, and a backslash among them does not", () => {
    const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S}\p{Zs}]$/u;
    const own = [0xb7, 0xd7, 0x2026, 0x2212];
    for (let cp = 0x2190; cp <= 0x21ff; cp++) own.push(cp);
    for (let cp = 0x2500; cp <= 0x257f; cp++) own.push(cp);
    for (let cp = 0x2713; cp <= 0x2717; cp++) own.push(cp);
    for (const cp of own) {
      const char = String.fromCodePoint(cp);
      expect(printable.test(char), `U+${cp.toString(16)}`).toBe(true);
      expect(isSafeRun(`Called 0xe7f1${char}0512.run(${char})`)).toBe(true);
      expect(escapeText(`a${char}b`)).toBe(`a${char}b`);
    }
    expect(isSafeRun('Called 0xe7f1…0512\\run')).toBe(false);
    expect(escapeText('a…b\u202e')).toBe('a…b\\u{202e}');
  });
});

describe('writeJson', () => {
  test('property: parses back to the same value as JSON.stringify gives, with no raw unsafe characters', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(0, 2), (v, indent) => {
        const text = [...writeJson(v, indent, 64)].join('');
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(v)));
        const content = indent > 0 ? text.replace(/\n */g, '') : text.trimEnd(); // the layout's own newlines aside
        expect(content).not.toMatch(UNSAFE_UNITS);
        expect(content).not.toMatch(UNSAFE);
      }),
      { numRuns: 500 },
    );
  });

  test('property: strings of any code units survive', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const text = jsonString(s);
        expect(text).not.toMatch(UNSAFE_UNITS);
        expect(text).not.toMatch(UNSAFE);
        // Lone surrogates come back as the same code units.
        expect(JSON.parse(text)).toBe(s);
      }),
      { numRuns: 2000 },
    );
  });

  test('a 20,000-deep value is written without recursion', () => {
    let v: unknown = 'leaf';
    for (let i = 0; i < 20_000; i++) v = { c: [v] };
    const text = [...writeJson(v)].join('');
    expect(text.startsWith('{"c":[{"c":[')).toBe(true);
    expect(text.length).toBe(20_000 * 8 + 7);
  });

  test('undefined members are left out, undefined array slots become null', () => {
    expect([...writeJson({ a: undefined, b: [undefined, 1] })].join('')).toBe('{"b":[null,1]}\n');
  });
});
