'use strict';
// Loads dist/txray.cjs (the bundle `npm run build` writes) as Node loads a CommonJS module, but through
// vm.Script so that V8 can start from dist/txray.v8cache: the bundle's functions as compiled during the
// sample lookups of scripts/warm-cache.mjs. Without the cache (or with one V8 rejects: another Node
// version, another build) the bundle is compiled from source as usual, only slower.
const fs = require('node:fs');
const path = require('node:path');
const v8 = require('node:v8');
const vm = require('node:vm');

// undici parses HTTP with llhttp compiled to WebAssembly; V8 re-optimises that module in background
// threads that the process then waits for at exit (~50 ms here, see shared field notes). A CLI makes a
// few requests: the baseline tier is plenty. Set before anything is compiled: V8 only accepts a code
// cache made under the same flags, and the warm-up loads the bundle through this file too.
v8.setFlagsFromString('--no-wasm-tier-up');
v8.setFlagsFromString('--no-wasm-dynamic-tiering');

const DIST = path.join(__dirname, '..', 'dist');
const BUNDLE = path.join(DIST, 'txray.cjs');
const CACHE = path.join(DIST, 'txray.v8cache');

/** The build's id from the bundle's first line (`// txray build <id>`), or null. */
function buildIdOf(source) {
  const m = /^\/\/ txray build ([0-9a-f]{16})\n/.exec(source);
  return m ? m[1] : null;
}

/** The cache's data when its first line names this build, else undefined. */
function readCache(buildId) {
  if (buildId === null) return undefined;
  let bytes;
  try {
    bytes = fs.readFileSync(CACHE);
  } catch {
    return undefined;
  }
  const header = `${buildId}\n`;
  return bytes.subarray(0, header.length).toString('latin1') === header ? bytes.subarray(header.length) : undefined;
}

/**
 * Compile and run the bundle; returns its exports, the compiled script (the warm-up serialises it) and
 * what became of the cache: 'used', 'rejected' (V8 refused it), 'absent', or 'off' (options.cache false).
 */
function loadBundle(options = {}) {
  const source = fs.readFileSync(BUNDLE, 'utf8');
  const buildId = buildIdOf(source);
  const cachedData = options.cache === false ? undefined : readCache(buildId);
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: BUNDLE, cachedData });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, require, module, BUNDLE, DIST);
  const cache = options.cache === false ? 'off' : cachedData === undefined ? 'absent' : script.cachedDataRejected ? 'rejected' : 'used';
  return { exports: module.exports, script, buildId, cache, dist: DIST, cacheFile: CACHE };
}

module.exports = { loadBundle };
