/**
 * Where an artifact's source maps and source files come from, by the layout that wrote it: a Foundry
 * artifact (out/<File>.sol/<C>.json) carries its maps and its file's id, the build it belongs to is in
 * cache/solidity-files-cache.json and that build's id → path table in out/build-info/<id>.json, the
 * texts are read from disk and checked against the artifact's metadata hashes; a Hardhat artifact
 * (artifacts/**\/X.json) names its build-info in X.dbg.json, which holds the maps, the ids and the texts;
 * a build-info given to --abi holds everything itself. Nothing is read until a failed frame runs the
 * artifact's code (load()), then once; a file that cannot be had, or was edited since the build, gives
 * no location rather than a wrong one.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { CodeDebug, DebugSource, SourceFile, SourceTable } from '../locate/sourceMap.js';
import { keccak256 } from './keccak.js';
import { scanFunctions } from '../locate/scanFunctions.js';

const MAX_JSON_BYTES = 64 * 1024 * 1024;
const MAX_SOURCE_BYTES = 8 * 1024 * 1024;

import type { Json } from '../raw/types.js';
const rec = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** A JSON file read once per run (build-infos and caches are shared by many artifacts); null where it cannot be read. */
const jsonFiles = new Map<string, Json | null>();
function readJson(path: string): Json | null {
  if (jsonFiles.has(path)) return jsonFiles.get(path)!;
  let doc: Json | null = null;
  try {
    if (statSync(path).size <= MAX_JSON_BYTES) doc = rec(JSON.parse(readFileSync(path, 'utf8')));
  } catch {
    doc = null;
  }
  jsonFiles.set(path, doc);
  return doc;
}

/** Run `make` once, on first use. */
function once<T>(make: () => T): () => T {
  let done = false;
  let value: T;
  return () => {
    if (!done) {
      value = make();
      done = true;
    }
    return value;
  };
}

/** A file's text, null where it cannot be had, or 'edited' where it is not the text the build compiled. */
type Text = Uint8Array | null | 'edited';

/** Source ids → paths, as a table over `text(path)` (and `ast(path)`, where the build kept its ASTs); `count` is one past the highest id. */
function tableOf(paths: ReadonlyMap<number, string>, text: (path: string) => Text, ast?: (path: string) => unknown, scan = false): SourceTable {
  const files = new Map<number, SourceFile | null>();
  const edited = new Set<string>();
  const count = paths.size === 0 ? 0 : Math.max(...paths.keys()) + 1;
  // Without the build's AST (forge build's default), `scan`: the functions read from the file's text, where it is the text the build compiled.
  const scanned = (id: number): unknown => {
    const file = scan ? table.file(id) : null;
    return file === null ? null : scanFunctions(file.bytes, id);
  };
  const table: SourceTable = {
    count,
    edited,
    ...(ast === undefined ? {} : { ast: (id: number): unknown => (paths.has(id) ? (ast(paths.get(id)!) ?? scanned(id)) : null) }),
    file(id) {
      if (!files.has(id)) {
        const path = paths.get(id);
        const bytes = path === undefined ? null : text(path);
        if (bytes === 'edited') edited.add(path!);
        files.set(id, path === undefined || bytes === null || bytes === 'edited' ? null : { path, bytes });
      }
      return files.get(id)!;
    },
  };
  return table;
}

function idsOf(v: unknown): Map<number, string> {
  const out = new Map<number, string>();
  for (const [k, path] of Object.entries(rec(v))) if (/^\d{1,6}$/.test(k) && typeof path === 'string') out.set(Number(k), path);
  return out;
}

const mapOf = (code: unknown): string | undefined => str(rec(code).sourceMap);

/** How the build compiled: via IR, the optimizer on or off and the compiler's version where it says. */
type Settings = Pick<CodeDebug, 'viaIR' | 'optimizer' | 'version'>;

/** A code's debug, where its map is there. */
function codeDebug(map: string | undefined, sources: () => SourceTable | null, settings: Settings): CodeDebug | null {
  if (map === undefined || map === '') return null;
  const table = sources();
  return table === null ? null : { map, sources: table, ...settings };
}

/** solc's settings (a metadata's, which always say; or an input's: there the optimizer is off where they leave it out, solc's default) and the version. */
function settingsOf(settings: Json, version: unknown, input: boolean): Settings {
  const said = rec(settings.optimizer).enabled;
  const enabled = said === undefined && input ? false : said;
  const v = typeof version === 'string' ? /^v?(\d{1,3}\.\d{1,3}\.\d{1,3})/.exec(version)?.[1] : undefined;
  return { viaIR: settings.viaIR === true, ...(typeof enabled === 'boolean' ? { optimizer: enabled } : {}), ...(v === undefined ? {} : { version: v }) };
}

/**
 * The build a Foundry artifact belongs to: cache/solidity-files-cache.json names it per artifact file
 * (files[path].artifacts[name][version][profile] = { path, build_id }); ids are per build, so two builds
 * (a via-IR profile beside the default one) are never mixed. Without the cache, a single build-info.
 */
function foundryBuildId(out: string, root: string, artifactFile: string): string | null {
  const cache = readJson(join(root, 'cache', 'solidity-files-cache.json'));
  const wanted = resolve(artifactFile);
  for (const entry of Object.values(rec(cache?.files))) {
    for (const versions of Object.values(rec(rec(entry).artifacts))) {
      for (const profiles of Object.values(rec(versions))) {
        for (const p of Object.values(rec(profiles))) {
          const path = str(rec(p).path);
          const id = str(rec(p).build_id);
          if (path !== undefined && id !== undefined && (resolve(out, path) === wanted || resolve(root, path) === wanted)) return id;
        }
      }
    }
  }
  try {
    const infos = readdirSync(join(out, 'build-info')).filter((f) => f.endsWith('.json'));
    return infos.length === 1 ? basename(infos[0]!, '.json') : null;
  } catch {
    return null;
  }
}

/** The bytes of a project file, only if they hash to what the build compiled ('edited' where they do not). */
function checkedText(root: string, path: string, keccak: string | undefined): Text {
  if (keccak === undefined || !/^0x[0-9a-fA-F]{64}$/.test(keccak)) return null;
  try {
    const full = resolve(root, path);
    if (statSync(full).size > MAX_SOURCE_BYTES) return null;
    const bytes = readFileSync(full);
    return Buffer.from(keccak256(bytes)).toString('hex') === keccak.slice(2).toLowerCase() ? bytes : 'edited';
  } catch {
    return null;
  }
}

/** A Foundry artifact's (`o`, read from `file` = <out>/<File>.sol/<C>.json); undefined where it has no map. */
export function foundryDebug(file: string, o: Json): DebugSource | undefined {
  const runtimeMap = mapOf(o.deployedBytecode);
  const creationMap = mapOf(o.bytecode);
  if (runtimeMap === undefined && creationMap === undefined) return undefined;
  const metadata = rec(typeof o.metadata === 'string' ? safeParse(o.metadata) : o.metadata);
  const hashes = rec(metadata.sources);
  const settings = settingsOf(rec(metadata.settings), rec(metadata.compiler).version, false);
  const out = dirname(dirname(resolve(file)));
  const root = dirname(out);
  const sources = once((): SourceTable | null => {
    const id = foundryBuildId(out, root, file);
    const info = id === null || !/^[\w.-]{1,200}$/.test(id) ? null : readJson(join(out, 'build-info', `${id}.json`));
    if (info === null) return null;
    const ids = idsOf(info.source_id_to_path);
    return tableOf(ids.size > 0 ? ids : outputIds(info), (path) => checkedText(root, path, str(rec(hashes[path]).keccak256)), (path) => foundryAst(out, path), true);
  });
  return { runtime: once(() => codeDebug(runtimeMap, sources, settings)), creation: once(() => codeDebug(creationMap, sources, settings)) };
}

/**
 * A file's AST as forge writes it into each artifact of that file (out/<File>.sol/<C>.json `ast`, whose
 * absolutePath is the file's path); null where none of them holds it.
 */
function foundryAst(out: string, path: string): unknown {
  const folder = join(out, basename(path));
  let names: string[];
  try {
    names = readdirSync(folder).filter((f) => f.endsWith('.json')).sort();
  } catch {
    return null;
  }
  for (const name of names) {
    const ast = rec(readJson(join(folder, name))?.ast);
    if (ast.absolutePath === path) return ast;
  }
  return null;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** solc's output.sources[path].id, as an id → path table. */
function outputIds(info: Json): Map<number, string> {
  const out = new Map<number, string>();
  for (const [path, s] of Object.entries(rec(rec(info.output).sources))) {
    const id = rec(s).id;
    if (Number.isSafeInteger(id) && (id as number) >= 0) out.set(id as number, path);
  }
  return out;
}

/** The texts a solc input carries (input.sources[path].content). */
function inputText(info: Json): (path: string) => Uint8Array | null {
  const sources = rec(rec(info.input).sources);
  return (path) => {
    const content = str(rec(sources[path]).content);
    return content === undefined ? null : Buffer.from(content, 'utf8');
  };
}

/** The debug of contract `name` in `sourceName` of a full build-info (solc's input and output). */
export function buildInfoDebug(info: Json, sourceName: string, name: string): DebugSource | undefined {
  const evm = rec(rec(rec(rec(rec(info.output).contracts)[sourceName])[name]).evm);
  const runtimeMap = mapOf(evm.deployedBytecode);
  const creationMap = mapOf(evm.bytecode);
  if (runtimeMap === undefined && creationMap === undefined) return undefined;
  const settings = settingsOf(rec(rec(info.input).settings), info.solcVersion, true);
  const sources = once((): SourceTable | null => {
    const ids = outputIds(info);
    return tableOf(ids.size > 0 ? ids : idsOf(info.source_id_to_path), inputText(info), (path) => rec(rec(rec(info.output).sources)[path]).ast ?? null);
  });
  return { runtime: once(() => codeDebug(runtimeMap, sources, settings)), creation: once(() => codeDebug(creationMap, sources, settings)) };
}

/** A Hardhat artifact's (`o`, read from `file`), through X.dbg.json beside it; undefined where there is none. */
export function hardhatDebug(file: string, o: Json): DebugSource | undefined {
  const sourceName = str(o.sourceName);
  const name = str(o.contractName);
  const dbg = file.replace(/\.json$/, '.dbg.json');
  if (sourceName === undefined || name === undefined || !existsSync(dbg)) return undefined;
  const info = once((): DebugSource | null => {
    const pointer = str(readJson(dbg)?.buildInfo);
    const doc = pointer === undefined ? null : readJson(resolve(dirname(dbg), pointer));
    return doc === null ? null : (buildInfoDebug(doc, sourceName, name) ?? null);
  });
  return { runtime: () => info()?.runtime() ?? null, creation: () => info()?.creation() ?? null };
}

/** Whether a JSON document is a full build-info (solc's input and output). */
export const isBuildInfo = (o: Json): boolean => typeof rec(o.input).sources === 'object' && typeof rec(o.output).contracts === 'object';

/** A verified contract's, from the sources a service gave (its own ids, its texts). */
export function inlineDebug(files: Readonly<Record<string, { readonly id: number; readonly content: string }>>, runtimeMap: string | null, creationMap: string | null, viaIR: boolean): DebugSource {
  const sources = once((): SourceTable => tableOf(new Map(Object.entries(files).map(([path, f]) => [f.id, path])), (path) => (files[path] === undefined ? null : Buffer.from(files[path]!.content, 'utf8'))));
  return { runtime: once(() => codeDebug(runtimeMap ?? undefined, sources, { viaIR })), creation: once(() => codeDebug(creationMap ?? undefined, sources, { viaIR })) };
}
