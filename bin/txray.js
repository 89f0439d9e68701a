#!/usr/bin/env node
// Thin shim over the bundle that `npm run build` writes to dist/.
// undici parses HTTP with llhttp compiled to WebAssembly; V8 re-optimises that module in background
// threads that the process then waits for at exit (~200 ms here, see shared field notes). A CLI makes
// three requests: the baseline tier is plenty. Set before the bundle (and so undici) is loaded.
import { setFlagsFromString } from 'node:v8';
setFlagsFromString('--no-wasm-tier-up');
setFlagsFromString('--no-wasm-dynamic-tiering');
let run;
try {
  ({ run } = await import('../dist/txray.js'));
} catch (err) {
  if (err && err.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes('dist')) {
    process.stderr.write('txray: not built yet; run `npm run build` (or `npm ci`, which builds) first.\n');
    process.exitCode = 70;
  } else throw err;
}
if (run) await run();
