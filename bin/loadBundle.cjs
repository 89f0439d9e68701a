'use strict';
// Loads dist/txray.cjs (the bundle `npm run build` writes) as Node loads a CommonJS module, but through
// vm.Script so that V8 can start from dist/txray.v8cache: the bundle's functions as compiled during the
// sample lookups of scripts/warm-cache.mjs. Without a cache that fits (missing, from another build,
// damaged, or refused by V8: another Node version or V8 flags) the bundle is compiled from source as
// usual, only slower.
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const v8 = require('node:v8');
// Node's own modules come with code caches made under V8's default flags: one loaded after the flags
// below change is compiled from source instead. Those every lookup loads (undici's, through node:net
// and its streams) are loaded first.
for (const m of ['node:net', 'node:url', 'node:diagnostics_channel', 'node:async_hooks', 'node:querystring', 'node:util', 'node:os']) require(m);

// V8 flags, set before anything of txray's is compiled: V8 only accepts a code cache made under the same
// flags, and the build's warm-up loads the bundle through this file too. Only on the Node versions
// where each was measured or is known, as V8 prints an error for a flag it does not know:
// - undici parses HTTP with llhttp compiled to WebAssembly. V8 compiles it at once with its baseline
//   compiler (Liftoff), then again, optimised, in background threads that the process waits for at
//   exit: for a CLI that makes a few requests that second compilation is all cost (Node 20 and 22).
// - Sparkplug, V8's baseline compiler, compiles a function's bytecode to machine code on the main
//   thread once it has run a while: in a run as short as most of txray's, that compilation costs the
//   main thread more than the baseline code gives back; src/v8Tuning.ts turns it back on for the EVM's
//   runs (Node 20).
// - V8 checks a code cache's version, flags and source length, but its integrity only when asked:
//   without --verify-snapshot-checksum a damaged cache crashes the process inside the deserialiser.
//   With it V8 writes a checksum into each cache it makes and refuses one whose bytes do not match it
//   (Node 20 and 22; on other versions the CRC-32 in the cache's first line is checked here instead).
const V8_CHECKS = /^v2[02]\./.test(process.version);
if (V8_CHECKS) {
  v8.setFlagsFromString('--no-wasm-tier-up');
  v8.setFlagsFromString('--no-wasm-dynamic-tiering');
  v8.setFlagsFromString('--verify-snapshot-checksum');
}
if (/^v20\./.test(process.version)) v8.setFlagsFromString('--no-sparkplug');

const DIST = path.join(__dirname, '..', 'dist');
const BUNDLE = path.join(DIST, 'txray.cjs');
const CACHE = path.join(DIST, 'txray.v8cache');

/**
 * What a CommonJS module's text is compiled inside, as Node's own loader does; closed by `\n})`.
 * scripts/build.mjs reads this line to write dist/txray.cjs wrapped. A main bundle not written wrapped
 * is wrapped here: the text V8 compiles then has the same length (the wrapper moves from before the
 * first line to after it), so the cache of that build still fits.
 */
const WRAPPER = '(function (exports, require, module, __filename, __dirname) {';

/** The build's id from the bundle's first line (`// txray build <id>`), or null. */
function buildIdOf(source) {
  const m = /^\/\/ txray build ([0-9a-f]{16})\n/.exec(source);
  return m ? m[1] : null;
}

/** The Node that makes or reads a cache: its version and processor architecture (`v20.20.2/x64`). */
const RUNTIME = `${process.version}/${process.arch}`;

/**
 * The cache file: a first line `<build id> <length of the rest> <CRC-32 of the rest> <runtime>` and V8's
 * data. A file cut short is told here ('damaged'); bytes that changed are refused by V8 where it checks
 * them ('rejected', see --verify-snapshot-checksum above), told here by the CRC-32 elsewhere
 * ('damaged'). A cache made by another Node (an installed package run by a Node other than the one that
 * packed it) is not handed to V8 at all: 'rejected', as V8 itself says of a cache made under other V8
 * flags.
 */
function readCache(file, buildId) {
  if (buildId === null) return { cachedData: undefined, state: 'absent' };
  let bytes;
  try {
    bytes = fs.readFileSync(file);
  } catch {
    return { cachedData: undefined, state: 'absent' };
  }
  const newline = bytes.indexOf(10);
  const header = newline > 0 && newline < 64 ? bytes.subarray(0, newline).toString('latin1').split(' ') : [];
  if (header[0] !== buildId) return { cachedData: undefined, state: 'absent' }; // another build's cache
  const data = bytes.subarray(newline + 1);
  if (header[1] !== String(data.length)) return { cachedData: undefined, state: 'damaged' };
  if (header[3] !== RUNTIME) return { cachedData: undefined, state: 'rejected' };
  if (!V8_CHECKS && header[2] !== String(require('node:zlib').crc32(data))) return { cachedData: undefined, state: 'damaged' };
  return { cachedData: data, state: 'found' };
}

/** The header line of a cache file for `data` made from the build `buildId` by this Node. */
function cacheHeader(buildId, data) {
  return `${buildId} ${data.length} ${require('node:zlib').crc32(data)} ${RUNTIME}\n`;
}

/**
 * Compile and run one bundled file as a CommonJS module, from its code cache where one fits. Returns its
 * exports, the compiled script (the warm-up serialises it), its build id, and what became of the cache:
 * 'used', 'rejected' (made by another Node, or refused by V8: other flags or changed bytes), 'damaged'
 * (cut short, or a bad CRC-32 where V8 does not check), 'absent', or 'off' (options.cache false).
 */
function compile(file, cacheFile, options) {
  // The build writes both files in ASCII (scripts/build.mjs checks): read as Latin-1, a plain copy of
  // the bytes, without UTF-8's decoding.
  const source = fs.readFileSync(file, 'latin1');
  // The main bundle comes wrapped as a CommonJS module's function (after its first line): compiled as
  // read, without a second copy of its text joined to the wrapper. The EVM's file is a plain module.
  const wrapped = source.startsWith(WRAPPER, source.indexOf('\n') + 1);
  const buildId = buildIdOf(source);
  const { cachedData, state } = options.cache === false ? { cachedData: undefined, state: 'off' } : readCache(cacheFile, buildId);
  const script = new vm.Script(wrapped ? source : `${WRAPPER}${source}\n})`, { filename: file, cachedData });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, require, module, file, DIST);
  const cache = state === 'found' ? (script.cachedDataRejected ? 'rejected' : 'used') : state;
  return { exports: module.exports, script, buildId, cache, dist: DIST, cacheFile };
}

/** The main bundle's options, which its parts follow; and the parts loaded so far (name → what compile returned). */
let loadOptions = {};
const parts = new Map();

/** The main bundle, dist/txray.cjs. */
function loadBundle(options = {}) {
  loadOptions = options;
  return compile(BUNDLE, CACHE, options);
}

/**
 * A part of the bundle kept in a file of its own because few runs need it (dist/evm.cjs: the EVM that
 * re-executes a transaction where the node has no trace), loaded on its first use with its own code
 * cache (dist/<name>.v8cache), under the main bundle's cache option.
 */
function loadPart(name) {
  let part = parts.get(name);
  if (part === undefined) {
    part = compile(path.join(DIST, `${name}.cjs`), path.join(DIST, `${name}.v8cache`), loadOptions);
    parts.set(name, part);
  }
  return part;
}

module.exports = { loadBundle, loadPart, parts, cacheHeader };
