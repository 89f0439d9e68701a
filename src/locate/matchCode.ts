/**
 * Which artifact a deployed contract is: its runtime code compared with each artifact's
 * deployedBytecode, without solc's CBOR metadata trailer (the last two bytes give its length), which
 * differs between otherwise identical builds, and with the bytes each deployment fills in (immutables,
 * library addresses: the artifact's runtimeMasks) skipped on both sides. Immutables change bytes, never
 * the code's length or its instructions' places.
 */
import type { DebugSource } from './sourceMap.js';

/** What matching code and placing frames read of an artifact (decode's Artifact carries more). */
export interface CodeArtifact {
  readonly name: string;
  readonly bytecode?: Hex;
  readonly deployedBytecode?: Hex;
  /** Byte ranges each deployment fills in, [start, length] (see decode's Artifact). */
  readonly runtimeMasks?: ReadonlyArray<readonly [number, number]>;
  readonly debug?: DebugSource;
  /** The project's artifact file it was read from, as shown (out/Vault.sol/Vault.json). */
  readonly file?: string;
}
import type { Hex } from '../raw/types.js';

export function withoutMetadata(code: string): string {
  const hex = code.toLowerCase().replace(/^0x/, '');
  if (hex.length < 4) return hex;
  const length = Number.parseInt(hex.slice(-4), 16);
  const cut = (length + 2) * 2;
  return cut > 4 && cut < hex.length ? hex.slice(0, -cut) : hex;
}

/** `hex` (no 0x) with each [start, length] byte range zeroed. */
function masked(hex: string, ranges: ReadonlyArray<readonly [number, number]>): string {
  let out = hex;
  for (const [start, length] of ranges) {
    if ((start + length) * 2 > out.length) continue;
    out = `${out.slice(0, start * 2)}${'0'.repeat(length * 2)}${out.slice((start + length) * 2)}`;
  }
  return out;
}

/** Each artifact's runtime code as compared: without metadata, its masks applied. */
const compared = new WeakMap<CodeArtifact, string>();
function bodyOf(a: CodeArtifact & { deployedBytecode: Hex }): string {
  let body = compared.get(a);
  if (body === undefined) compared.set(a, (body = masked(withoutMetadata(a.deployedBytecode), a.runtimeMasks ?? [])));
  return body;
}

/**
 * The artifact `code` is, or undefined where none is or where it could be any of several of different
 * names (two tokens that differ only in their immutables): then the one whose bytes match without masks,
 * if exactly one name does so; else no name rather than a guess.
 */
export function matchArtifact<A extends CodeArtifact>(code: Hex, artifacts: readonly A[]): A | undefined {
  if (code.length <= 2) return undefined;
  const body = withoutMetadata(code);
  const matches = artifacts.filter((a): boolean => {
    if (a.deployedBytecode === undefined || a.deployedBytecode.length <= 2) return false;
    const mine = bodyOf(a as A & { deployedBytecode: Hex });
    if (mine.length !== body.length) return false;
    return (a.runtimeMasks === undefined ? body : masked(body, a.runtimeMasks)) === mine;
  });
  const oneName = (list: readonly A[]): A | undefined => (list.length > 0 && list.every((a) => a.name === list[0]!.name) ? list[0] : undefined);
  return oneName(matches) ?? oneName(matches.filter((a) => withoutMetadata(a.deployedBytecode!) === body));
}
