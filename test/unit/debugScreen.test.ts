/**
 * The debugger's pure stages on a small recording made with the real step log (fed as the EVM feeds
 * it) and a two-file compilation whose files share a name: resolving files by a tail of their path,
 * typing commands, a screen that always fits the terminal and never passes a file's control
 * characters through, and the step where a failure began.
 */
import { describe, expect, test } from 'vitest';
import { buildStepLog } from '../../src/debug/buildStepLog.js';
import { internalTable } from '../../src/debug/internalTable.js';
import { lineTable } from '../../src/debug/lineTable.js';
import { moveCursor } from '../../src/debug/moveCursor.js';
import { openCursor } from '../../src/debug/openCursor.js';
import { renderScreen } from '../../src/debug/renderScreen.js';
import { resolveFile } from '../../src/debug/resolveFile.js';
import { runTo } from '../../src/debug/runTo.js';
import type { DebugStepLog } from '../../src/debug/types.js';
import { createStepLog } from '../../src/evm/stepLog.js';
import { decompressMap, instructions, type SourceFile } from '../../src/locate/sourceMap.js';
import { displayWidth } from '../../src/raw/escape.js';

const FILES: SourceFile[] = [
  { path: 'src/a/Bank.sol', bytes: Buffer.from('contract A {\n\t// \x1b[2J \u202egnp.exe\n    uint x; // 日本\n}\n') },
  { path: 'src/b/Bank.sol', bytes: Buffer.from('contract B {\n}\n') },
];
// PUSH1 1, POP, STOP: the first two on line 2 and 3 of src/a/Bank.sol, the STOP on src/b/Bank.sol's line 1.
const CODE = '0x60015000';

function recording(): DebugStepLog {
  const steps = createStepLog();
  steps.enter([]);
  const event = (pc: number, code: number, stack: bigint[]) => ({ pc, gasLeft: 100n - BigInt(pc), opcode: { code }, stack, depth: 0, memory: new Uint8Array(0), address: { toString: () => '0x00000000000000000000000000000000000000aa' } });
  steps.add(event(0, 0x60, []));
  steps.add(event(2, 0x50, [1n]));
  steps.add(event(3, 0x00, []));
  steps.leave();
  const sources = { count: 2, file: (id: number) => FILES[id] ?? null, edited: new Set<string>() };
  const debug = { map: '13:10:0;38:7:0;0:10:1', sources, viaIR: false };
  const source = { index: instructions(CODE).index, map: decompressMap(debug.map)!, sources, debug };
  const base = {
    steps,
    failure: null,
    frames: [{ traceAddress: [], kind: 'call', codeAddress: '0x00000000000000000000000000000000000000aa', storageAddress: '0x00000000000000000000000000000000000000aa', contract: 'A', function: 'run', selector: '0x12345678', error: null, parent: null, first: 0, last: 2, source, code: instructions(CODE).bytes }],
  };
  return { ...base, failures: [], lines: lineTable(base), internal: internalTable(base) };
}

const type = (rec: DebugStepLog, keys: string[]) => keys.reduce((c, k) => moveCursor(rec, c, k), openCursor(rec));
const plain = (line: string): string => line.replace(/\x1b\[[0-9;]*m/g, '');

describe('files by a tail of their path', () => {
  test('a tail two files share is refused with both named; a longer tail or the whole path is taken', () => {
    const rec = recording();
    expect(resolveFile(rec, 'Bank.sol')).toEqual({ error: 'Bank.sol names 2 files (src/a/Bank.sol, src/b/Bank.sol); write more of its path' });
    expect(resolveFile(rec, 'a/Bank.sol')).toMatchObject({ path: 'src/a/Bank.sol' });
    expect(resolveFile(rec, 'src/b/Bank.sol')).toMatchObject({ path: 'src/b/Bank.sol' });
    expect(resolveFile(rec, 'Vault.sol')).toEqual({ error: 'no file Vault.sol among the transaction\'s sources' });
  });
});

describe('commands', () => {
  test(':break with an ambiguous file says so and sets nothing; with a longer tail it sets the whole path', () => {
    const rec = recording();
    const ambiguous = type(rec, [':', ...'break Bank.sol:2', '\r']);
    expect([ambiguous.command, ambiguous.breakpoints.size, ambiguous.message]).toEqual([null, 0, 'Bank.sol names 2 files (src/a/Bank.sol, src/b/Bank.sol); write more of its path']);
    const set = type(rec, [':', ...'break a/Bank.sol:3', '\r']);
    expect([...set.breakpoints]).toEqual(['src/a/Bank.sol:3']);
    // c stops at its first arrival: step 2 (PUSH1 is on line 2, POP on line 3).
    expect(moveCursor(rec, set, 'c').step).toBe(1);
  });

  test(':break past a file\'s last line is refused and sets nothing', () => {
    const rec = recording();
    const past = type(rec, [':', ...'break a/Bank.sol:999', '\r']);
    expect(past.breakpoints.size).toBe(0);
    expect(past.message).toMatch(/^src\/a\/Bank\.sol has \d+ lines: no breakpoint at line 999$/);
  });

  test('Ctrl-C quits as interrupted (exit 130), q as done', () => {
    const rec = recording();
    expect(moveCursor(rec, openCursor(rec), '\x03')).toMatchObject({ quit: true, interrupted: true });
    expect(moveCursor(rec, openCursor(rec), 'q').interrupted).toBeUndefined();
  });

  test('Backspace takes a character back, Escape drops the command, a control character is not typed, :step past the end is refused', () => {
    const rec = recording();
    expect(type(rec, [':', 's', 't', 'x', '\x7f']).command).toBe('st');
    expect(type(rec, [':', 's', '\x1b'])).toMatchObject({ command: null, step: 0 });
    expect(type(rec, [':', '\x1b[A', 'a']).command).toBe('a');
    expect(type(rec, [':', ...'step 9', '\r'])).toMatchObject({ step: 0, message: 'no step 9: the transaction ran 3' });
    expect(type(rec, [':', ...'step 3', '\r']).step).toBe(2);
    expect(type(rec, [':', ...'jump', '\r']).message).toBe('unknown command :jump (:break <file>:<line>, :step <i>)');
  });

  test('keys while the help is open do nothing but close it (or quit)', () => {
    const rec = recording();
    expect(type(rec, ['?', 'G'])).toMatchObject({ help: true, step: 0 });
    expect(type(rec, ['?', '?', 'G'])).toMatchObject({ help: false, step: 2 });
    expect(type(rec, ['?', 'q']).quit).toBe(true);
    expect(type(rec, ['f']).message).toBe('nothing failed in this transaction');
  });
});

describe('the screen', () => {
  test.each([[120, 40], [80, 24], [40, 30]])('%i×%i: the help shows every key\'s whole line (beside no pane; wrapped where narrow)', (width, height) => {
    const rec = recording();
    const rows = renderScreen(rec, { ...openCursor(rec), help: true }, width, height).map((r) => plain(r).trimEnd());
    for (const row of rows) expect(displayWidth(row)).toBeLessThanOrEqual(width);
    const said = rows.slice(0, -2).join(' ').replace(/\s+/g, ' ');
    for (const words of ['p previous line (back in time)', 'n next line in this frame (over calls)', 'b breakpoint at this line (again: remove)', ':break <file>:<line>', 'c continue to the next breakpoint', '? close this help (or Escape)', 'q quit (Ctrl-C too)']) expect(said).toContain(words);
    expect(rows.join('\n')).not.toContain('│');
  });

  test.each([[40, 10], [80, 24], [200, 50]])('%i×%i: exactly that many rows, each exactly that wide; the last one the status line', (width, height) => {
    const rec = recording();
    for (const step of [0, 1, 2]) {
      const rows = renderScreen(rec, { ...openCursor(rec), step }, width, height);
      expect(rows.length).toBe(height);
      for (const row of rows) expect(displayWidth(plain(row))).toBe(width);
    }
    const status = plain(renderScreen(rec, { ...openCursor(rec), step: 1 }, 200, 20).at(-1)!).trimEnd();
    expect(status).toBe('step 2/3 · src/a/Bank.sol:3 · A::run · pc 2 POP');
  });

  test('a source file\'s escape sequences and bidi overrides are shown escaped, never passed to the terminal', () => {
    const rec = recording();
    const rows = renderScreen(rec, openCursor(rec), 120, 12);
    const text = rows.map(plain).join('\n');
    expect(text).toContain('// \\x1b[2J \\u{202e}gnp.exe');
    // Only the screen's own SGR reaches the terminal: no other ESC, no C1 or bidi control.
    for (const row of rows) expect(row.replace(/\x1b\[[0-9;]*m/g, '')).not.toMatch(/[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/);
    expect(text).toContain('>    2      // ');
  });
});

describe('where the failure began', () => {
  /** A run: the top frame calls three times; `outputs` and `errors` per frame (top first), each frame runs two steps. */
  function run(errors: Array<string | null>, outputs: Array<`0x${string}` | null>): DebugStepLog {
    const steps = createStepLog();
    const event = (pc: number, depth: number) => ({ pc, gasLeft: 100n, opcode: { code: 0x5b }, stack: [], depth, memory: new Uint8Array(0), address: { toString: () => '0x00000000000000000000000000000000000000aa' } });
    steps.enter([]);
    steps.add(event(0, 0));
    for (let k = 0; k < 3; k++) {
      steps.enter([k]);
      steps.add(event(0, 1));
      steps.add(event(1, 1));
      steps.leave();
    }
    steps.add(event(1, 0));
    steps.leave();
    const node = (k: number, traceAddress: number[]) => ({ type: 'call', callType: 'call', from: null, to: null, value: 0n, gas: null, gasUsed: null, input: '0x' as const, output: outputs[k]!, error: errors[k]!, traceAddress, children: [] as never[] });
    const root = { ...node(0, []), children: [node(1, [0]), node(2, [1]), node(3, [2])] };
    return buildStepLog(steps, root, new Map(), []);
  }

  test('a call whose revert the caller caught is not where the failure began; the one whose data the caller passed on is', () => {
    // [0] reverted with other data (caught), [1] reverted with the data the top frame reverted with, [2] succeeded.
    const rec = run(['execution reverted', 'execution reverted', 'execution reverted', null], ['0xaa', '0xbb', '0xaa', '0x']);
    // Steps: top 0; [0] 1–2; [1] 3–4; [2] 5–6; top 7. The failure began at [1]'s last step.
    expect(rec.failure).toBe(4);
    // Every failure's origin, for the editor's failure filter: the caught call's too.
    expect(rec.failures).toEqual([2, 4]);
    // Running on and back with the filter (no breakpoints) stops at each, nearest first; past the last: nothing.
    const to = (i: number, backward = false) => runTo(rec, i, { breakpoints: new Set(), failure: true, backward })?.step ?? null;
    expect([to(-1), to(2), to(4), to(7, true), to(4, true), to(2, true)]).toEqual([2, 4, null, 4, 2, null]);
    expect(runTo(rec, -1, { breakpoints: new Set() })).toBeNull();
  });

  test('a call that ran out of gas (no data) under a top frame that reverted without data: the out-of-gas step', () => {
    const rec = run(['execution reverted', null, null, 'out of gas'], [null, '0x', '0x', null]);
    expect(rec.failure).toBe(6);
    expect(rec.failures).toEqual([6]);
  });

  test('the top frame\'s own failure, where no call passed its data on; none where nothing failed', () => {
    expect(run(['execution reverted', 'execution reverted', null, null], ['0x01', '0x02', '0x', '0x']).failure).toBe(7);
    expect(run([null, null, null, null], ['0x', '0x', '0x', '0x']).failure).toBeNull();
    expect(run([null, null, null, null], ['0x', '0x', '0x', '0x']).failures).toEqual([]);
    // A transaction that succeeded with a caught call: no failure for the terminal's f, one for the filter.
    const caught = run([null, 'execution reverted', null, null], ['0x', '0x01', '0x', '0x']);
    expect([caught.failure, caught.failures]).toEqual([null, [2]]);
  });
});
