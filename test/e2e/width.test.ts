/**
 * Lines fit the terminal by display width: revert strings in Chinese, Japanese and Korean (two columns
 * a character) and emoji (two columns, a surrogate pair in UTF-16), mined on a real anvil and simulated
 * there, at COLUMNS=80 and 60. No line txray shortens may be wider than the terminal, and no character
 * may be cut in half.
 */
import { describe, expect, test } from 'vitest';
import { call, DEV, send } from '../../scripts/lib/scenarios.mjs';
import { charWidth, cutToWidth, displayWidth } from '../../src/raw/escape.js';
import { type Anvil, withScenarioNode } from '../support/scenarioNode.js';
import { runTxray } from '../support/runTxray.js';

let anvil: Anvil;
let child: string;
let mined: string;
let plain: string;
let hashes: Record<string, string>;
const WIDE = '日本語のエラーメッセージ🚀🚀中文错误信息한국어오류메시지とても長い理由です🎉';
withScenarioNode(async (s) => {
  anvil = s.anvil;
  child = s.child;
  mined = await send(anvil.rpc, { to: child, gas: '0x100000', data: call('Child', 'fail', [WIDE]) });
  hashes = s.hashes as Record<string, string>;
  plain = hashes.showcase!;
  for (let i = 0; i < 50 && (await anvil.rpc('eth_getTransactionReceipt', [mined])) === null; i++) await new Promise((r) => setTimeout(r, 50));
});

/** Every line's width in columns, with no lone surrogate anywhere. */
function widths(text: string): number[] {
  expect(text).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
  expect(text).not.toContain('\ufffd');
  return text.split('\n').map(displayWidth);
}

describe('display width', () => {
  test('the helpers count columns and cut between code points', () => {
    expect(displayWidth('abc')).toBe(3);
    expect(displayWidth('日本')).toBe(4);
    expect(displayWidth('🚀')).toBe(2);
    expect(displayWidth('e\u0301')).toBe(1);
    expect(charWidth('한')).toBe(2);
    expect(cutToWidth('🚀🚀🚀', 5)).toBe('🚀🚀…');
    expect(cutToWidth('日本語', 4)).toBe('日…');
    expect(cutToWidth('abc', 3)).toBe('abc');
    for (let w = 1; w < 40; w++) expect(displayWidth(cutToWidth(WIDE, w))).toBeLessThanOrEqual(w);
  });

  for (const columns of [80, 60]) {
    test(`COLUMNS=${columns}: the call tree of a mined revert with a wide reason fits`, async () => {
      const r = await runTxray([mined, '--rpc-url', anvil.url], { COLUMNS: String(columns) });
      expect(r.code).toBe(1);
      const tree = r.stdout.slice(r.stdout.indexOf('Call tree'));
      for (const w of widths(tree)) expect(w).toBeLessThanOrEqual(columns);
      // The arguments give way first: the line still says how the call ended, and what it cost.
      expect(tree).toMatch(/call 0x[0-9a-fA-F]{4}…[0-9a-fA-F]{4}::\S+ · [\d,]+ gas ✗ Error/);
      expect(r.stdout.slice(r.stdout.indexOf('Why it failed'))).toContain('日本語');
    });

    test(`COLUMNS=${columns}: a simulated call with the same reason, and its event-free tree, fit`, async () => {
      const r = await runTxray(['call', child, 'fail(string)', WIDE, '--from', DEV.sender, '--rpc-url', anvil.url], { COLUMNS: String(columns) });
      expect(r.code).toBe(1);
      const tree = r.stdout.slice(r.stdout.indexOf('Call tree'));
      for (const w of widths(tree)) expect(w).toBeLessThanOrEqual(columns);
    });
  }

  test('the summary table cuts the first error by columns, never mid-character', async () => {
    const r = await runTxray([mined, plain, '--rpc-url', anvil.url]);
    expect(r.code).toBe(1);
    const row = r.stdout.split('\n').find((l) => l.includes('✘ reverted'))!;
    widths(row);
    const cell = row.split('│').at(-2)!.trim();
    expect(cell).toMatch(/^Error: 日本語.*…$/);
    expect(displayWidth(cell)).toBeLessThanOrEqual(48);
    // Every row of the table is as wide as the others: the table counts columns as the terminal does.
    const lines = r.stdout.split('\n').filter((l) => l.startsWith('│') || l.startsWith('┌') || l.startsWith('└'));
    expect(new Set(lines.map(displayWidth)).size).toBe(1);
  });

  test('the summary table fits COLUMNS: the action is cut, then left out, then the fee, then the hash and the first error are cut, then the addresses\' labels; status and gas stay whole', async () => {
    const list = [mined, plain, hashes.tokenTransfer!, hashes.legacyTransfer!, hashes.stateShow!];
    const receipts = await Promise.all(list.map((h) => anvil.rpc('eth_getTransactionReceipt', [h])));
    const wide = await runTxray([...list, '--rpc-url', anvil.url], { NO_COLOR: '1' });
    const natural = Math.max(...widths(wide.stdout));
    expect(wide.stdout).toContain('action');
    for (const columns of [natural - 10, 170, 120, 100]) {
      const r = await runTxray([...list, '--rpc-url', anvil.url], { COLUMNS: String(columns) });
      expect(r.code).toBe(1);
      const table = r.stdout.split('\n').filter((l) => /^[│┌└]/.test(l));
      expect(table).toHaveLength(list.length + 3);
      for (const w of widths(table.join('\n'))) expect(w).toBeLessThanOrEqual(columns);
      // Every row still names its transaction (at 120 columns by its first 8 digits), its status and its gas used, whole.
      receipts.forEach((rc: { transactionHash: string; gasUsed: string; status: string }, i: number) => {
        const row = table[i + 2]!;
        expect(row).toContain(columns <= 120 ? `${rc.transactionHash.slice(0, 10)}…` : `${rc.transactionHash.slice(0, 10)}…${rc.transactionHash.slice(-6)}`);
        expect(row).toContain(rc.status === '0x1' ? '✔ success' : '✘ reverted');
        expect(row).toContain(BigInt(rc.gasUsed).toLocaleString('en-US'));
      });
      if (columns === natural - 10) expect(table[1]).toContain('action');
      if (columns <= 170) expect(table[1]).not.toContain('action');
      if (columns === 170) expect(table[1]).toContain('fee (ETH)');
      if (columns <= 120) expect(table[1]).not.toContain('fee');
    }
  });

  test('at 80 columns, three successful transactions: the empty first-error column goes before anything is cut, and the table fits', async () => {
    const list = [plain, hashes.tokenTransfer!, hashes.legacyTransfer!];
    const wide = await runTxray([...list, '--rpc-url', anvil.url], { NO_COLOR: '1' });
    expect(wide.code).toBe(0);
    expect(wide.stdout).toContain('first error'); // with room, the column is there (empty)
    const r = await runTxray([...list, '--rpc-url', anvil.url], { COLUMNS: '80' });
    expect(r.code).toBe(0);
    const table = r.stdout.split('\n').filter((l) => /^[│┌└]/.test(l));
    expect(table).toHaveLength(list.length + 3);
    for (const w of widths(table.join('\n'))) expect(w).toBeLessThanOrEqual(80);
    expect(table[1]).not.toContain('first error');
    for (const [i, h] of list.entries()) expect(table[i + 2]).toContain(`${h.slice(0, 10)}…`);
  });
});
