// Compile contracts/Scenarios.sol with the solc npm package (WebAssembly, offline) into
// contracts/out/Scenarios.json: { contractName: { abi, bytecode, deployedBytecode, storageLayout } },
// contracts/Searcher.sol into contracts/out/Searcher.json (the same shape), and contracts/Bank.sol into
// contracts/out/Bank.json (Foundry's artifact shape). Run by `npm run contracts`;
// the output is committed, and a test checks that it matches a fresh compile.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import solc from 'solc';

/**
 * One file of contracts/ compiled with the project's settings (cancun, optimizer at 200 runs), `outputs`
 * asked of every contract, named in the compiler's input as `sourceName`. Throws on any error; returns
 * the compiler's output per contract, each made into an artifact by `artifact`.
 */
function compileFile(file, sourceName, outputs, artifact) {
  const source = readFileSync(fileURLToPath(new URL(`../contracts/${file}`, import.meta.url)), 'utf8');
  const input = {
    language: 'Solidity',
    sources: { [sourceName]: { content: source } },
    settings: { evmVersion: 'cancun', optimizer: { enabled: true, runs: 200 }, outputSelection: { '*': { '*': outputs } } },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input)));
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  const contracts = Object.fromEntries(Object.entries(output.contracts[sourceName]).map(([name, c]) => [name, artifact(c)]));
  return { compiler: solc.version(), contracts };
}

/**
 * One file of contracts/ as { contractName: { abi, bytecode, deployedBytecode, storageLayout } }; with `maps`,
 * also each code's source map and the compiler's metadata (the source's keccak256), for a project whose
 * failures are placed in the source.
 */
function compileFlat(file, maps = false) {
  const extra = maps ? ['evm.bytecode.sourceMap', 'evm.deployedBytecode.sourceMap', 'metadata'] : [];
  return compileFile(file, file, ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object', 'storageLayout', ...extra], (c) => ({
    abi: c.abi,
    bytecode: `0x${c.evm.bytecode.object}`,
    deployedBytecode: `0x${c.evm.deployedBytecode.object}`,
    storageLayout: c.storageLayout,
    ...(maps ? { sourceMap: c.evm.bytecode.sourceMap, deployedSourceMap: c.evm.deployedBytecode.sourceMap, metadata: c.metadata } : {}),
  }));
}

export function compileScenarios() {
  return compileFlat('Scenarios.sol', true);
}

/** contracts/Searcher.sol: the Hopper the Uniswap v2 block scenarios trade through. */
export function compileSearcher() {
  return compileFlat('Searcher.sol');
}

/**
 * contracts/Bank.sol as Foundry writes a project's artifacts: the runtime code with its
 * immutableReferences and linkReferences (the byte ranges a deployment fills in), and the storage layout.
 */
export function compileBank() {
  const outputs = ['abi', 'evm.bytecode.object', 'evm.bytecode.linkReferences', 'evm.deployedBytecode.object', 'evm.deployedBytecode.linkReferences', 'evm.deployedBytecode.immutableReferences', 'storageLayout'];
  return compileFile('Bank.sol', 'src/Bank.sol', outputs, (c) => ({
    abi: c.abi,
    bytecode: { object: `0x${c.evm.bytecode.object}`, linkReferences: c.evm.bytecode.linkReferences },
    deployedBytecode: { object: `0x${c.evm.deployedBytecode.object}`, linkReferences: c.evm.deployedBytecode.linkReferences, immutableReferences: c.evm.deployedBytecode.immutableReferences },
    storageLayout: c.storageLayout,
  }));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  mkdirSync(fileURLToPath(new URL('../contracts/out', import.meta.url)), { recursive: true });
  const results = { Scenarios: compileScenarios(), Searcher: compileSearcher(), Bank: compileBank() };
  for (const [name, result] of Object.entries(results)) writeFileSync(fileURLToPath(new URL(`../contracts/out/${name}.json`, import.meta.url)), `${JSON.stringify(result, null, 2)}\n`);
  console.log(`compiled with solc ${results.Scenarios.compiler}: ${Object.values(results).flatMap((r) => Object.keys(r.contracts)).join(', ')}`);
}
