/**
 * State diffs from both tracers into one form, on real answers: Erigon's trace_replayTransaction
 * (test/fixtures/real) and go-ethereum's own prestateTracer diff-mode test vectors (test/fixtures/
 * geth-tracetest/prestate_tracer_with_diff_mode). Each is checked against the raw answer it came from
 * and, for geth's, against the genesis state the transaction ran on.
 */
import { toReceipt, toTransaction } from '../../src/model/convert.js';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { buildState } from '../../src/model/buildState.js';
import { parseReceipt, parseTransaction } from '../../src/raw/parseRaw.js';
import { parseStateDiff } from '../../src/raw/parseStateDiff.js';
import type { StateSource } from '../../src/raw/types.js';
import type { Hex, RpcAccountDiff } from '../../src/raw/types.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
const json = (...p: string[]) => JSON.parse(readFileSync(join(FIXTURES, ...p), 'utf8'));
const big = (v: unknown): bigint => BigInt(v as string);

function parse(raw: unknown, source: StateSource): { accounts: RpcAccountDiff[]; warnings: string[] } {
  const warnings: string[] = [];
  const accounts = parseStateDiff(raw, source, (w) => warnings.push(w));
  expect(accounts).not.toBeNull();
  return { accounts: accounts!, warnings };
}

describe('trace_replayTransaction stateDiff (Erigon, mainnet)', () => {
  test('a plain transfer: two balances and the sender nonce, exactly as the diff says', () => {
    const raw = json('real/mainnet-legacy-transfer-b10000000/trace_replayTransaction.json');
    const { accounts, warnings } = parse(raw, 'trace_replayTransaction');
    expect(warnings).toEqual([]);
    expect(accounts.map((a) => a.address)).toEqual(Object.keys(raw.stateDiff).sort());
    for (const a of accounts) {
      const d = raw.stateDiff[a.address];
      expect(a.balance).toEqual({ before: `0x${big(d.balance['*'].from).toString(16)}`, after: `0x${big(d.balance['*'].to).toString(16)}` });
      expect(a.code).toBeUndefined();
      expect(a.existedBefore && a.existsAfter).toBe(true);
    }
  });

  test('this node leaves the fee out of the diff: the model says so rather than invent it', () => {
    const dir = 'real/mainnet-legacy-transfer-b10000000';
    const tx = parseTransaction(json(dir, 'tx.json'), json(dir, 'meta.json').hash, () => undefined)!;
    const receipt = parseReceipt(json(dir, 'receipt.json'), tx.hash!, () => undefined)!;
    const state = buildState('trace_replayTransaction', parse(json(dir, 'trace_replayTransaction.json'), 'trace_replayTransaction').accounts, toTransaction(tx), toReceipt(receipt), null);
    const [sender, recipient] = state.balances;
    expect(sender!.roles).toEqual(['sender']);
    expect(recipient!.roles).toEqual(['recipient']);
    // The sender lost exactly the value sent, the recipient gained it: no fee anywhere in the diff.
    expect(sender!.balance!.before - sender!.balance!.after).toBe(big(tx.value));
    expect(recipient!.balance!.after - recipient!.balance!.before).toBe(big(tx.value));
    expect(state.feeInDiff).toBe(false);
    expect(state.fee).toMatchObject({ total: big(receipt.gasUsed) * big(receipt.effectiveGasPrice), burned: null, coinbase: null });
    expect(state.accounts[0]!.nonce).toEqual({ before: 0x18bc14en, after: 0x18bc14fn });
  });

  test('a created account ("+") and a storage slot set from zero ("*")', () => {
    const raw = json('real/mainnet-replay-callcode/trace_replayTransaction.json');
    const { accounts } = parse(raw, 'trace_replayTransaction');
    const created = accounts.find((a) => a.address === '0xecb109bb67973cbfe0adda597237095cc3ecc005')!;
    expect(created).toMatchObject({ existedBefore: false, existsAfter: true, balance: { before: '0x0', after: '0x13fbe85edc90000' } });
    expect(created.nonce).toBeUndefined(); // +0x0 over a default of 0x0: no change
    const withSlot = accounts.find((a) => a.storage.length > 0)!;
    expect(withSlot.address).toBe('0x3780e890a7435f5bb5e7c1b019d143f0a2177e58');
    expect(withSlot.storage).toEqual([{ slot: `0x${'0'.repeat(61)}106`, before: `0x${'0'.repeat(64)}`, after: `0x${'13fbe85edc90000'.padStart(64, '0')}` }]);
  });
});

const VECTORS = join(FIXTURES, 'geth-tracetest', 'prestate_tracer_with_diff_mode');
const vectors = readdirSync(VECTORS).sort();

describe('prestateTracer diffMode (go-ethereum test vectors)', () => {
  test.each(vectors)('%s: every account of pre and post, each value as the answer and the genesis state say', (file) => {
    const v = JSON.parse(readFileSync(join(VECTORS, file), 'utf8'));
    const { pre, post } = v.result;
    const alloc: Record<string, { balance?: string }> = Object.fromEntries(Object.entries(v.genesis.alloc).map(([k, a]) => [k.toLowerCase(), a as { balance?: string }]));
    const { accounts, warnings } = parse(v.result, 'debug_traceTransaction');
    expect(warnings).toEqual([]);
    const byAddress = new Map(accounts.map((a) => [a.address, a]));
    for (const address of new Set([...Object.keys(pre), ...Object.keys(post)])) {
      const a = byAddress.get(address as Hex);
      const before = pre[address];
      const after = post[address];
      if (a === undefined) {
        // Left out only when nothing changed.
        expect(after === undefined || Object.keys(after).every((k) => k === 'codeHash' || JSON.stringify(after[k]) === JSON.stringify(before?.[k]))).toBe(true);
        continue;
      }
      expect(a.existsAfter).toBe(after !== undefined);
      if (after?.balance !== undefined && big(after.balance) !== big(before?.balance ?? '0x0')) {
        expect(big(a.balance!.after)).toBe(big(after.balance));
        // What the transaction started from is the genesis state the vector ran on.
        expect(big(a.balance!.before)).toBe(big(alloc[address]?.balance ?? '0x0'));
      }
      if (after === undefined) expect(a.balance === undefined || big(a.balance.after) === 0n).toBe(true);
      for (const s of a.storage) {
        expect(s.after).toBe(after?.storage?.[s.slot] ?? `0x${'0'.repeat(64)}`);
        expect(s.before).not.toBe(s.after);
      }
    }
  });

  test('a contract destroyed before Cancun is gone from post: destroyed, its balance moved to the beneficiary', () => {
    const { result } = JSON.parse(readFileSync(join(VECTORS, 'create_suicide.json'), 'utf8'));
    const state = buildState('debug_traceTransaction', parse(result, 'debug_traceTransaction').accounts, null, null, null);
    const gone = state.accounts.find((a) => a.address === '0x332b656504f4eabb44c8617a42af37461a34e9dc')!;
    expect(gone.roles).toEqual(['destroyed']);
    expect(gone.balance).toEqual({ before: big(result.pre['0x332b656504f4eabb44c8617a42af37461a34e9dc'].balance), after: 0n });
    expect(gone.storage).toEqual([]); // its one slot was already zero
  });

  test('a selfdestruct after Cancun (EIP-6780) only moves the balance: the account and its new slot stay', () => {
    const { result } = JSON.parse(readFileSync(join(VECTORS, 'suicide_cancun.json'), 'utf8'));
    const state = buildState('debug_traceTransaction', parse(result, 'debug_traceTransaction').accounts, null, null, null);
    const self = state.accounts.find((a) => a.address === '0x2222222222222222222222222222222222222222')!;
    expect(self.roles).toEqual([]);
    expect(self.storage).toEqual([{ slot: `0x${'0'.repeat(63)}1`, before: `0x${'abcd'.padStart(64, '0')}`, after: `0x${'99'.padStart(64, '0')}` }]);
    expect(state.accounts.find((a) => a.address === '0x1111111111111111111111111111111111111111')!.roles).toEqual(['new']);
  });

  test('an EIP-7702 delegation cleared (code 0xef0100‖address → empty): a delegation change, not a destroyed contract', () => {
    const { result } = JSON.parse(readFileSync(join(VECTORS, 'eip7702_deauth.json'), 'utf8'));
    const state = buildState('debug_traceTransaction', parse(result, 'debug_traceTransaction').accounts, null, null, null);
    const account = state.accounts.find((a) => a.address === '0xe85a1c0e9d5b1c9b417c6c1b34c22cd77f623f50')!;
    expect(account.delegation).toEqual({ before: '0xd313d93607c016a85e63e557a11ca5ab0b53ad83', after: null });
    expect(account.roles).toEqual([]);
    expect(account.code).toEqual({ before: 23, after: 0 });
    expect(account.nonce).toEqual({ before: 1n, after: 2n });
  });

  test('contracts created in the transaction: only in post, tagged created with their code size', () => {
    const { result } = JSON.parse(readFileSync(join(VECTORS, 'create.json'), 'utf8'));
    const state = buildState('debug_traceTransaction', parse(result, 'debug_traceTransaction').accounts, null, null, null);
    const [address, account] = Object.entries<{ code: string }>(result.post).find(([a]) => !(a in result.pre))!;
    const created = state.accounts.find((a) => a.address === address)!;
    expect(created.roles).toEqual(['created']);
    expect(created.code).toEqual({ before: 0, after: (account.code.length - 2) / 2 });
  });
});

describe('answers that do not fit: no state, one warning, nothing thrown', () => {
  const word = `0x${'0'.repeat(64)}`;
  test.each([
    ['replay: not an object', 'trace_replayTransaction', 'nope', /no stateDiff object/],
    ['replay: a key that is no address', 'trace_replayTransaction', { stateDiff: { '0x12': { balance: '=' } } }, /"0x12" is not an address/],
    ['replay: a balance diff of the wrong shape', 'trace_replayTransaction', { stateDiff: { [`0x${'1'.repeat(40)}`]: { balance: { '*': { from: 'x', to: '0x1' } } } } }, /balance is not a quantity/],
    ['replay: storage as an array', 'trace_replayTransaction', { stateDiff: { [`0x${'1'.repeat(40)}`]: { storage: [] } } }, /storage .* is not an object/],
    ['prestate: post missing', 'debug_traceTransaction', { pre: {} }, /no pre and post objects/],
    ['prestate: a slot that is no word', 'debug_traceTransaction', { pre: {}, post: { [`0x${'1'.repeat(40)}`]: { storage: { [word]: '0x' + 'f'.repeat(65) } } } }, /is not a 32-byte word/],
    ['prestate: a negative nonce', 'debug_traceTransaction', { pre: {}, post: { [`0x${'1'.repeat(40)}`]: { nonce: -1 } } }, /nonce is not a quantity/],
    ['hostile text in a key is shown escaped', 'trace_replayTransaction', { stateDiff: { '\u001b[2J': {} } }, /"\\x1b\[2J" is not an address/],
  ] as const)('%s', (_what, source, raw, message) => {
    const warnings: string[] = [];
    expect(parseStateDiff(raw, source, (w) => warnings.push(w))).toBeNull();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(message);
    expect(warnings[0]).toMatch(/state changes are not shown\.$/);
  });
});
