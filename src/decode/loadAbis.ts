/**
 * ABIs from files: --abi paths (a JSON ABI array, a human-readable ABI with one signature per line, a
 * Foundry, Hardhat or Waffle artifact, or a directory of them) and the project in the working directory
 * (foundry.toml → its `out` folder; hardhat.config.* → artifacts/).
 * A bad --abi path is a usage error; inside directories and projects, unreadable files are skipped.
 */
import { existsSync, lstatSync, readdirSync, readFileSync, type Stats } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import type { Abi } from 'abitype';
import { parseAbi } from 'viem';
import { UsageError } from '../errors.js';
import { isData, isRecord } from '../raw/hex.js';
import type { Hex } from '../raw/types.js';
import { escapeShort } from '../raw/escape.js';
import type { Artifact } from './abiIndex.js';
import type { DebugSource } from '../locate/sourceMap.js';
import { parseStorageLayout } from './nameStorage.js';
import type { NameSource } from '../model/types.js';
import { parse as parseToml } from 'smol-toml';
import { buildInfoDebug, foundryDebug, hardhatDebug, isBuildInfo } from './loadDebug.js';

/** Bounds for walking a directory: artifacts folders can be large, and we read them before answering. */
const WALK_LIMITS = { files: 5_000, fileBytes: 32 * 1024 * 1024, totalBytes: 512 * 1024 * 1024 } as const;

const HUMAN_KEYWORDS = /^(function|event|error|constructor|fallback|receive|struct)\b/;

/** An unlinked library's place in code: `__$<34 hex>$__` (solc ≥ 0.5) or `__<path:Name padded>__` (older). */
const LIBRARY_PLACEHOLDER = /__\$[0-9a-fA-F]{34}\$__|__[^_].{34}[^_]__/g;

function hexOrUndefined(v: unknown): Hex | undefined {
  const s = typeof v === 'string' ? v : isRecord(v) && typeof v.object === 'string' ? v.object : undefined;
  if (s === undefined || s === '' || s === '0x') return undefined;
  // Unlinked libraries: zeros where the address goes (their ranges are masked, see runtimeMasksOf).
  const hex = (s.startsWith('0x') ? s : `0x${s}`).replace(LIBRARY_PLACEHOLDER, '0'.repeat(40));
  return isData(hex) ? hex : undefined;
}

type Ranges = Array<readonly [number, number]>;

/** solc's `{ "<ast id>": [{start, length}] }` (immutables) or `{ file: { Lib: [{start, length}] } }` (libraries). */
function rangesIn(v: unknown, depth: number, out: Ranges): void {
  if (Array.isArray(v)) {
    for (const r of v.slice(0, 1000)) {
      const { start, length } = isRecord(r) ? r : {};
      if (typeof start === 'number' && typeof length === 'number' && Number.isSafeInteger(start) && Number.isSafeInteger(length) && start >= 0 && length > 0 && length <= 32) out.push([start, length]);
    }
  } else if (typeof v === 'object' && v !== null && depth < 2) {
    for (const inner of Object.values(v).slice(0, 1000)) rangesIn(inner, depth + 1, out);
  }
}

/**
 * What each deployment writes into the runtime code, so that matching code to this artifact can skip
 * it: immutables (Foundry: deployedBytecode.immutableReferences), linked libraries (linkReferences;
 * Hardhat: deployedLinkReferences), and a library's guard, the PUSH20 of its own address at offset 1.
 */
function runtimeMasksOf(o: Record<string, unknown>, code: Hex | undefined): Ranges {
  const out: Ranges = [];
  const runtime: Record<string, unknown> = isRecord(o.deployedBytecode) ? o.deployedBytecode : {};
  rangesIn(runtime.immutableReferences, 0, out);
  rangesIn(runtime.linkReferences ?? o.deployedLinkReferences, 0, out);
  // solc's library call protection: PUSH20 <address> ADDRESS EQ, with zeros in the artifact.
  if (code !== undefined && code.slice(2, 44).toLowerCase() === `73${'0'.repeat(40)}` && code.slice(44, 48).toLowerCase() === '3014') out.push([1, 20]);
  return out;
}

function isAbiArray(v: unknown): v is Abi {
  return Array.isArray(v) && v.every((e) => isRecord(e) && typeof e.type === 'string');
}

/** The runtime code, and the ranges of it a deployment fills in (none: the field is left out). */
function withRuntime(o: Record<string, unknown>): { deployedBytecode?: Hex; runtimeMasks?: Ranges } {
  const deployedBytecode = hexOrUndefined(o.deployedBytecode);
  if (deployedBytecode === undefined) return {};
  const masks = runtimeMasksOf(o, deployedBytecode);
  return masks.length > 0 ? { deployedBytecode, runtimeMasks: masks } : { deployedBytecode };
}

/** Where the artifact's source maps are to be had: Hardhat's X.dbg.json beside it, else Foundry's layout. */
function withDebug(file: string, o: Record<string, unknown>): { debug?: DebugSource } {
  const debug = o._format === 'hh-sol-artifact-1' ? hardhatDebug(file, o) : foundryDebug(file, o);
  return debug === undefined ? {} : { debug };
}

/**
 * A full build-info (Hardhat's artifacts/build-info/*.json, Foundry's with build_info = true): one
 * artifact per contract of its output, with its maps and the texts it carries.
 */
function buildInfoArtifacts(info: Record<string, unknown>, source: NameSource): Artifact[] {
  const out: Artifact[] = [];
  const contracts = isRecord(info.output) && isRecord(info.output.contracts) ? info.output.contracts : {};
  for (const [sourceName, byName] of Object.entries(contracts)) {
    for (const [name, c] of Object.entries(typeof byName === 'object' && byName !== null ? byName : {})) {
      const { abi, evm } = isRecord(c) ? c : {};
      if (!isAbiArray(abi)) continue;
      const code = isRecord(evm) ? evm : {};
      const o: Record<string, unknown> = { abi, bytecode: code.bytecode, deployedBytecode: code.deployedBytecode };
      const debug = buildInfoDebug(info, sourceName, name);
      out.push({ name, abi, source, bytecode: hexOrUndefined(o.bytecode), ...withRuntime(o), ...(debug === undefined ? {} : { debug }) });
    }
  }
  return out;
}

/** One file's artifacts: a build-info's every contract, else parseAbiFile's one. */
function parseArtifacts(text: string, file: string, source: NameSource): Artifact[] {
  if (text.trimStart().startsWith('{')) {
    let doc: unknown = null;
    try {
      doc = JSON.parse(text);
    } catch {
      /* parseAbiFile says so */
    }
    if (isRecord(doc) && isBuildInfo(doc)) return buildInfoArtifacts(doc, source);
  }
  return [parseAbiFile(text, file, source)];
}

/** Parse one file's text into an artifact; throws a plain Error saying what is wrong. */
export function parseAbiFile(text: string, file: string, source: NameSource): Artifact {
  const name = basename(file).replace(/(\.abi)?\.(json|abi|txt)$/i, '');
  const trimmed = text.trimStart();
  if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch {
      throw new Error('not valid JSON');
    }
    if (isAbiArray(doc)) return { name, abi: doc, source };
    const o = doc;
    if (isRecord(o) && isAbiArray(o.abi)) {
      // Foundry: { abi, bytecode: { object }, deployedBytecode: { object } }, named after the file.
      // Hardhat: { _format: "hh-sol-artifact-1", contractName, abi, bytecode, deployedBytecode }.
      // Waffle (what @uniswap/v2-core/build ships): { abi, bytecode, evm: { bytecode, deployedBytecode } },
      // solc's own output shape, its immutables under evm.deployedBytecode.immutableReferences.
      // Either may carry solc's storageLayout (Foundry with extra_output = ["storageLayout"]).
      const evm: Record<string, unknown> = isRecord(o.evm) ? o.evm : {};
      const code = { ...o, bytecode: o.bytecode ?? evm.bytecode, deployedBytecode: o.deployedBytecode ?? evm.deployedBytecode };
      return {
        name: typeof o.contractName === 'string' ? o.contractName : name,
        abi: o.abi,
        source,
        bytecode: hexOrUndefined(code.bytecode),
        ...withRuntime(code),
        ...(o.storageLayout !== undefined ? { storageLayout: parseStorageLayout(o.storageLayout) } : {}),
        ...(o.transientStorageLayout !== undefined ? { transientStorageLayout: parseStorageLayout(o.transientStorageLayout) } : {}),
        ...withDebug(file, o),
      };
    }
    throw new Error('JSON, but neither an ABI array nor an artifact with an "abi" array');
  }
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.replace(/(#|\/\/).*$/, '').trim())
    .filter((l) => l !== '')
    .map((l) => (HUMAN_KEYWORDS.test(l) ? l : `function ${l}`));
  if (lines.length === 0) throw new Error('empty');
  try {
    return { name, abi: parseAbi(lines), source };
  } catch (err) {
    throw new Error(`not a human-readable ABI (${escapeShort(err instanceof Error ? err.message.split('\n')[0]! : String(err), 80)})`);
  }
}

/**
 * Walk a directory without following links, within WALK_LIMITS; collect artifacts that parse. `project`: the
 * project's folder, each artifact with code then naming its file from there (said where the code no longer matches).
 */
function walk(root: string, source: NameSource, out: Artifact[], project?: string): void {
  let files = 0;
  let bytes = 0;
  const stack = [root];
  while (stack.length > 0) {
    const dir = stack.pop()!;
    let entries: string[];
    try {
      entries = readdirSync(dir).sort();
    } catch {
      continue;
    }
    for (const entry of entries) {
      const path = join(dir, entry);
      let st: Stats;
      try {
        st = lstatSync(path);
      } catch {
        continue;
      }
      if (st.isSymbolicLink()) continue; // never follow links out of the tree
      if (st.isDirectory()) {
        if (entry !== 'build-info' && entry !== 'node_modules' && !entry.startsWith('.')) stack.push(path);
        continue;
      }
      if (!st.isFile() || !entry.endsWith('.json') || entry.endsWith('.dbg.json')) continue;
      if (st.size > WALK_LIMITS.fileBytes) continue;
      if (++files > WALK_LIMITS.files || (bytes += st.size) > WALK_LIMITS.totalBytes) return;
      try {
        const artifact = parseAbiFile(readFileSync(path, 'utf8'), path, source);
        const shown = project !== undefined && artifact.deployedBytecode !== undefined ? { file: relative(project, path) } : {};
        if (artifact.abi.length > 0 || artifact.bytecode) out.push({ ...artifact, ...shown });
      } catch {
        /* not an artifact (a cache file, a config): skip */
      }
    }
  }
}

/** --abi paths, in order. Unreadable or malformed: UsageError (exit 2), before any request. */
export function loadAbiPaths(paths: readonly string[]): Artifact[] {
  const out: Artifact[] = [];
  for (const p of paths) {
    const shown = escapeShort(p, 80);
    let st: Stats;
    try {
      st = lstatSync(p);
    } catch {
      throw new UsageError(`--abi ${shown}: no such file or directory.`);
    }
    if (st.isDirectory()) {
      const before = out.length;
      walk(resolve(p), 'abi', out);
      if (out.length === before) throw new UsageError(`--abi ${shown}: no ABI or artifact found in this directory.`);
      continue;
    }
    let text: string;
    try {
      if (st.size > WALK_LIMITS.fileBytes) throw new Error('too large');
      text = readFileSync(p, 'utf8');
    } catch (err) {
      throw new UsageError(`--abi ${shown}: cannot read it (${err instanceof Error && err.message === 'too large' ? 'larger than 32 MiB' : 'permission or I/O error'}).`);
    }
    try {
      out.push(...parseArtifacts(text, p, 'abi'));
    } catch (err) {
      throw new UsageError(`--abi ${shown}: ${err instanceof Error ? err.message : 'malformed'}; expected a JSON ABI, an artifact, or one signature per line.`);
    }
  }
  return out;
}

/**
 * Where Foundry writes artifacts, as Foundry decides it: `[profile.default]`'s `out`, then the profile
 * FOUNDRY_PROFILE names on top of it, then FOUNDRY_OUT over both; "out" when none says. A foundry.toml
 * that does not parse gives the default too (txray still runs; its names just come from elsewhere).
 */
function foundryOut(toml: string, env: Readonly<Record<string, string | undefined>>): string {
  let profiles: Record<string, unknown> = {};
  try {
    const doc = parseToml(toml);
    if (isRecord(doc.profile)) profiles = doc.profile;
  } catch {
    /* not TOML: the default */
  }
  const outOf = (name: string | undefined): string | undefined => {
    const p = name === undefined ? undefined : profiles[name];
    const out = isRecord(p) ? p.out : undefined;
    return typeof out === 'string' && out !== '' ? out : undefined;
  };
  const named = env.FOUNDRY_PROFILE?.trim() || undefined;
  return (env.FOUNDRY_OUT?.trim() || undefined) ?? outOf(named) ?? outOf('default') ?? 'out';
}

const HARDHAT_CONFIGS = ['js', 'ts', 'cjs', 'mjs', 'cts', 'mts'].map((ext) => `hardhat.config.${ext}`);

/** The nearest folder from `cwd` upwards (64 levels at most) that `has` says yes to, or null. */
export function nearestUpwards(cwd: string, has: (dir: string) => boolean): string | null {
  let dir = resolve(cwd);
  for (let level = 0; level < 64; level++) {
    if (has(dir)) return dir;
    const up = dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
  return null;
}

/**
 * The project the working directory is in: the nearest folder upwards with a foundry.toml or a
 * hardhat.config.*, as forge and Hardhat find theirs (from src/ or script/ too). Null where none is.
 */
export const projectRoot = (cwd: string): string | null => nearestUpwards(cwd, (dir) => existsSync(join(dir, 'foundry.toml')) || HARDHAT_CONFIGS.some((f) => existsSync(join(dir, f))));

/** Artifacts of the Foundry or Hardhat project `cwd` is in (see projectRoot), if there is one. */
export function loadProjectAbis(cwd: string, env: Readonly<Record<string, string | undefined>> = {}): { artifacts: Artifact[]; kind: string | null } {
  const out: Artifact[] = [];
  const root = projectRoot(cwd);
  if (root === null) return { artifacts: out, kind: null };
  cwd = root;
  const foundry = join(cwd, 'foundry.toml');
  if (existsSync(foundry)) {
    let toml = '';
    try {
      toml = readFileSync(foundry, 'utf8');
    } catch {
      /* unreadable: use the default */
    }
    const dir = resolve(cwd, foundryOut(toml, env));
    if (dir.startsWith(resolve(cwd)) && existsSync(dir)) walk(dir, 'project', out, cwd);
    return { artifacts: out, kind: 'foundry' };
  }
  if (HARDHAT_CONFIGS.some((f) => existsSync(join(cwd, f)))) {
    const dir = join(cwd, 'artifacts');
    if (existsSync(dir)) walk(dir, 'project', out);
    return { artifacts: out, kind: 'hardhat' };
  }
  return { artifacts: out, kind: null };
}
