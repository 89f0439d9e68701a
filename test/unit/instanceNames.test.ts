/** Telling apart two deployments of one contract in one view (decode/instanceNames.ts). */
import { describe, expect, test } from 'vitest';
import { instanceNames } from '../../src/decode/instanceNames.js';
import { shownName } from '../../src/decode/shownName.js';

const A = '0x9599c1e9da6ed3f5d5f3e6a2ae0a0ab3e3b607b1';
const B = '0xcf7ed3acca5a467e9e704c703e8d87f634fb0fc9';
const C = '0x5fc8d32690cc91d4c39d9d3abcbd16989f875707';
const checksums = new Map([
  [A, '0x9599C1e9Da6Ed3F5d5F3e6a2Ae0a0aB3e3B607B1'],
  [B, '0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9'],
  [C, '0x5FC8d32690cc91D4c39d9d3abcBD16989F875707'],
]);

describe('instanceNames', () => {
  test('a label two shown addresses bear: each tagged by its own symbol; a label borne once: no tag', () => {
    const labels = new Map([[A, 'Token'], [B, 'Token'], [C, 'Vault']]);
    const tokens = new Map([[A, { symbol: 'DAI' }], [B, { symbol: 'USDX' }]]);
    const tags = instanceNames(labels, checksums, tokens);
    expect([...tags]).toEqual([[A, 'DAI'], [B, 'USDX']]);
    expect([A, B, C].map((a) => shownName({ labels, instances: tags }, a))).toEqual(['Token(DAI)', 'Token(USDX)', 'Vault']);
  });

  test('no symbol, or one both share: the short address instead', () => {
    const labels = new Map([[A, 'Token'], [B, 'Token']]);
    expect([...instanceNames(labels, checksums, new Map([[A, { symbol: 'DAI' }]]))]).toEqual([[A, 'DAI'], [B, '0xCf7E…0Fc9']]);
    expect([...instanceNames(labels, checksums, new Map([[A, { symbol: 'X' }], [B, { symbol: 'X' }]]))]).toEqual([[A, '0x9599…07B1'], [B, '0xCf7E…0Fc9']]);
    expect(instanceNames(labels, checksums, new Map([[A, { symbol: 'S'.repeat(17) }]])).get(A)).toBe('0x9599…07B1');
  });

  test('only the addresses the view shows count: a label the address book gives elsewhere makes nothing ambiguous', () => {
    const labels = new Map([[A, 'Token'], ['0x0000000000000000000000000000000000000001', 'Token']]);
    expect(instanceNames(labels, checksums, undefined).size).toBe(0);
  });
});
