#!/usr/bin/env node
// Thin shim over the bundle that `npm run build` writes to dist/.
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
