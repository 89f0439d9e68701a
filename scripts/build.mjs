// One ESM bundle of txray and its dependencies. undici uses require() for node: built-ins, which an
// ESM bundle only has through a createRequire banner (field notes: without it the first request throws).
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';

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
});
