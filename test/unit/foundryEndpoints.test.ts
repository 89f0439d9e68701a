import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { foundryEndpoints } from '../../src/cli/foundryEndpoints.js';

describe('foundryEndpoints: the nearest foundry.toml upwards, as forge finds it', () => {
  const root = mkdtempSync(join(tmpdir(), 'txray-foundry-'));
  writeFileSync(
    join(root, 'foundry.toml'),
    [
      '[profile.default]',
      'src = "src"',
      '',
      '[profile.ci.rpc_endpoints]',
      'mainnet = "https://ci.example"',
      '',
      '[rpc_endpoints]',
      'mainnet = "${MAINNET_RPC_URL}"',
      'sepolia = { url = "https://sepolia.example" }',
      '',
    ].join('\n'),
  );
  const deep = join(root, 'script', 'nested', 'deeper');
  mkdirSync(deep, { recursive: true });

  test('from a folder three levels down: the project root\'s table', () => {
    const found = foundryEndpoints(deep, {});
    expect(found?.file).toBe(join(root, 'foundry.toml'));
    expect(found?.endpoints).toEqual({ mainnet: '${MAINNET_RPC_URL}', sepolia: { url: 'https://sepolia.example' } });
  });

  test('FOUNDRY_PROFILE\'s own table over the top level\'s', () => {
    expect(foundryEndpoints(root, { FOUNDRY_PROFILE: 'ci' })?.endpoints.mainnet).toBe('https://ci.example');
  });

  test('a nearer foundry.toml wins; one that is not TOML says so', () => {
    const inner = join(root, 'lib', 'dep');
    mkdirSync(inner, { recursive: true });
    writeFileSync(join(inner, 'foundry.toml'), '[rpc_endpoints\nmainnet = ');
    expect(foundryEndpoints(inner, {})).toEqual({ file: join(inner, 'foundry.toml'), endpoints: {}, broken: 'is not valid TOML' });
  });

  test('none up to the root: null', () => {
    expect(foundryEndpoints(mkdtempSync(join(tmpdir(), 'txray-nofoundry-')), {})).toBeNull();
  });
});
