/**
 * The `[rpc_endpoints]` of the Foundry project the working directory is in, for `--rpc-url <alias>`: the
 * nearest foundry.toml upwards, as forge finds its project. Foundry reads the table at the top level
 * (it applies to every profile) and inside a profile (`[profile.<name>.rpc_endpoints]`): the default
 * profile's over the top level's, then FOUNDRY_PROFILE's over both. Loaded only for an --rpc-url (or
 * ETH_RPC_URL) that is not a URL, so a lookup by URL never reads a file for it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { nearestUpwards } from '../decode/loadAbis.js';

export interface FoundryEndpoints {
  /** The foundry.toml read. */
  readonly file: string;
  /** Alias → the table's value as written (a string, or a table with `url`/`endpoint`), unchecked. */
  readonly endpoints: Readonly<Record<string, unknown>>;
  /** Why the file could not be read or parsed, when it could not (then `endpoints` is empty). */
  readonly broken?: string;
}

export function foundryEndpoints(cwd: string, env: Readonly<Record<string, string | undefined>>): FoundryEndpoints | null {
  const dir = nearestUpwards(cwd, (d) => existsSync(join(d, 'foundry.toml')));
  if (dir === null) return null;
  const file = join(dir, 'foundry.toml');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return { file, endpoints: {}, broken: 'cannot be read' };
  }
  return endpointsIn(file, text, env);
}

const tableOf = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

function endpointsIn(file: string, text: string, env: Readonly<Record<string, string | undefined>>): FoundryEndpoints {
  let doc: Record<string, unknown>;
  try {
    doc = parseToml(text) as Record<string, unknown>;
  } catch {
    return { file, endpoints: {}, broken: 'is not valid TOML' };
  }
  const profiles = tableOf(doc.profile);
  const named = env.FOUNDRY_PROFILE?.trim() || 'default';
  const endpoints = { ...tableOf(doc.rpc_endpoints), ...tableOf(tableOf(profiles.default).rpc_endpoints), ...tableOf(tableOf(profiles[named]).rpc_endpoints) };
  return { file, endpoints };
}
