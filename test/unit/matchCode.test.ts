import { describe, expect, test } from 'vitest';
import type { Artifact } from '../../src/decode/abiIndex.js';
import { parseAbiFile } from '../../src/decode/loadAbis.js';
import { matchArtifact } from '../../src/locate/matchCode.js';
import type { Hex } from '../../src/raw/types.js';

/** solc's metadata trailer: CBOR bytes, then their length in two bytes. */
const trailer = (byte: string): string => `a264${byte.repeat(18)}0014`;
const artifact = (doc: Record<string, unknown>): Artifact => parseAbiFile(JSON.stringify({ abi: [], ...doc }), 'out/X.sol/X.json', 'project');

describe('matchArtifact: code to artifact, skipping what each deployment fills in', () => {
  // PUSH32 <immutable> at byte 1, then code.
  const body = `7f${'00'.repeat(32)}6000`;
  const withImmutable = artifact({ deployedBytecode: { object: `0x${body}${trailer('aa')}`, immutableReferences: { '7': [{ start: 1, length: 32 }] }, linkReferences: {} } });

  test('an immutable\'s bytes differ: still the artifact; a byte outside them differs: not', () => {
    const deployed = `0x7f${'ab'.repeat(32)}6000${trailer('bb')}` as Hex;
    expect(matchArtifact(deployed, [withImmutable])?.name).toBe('X');
    expect(matchArtifact(`0x7f${'ab'.repeat(32)}6001${trailer('bb')}` as Hex, [withImmutable])).toBeUndefined();
    // Without its references the artifact cannot tell: not matched rather than guessed.
    const bare = artifact({ deployedBytecode: { object: `0x${body}${trailer('aa')}` } });
    expect(matchArtifact(deployed, [bare])).toBeUndefined();
  });

  test('a linked library: the placeholder in the artifact, an address on chain', () => {
    const placeholder = `__$${'1'.repeat(34)}$__`;
    const linked = artifact({ deployedBytecode: { object: `0x6000${'73'}${placeholder}6000${trailer('aa')}`, linkReferences: { 'src/L.sol': { L: [{ start: 3, length: 20 }] } } } });
    expect(linked.deployedBytecode).toBeDefined();
    expect(matchArtifact(`0x600073${'cd'.repeat(20)}6000${trailer('cc')}` as Hex, [linked])?.name).toBe('X');
  });

  test('a library\'s own address guard (PUSH20 at offset 1, zeros in the artifact)', () => {
    const library = artifact({ deployedBytecode: { object: `0x73${'00'.repeat(20)}30146080${trailer('aa')}` } });
    expect(matchArtifact(`0x73${'ef'.repeat(20)}30146080${trailer('dd')}` as Hex, [library])?.name).toBe('X');
  });

  test('a different length is never the artifact', () => {
    expect(matchArtifact(`0x7f${'ab'.repeat(32)}600000${trailer('bb')}` as Hex, [withImmutable])).toBeUndefined();
  });
});

describe('matchArtifact: several artifacts fit once immutables are skipped', () => {
  const body = (fill: string) => `7f${fill.repeat(32)}6000`;
  const token = (name: string, fill: string): Artifact =>
    parseAbiFile(JSON.stringify({ abi: [], deployedBytecode: { object: `0x${body(fill)}${trailer('aa')}`, immutableReferences: { '1': [{ start: 1, length: 32 }] } } }), `out/${name}.sol/${name}.json`, 'project');

  test('two of different names: none is named, unless exactly one name matches byte for byte', () => {
    const a = token('TokenA', '00');
    const b = token('TokenB', '00');
    expect(matchArtifact(`0x${body('ab')}${trailer('bb')}` as Hex, [a, b])).toBeUndefined();
    const exact = token('TokenC', 'cd');
    expect(matchArtifact(`0x${body('cd')}${trailer('bb')}` as Hex, [a, exact])?.name).toBe('TokenC');
  });

  test('two of the same name (the same contract built twice): that name', () => {
    expect(matchArtifact(`0x${body('ab')}${trailer('bb')}` as Hex, [token('Vault', '00'), token('Vault', '11')])?.name).toBe('Vault');
  });
});
