import { describe, expect, test } from 'vitest';
import { decompressMap, lineAt, locateExit, type SourceTable } from '../../src/locate/sourceMap.js';

const bytes = (s: string): Uint8Array => Buffer.from(s, 'utf8');
const table = (files: Record<number, { path: string; text: string }>, count = Object.keys(files).length): SourceTable => ({
  count,
  edited: new Set(),
  file: (id) => (files[id] === undefined ? null : { path: files[id]!.path, bytes: bytes(files[id]!.text) }),
});
const at = (text: string, needle: string): number => Buffer.from(text.slice(0, text.indexOf(needle)), 'utf8').length;

describe('lineAt: offsets are UTF-8 bytes, columns are characters', () => {
  test.each([
    ['ASCII', 'a\nbb\n  target;\n', 3, 3],
    ['é and 日本 on the lines above', '// é\n// 日本語\n  target;\n', 3, 3],
    ['multi-byte characters before it on its own line', '/* ü */ target;\n', 1, 9],
    ['CRLF line ends', 'a\r\nb\r\n  target;\r\n', 3, 3],
  ])('%s', (_what, text, line, column) => {
    const got = lineAt(bytes(text), at(text, 'target'));
    expect(got).toMatchObject({ line, column });
    expect(got?.code.trim()).toMatch(/target;$/);
    expect(got?.code).not.toMatch(/\r/);
  });

  test('the lines around it, clipped at the file\'s start and end', () => {
    const text = 'one\ntwo\nthree\n';
    expect(lineAt(bytes(text), 0)?.context).toEqual({ firstLine: 1, lines: ['one', 'two', 'three'] });
    expect(lineAt(bytes(text), at(text, 'three'))?.context).toEqual({ firstLine: 1, lines: ['one', 'two', 'three', ''] });
  });

  test('outside the file: null', () => {
    expect(lineAt(bytes('abc'), 4)).toBeNull();
    expect(lineAt(bytes('abc'), -1)).toBeNull();
  });
});

describe('decompressMap', () => {
  test('empty fields repeat the previous entry', () => {
    const t = decompressMap('1:2:0:-;;3::1:i;:5')!;
    expect([...t.s]).toEqual([1, 1, 3, 3]);
    expect([...t.l]).toEqual([2, 2, 2, 5]);
    expect([...t.f]).toEqual([0, 0, 1, 1]);
    expect([...t.j]).toEqual([0, 0, 1, 1]);
  });
  test.each([['letters', 'a:b:c'], ['a bad jump', '1:2:0:x'], ['too large', '1:2:0;'.repeat(1_000_000)]])('malformed (%s): null', (_w, map) => {
    expect(decompressMap(map)).toBeNull();
  });
});

describe('locateExit', () => {
  const text = 'contract C {\n  function f() {\n    require(ok);\n  }\n}\n';
  const sources = table({ 0: { path: 'src/C.sol', text } });
  const stmt = at(text, 'require');
  const whole = `0:${bytes(text).length}:0`;
  // 0 PUSH1 5, 2 JUMP, 3 INVALID, 4 INVALID, 5 JUMPDEST, 6 PUSH0, 7 DUP1, 8 REVERT
  const code = '0x600556fefe5b5f80fd';

  test('a REVERT in a block a jump entered from elsewhere: placed at that jump, then back over whole-contract ranges', () => {
    // Just before the shared block lies another statement's code: the walk alone would name it.
    const other = `${at(text, 'function')}:5:0`;
    const map = [`${stmt}:12:0`, `${stmt}:12:0`, other, other, whole, whole, whole, whole].join(';');
    const got = locateExit(code, { map, sources, viaIR: false }, { exitPc: 8, lastJumps: [5], lastJumpsFrom: [2] });
    expect(got?.at).toMatchObject({ file: 'src/C.sol', line: 3, column: 5, code: '    require(ok);' });
    // With no jump recorded only the REVERT's own block is known to have run: whole-contract ranges, no location.
    expect(locateExit(code, { map, sources, viaIR: false }, { exitPc: 8, lastJumps: [], lastJumpsFrom: [] })).toBeNull();
  });

  test('a REVERT in the block the dispatcher jumped into (a public function that only reverts): the function\'s own statement, not the dispatcher', () => {
    const fn = `${at(text, 'function')}:${text.indexOf('}\n}') - text.indexOf('function') + 1}:0`;
    const map = [whole, `${fn}:i`, `${whole}:-`, '', `${fn}:-`, `${stmt}:12:0`, '', ''].join(';');
    const got = locateExit(code, { map, sources, viaIR: false }, { exitPc: 8, lastJumps: [5], lastJumpsFrom: [2] });
    expect(got?.at).toMatchObject({ file: 'src/C.sol', line: 3, column: 5, code: '    require(ok);' });
    expect(got?.calledFrom).toEqual([]);
  });

  test('compiler-generated entries (f = -1, f ≥ the number of files) are walked back over, along the code that ran only', () => {
    // 0 PUSH1 5, 2 JUMP, 3 INVALID, 4 INVALID, 5 JUMPDEST, 6 PUSH0, 7 PUSH1 11, 9 JUMPI (not taken), 10 PUSH0, 11 DUP1, 12 REVERT
    const checked = '0x600556fefe5b5f600b575f80fd';
    // The two instructions the jump passed over point at another statement: a walk by address would name it.
    const other = `${at(text, 'f()')}:3:0`;
    const map = [`${stmt}:12:0`, '', other, other, '0:10:-1', '', '0:10:7', '', '', '', ''].join(';');
    const got = locateExit(checked, { map, sources, viaIR: false }, { exitPc: 12, lastJumps: [5], lastJumpsFrom: [2] });
    expect(got?.at).toMatchObject({ line: 3, column: 5 });
    // Facts that do not fit the code (a landing that is no JUMPDEST): no location.
    expect(locateExit(checked, { map, sources, viaIR: false }, { exitPc: 12, lastJumps: [6], lastJumpsFrom: [2] })).toBeNull();
  });

  test('a call that returned is passed over: its statements did not fail', () => {
    // 0 PUSH1 7, 2 JUMP (into g), 3 JUMPDEST, 4 PUSH0, 5 DUP1, 6 REVERT, 7 JUMPDEST (g), 8 PUSH1 3, 10 JUMP (out of g)
    const called = '0x6007565b5f80fd5b600356';
    const inG = `${at(text, 'f()')}:3:0`;
    const map = [`${stmt}:12:0`, `${stmt}:12:0:i`, '0:1:-1:-', '', '', '', `${inG}:-`, '', `${inG}:o`].join(';');
    const got = locateExit(called, { map, sources, viaIR: false }, { exitPc: 6, lastJumps: [7, 3], lastJumpsFrom: [2, 10] });
    expect(got?.at).toMatchObject({ line: 3, column: 5 });
    expect(got?.calledFrom).toEqual([]);
  });

  test('via IR: a specific exit entry is kept exact; otherwise approximate', () => {
    const exact = [whole, '', '', '', '', '', '', `${stmt}:12:0`].join(';');
    expect(locateExit(code, { map: exact, sources, viaIR: true }, { exitPc: 8, lastJumps: [], lastJumpsFrom: [] })?.at).not.toHaveProperty('approximate');
    const coarse = [at(text, 'function') + ':30:0', '', '', '', '', '', '', '0:1:-1'].join(';');
    expect(locateExit(code, { map: coarse, sources, viaIR: true }, { exitPc: 8, lastJumps: [], lastJumpsFrom: [] })?.at).toMatchObject({ line: 2, approximate: true });
  });

  test.each([
    ['a range past the file\'s end', `${stmt}:9999:0`, sources],
    ['a source id with no file (or a stale one)', `${stmt}:12:0`, table({}, 1)],
    ['a pc past the map', '', sources],
  ])('%s: no location, never a crash', (_what, map, s) => {
    expect(locateExit(code, { map, sources: s, viaIR: false }, { exitPc: 8, lastJumps: [], lastJumpsFrom: [] })).toBeNull();
  });
});
