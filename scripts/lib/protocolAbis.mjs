// The protocol signature set: every function, event and error, with its parameter names, from the
// compiled ABIs that published protocol packages ship (devDependencies; only the extracted rows are
// shipped). Run by the build; `extractProtocolAbis()` returns the rows and the licence notice.
//
// Rows are deduplicated by what a selector or topic names (kind, key and canonical types): the first
// package in PACKAGES wins (unless it leaves the parameters unnamed and a later one names them), so the
// order below is also the order of preference for parameter names.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseAbiItem, toEventSelector, toEventSignature, toFunctionSelector, toFunctionSignature } from 'viem';
import { HAND_WRITTEN } from './handWrittenAbis.mjs';
import { licenceFileIn } from './packageRoot.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const here = fileURLToPath(new URL('./', import.meta.url));

/**
 * Where each package keeps its ABIs: `json` folders (artifacts or bare ABI arrays, walked), or
 * `modules` (CommonJS or ES) whose exports hold ABI arrays, or `vendored`: a file in scripts/lib/ holding
 * a package's modules' ABI exports, its version and its licence, for one that is not installed.
 * BUSL-licensed packages (Uniswap v3-core/v4, Aave core, Chainlink ≥ 1.0) are left out; GPL/LGPL ones
 * ship their licence text beside the data.
 */
export const PACKAGES = [
  { pkg: '@openzeppelin/contracts', json: ['build/contracts'] },
  { pkg: '@uniswap/v2-core', json: ['build'] },
  { pkg: '@uniswap/v2-periphery', json: ['build'] },
  { pkg: '@uniswap/v3-periphery', json: ['artifacts/contracts'] },
  { pkg: '@uniswap/universal-router', json: ['artifacts/contracts'] },
  { pkg: '@uniswap/v4-periphery', json: ['foundry-out'] },
  { pkg: '@safe-global/safe-deployments', json: ['dist/assets'] },
  { pkg: '@account-abstraction/contracts', json: ['artifacts'] },
  { pkg: '@bgd-labs/aave-address-book', modules: ['dist/abis'] },
  { pkg: '@compound-finance/compound-js', modules: ['dist/nodejs/constants.js'] },
  { pkg: '@chainlink/contracts', json: ['abi'] },
  { pkg: '@0x/contract-artifacts', json: ['lib/artifacts'] },
  { pkg: '@cowprotocol/contracts', json: ['lib/contracts'] },
  { pkg: '@curvefi/api', json: ['lib/constants/abis'] },
  { pkg: '@eth-optimism/contracts-bedrock', json: ['forge-artifacts'] },
  { pkg: '@lido-sdk/contracts', modules: ['dist/cjs/generated/factories'] },
  { pkg: '@opensea/seaport-js', modules: ['lib/abi'] },
  { pkg: '@morpho-org/blue-sdk-viem', modules: ['lib/cjs/abis.js'] },
  { pkg: '@balancer/sdk', modules: ['dist/index.js'] },
  // ENS: ES modules of ABI snippets by contract (baseRegistrar.js, publicResolver.js…): named by file.
  // Their exports are copied in ensjs-contracts.json (scripts/vendor-ensjs.mjs): ensjs declares Node >= 22,
  // and its last release without that (4.0.2) has the registrar and resolver ABIs of before 2025.
  { pkg: '@ensdomains/ensjs', vendored: 'ensjs-contracts.json', nameByFile: true },
  // The 2018–2020 generation mainnet history is full of (Aave v1, Compound, dYdX Solo, Maker DSS and its
  // proxy actions, DSProxy, Kyber, Balancer v1, early Curve pools, Synthetix, Uniswap v1, 1inch OneSplit,
  // Idle, mStable, UMA), as verified ABIs with parameter names, from StudyDeFi's money-legos (MIT).
  {
    pkg: '@studydefi/money-legos',
    json: ['aave', 'balancer', 'compound', 'curvefi', 'dappsys', 'dydx', 'idle', 'kyber', 'maker', 'mstable', 'onesplit', 'synthetix', 'uma', 'uniswap', 'uniswapV2'].map((p) => `${p}/abi`),
  },
  // Arbitrum's precompiles and NodeInterface, from the Apache-2.0 SDK's TypeChain factories (the
  // nitro-contracts package has them too, but under BUSL-1.1).
  {
    pkg: '@arbitrum/sdk',
    modules: ['ArbSys', 'ArbInfo', 'ArbAddressTable', 'ArbAggregator', 'ArbFunctionTable', 'ArbGasInfo', 'ArbOwnerPublic', 'ArbRetryableTx', 'ArbStatistics', 'NodeInterface'].map((c) => `dist/lib/abi/factories/${c}__factory.js`),
  },
];

/**
 * Test doubles, examples, Foundry tests and scripts, and forge-std's helpers name selectors no deployed
 * protocol uses: left out.
 */
const NOT_DEPLOYED = /(^|[/\\])(mocks?|test|tests|examples?|scripts?|forge-std|build-info)([/\\]|$)|(^|[^a-z])(Mock|Test|Echidna|Harness)|\.[ts]\.sol([/\\]|$)|(^|[/\\])(Std[A-Za-z]*|Vm|console2?|safeconsole|Script|Base|Deploy[A-Za-z]*|Fuzzers|Deployers)\.sol([/\\]|$)/;

const isItem = (x) => x !== null && typeof x === 'object' && (x.type === 'function' || x.type === 'event' || x.type === 'error')
  && typeof x.name === 'string' && /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(x.name) && Array.isArray(x.inputs);

/** ABI arrays anywhere in a document (artifact fields like `abi`, `compilerOutput.abi`, or the array itself). */
function abisIn(doc, found, depth = 0) {
  if (depth > 4 || doc === null || typeof doc !== 'object') return;
  if (Array.isArray(doc)) {
    if (doc.some(isItem)) found.push(doc.filter(isItem));
    else for (const x of doc.slice(0, 200)) abisIn(x, found, depth + 1);
    return;
  }
  for (const v of Object.values(doc)) abisIn(v, found, depth + 1);
}

function filesUnder(dir, ext) {
  if (!existsSync(dir)) return [];
  if (statSync(dir).isFile()) return [dir];
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p, ext));
    else if (name.endsWith(ext) && name !== 'package.json' && !name.endsWith('.dbg.json')) out.push(p);
  }
  return out;
}

/** A parameter as the index needs it: name, type, components, indexed (events). Nothing else ships. */
function param(p, event) {
  if (typeof p?.type !== 'string' || !/^[a-z0-9_()[\],]+$/.test(p.type)) throw new Error(`parameter type ${JSON.stringify(p?.type)}`);
  const out = { name: typeof p.name === 'string' && /^[A-Za-z0-9_$]*$/.test(p.name) ? p.name : '', type: p.type };
  if (p.type.startsWith('tuple')) out.components = (p.components ?? []).map((c) => param(c, false));
  if (event) out.indexed = p.indexed === true;
  return out;
}

/** [kind, key, item] for an ABI item, or null for one that is not well formed. */
function row(item) {
  try {
    const event = item.type === 'event';
    if (event && item.anonymous) return null;
    const inputs = item.inputs.map((p) => param(p, event));
    const slim = { type: item.type, name: item.name, inputs };
    if (item.type === 'function') slim.outputs = (item.outputs ?? []).map((p) => param(p, false));
    // The canonical signature (tuples spelled out), whose keccak is the selector or topic0.
    const sig = event ? toEventSignature(slim) : toFunctionSignature({ ...slim, type: 'function', outputs: [] });
    if (event) return ['events', `${toEventSelector(sig).slice(2)}:${inputs.filter((p) => p.indexed).length}`, sig, slim];
    return [item.type === 'function' ? 'functions' : 'errors', toFunctionSelector(sig).slice(2), sig, slim];
  } catch {
    return null;
  }
}

function licenceOf(dir) {
  const name = licenceFileIn(dir);
  return name === undefined ? null : readFileSync(join(dir, name), 'utf8').trim();
}

/**
 * @returns {{ rows: Map<string, string[]>, packages: Array<{pkg: string, version: string, license: string, items: number, kept: number}>, notice: string }}
 *   rows: shard path ("functions/a9.txt") → lines `<key>\t<contract>\t<item JSON>`.
 */
export async function extractProtocolAbis() {
  const seen = new Map();
  const rows = new Map();
  const packages = [];
  const notices = [];
  let items = 0;
  let kept = 0;
  const take = (contract, abi) => {
    for (const item of abi) {
      const r = row(item);
      if (r === null) continue;
      items++;
      const [kind, key, sig, slim] = r;
      const id = `${kind} ${key} ${sig}`;
      const shard = `${kind}/${key.slice(0, 2)}.txt`;
      const line = `${key}\t${contract}\t${JSON.stringify(slim)}`;
      const named = slim.inputs.length > 0 && slim.inputs.every((p) => p.name !== '');
      const earlier = seen.get(id);
      if (earlier !== undefined) {
        // The first package wins, unless it left the parameters unnamed and this one names them.
        if (!earlier.named && named) {
          rows.get(shard)[earlier.at] = line;
          seen.set(id, { at: earlier.at, named });
        }
        continue;
      }
      kept++;
      if (!rows.has(shard)) rows.set(shard, []);
      seen.set(id, { at: rows.get(shard).length, named });
      rows.get(shard).push(line);
    }
  };
  for (const { pkg, json = [], modules = [], vendored, nameByFile = false } of PACKAGES) {
    const dir = join(root, 'node_modules', ...pkg.split('/'));
    const copy = vendored === undefined ? null : JSON.parse(readFileSync(join(here, vendored), 'utf8'));
    if (copy !== null && copy.package !== pkg) throw new Error(`${vendored} holds ${copy.package}, not ${pkg}`);
    const meta = copy ?? JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    items = 0;
    kept = 0;
    for (const sub of json) {
      for (const file of filesUnder(join(dir, sub), '.json')) {
        const rel = relative(dir, file).split(sep).join('/');
        if (NOT_DEPLOYED.test(rel)) continue;
        let doc;
        try {
          doc = JSON.parse(readFileSync(file, 'utf8'));
        } catch {
          continue;
        }
        const contract = typeof doc?.contractName === 'string' ? doc.contractName : basename(file, '.json');
        if (NOT_DEPLOYED.test(contract) || !/^[A-Za-z0-9_.-]+$/.test(contract)) continue;
        // A Foundry artifact names the source it was compiled from: a test helper lives under test/.
        const target = doc?.metadata?.settings?.compilationTarget;
        const source = target !== null && typeof target === 'object' ? Object.keys(target)[0] : doc?.ast?.absolutePath;
        if (typeof source === 'string' && NOT_DEPLOYED.test(source)) continue;
        const found = [];
        abisIn(doc, found);
        for (const abi of found) take(contract, abi);
      }
    }
    const fromModule = (file, exported) => {
      for (const [name, exportedValue] of Object.entries(exported)) {
        if (name === 'default' && typeof exportedValue === 'object' && exportedValue !== null && !Array.isArray(exportedValue)) continue; // CommonJS: the same exports again
        // TypeChain factories (Lido's) keep the ABI on the class: `StethAbi__factory.abi`.
        const value = typeof exportedValue === 'function' && Array.isArray(exportedValue.abi) ? exportedValue.abi : exportedValue;
        const found = [];
        abisIn(value, found);
        const contract = nameByFile ? basename(file, '.js') : name.replace(/__factory$/, '').replace(/_?(ABI|Abi)$/, '');
        if (NOT_DEPLOYED.test(contract)) continue;
        // An object of ABIs by contract name (Compound's `abi`): each keeps its own name.
        if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
          for (const [inner, abi] of Object.entries(value)) if (Array.isArray(abi)) take(inner, abi.filter(isItem));
        } else for (const abi of found) take(contract, abi);
      }
    };
    for (const sub of modules) {
      for (const file of filesUnder(join(dir, sub), '.js')) fromModule(file, await import(pathToFileURL(file).href));
    }
    // A copy: modules in the order their files sort, exports as the module namespace lists them; a string
    // stands for the same export of the module it names.
    for (const [file, exported] of Object.entries(copy?.modules ?? {})) {
      fromModule(`${file}.js`, Object.fromEntries(Object.entries(exported).map(([name, v]) => [name, typeof v === 'string' ? copy.modules[v][name] : v])));
    }
    if (items === 0) throw new Error(`${pkg}: no ABI found where protocolAbis.mjs looks (${[...json, ...modules, ...(vendored ? [vendored] : [])].join(', ')})`);
    packages.push({ pkg, version: meta.version, license: meta.license ?? 'UNLICENSED', items, kept });
    const text = copy !== null ? copy.licence : licenceOf(dir);
    notices.push(`${'='.repeat(78)}\n${pkg}@${meta.version} (${meta.license})\n${'='.repeat(78)}\n${text ?? `The package ships no licence text; its package.json declares ${meta.license}.`}\n`);
  }
  // Last, the hand-written list: each entry must hash to the selector it names.
  items = 0;
  kept = 0;
  for (const e of HAND_WRITTEN) {
    const item = parseAbiItem(e.signature);
    const key = item.type === 'event' ? toEventSelector(item) : toFunctionSelector(toFunctionSignature(item));
    if (key !== e.selector) throw new Error(`handWrittenAbis.mjs: ${e.signature} does not hash to ${e.selector}`);
    take(e.contract, [item]);
  }
  const handWritten = { items, kept };
  for (const lines of rows.values()) lines.sort();
  const head = 'The protocol signature set (dist/sigdb/protocols/) holds the function, event and error\n'
    + 'signatures, with parameter names, extracted from the ABIs these npm packages publish. Only the\n'
    + 'names and types were taken; no code. Each package\'s licence follows.\n\n'
    + packages.map((p) => `  ${p.pkg}@${p.version}  ${p.license}  (${p.kept} of ${p.items} items kept after deduplication)`).join('\n')
    + `\n  and ${handWritten.kept} of ${handWritten.items} signatures (functions and events) written by this project where no package publishes one`
    + ' (scripts/lib/handWrittenAbis.mjs, each with its public source).';
  return { rows, packages, notice: `${head}\n\n${notices.join('\n')}` };
}
