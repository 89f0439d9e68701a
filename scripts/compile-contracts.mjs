// Compile contracts/Scenarios.sol with the solc npm package (WebAssembly, offline) into
// contracts/out/Scenarios.json: { contractName: { abi, bytecode, deployedBytecode, storageLayout } }, and
// contracts/Bank.sol into contracts/out/Bank.json (Foundry's artifact shape). Run by `npm run contracts`;
// the output is committed, and a test checks that it matches a fresh compile.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import solc from 'solc';

export function compileScenarios() {
  const source = readFileSync(fileURLToPath(new URL('../contracts/Scenarios.sol', import.meta.url)), 'utf8');
  const input = {
    language: 'Solidity',
    sources: { 'Scenarios.sol': { content: source } },
    settings: {
      evmVersion: 'cancun',
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object', 'storageLayout'] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input)));
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  const out = {};
  for (const [name, c] of Object.entries(output.contracts['Scenarios.sol'])) {
    out[name] = { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}`, deployedBytecode: `0x${c.evm.deployedBytecode.object}`, storageLayout: c.storageLayout };
  }
  return { compiler: solc.version(), contracts: out };
}

/**
 * contracts/Bank.sol as Foundry writes a project's artifacts: the runtime code with its
 * immutableReferences and linkReferences (the byte ranges a deployment fills in), and the storage layout.
 */
export function compileBank() {
  const source = readFileSync(fileURLToPath(new URL('../contracts/Bank.sol', import.meta.url)), 'utf8');
  const input = {
    language: 'Solidity',
    sources: { 'src/Bank.sol': { content: source } },
    settings: {
      evmVersion: 'cancun',
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.bytecode.linkReferences', 'evm.deployedBytecode.object', 'evm.deployedBytecode.linkReferences', 'evm.deployedBytecode.immutableReferences', 'storageLayout'] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input)));
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  const out = {};
  for (const [name, c] of Object.entries(output.contracts['src/Bank.sol'])) {
    out[name] = {
      abi: c.abi,
      bytecode: { object: `0x${c.evm.bytecode.object}`, linkReferences: c.evm.bytecode.linkReferences },
      deployedBytecode: { object: `0x${c.evm.deployedBytecode.object}`, linkReferences: c.evm.deployedBytecode.linkReferences, immutableReferences: c.evm.deployedBytecode.immutableReferences },
      storageLayout: c.storageLayout,
    };
  }
  return { compiler: solc.version(), contracts: out };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const bank = compileBank();
  writeFileSync(fileURLToPath(new URL('../contracts/out/Bank.json', import.meta.url)), `${JSON.stringify(bank, null, 2)}\n`);
  const result = compileScenarios();
  mkdirSync(fileURLToPath(new URL('../contracts/out', import.meta.url)), { recursive: true });
  writeFileSync(fileURLToPath(new URL('../contracts/out/Scenarios.json', import.meta.url)), `${JSON.stringify(result, null, 2)}\n`);
  console.log(`compiled with solc ${result.compiler}: ${[...Object.keys(result.contracts), ...Object.keys(bank.contracts)].join(', ')}`);
}
