/**
 * The header a local run starts from is checked by raw/ (parseEvmHeader) before the EVM reads it: a real
 * anvil's header keeps every field the EVM's block context and rules read, as anvil wrote it; a header
 * without one the run cannot be made without is refused in one line.
 */
import { expect, test } from 'vitest';
import { parseEvmHeader } from '../../src/raw/parseBlock.js';
import { isRecord } from '../../src/raw/hex.js';
import { anvilClient } from '../support/anvilClient.js';

const node = anvilClient();

test('anvil\'s latest header: the fields the EVM reads, as anvil wrote them', async () => {
  const raw = await node.client.call('eth_getBlockByNumber', ['latest', false], AbortSignal.timeout(20_000));
  if (!isRecord(raw)) throw new Error('anvil gave no header');
  const header = parseEvmHeader(raw);
  expect(header).toMatchObject({ number: raw.number, timestamp: raw.timestamp, gasLimit: raw.gasLimit, miner: raw.miner });
  // anvil's hardfork shows in its header (post-Cancun at least): the fields that say it are kept.
  for (const key of ['baseFeePerGas', 'excessBlobGas', 'blobGasUsed', 'parentBeaconBlockRoot', 'withdrawalsRoot', 'mixHash'] as const) {
    expect(raw[key]).toBeTypeOf('string');
    expect(header[key]).toBe(raw[key]);
  }
});

test('a header the run cannot start from is refused in one line; a broken field it can do without is left out', () => {
  const good = { number: '0x10', timestamp: '0x5f5e100', gasLimit: '0x1c9c380', miner: `0x${'11'.repeat(20)}` };
  expect(() => parseEvmHeader({ ...good, gasLimit: null })).toThrow(/^the node's block has no gasLimit$/);
  expect(() => parseEvmHeader({ ...good, miner: '0x12' })).toThrow(/^the node's block has no miner$/);
  expect(() => parseEvmHeader({ ...good, baseFeePerGas: 'cheap' })).toThrow(/^the node's block has no baseFeePerGas$/);
  expect(parseEvmHeader({ ...good, blobGasUsed: 'lots', mixHash: 42 })).toEqual(good);
});
