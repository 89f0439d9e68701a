// The --internal bench's project: test/fixtures/internal compiled with solc from npm (the optimizer off,
// Foundry's default) into a folder laid out as `forge build --ast` writes it: out/<File>.sol/<C>.json
// with maps, ids, metadata and the file's AST, out/build-info/<id>.json, and the cache naming the build.
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import solc from 'solc';

const FIXTURE = fileURLToPath(new URL('../../test/fixtures/internal/src', import.meta.url));
const BUILD = 'bench0000000000000000000000000001';

/** Write the project into `dir`; returns each contract's ABI and creation code. */
export function writeInternalProject(dir) {
  cpSync(FIXTURE, join(dir, 'src'), { recursive: true });
  const sources = Object.fromEntries(readdirSync(FIXTURE).filter((f) => f.endsWith('.sol')).sort().map((f) => [`src/${f}`, { content: readFileSync(join(FIXTURE, f), 'utf8') }]));
  const wanted = ['abi', 'metadata', 'evm.bytecode.object', 'evm.bytecode.sourceMap', 'evm.deployedBytecode.object', 'evm.deployedBytecode.sourceMap', 'evm.deployedBytecode.immutableReferences'];
  const settings = { evmVersion: 'cancun', optimizer: { enabled: false }, outputSelection: { '*': { '*': wanted, '': ['ast'] } } };
  const output = JSON.parse(solc.compile(JSON.stringify({ language: 'Solidity', sources, settings })));
  const contracts = {};
  const cache = {};
  for (const [path, byName] of Object.entries(output.contracts)) {
    const folder = path.split('/').at(-1);
    mkdirSync(join(dir, 'out', folder), { recursive: true });
    const { id, ast } = output.sources[path];
    const artifacts = {};
    for (const [name, c] of Object.entries(byName)) {
      const { bytecode, deployedBytecode } = c.evm;
      const artifact = { abi: c.abi, bytecode: { object: `0x${bytecode.object}`, sourceMap: bytecode.sourceMap }, deployedBytecode: { object: `0x${deployedBytecode.object}`, sourceMap: deployedBytecode.sourceMap, immutableReferences: deployedBytecode.immutableReferences }, metadata: JSON.parse(c.metadata), id, ast };
      writeFileSync(join(dir, 'out', folder, `${name}.json`), JSON.stringify(artifact));
      artifacts[name] = { [solc.version().split('+')[0]]: { default: { path: `${folder}/${name}.json`, build_id: BUILD } } };
      contracts[name] = { abi: c.abi, bytecode: `0x${bytecode.object}` };
    }
    cache[path] = { sourceName: path, artifacts };
  }
  const ids = Object.fromEntries(Object.entries(output.sources).map(([path, s]) => [String(s.id), path]));
  mkdirSync(join(dir, 'out', 'build-info'), { recursive: true });
  writeFileSync(join(dir, 'out', 'build-info', `${BUILD}.json`), JSON.stringify({ id: BUILD, source_id_to_path: ids, language: 'Solidity' }));
  mkdirSync(join(dir, 'cache'), { recursive: true });
  writeFileSync(join(dir, 'cache', 'solidity-files-cache.json'), JSON.stringify({ files: cache }));
  writeFileSync(join(dir, 'foundry.toml'), '[profile.default]\nsrc = "src"\nout = "out"\nast = true\n');
  return contracts;
}
