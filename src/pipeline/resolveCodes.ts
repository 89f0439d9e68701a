/**
 * --override-code from an artifact or a contract name, made into runtime code: a name is looked up in
 * the project's build (before any request: a name it lacks is exit 2), then each artifact's immutables
 * are taken from the code at its address (one batch of eth_getCode at the block the run starts from).
 */
import type { Artifact } from '../decode/abiIndex.js';
import { allowance, typoDistance } from '../decode/nearFunctions.js';
import { UsageError } from '../errors.js';
import type { ArtifactCode } from './codeSource.js';
import { fillImmutables } from '../locate/fillImmutables.js';
import { escapeShort } from '../raw/escape.js';
import { isData } from '../raw/hex.js';
import type { Hex, StateOverride } from '../raw/types.js';
import type { RpcClient } from '../rpc/createRpcClient.js';
import { codesAt } from './codesAt.js';
import type { CodeOverride } from './planCall.js';

/** The project's contract name a typo away from `name` (the nearest; the first built of those as near), if any. */
function nearName(name: string, names: readonly string[]): string | undefined {
  const limit = allowance(name);
  let best: { name: string; distance: number } | undefined;
  for (const other of names) {
    const distance = typoDistance(name, other, limit);
    if (distance <= limit && (best === undefined || distance < best.distance)) best = { name: other, distance };
  }
  return best?.name;
}

/** Each override's artifact code: the file's, or the project's contract of that name (exit 2 where it has none, or several that differ). */
export function namedCodes(codes: readonly CodeOverride[], artifacts: readonly Artifact[]): Array<{ readonly address: Hex; readonly artifact: ArtifactCode }> {
  return codes.map(({ address, source }) => {
    if (source.kind === 'artifact') return { address, artifact: source.artifact };
    const built = artifacts.filter((a) => a.source === 'project' && a.deployedBytecode !== undefined);
    const found = built.filter((a) => a.name === source.name);
    const name = escapeShort(source.name, 60);
    if (found.length === 0) {
      const near = nearName(source.name, built.map((a) => a.name));
      const fix = near === undefined ? ' (forge build, or give an artifact file or hex).' : `; did you mean ${escapeShort(near, 60)}?`;
      throw new UsageError(`--override-code: the project in the working directory has no contract ${name} with runtime code in its build${fix}`);
    }
    if (new Set(found.map((a) => a.deployedBytecode)).size > 1) throw new UsageError(`--override-code: the project has ${found.length} contracts named ${name}; give its artifact file instead.`);
    return { address, artifact: { name: found[0]!.name, code: found[0]!.deployedBytecode!, masks: found[0]!.runtimeMasks ?? [] } };
  });
}

/** `overrides` with each artifact's code set, its immutables from the code at `block`. */
export async function resolveCodes(
  connect: () => Promise<RpcClient>,
  named: ReadonlyArray<{ readonly address: Hex; readonly artifact: ArtifactCode }>,
  overrides: StateOverride | null,
  block: string,
  timeoutMs: number,
): Promise<StateOverride | null> {
  if (named.length === 0) return overrides === null ? null : { ...overrides };
  const deployed = await codesAt(await connect(), named.map((n) => n.address), block, timeoutMs);
  const out: Record<Hex, StateOverride[Hex]> = { ...(overrides ?? {}) };
  for (const { address, artifact } of named) {
    const filled = fillImmutables(artifact.code, artifact.masks, deployed.get(address) ?? '0x');
    if (!isData(filled)) throw new UsageError(`--override-code ${address}: the immutables of ${escapeShort(artifact.name, 60)} could not be taken from the code at that address (${filled}); give the code as hex.`);
    out[address] = { ...(out[address] ?? {}), code: filled };
  }
  return out;
}
