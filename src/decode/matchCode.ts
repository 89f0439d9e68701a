/**
 * Which artifact a deployed contract is: its runtime code compared with each artifact's
 * deployedBytecode, without solc's CBOR metadata trailer (the last two bytes give its length), which
 * differs between otherwise identical builds. Contracts with immutables do not match (their code has
 * the values spliced in); they keep their address.
 */
import type { Hex } from '../raw/types.js';
import type { Artifact } from './abiIndex.js';

export function withoutMetadata(code: string): string {
  const hex = code.toLowerCase().replace(/^0x/, '');
  if (hex.length < 4) return hex;
  const length = Number.parseInt(hex.slice(-4), 16);
  const cut = (length + 2) * 2;
  return cut > 4 && cut < hex.length ? hex.slice(0, -cut) : hex;
}

export function matchArtifact(code: Hex, artifacts: readonly Artifact[]): Artifact | undefined {
  if (code.length <= 2) return undefined;
  const body = withoutMetadata(code);
  return artifacts.find((a) => a.deployedBytecode !== undefined && a.deployedBytecode.length > 2 && withoutMetadata(a.deployedBytecode) === body);
}
