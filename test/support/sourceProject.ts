/**
 * A multi-file Solidity project (test/fixtures/srcloc/src) compiled with solc from npm and written the
 * way Foundry or Hardhat lays out its output, for the tests of where a failure happened in the source.
 */
import { cpSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { solcOnce } from './solcOnce.js';

export const FIXTURE = fileURLToPath(new URL('../fixtures/srcloc', import.meta.url));

export interface Compiled {
  readonly abi: unknown[];
  readonly bytecode: string;
}

/** Every .sol file under src/, by its project path ("src/lib/Balances.sol"). */
function sourcesOf(root: string): Record<string, { content: string }> {
  const out: Record<string, { content: string }> = {};
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir).sort()) {
      const p = join(dir, e);
      if (statSync(p).isDirectory()) walk(p);
      else if (e.endsWith('.sol')) out[relative(root, p)] = { content: readFileSync(p, 'utf8') };
    }
  };
  walk(join(root, 'src'));
  return out;
}

interface Build {
  readonly input: Record<string, any>;
  readonly output: Record<string, any>;
  /** solc.version() of the compiler that built it. */
  readonly version: string;
}

const OUTPUTS = ['abi', 'metadata', 'evm.bytecode.object', 'evm.bytecode.sourceMap', 'evm.bytecode.linkReferences', 'evm.deployedBytecode.object', 'evm.deployedBytecode.sourceMap', 'evm.deployedBytecode.linkReferences', 'evm.deployedBytecode.immutableReferences'];

function compile(root: string, viaIR: boolean, optimizer = true, layout = false): Build {
  const input = {
    language: 'Solidity',
    sources: sourcesOf(root),
    settings: { evmVersion: 'cancun', viaIR, optimizer: { enabled: optimizer, runs: 200 }, outputSelection: { '*': { '*': layout ? [...OUTPUTS, 'storageLayout', 'transientStorageLayout'] : OUTPUTS, '': ['ast'] } } },
  };
  const { output, version } = solcOnce(input);
  const errors = (output.errors ?? []).filter((e: any) => e.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e: any) => e.formattedMessage).join('\n'));
  return { input, output, version };
}

/** The contracts of a build, by name: ABI and creation code (0x…), for deploying them. */
function contractsOf(b: Build): Record<string, Compiled> {
  const out: Record<string, Compiled> = {};
  for (const byName of Object.values(b.output.contracts) as any[]) for (const [name, c] of Object.entries(byName) as any[]) out[name] = { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` };
  return out;
}

/**
 * A Foundry project in `dir`: the sources copied, foundry.toml, out/<File>.sol/<C>.json (maps, the
 * file's id, metadata), out/build-info/<id>.json ({id, source_id_to_path, language}, forge's default)
 * and cache/solidity-files-cache.json naming each artifact's build. `fixture`: another folder whose src/ to
 * compile (test/fixtures/srcloc by default); `ast`: each artifact carries its file's AST, as `forge build --ast` writes it;
 * `storageLayout`: and its storage layout, as `extra_output = ["storageLayout"]` has it written.
 */
export function writeFoundryProject(dir: string, opts: { viaIR?: boolean; optimizer?: boolean; fixture?: string; ast?: boolean; storageLayout?: boolean } = {}): Record<string, Compiled> {
  cpSync(join(opts.fixture ?? FIXTURE, 'src'), join(dir, 'src'), { recursive: true });
  const optimizer = opts.optimizer ?? true;
  writeFileSync(join(dir, 'foundry.toml'), `[profile.default]\nsrc = "src"\nout = "out"\n${optimizer ? 'optimizer = true\n' : ''}${opts.viaIR ? 'via_ir = true\n' : ''}`);
  const build = compile(dir, opts.viaIR === true, optimizer, opts.storageLayout === true);
  const buildId = opts.viaIR ? 'b1d0000000000000000000000000000a' : optimizer ? 'b1d0000000000000000000000000000b' : 'b1d0000000000000000000000000000c';
  const files: Record<string, unknown> = {};
  const ids: Record<string, string> = {};
  for (const [path, s] of Object.entries(build.output.sources) as any[]) ids[String(s.id)] = path;
  for (const [path, byName] of Object.entries(build.output.contracts) as any[]) {
    const file = path.split('/').at(-1)!;
    mkdirSync(join(dir, 'out', file), { recursive: true });
    const artifacts: Record<string, unknown> = {};
    for (const [name, c] of Object.entries(byName) as any[]) {
      const e = c.evm;
      const doc = {
        abi: c.abi,
        bytecode: { object: `0x${e.bytecode.object}`, sourceMap: e.bytecode.sourceMap, linkReferences: e.bytecode.linkReferences },
        deployedBytecode: { object: `0x${e.deployedBytecode.object}`, sourceMap: e.deployedBytecode.sourceMap, linkReferences: e.deployedBytecode.linkReferences, immutableReferences: e.deployedBytecode.immutableReferences },
        metadata: JSON.parse(c.metadata),
        id: build.output.sources[path].id,
        ...(opts.ast === true ? { ast: build.output.sources[path].ast } : {}),
        ...(opts.storageLayout === true ? { storageLayout: c.storageLayout, transientStorageLayout: c.transientStorageLayout } : {}),
      };
      writeFileSync(join(dir, 'out', file, `${name}.json`), JSON.stringify(doc));
      artifacts[name] = { [build.version.split('+')[0]!]: { default: { path: `${file}/${name}.json`, build_id: buildId } } };
    }
    files[path] = { sourceName: path, imports: [], artifacts, seenByCompiler: true };
  }
  mkdirSync(join(dir, 'out', 'build-info'), { recursive: true });
  writeFileSync(join(dir, 'out', 'build-info', `${buildId}.json`), JSON.stringify({ id: buildId, source_id_to_path: ids, language: 'Solidity' }));
  mkdirSync(join(dir, 'cache'), { recursive: true });
  writeFileSync(join(dir, 'cache', 'solidity-files-cache.json'), JSON.stringify({ _format: '', paths: { artifacts: 'out', build_infos: 'out/build-info', sources: 'src' }, files }));
  return contractsOf(build);
}

/**
 * A Hardhat project in `dir` (the sources under contracts/): artifacts/contracts/<File>.sol/<C>.json
 * (no maps), <C>.dbg.json beside each, and artifacts/build-info/<hash>.json with solc's input and output
 * (the ASTs in it, as Hardhat writes them). `fixture`: another folder whose src/ to compile.
 */
export function writeHardhatProject(dir: string, fixture = FIXTURE): Record<string, Compiled> {
  cpSync(join(fixture, 'src'), join(dir, 'src'), { recursive: true });
  writeFileSync(join(dir, 'hardhat.config.js'), 'module.exports = { solidity: "0.8.28" };\n');
  const build = compile(dir, false);
  const hash = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
  mkdirSync(join(dir, 'artifacts', 'build-info'), { recursive: true });
  writeFileSync(join(dir, 'artifacts', 'build-info', `${hash}.json`), JSON.stringify({ _format: 'hh-sol-build-info-1', id: hash, solcVersion: build.version, input: build.input, output: build.output }));
  for (const [path, byName] of Object.entries(build.output.contracts) as any[]) {
    const folder = join(dir, 'artifacts', path);
    mkdirSync(folder, { recursive: true });
    for (const [name, c] of Object.entries(byName) as any[]) {
      const e = c.evm;
      const doc = { _format: 'hh-sol-artifact-1', contractName: name, sourceName: path, abi: c.abi, bytecode: `0x${e.bytecode.object}`, deployedBytecode: `0x${e.deployedBytecode.object}`, linkReferences: e.bytecode.linkReferences, deployedLinkReferences: e.deployedBytecode.linkReferences };
      writeFileSync(join(folder, `${name}.json`), JSON.stringify(doc));
      writeFileSync(join(folder, `${name}.dbg.json`), JSON.stringify({ _format: 'hh-sol-dbg-1', buildInfo: relative(folder, join(dir, 'artifacts', 'build-info', `${hash}.json`)) }));
    }
  }
  return contractsOf(build);
}
