/**
 * State overrides are checked once, where they are read (cli/parseStateOverride.ts, cli/parseCall.ts), and
 * from there travel typed (raw/types.ts's StateOverride): the EVM's reader (evm/overrideReader.ts) reads
 * the very object the parse made, on a real anvil's state underneath, and checks nothing again.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parseOverrides } from '../../src/cli/parseCall.js';
import { UsageError } from '../../src/errors.js';
import { overrideReader } from '../../src/evm/overrideReader.js';
import { nodeReader } from '../../src/localRun/nodeReader.js';
import type { Hex } from '../../src/raw/types.js';
import { anvilClient } from '../support/anvilClient.js';

const dir = mkdtempSync(join(tmpdir(), 'txray-state-override-'));
const fileWith = (name: string, doc: unknown): string => {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(doc));
  return path;
};

const CONTRACT = '0x00000000000000000000000000000000000c0de7';
// anvil's first dev account: funded, no code.
const DEV = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const word = (n: bigint): Hex => `0x${n.toString(16).padStart(64, '0')}`;

describe('a malformed override is refused where it is read, in one line', () => {
  test.each([
    ['a balance that is no amount', { [CONTRACT]: { balance: 'lots' } }, `${CONTRACT} balance is not an amount in wei.`],
    ['an unknown field', { [CONTRACT]: { storage: {} } }, `${CONTRACT} has an unknown field 'storage' (balance, nonce, code, state, stateDiff).`],
    ['code that is not bytes', { [CONTRACT]: { code: '0x123' } }, `${CONTRACT} code is not hex bytes.`],
    ['a slot that is no word', { [CONTRACT]: { stateDiff: { [`0x1${'0'.repeat(64)}`]: '0x1' } } }, 'a slot and a value are 32-byte words (numbers or 0x-hex).'],
    ['an address that is none', { '0x1234': {} }, '0x1234 is not an address.'],
  ])('%s', (_what, doc, says) => {
    const file = fileWith('bad.json', doc);
    let thrown: unknown;
    try {
      parseOverrides({ stateOverride: file });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(UsageError);
    const message = thrown instanceof Error ? thrown.message : '';
    expect(message.startsWith(`--state-override ${file}: `)).toBe(true);
    expect(message.endsWith(says)).toBe(true);
    expect(message).not.toContain('\n');
  });
});

describe('the typed override reaches the EVM\'s reader as parsed', () => {
  const node = anvilClient();

  test('balance, nonce, code and a replaced storage from the file, a changed slot from --override-state-diff', async () => {
    const file = fileWith('good.json', { [CONTRACT.toUpperCase().replace('0X', '0x')]: { balance: '1000', nonce: 7, code: '0x6001600201', state: { '0x1': '0x2a' } } });
    const overrides = parseOverrides({ stateOverride: file, overrideStateDiff: [`${DEV}:5:0xbeef`] });
    // The form the node is sent and --json prints: lower-case addresses, hex quantities, 32-byte words.
    expect(overrides).toEqual({
      [CONTRACT]: { balance: '0x3e8', nonce: '0x7', code: '0x6001600201', state: { [word(1n)]: word(42n) } },
      [DEV]: { stateDiff: { [word(5n)]: word(0xbeefn) } },
    });
    // Storage of the node's own in the slots the overrides leave out: `state` hides it, `stateDiff` keeps it.
    await node.anvil.rpc('anvil_setStorageAt', [CONTRACT, word(2n), word(0x99n)]);
    await node.anvil.rpc('anvil_setStorageAt', [DEV, word(6n), word(0x77n)]);
    const under = nodeReader(node.client, 'latest', AbortSignal.timeout(20_000));
    expect(await under.storage(CONTRACT, word(2n))).toBe(word(0x99n));
    const reader = overrideReader(under, overrides);
    // The contract: every field as the parse wrote it; a slot `state` does not name reads as zero, not the node's.
    expect(await reader.account(CONTRACT)).toEqual({ balance: 1000n, nonce: 7n });
    expect(await reader.code(CONTRACT)).toBe('0x6001600201');
    expect(await reader.storage(CONTRACT, word(1n))).toBe(word(42n));
    expect(await reader.storage(CONTRACT, word(2n))).toBe(word(0n));
    // The dev account: the slot --override-state-diff names is changed, the rest is anvil's.
    expect(await reader.storage(DEV, word(5n))).toBe(word(0xbeefn));
    expect(await reader.account(DEV)).toEqual(await under.account(DEV));
    expect(await reader.code(DEV)).toBe(await under.code(DEV));
    expect(await reader.storage(DEV, word(6n))).toBe(word(0x77n));
  });

  test('no overrides: the node\'s reader itself', () => {
    const under = nodeReader(node.client, 'latest', AbortSignal.timeout(20_000));
    expect(overrideReader(under, parseOverrides({}))).toBe(under);
  });
});
