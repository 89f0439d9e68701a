#!/usr/bin/env node
'use strict';
// Thin shim over the bundle that `npm run build` writes to dist/ (see loadBundle.cjs).
let bundle;
try {
  bundle = require('./loadBundle.cjs').loadBundle();
} catch (err) {
  if (err && err.code === 'ENOENT' && String(err.path).includes('dist')) {
    process.stderr.write('txray: not built yet; run `npm run build` (or `npm ci`, which builds) first.\n');
    process.exitCode = 70;
  } else throw err;
}
if (bundle) bundle.exports.run({ dist: bundle.dist, codeCache: bundle.cache });
