// Copies the ABI arrays @ensdomains/ensjs exports from dist/contracts/*.js into
// scripts/lib/ensjs-contracts.json, which the build reads (scripts/lib/protocolAbis.mjs) instead of the
// package: ensjs 4.1 and later declare `engines: node >= 22` (so `npm ci` on Node 20 warns EBADENGINE),
// and the last release without that field (4.0.2) has older ABIs (the ETHRegistrarController and
// UniversalResolver before their 2025 redeployments). Nothing else of the package is kept.
//
// To take a newer ensjs: `npm install --no-save @ensdomains/ensjs@<version>`, `node scripts/vendor-ensjs.mjs`,
// then `npm ci` (which removes it again) and `node scripts/build.mjs`.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { licenceFileIn } from './lib/packageRoot.mjs';

const PKG = '@ensdomains/ensjs';
const root = fileURLToPath(new URL('../', import.meta.url));
const dir = join(root, 'node_modules', ...PKG.split('/'));
const out = join(root, 'scripts', 'lib', 'ensjs-contracts.json');

const meta = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
const licenceFile = licenceFileIn(dir);
if (licenceFile === undefined) throw new Error(`${PKG}@${meta.version} ships no licence file`);

const isAbi = (v) => Array.isArray(v) && v.some((x) => x !== null && typeof x === 'object' && typeof x.type === 'string');
/** Any ABI array inside a value that is not one itself: the JSON below holds only whole ABI arrays. */
const hidesAbi = (v, depth = 0) => depth < 5 && v !== null && typeof v === 'object' && (isAbi(v) || Object.values(v).some((x) => hidesAbi(x, depth + 1)));

const contracts = join(dir, 'dist', 'contracts');
/** Each module's ABI exports, in the order the build's import() of the package listed them (sorted). */
const exportsOf = new Map();
for (const file of readdirSync(contracts).filter((f) => f.endsWith('.js')).sort()) {
  const exported = await import(pathToFileURL(join(contracts, file)).href);
  const kept = [];
  for (const [key, value] of Object.entries(exported)) {
    if (isAbi(value)) kept.push([key, value]);
    else if (hidesAbi(value) || (typeof value === 'function' && Array.isArray(value.abi))) throw new Error(`${file}: ${key} holds ABIs in a shape this copy does not keep`);
  }
  if (kept.length > 0) exportsOf.set(basename(file, '.js'), kept);
}
/** An array's home: the first module exporting it other than index.js, which re-exports the others' arrays. */
const home = new Map();
for (const [name, kept] of exportsOf) for (const [, value] of kept) if (!home.has(value) || home.get(value) === 'index') home.set(value, name);
const modules = {};
for (const [name, kept] of exportsOf) {
  modules[name] = Object.fromEntries(kept.map(([key, value]) => {
    const at = home.get(value);
    if (at === name) return [key, value];
    // Read back as modules[at][key]: the same array under the same name.
    if (!exportsOf.get(at).some(([k, v]) => k === key && v === value)) throw new Error(`${name}.js re-exports ${at}.js's ABI under another name (${key})`);
    return [key, at];
  }));
}

// One ABI item a line, so that a new version's copy reads as a diff.
const lines = ['{'];
lines.push(`  "about": ${JSON.stringify(`The ABI arrays ${PKG} exports from dist/contracts/*.js, by module and export, copied by scripts/vendor-ensjs.mjs; a string names the module that exports the same array.`)},`);
lines.push(`  "package": ${JSON.stringify(PKG)},`, `  "version": ${JSON.stringify(meta.version)},`, `  "license": ${JSON.stringify(meta.license)},`);
lines.push(`  "licence": ${JSON.stringify(readFileSync(join(dir, licenceFile), 'utf8').trim())},`);
lines.push('  "modules": {');
const names = Object.keys(modules);
names.forEach((name, i) => {
  lines.push(`    ${JSON.stringify(name)}: {`);
  const entries = Object.entries(modules[name]);
  entries.forEach(([key, value], j) => {
    const end = j < entries.length - 1 ? ',' : '';
    if (typeof value === 'string') lines.push(`      ${JSON.stringify(key)}: ${JSON.stringify(value)}${end}`);
    else lines.push(`      ${JSON.stringify(key)}: [`, value.map((item) => `        ${JSON.stringify(item)}`).join(',\n'), `      ]${end}`);
  });
  lines.push(`    }${i < names.length - 1 ? ',' : ''}`);
});
lines.push('  }', '}', '');
writeFileSync(out, lines.join('\n'));
console.log(`${out}: ${PKG}@${meta.version}, ${names.length} modules`);
