// One ESM bundle of txray and its dependencies. undici uses require() for node: built-ins, which an
// ESM bundle only has through a createRequire banner (field notes: without it the first request throws).
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

// commander requires node:child_process (and with it dgram, net's socket list…) for executable
// subcommands, which txray does not have; loading it costs every start-up ~10 ms. The bundle gets a
// stand-in that says so if anything ever calls it.
const noChildProcess = {
  name: 'no-child-process',
  setup(b) {
    b.onResolve({ filter: /^(node:)?child_process$/ }, () => ({ path: 'child_process', namespace: 'txray-stub' }));
    b.onLoad({ filter: /.*/, namespace: 'txray-stub' }, () => ({
      contents: "const no = () => { throw new Error('txray runs no subprocesses'); }; module.exports = { spawn: no, spawnSync: no, execFile: no, execFileSync: no, exec: no, fork: no };",
      loader: 'js',
    }));
  },
};

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: { txray: 'src/cli/run.ts' },
  outdir: 'dist',
  // undici sits in its own chunk, imported when the first request is made.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  minifySyntax: true,
  minifyWhitespace: true,
  legalComments: 'none',
  define: { __TXRAY_VERSION__: JSON.stringify(pkg.version) },
  banner: { js: "import { createRequire as __txrayCreateRequire } from 'node:module'; const require = __txrayCreateRequire(import.meta.url);" },
  logLevel: 'warning',
  plugins: [noChildProcess],
});

// The signature database: sevm's 4bytedb (MIT; ~120,000 function and ~19,000 event signatures),
// sharded by first byte so a lookup reads one small file, never the whole set. Its licence ships beside it.
const require = createRequire(import.meta.url);
const sevmDir = dirname(require.resolve('sevm'));
const sevmRoot = sevmDir.slice(0, sevmDir.lastIndexOf('node_modules/sevm') + 'node_modules/sevm'.length);
const out = new URL('../dist/sigdb/', import.meta.url);
for (const [kind, file] of [['functions', 'functionHashes.min.json'], ['events', 'eventHashes.min.json']]) {
  const all = JSON.parse(readFileSync(join(sevmRoot, '4bytedb', file), 'utf8'));
  const shards = new Map();
  for (const [key, sig] of Object.entries(all)) {
    const k = key.toLowerCase().replace(/^0x/, '');
    const shard = k.slice(0, 2);
    if (!shards.has(shard)) shards.set(shard, {});
    shards.get(shard)[k] = sig;
  }
  mkdirSync(new URL(`${kind}/`, out), { recursive: true });
  for (const [shard, entries] of shards) writeFileSync(new URL(`${kind}/${shard}.json`, out), JSON.stringify(entries));
}
copyFileSync(join(sevmRoot, 'LICENSE'), new URL('LICENSE-sevm-4bytedb', out));

// The built-in ABIs, parsed and keyed once here rather than at every start.
const { outputFiles } = await build({ entryPoints: ['src/decode/abiIndex.ts'], bundle: true, platform: 'node', format: 'esm', write: false, logLevel: 'warning' });
const { builtinRows } = await import(`data:text/javascript;base64,${Buffer.from(outputFiles[0].text).toString('base64')}`);
writeFileSync(new URL('builtin.json', out), JSON.stringify(builtinRows()));
