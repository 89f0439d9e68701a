// One CommonJS bundle of txray and its dependencies, dist/txray.cjs, which bin/txray.cjs compiles with a
// V8 code cache (dist/txray.v8cache, written by scripts/warm-cache.mjs at the end of this build).
// CommonJS rather than ESM: Node 20 starts an ESM entry ~12 ms slower (it loads its ESM loader), and only a
// classic script can be compiled from a code cache. The dynamic import()s of the sources (undici, the
// decoder, the summary table) stay lazy: esbuild turns them into modules initialised on first use.
import { build, transform } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { licenceFileIn, packageRoot } from './lib/packageRoot.mjs';

/**
 * An esbuild plugin that hands the bundle `lines` (CommonJS) wherever it imports a module matching
 * `filter`. Inside the stand-in, `require(real)` still reaches the real module, loaded on first use.
 */
function standIn(name, filter, lines, real) {
  return {
    name,
    setup(b) {
      b.onResolve({ filter }, (args) => (args.namespace === name ? { path: real ?? args.path, external: true } : { path: args.path, namespace: name }));
      b.onLoad({ filter: /.*/, namespace: name }, () => ({ contents: lines.join('\n'), loader: 'js' }));
    },
  };
}

/**
 * A stand-in for the built-in `real` that answers from `own` (an expression over `load`, which loads the
 * real module once) and reads every other property from the real module on first use.
 */
function lazyBuiltin(name, filter, real, ownLines, own) {
  return standIn(name, filter, [
    'let real;',
    `const load = () => (real ??= require(${JSON.stringify(real)}));`,
    ...ownLines,
    `module.exports = new Proxy(${own}, { get: (target, key) => (key in target ? target[key] : load()[key]) });`,
  ], real);
}

const standIns = [
  // undici's HTTP/2 client reads node:http2's constants when it loads, and node:http2 pulls in tls and
  // all of crypto (~40 modules, ~15 ms) although txray never asks for HTTP/2 (allowH2 stays off). The
  // stand-in has the constants' fixed protocol values and loads the real module if connect() is called.
  standIn('lazy-http2', /^(node:)?http2$/, [
    'const names = ["HTTP2_HEADER_AUTHORITY", ":authority", "HTTP2_HEADER_METHOD", ":method", "HTTP2_HEADER_PATH", ":path", "HTTP2_HEADER_SCHEME", ":scheme", "HTTP2_HEADER_CONTENT_LENGTH", "content-length", "HTTP2_HEADER_EXPECT", "expect", "HTTP2_HEADER_STATUS", ":status", "HTTP2_HEADER_PROTOCOL", ":protocol"];',
    'const constants = { NGHTTP2_REFUSED_STREAM: 7, NGHTTP2_CANCEL: 8 };',
    'for (let i = 0; i < names.length; i += 2) constants[names[i]] = names[i + 1];',
    'module.exports = { constants, connect: (...args) => require("node:http2").connect(...args) };',
  ], 'node:http2'),
  // undici's core loads node:http (and with it Node's whole HTTP/1 client and server, ~12 modules,
  // ~5 ms) for two things: IncomingMessage, compared with the class of a stream it destroys (txray hands
  // undici strings, never a node:http message), and http.maxHeaderSize, the default when a dispatcher
  // sets none (txray's does). Everything else is read from the real module on first use.
  lazyBuiltin('lazy-http', /^(node:)?http$/, 'node:http', ['class IncomingMessage {}'], '{ IncomingMessage, maxHeaderSize: 16 * 1024 }'),
  // undici asserts its invariants with node:assert, whose module (with its AssertionError and the
  // colours of its diffs) costs ~1.4 ms before the first request. Called as assert(value, message) only;
  // the stand-in hands a failing value to the real assert, so the error thrown is the real one.
  lazyBuiltin('lazy-assert', /^(node:)?assert$/, 'node:assert', ['function assert(value, message) { if (!value) load()(value, message); }'], 'assert'),
  // cli-table3 colours cells with @colors/colors (12 KB) only when a style names colours; txray's tables
  // never do (colour is decided once, by chalk), so the bundle leaves it out: the stand-in paints nothing.
  standIn('no-colors', /^@colors\/colors(\/safe)?$/, [
    'const plain = new Proxy((s) => s, { get: () => plain });',
    'module.exports = plain;',
  ]),
  // commander requires node:child_process (and with it dgram, net's socket list…) for executable
  // subcommands, which txray does not have; loading it costs every start-up ~10 ms. The stand-in says
  // so if anything ever calls it.
  standIn('no-child-process', /^(node:)?child_process$/, [
    "const no = () => { throw new Error('txray runs no subprocesses'); };",
    'module.exports = { spawn: no, spawnSync: no, execFile: no, execFileSync: no, exec: no, fork: no };',
  ]),
  // undici's HTTP clients turn a FormData body into a stream with fetch's body code, which brings in
  // fetch's utilities, WebIDL and the multipart parser, which every run would compile. txray
  // sends JSON text, never a FormData; the stand-in says so if anything ever asks.
  standIn('no-fetch-body', /^\.\.\/web\/fetch\/body\.js$/, [
    "module.exports = { extractBody: () => { throw new Error('txray sends no FormData bodies'); } };",
  ]),
  // @noble/hashes (viem's keccak) imports node:crypto when it loads, only to have random bytes at hand;
  // txray hashes and never draws random numbers. The stand-in loads node:crypto on the first call
  // (~25 modules, ~10 ms saved at start-up).
  standIn('lazy-noble-crypto', /^@noble\/hashes\/crypto(\.js)?$/, [
    'const load = () => require("node:crypto").webcrypto;',
    'module.exports = { crypto: { getRandomValues: (a) => load().getRandomValues(a), get subtle() { return load().subtle; }, randomUUID: () => load().randomUUID() } };',
  ]),
];

/**
 * undici's HTTP/1 parser, llhttp, comes as WebAssembly in two builds (with SIMD, and without for a V8
 * that has none), each a module holding it as base64. In the bundle, every run
 * (--help included) would compile that text, and V8 keeps a script's source whole: the build writes the
 * binaries beside the bundle (dist/llhttp_simd.wasm, dist/llhttp.wasm, see LLHTTP) and the modules that
 * stand in for them read one when undici first asks (its first connection).
 */
const LLHTTP = { 'llhttp_simd-wasm.js': 'llhttp_simd.wasm', 'llhttp-wasm.js': 'llhttp.wasm' };
const llhttpFiles = {
  name: 'llhttp-files',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/llhttp\/llhttp(_simd)?-wasm\.js$/ }, (args) => ({ path: LLHTTP[args.path.slice('../llhttp/'.length)], namespace: 'llhttp-files' }));
    b.onLoad({ filter: /.*/, namespace: 'llhttp-files' }, (args) => ({ contents: `module.exports = require("node:fs").readFileSync(require("node:path").join(__dirname, ${JSON.stringify(args.path)}));`, loader: 'js' }));
  },
};

/**
 * EthereumJS's packages each install their own copy of @noble/hashes and @noble/curves (the same
 * version: npm cannot hoist it above viem's older one), and a bundle would carry them all: seven
 * keccaks, each with its tables built at load and compiled afresh at first use. Every import of them
 * from an EthereumJS package is resolved from @ethereumjs/util's copy; the build checks the versions agree.
 * Their keccak_256 is src/hash/wasmKeccak.ts's (they import nothing else of @noble/hashes/sha3: esbuild
 * would fail the build on a name that module does not export).
 */
const WASM_KECCAK = fileURLToPath(new URL('../src/hash/wasmKeccak.ts', import.meta.url));
const oneNoble = {
  name: 'one-noble',
  setup(b) {
    const home = packageRoot('@ethereumjs/util');
    const versions = new Map();
    b.onResolve({ filter: /^@noble\/(hashes|curves)(\/|$)/ }, async (args) => {
      if (args.pluginData?.oneNoble || !/[\\/]node_modules[\\/]@ethereumjs[\\/]/.test(args.importer)) return undefined;
      // EthereumJS's keccak256 (addresses, code hashes, KECCAK256, tries) is txray's WebAssembly one.
      if (/^@noble\/hashes\/sha3(\.js)?$/.test(args.path)) return { path: WASM_KECCAK };
      const found = await b.resolve(args.path, { resolveDir: home, kind: args.kind, pluginData: { oneNoble: true } });
      const mine = await b.resolve(args.path, { resolveDir: args.resolveDir, kind: args.kind, pluginData: { oneNoble: true } });
      const versionOf = (file) => {
        const root = /^(.*[\\/]node_modules[\\/]@noble[\\/][^\\/]+)[\\/]/.exec(file)?.[1];
        if (root === undefined) return null;
        if (!versions.has(root)) versions.set(root, JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version);
        return versions.get(root);
      };
      if (versionOf(found.path) !== versionOf(mine.path)) throw new Error(`${args.importer} wants ${args.path} ${versionOf(mine.path)}, @ethereumjs/util has ${versionOf(found.path)}`);
      return found;
    });
  },
};

/**
 * viem's and ox's keccak256 (the main bundle's: EIP-55 checksums of every address shown, selectors of
 * ABIs read from files) is src/hash/wasmKeccak.ts's too: a lookup hashes a few dozen addresses before V8
 * has optimised anything, and @noble/hashes' keccak runs them in the interpreter (docs/speed.md). Both
 * import nothing else of @noble/hashes/sha3 (esbuild would fail the build on a name that module does not
 * export); test/unit/wasmKeccak.test.ts checks the hashes against @noble/hashes.
 */
const wasmKeccakForViem = {
  name: 'wasm-keccak-for-viem',
  setup(b) {
    b.onResolve({ filter: /^@noble\/hashes\/sha3(\.js)?$/ }, (args) => (/[\\/]node_modules[\\/](viem|ox)[\\/]/.test(args.importer) ? { path: WASM_KECCAK } : undefined));
  },
};

/**
 * An esbuild plugin that edits the files matching `filter` as they load: each [from, to] replaces one
 * text that must be there, or every match of a global RegExp, of which there must be one (a package
 * that changed fails the build, so its edit is looked at again).
 */
function sourcePatch(name, filter, edits) {
  return {
    name,
    setup(b) {
      b.onLoad({ filter }, (args) => {
        let text = readFileSync(args.path, 'utf8');
        for (const [from, to] of edits) {
          const found = typeof from === 'string' ? text.includes(from) : text.match(from) !== null;
          if (!found) throw new Error(`${args.path}: ${JSON.stringify(String(from).trim().slice(0, 60))} is gone; look again at the ${name} plugin`);
          text = text.replace(from, to);
        }
        return { contents: text, loader: 'js' };
      });
    },
  };
}

/**
 * @noble/curves (EthereumJS's secp256k1, bn254, P-256) draws random bytes once as it defines each curve,
 * to learn whether scalar blinding can be used; the first draw loads Node's WebCrypto (~10 ms) into every
 * run that re-executes a transaction, which never multiplies a secret scalar (it recovers and verifies).
 * The probe is left out: the generator is still used, and its output checked, where blinding happens.
 */
const noProbe = sourcePatch('no-rng-probe', /[\\/]@noble[\\/]curves[\\/]abstract[\\/]curve\.js$/, [
  ['        const probe = randomBytes(length);\n', '        const probe = new Uint8Array(length);\n'],
]);

/**
 * @ethereumjs/util makes a BigInt of every number below 65,536 when it loads, to hand out for one- and
 * two-byte values: the most expensive line of the EVM's file at load (and ~1.5 MB of heap), in a run
 * that converts a few hundred such values. BigInt() of a small number is cheap: it is made when asked.
 */
const noBigintTable = sourcePatch('no-bigint-table', /[\\/]@ethereumjs[\\/]util[\\/]dist[\\/]esm[\\/]bytes\.js$/, [
  ['for (let i = 0; i <= 256 * 256 - 1; i++) {\n    BIGINT_CACHE[i] = BigInt(i);\n}\n', ''],
  ['return BIGINT_CACHE[bytes[0]];', 'return BigInt(bytes[0]);'],
  ['return BIGINT_CACHE[bytes[0] * 256 + bytes[1]];', 'return BigInt(bytes[0] * 256 + bytes[1]);'],
  // A word (32 bytes: every MLOAD, CALLDATALOAD, storage value) read as four 64-bit numbers, not through
  // its hex text built two digits at a time: the same number.
  [
    '    const hex = bytesToHex(bytes);\n    if (hex === \'0x\') {\n',
    '    if (bytes.length === 32) {\n        const words = new DataView(bytes.buffer, bytes.byteOffset, 32);\n        return (words.getBigUint64(0) << BIGINT_192) | (words.getBigUint64(8) << BIGINT_128) | (words.getBigUint64(16) << BIGINT_64) | words.getBigUint64(24);\n    }\n    const hex = bytesToHex(bytes);\n    if (hex === \'0x\') {\n',
  ],
  ['export const bytesToBigInt = (bytes, littleEndian = false) => {\n', 'const BIGINT_64 = BigInt(64), BIGINT_128 = BigInt(128), BIGINT_192 = BigInt(192);\nexport const bytesToBigInt = (bytes, littleEndian = false) => {\n'],
  // The same file pads bytes (every MSTORE's word, every address from the stack) by spreading both
  // arrays into a list of numbers: a copy into a new zeroed array of the length is the same bytes.
  [
    '        return right\n            ? new Uint8Array([...msg, ...new Uint8Array(length - msg.length)])\n            : new Uint8Array([...new Uint8Array(length - msg.length), ...msg]);\n',
    '        const padded = new Uint8Array(length);\n        padded.set(msg, right ? 0 : length - msg.length);\n        return padded;\n',
  ],
]);

/**
 * An address's text (`toString`, its bytes as lower-case hex) keys every map of the state and the
 * journal, and is asked for several times per account read, write and message. It is made once per
 * address (in a private field: copies, spreads and JSON of an address are unchanged): nothing in
 * EthereumJS or txray writes into an address's bytes after making it.
 */
const addressText = sourcePatch('address-text', /[\\/]@ethereumjs[\\/]util[\\/]dist[\\/]esm[\\/]address\.js$/, [
  ['export class Address {\n', 'export class Address {\n    #text;\n'],
  ['    toString() {\n        return bytesToHex(this.bytes);\n    }\n', '    toString() {\n        return (this.#text ??= bytesToHex(this.bytes));\n    }\n'],
]);

/**
 * @ethereumjs/util also hashes the empty input with SHA-256 when it loads (a header's empty requests
 * hash): the first SHA-256 of a run, interpreted, in every re-execution. The digest is a constant.
 */
const knownSha256 = sourcePatch('known-sha256', /[\\/]@ethereumjs[\\/]util[\\/]dist[\\/]esm[\\/]constants\.js$/, [
  ['export const SHA256_NULL = sha256(new Uint8Array());', "export const SHA256_NULL = hexToBytes('0xe3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');"],
]);

/**
 * The dynamic gas of the opcodes that only price memory, a size or an exponent (EXP, KECCAK256,
 * CALLDATACOPY, CODECOPY, RETURNDATACOPY, MLOAD, MSTORE, MSTORE8, MCOPY, LOG0 to LOG4, RETURN, REVERT)
 * is computed without waiting on anything, by functions EthereumJS declares async: each costs a
 * promise and a turn of the microtask queue (MLOAD and MSTORE among a contract's commonest steps). They
 * are made plain functions, named in `syncGasHandlers` for the interpreter's plain steps (plain-steps);
 * the async step awaits their value as before (an await of a value, a throw caught where a rejection was).
 */
const SYNC_GAS = ['0x0a', '0x20', '0x37', '0x39', '0x3e', '0x51', '0x52', '0x53', '0x5e', '0xa0', '0xf3', '0xfd'];
const syncGas = sourcePatch('sync-gas', /[\\/]@ethereumjs[\\/]evm[\\/]dist[\\/]esm[\\/]opcodes[\\/]gas\.js$/, [
  ...SYNC_GAS.map((op) => [`        ${op},\n        async function (runState, gas, common) {\n`, `        ${op},\n        function (runState, gas, common) {\n`]),
  [
    '    dynamicGasHandlers.set(i, logDynamicFunc);\n}\n',
    `    dynamicGasHandlers.set(i, logDynamicFunc);\n}\nexport const syncGasHandlers = new Set([${SYNC_GAS.join(', ')}].map((op) => dynamicGasHandlers.get(op)));\n`,
  ],
]);

/**
 * STOP and RETURN end a frame by throwing (EthereumJS's STOP error, caught by the interpreter's loop,
 * which reverts the access witness and leaves the loop as for no error): a throw through four calls at
 * the end of every frame. In a plain step (plain-steps) they say so instead, and the loop does the same.
 */
const plainHalts = sourcePatch('plain-halts', /[\\/]@ethereumjs[\\/]evm[\\/]dist[\\/]esm[\\/]opcodes[\\/]functions\.js$/, [
  [
    '        0x00,\n        function () {\n            trap(EVMError.errorMessages.STOP);\n',
    '        0x00,\n        function (runState) {\n            if (runState.interpreter._plainStep === true) {\n                runState.interpreter._halted = true;\n                return;\n            }\n            trap(EVMError.errorMessages.STOP);\n',
  ],
  [
    '            runState.interpreter.finish(returnData);\n        },\n    ],\n    // 0xfd: REVERT\n',
    '            if (runState.interpreter._plainStep === true) {\n                runState.interpreter._result.returnValue = returnData;\n                runState.interpreter._halted = true;\n                return;\n            }\n            runState.interpreter.finish(returnData);\n        },\n    ],\n    // 0xfd: REVERT\n',
  ],
]);

/**
 * EthereumJS's interpreter runs every opcode as an async step: a promise and a turn of the microtask
 * queue each, the `step` listeners counted, two EIPs looked up in a list, the handler's arguments put
 * in a new array. Where the run has no step listener, no debug output, no profiler and neither EIP-6800
 * nor EIP-7864 (code chunks charged), an opcode whose gas is fixed or priced by a plain function
 * (sync-gas) runs as a plain step doing what the async step does for it, in its order: the gas priced
 * and charged, the counter moved on, the handler, awaited only where EthereumJS declares it async (most
 * of those, ADDRESS, CALLER, CALLDATALOAD…, wait on nothing and return nothing), the access witness
 * committed. Every other opcode (CALL, SLOAD…, an invalid one), and every opcode of a run that has any
 * of those, takes the async step.
 */
const plainSteps = sourcePatch('plain-steps', /[\\/]@ethereumjs[\\/]evm[\\/]dist[\\/]esm[\\/]interpreter\.js$/, [
  ['import { trap } from "./opcodes/index.js";\n', 'import { trap } from "./opcodes/index.js";\nimport { syncGasHandlers } from "./opcodes/gas.js";\n'],
  [
    '        // Iterate through the given ops until something breaks or we hit STOP\n',
    "        const plainSteps = this.profilerOpts?.enabled !== true && !this._evm.DEBUG && this._evm.events.listenerCount('step') === 0 && !this.common.isActivatedEIP(6800) && !this.common.isActivatedEIP(7864);\n        // Iterate through the given ops until something breaks or we hit STOP\n",
  ],
  [
    '                await this.runStep(opCodeObj);\n',
    '                const entry = plainSteps ? (opCodeObj ?? this.lookupOpInfo(opCode)) : undefined;\n' +
      '                if (entry !== undefined && !entry.opcodeInfo.isInvalid && (!entry.opcodeInfo.dynamicGas || syncGasHandlers.has(entry.gasHandler))) {\n' +
      '                    this._plainStep = true;\n' +
      '                    const done = this.runPlainStep(entry);\n' +
      '                    this._plainStep = false;\n' +
      '                    if (this._halted === true) {\n' +
      '                        this._runState.env.accessWitness?.revert();\n' +
      '                        break;\n' +
      '                    }\n' +
      '                    if (entry.opcodeInfo.isAsync) await done;\n' +
      '                    this._runState.env.accessWitness?.commit();\n' +
      '                }\n' +
      '                else await this.runStep(opCodeObj);\n',
  ],
  [
    '    async runStep(opcodeObj) {\n',
    '    runPlainStep(opEntry) {\n' +
      '        const info = opEntry.opcodeInfo;\n' +
      '        this.useGas(info.dynamicGas ? opEntry.gasHandler(this._runState, info.feeBigInt, this.common) : info.feeBigInt, info);\n' +
      '        this._runState.programCounter++;\n' +
      '        consumeEip7928PostTargetCallOog(this._runState);\n' +
      '        return opEntry.opHandler.call(null, this._runState, this.common);\n' +
      '    }\n' +
      '    async runStep(opcodeObj) {\n',
  ],
]);

/**
 * Each part of EthereumJS (the VM, the EVM, the transaction, the block header) hands its parameter
 * tables to the chain's rules, which copy every entry through JSON text, four times in a run. The
 * tables are flat (names to numbers, strings and nulls: test/unit/buildPatches.test.ts checks), so a copy of
 * each entry's object is the same copy.
 */
const shallowParams = sourcePatch('shallow-params', /[\\/]@ethereumjs[\\/]common[\\/]dist[\\/]esm[\\/]common\.js$/, [
  ['this._params[eip] = JSON.parse(JSON.stringify(paramsConfig)); // copy', 'this._params[eip] = { ...paramsConfig }; // copy'],
  ['this._params[eip] = JSON.parse(JSON.stringify({ ...this._params[eip], ...params[eip] })); // copy', 'this._params[eip] = { ...this._params[eip], ...params[eip] }; // copy'],
]);

/**
 * Every message's result carries `runState`: a new object spread from the interpreter's run state, its
 * result and its environment (every property of the three), made at the end of every frame and read by nothing in
 * EthereumJS (txray's recorder reads it where it records where frames stopped). It is made when first
 * read, from the same three objects, which nothing changes after the frame ends; a write replaces it.
 */
const lazyRunState = sourcePatch('lazy-run-state', /[\\/]@ethereumjs[\\/]evm[\\/]dist[\\/]esm[\\/]evm\.js$/, [
  [
    '        message.accessWitness?.commit();\n        return {\n            ...result,\n            runState: {\n                ...interpreterRes.runState,\n                ...result,\n                ...interpreter._env,\n            },\n',
    '        message.accessWitness?.commit();\n        let madeRunState;\n        return {\n            ...result,\n            get runState() {\n                return (madeRunState ??= { ...interpreterRes.runState, ...result, ...interpreter._env });\n            },\n            set runState(value) {\n                madeRunState = value;\n            },\n',
  ],
]);

/**
 * @ethereumjs/vm makes a block header of Mainnet's when it loads, for a transaction run without a
 * block; txray always gives one. It is made on first use instead.
 */
const lazyHeader = sourcePatch('lazy-default-header', /[\\/]@ethereumjs[\\/]vm[\\/]dist[\\/]esm[\\/]runTx\.js$/, [
  [/\bDEFAULT_HEADER\b/g, 'defaultHeader()'],
  ['const defaultHeader() = createBlockHeader();', 'let madeHeader;\nconst defaultHeader = () => (madeHeader ??= createBlockHeader());'],
]);

/**
 * EthereumJS names a `debug` logger per part (vm, evm, state…) and writes to them only where the DEBUG
 * variable names `ethjs`, a switch for EthereumJS's own developers. The package loads node:tty, colour
 * detection and the environment's DEBUG_* settings when it loads, in every run that re-executes: the
 * stand-in's loggers write nothing.
 */
const noDebug = standIn('no-debug', /^debug$/, [
  'const off = Object.assign(() => {}, { enabled: false, namespace: "" });',
  'off.extend = () => off;',
  'module.exports = Object.assign(() => off, { enabled: () => false, enable() {}, disable: () => "" });',
]);

/**
 * The main bundle's side of a part kept in a file of its own (src/evm/evmEngine.ts, EthereumJS, is built
 * into dist/evm.cjs): the import of it, reached only from modules loaded on demand, loads that file
 * through bin/loadBundle.cjs (with its own code cache) on first use. undici stays in the main bundle: as
 * a part of its own (dist/http.cjs) it saved --help ~1 ms and cost every lookup ~5 ms (docs/speed.md).
 */
function part(name, engine) {
  const filter = new RegExp(`^\\./${engine}\\.js$`);
  return {
    name: `${name}-part`,
    setup(b) {
      b.onResolve({ filter }, () => ({ path: engine, namespace: `${name}-part` }));
      b.onResolve({ filter: /^\.\/loadBundle\.cjs$/ }, (args) => (args.namespace === `${name}-part` ? { path: args.path, external: true } : undefined));
      b.onLoad({ filter: /.*/, namespace: `${name}-part` }, () => ({ contents: `module.exports = require("./loadBundle.cjs").loadPart(${JSON.stringify(name)}).exports;`, loader: 'js' }));
    },
  };
}

/**
 * The licence notices of every npm package whose code the bundle contains (from esbuild's list of its
 * inputs): name, version, licence and the package's own licence text. The package ships this file
 * instead of the packages themselves, which are build-time (dev) dependencies.
 */
function thirdPartyNotices(inputs) {
  const roots = new Set();
  for (const input of inputs) {
    const m = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (m) roots.add(m[1]);
  }
  const sections = [...roots].sort().map((root) => {
    const meta = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    const file = licenceFileIn(root);
    const repository = typeof meta.repository === 'string' ? meta.repository : meta.repository?.url;
    // MPL-2.0 (EthereumJS) asks that the recipients of an executable form be told where its source is.
    const source = `Source: the npm package ${meta.name}@${meta.version}${repository ? ` and ${repository.replace(/^git\+/, '')}` : ''}.`;
    if (file === undefined) {
      // A few packages declare their licence and ship no text of it: the declaration is what there is.
      if (typeof meta.license !== 'string' || meta.license === '') throw new Error(`${meta.name}: neither a licence file nor a declared licence`);
      return `${meta.name}@${meta.version} (${meta.license})\n\nThe package ships no licence file; it declares the licence ${meta.license}. ${source}\n`;
    }
    return `${meta.name}@${meta.version} (${meta.license})\n\n${meta.license === 'MPL-2.0' ? `${source}\n\n` : ''}${readFileSync(join(root, file), 'utf8').trim()}\n`;
  });
  const rule = `\n${'-'.repeat(78)}\n\n`;
  return `dist/txray.cjs and dist/evm.cjs bundle code of the following npm packages (dist/llhttp_simd.wasm and dist/llhttp.wasm are undici's builds of llhttp); their licence notices follow.\n${rule}${sections.join(rule)}`;
}

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

// The HTML report's page: its script (src/report/page.ts, for browsers) and styles, minified, with the
// hashes its Content-Security-Policy allows them by. The main bundle carries them as one constant.
const sha256 = (text) => `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`;
const { outputFiles: [pageScript] } = await build({
  entryPoints: ['src/report/page.ts'],
  bundle: true,
  // A module script: it awaits its data at top level (a large document is read back from gzip).
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  legalComments: 'none',
  write: false,
  logLevel: 'warning',
  // Its Content-Security-Policy allows no WebAssembly: the page's keccak (EIP-55 checksums) is JavaScript.
  plugins: [{ name: 'page-keccak', setup: (b) => b.onResolve({ filter: /[\\/]wasmKeccak\.js$/ }, () => ({ path: fileURLToPath(new URL('../src/hash/jsKeccak.ts', import.meta.url)) })) }],
});
const reportJs = pageScript.text.trim();
if (/WebAssembly/.test(reportJs)) throw new Error('the report page would compile WebAssembly, which its Content-Security-Policy refuses');
const reportCss = (await transform(readFileSync(new URL('../src/report/page.css', import.meta.url), 'utf8'), { loader: 'css', minify: true, legalComments: 'none' })).code.trim();
if (/<\/script/i.test(reportJs) || /<\/style/i.test(reportCss)) throw new Error('the report page would close its own element');
const report = { js: reportJs, css: reportCss, jsHash: sha256(reportJs), cssHash: sha256(reportCss) };
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
const bundleFile = fileURLToPath(new URL('../dist/txray.cjs', import.meta.url));
// Both files: CommonJS for Node 20, minified, held in memory until checked. Short local names make the
// main bundle smaller, which every run reads, and its code cache, which every run deserialises
// (docs/speed.md). TXRAY_BUILD_NAMES=1 keeps the names, for readable CPU profiles.
const minifyIdentifiers = process.env.TXRAY_BUILD_NAMES !== '1';
const nodeFile = { metafile: true, write: false, bundle: true, platform: 'node', format: 'cjs', target: 'node20', minifySyntax: true, minifyWhitespace: true, minifyIdentifiers, legalComments: 'none', logLevel: 'warning' };
const { outputFiles: [bundle], metafile } = await build({
  ...nodeFile,
  entryPoints: ['src/cli/run.ts'],
  outfile: bundleFile,
  define: { __TXRAY_VERSION__: JSON.stringify(pkg.version), __TXRAY_REPORT__: JSON.stringify(report) },
  // The stages' timings (--debug) and undici read performance.now(): the same clock, without perf_hooks.
  inject: [fileURLToPath(new URL('./lib/performance-shim.mjs', import.meta.url))],
  plugins: [...standIns, llhttpFiles, wasmKeccakForViem, part('evm', 'evmEngine')],
});
// The EVM's file (see part), which few runs read.
const { outputFiles: [evm], metafile: evmMetafile } = await build({
  ...nodeFile,
  entryPoints: ['src/evm/evmEngine.ts'],
  outfile: fileURLToPath(new URL('../dist/evm.cjs', import.meta.url)),
  inject: [fileURLToPath(new URL('./lib/performance-shim.mjs', import.meta.url))],
  plugins: [...standIns, oneNoble, noProbe, noBigintTable, knownSha256, lazyHeader, noDebug, syncGas, plainHalts, plainSteps, shallowParams, lazyRunState, addressText],
});
// V8 checks a code cache against the source's length only, so the bundle names its build (a digest of
// its text) on its first line and the cache file repeats it: a cache from another build is never used.
const buildIdOf = (text) => createHash('sha256').update(text).digest('hex').slice(0, 16);
const buildId = buildIdOf(bundle.text);
// The bundle runs inside vm.Script, which has no loader for import(): every dynamic import must be of a
// bundled module (esbuild turns those into require calls). One left for Node to resolve would fail at run time.
for (const [name, out] of [['txray', bundle], ['evm', evm]]) {
  if (/\bimport\(/.test(out.text)) throw new Error(`dist/${name}.cjs has a dynamic import() of an external module; bundle it or require() it`);
  // bin/loadBundle.cjs reads both as Latin-1 (esbuild escapes every other character: its default charset).
  if (/[^\x00-\x7f]/.test(out.text)) throw new Error(`dist/${name}.cjs holds a character outside ASCII; bin/loadBundle.cjs reads it as Latin-1`);
}
if (/@ethereumjs/.test(bundle.text)) throw new Error('dist/txray.cjs holds EthereumJS code: only src/evm/evmEngine.ts may import it');
mkdirSync(dirname(bundleFile), { recursive: true });
// Wrapped as bin/loadBundle.cjs wraps a CommonJS module (its WRAPPER; read here, not required: loading
// it sets V8 flags), so that it compiles the text as read.
const WRAPPER = /^const WRAPPER = '([^']+)';$/m.exec(readFileSync(new URL('../bin/loadBundle.cjs', import.meta.url), 'utf8'))?.[1];
if (WRAPPER === undefined) throw new Error('bin/loadBundle.cjs no longer says its WRAPPER on one line');
writeFileSync(bundleFile, `// txray build ${buildId}\n${WRAPPER}${bundle.text}\n})`);
writeFileSync(new URL('../dist/evm.cjs', import.meta.url), `// txray build ${buildIdOf(evm.text)}\n${evm.text}`);
// llhttp's two WebAssembly builds, as the bytes undici's own modules decode (see llhttpFiles).
const requireHere = createRequire(import.meta.url);
for (const [module, file] of Object.entries(LLHTTP)) writeFileSync(new URL(`../dist/${file}`, import.meta.url), requireHere(join(packageRoot('undici'), 'lib', 'llhttp', module)));
if (/wasmBase64/.test(bundle.text)) throw new Error('dist/txray.cjs holds llhttp\'s base64 WebAssembly: the llhttp-files plugin no longer matches undici\'s imports');
writeFileSync(new URL('../dist/THIRD-PARTY-LICENSES.txt', import.meta.url), thirdPartyNotices([...Object.keys(metafile.inputs), ...Object.keys(evmMetafile.inputs)]));

// The signature database: sevm's 4bytedb (MIT; ~120,000 function and ~19,000 event signatures),
// sharded by first byte so a lookup reads one small file (~17 KB), never the whole set. Its licence ships beside it.
const sevmRoot = packageRoot('sevm');
const out = new URL('../dist/sigdb/', import.meta.url);
for (const [kind, file] of [['functions', 'functionHashes.min.json'], ['events', 'eventHashes.min.json']]) {
  const all = JSON.parse(readFileSync(join(sevmRoot, '4bytedb', file), 'utf8'));
  // One line per entry, `<key> <signature>`: a lookup is an indexOf in the shard's text, no JSON to parse.
  const shards = new Map();
  for (const [key, sig] of Object.entries(all)) {
    const k = key.toLowerCase().replace(/^0x/, '');
    if (!/^[0-9a-f]+$/.test(k) || /[\s]/.test(sig)) throw new Error(`4bytedb entry not in the expected form: ${k} ${JSON.stringify(sig)}`);
    const shard = k.slice(0, 2);
    if (!shards.has(shard)) shards.set(shard, []);
    shards.get(shard).push(`${k} ${sig}`);
  }
  mkdirSync(new URL(`${kind}/`, out), { recursive: true });
  for (const [shard, lines] of shards) writeFileSync(new URL(`${kind}/${shard}.txt`, out), `${lines.join('\n')}\n`);
}
copyFileSync(join(sevmRoot, 'LICENSE'), new URL('LICENSE-sevm-4bytedb', out));

// The protocol signature set: functions, events and errors with their parameter names, from the ABIs
// that protocol packages publish (scripts/lib/protocolAbis.mjs), sharded like the database. Lines are
// `<key>\t<contract>\t<item JSON>`; the licences of the packages ship beside them.
const { extractProtocolAbis } = await import('./lib/protocolAbis.mjs');
const protocols = await extractProtocolAbis();
for (const [shard, lines] of protocols.rows) {
  const file = new URL(`protocols/${shard}`, out);
  mkdirSync(new URL('./', file), { recursive: true });
  writeFileSync(file, `${lines.join('\n')}\n`);
}
writeFileSync(new URL('LICENSE-protocol-abis.txt', out), protocols.notice);

// The address book: mainnet contracts' and tokens' names (and tokens' symbols and decimals).
const { extractAddressBook } = await import('./lib/addressBook.mjs');
const book = extractAddressBook();
// One small file per chain (addresses/<chain id>.json): a lookup reads only its chain's.
const byChain = new Map();
for (const [chain, ...row] of book.rows) {
  if (!byChain.has(chain)) byChain.set(chain, []);
  byChain.get(chain).push(row);
}
mkdirSync(new URL('addresses/', out), { recursive: true });
for (const [chain, rows] of byChain) writeFileSync(new URL(`addresses/${chain}.json`, out), `${JSON.stringify(rows)}\n`);
{
  const licence = (pkg) => {
    const root = packageRoot(pkg);
    const file = licenceFileIn(root);
    return file === undefined ? 'The package ships no licence text; see the licence its package.json declares.' : readFileSync(join(root, file), 'utf8').trim();
  };
  const parts = ['@uniswap/default-token-list', '@studydefi/money-legos', '@bgd-labs/aave-address-book', '@safe-global/safe-deployments', 'viem', '@arbitrum/sdk'].map((pkg, i) => `${'='.repeat(78)}\n${book.sources[i]}\n${'='.repeat(78)}\n${licence(pkg)}\n`);
  writeFileSync(new URL('LICENSE-address-book.txt', out), `dist/sigdb/addresses/ holds names, symbols and decimals of contracts and tokens taken from the\naddress lists these npm packages publish (data only, no code). Each package's licence follows.\n\n${parts.join('\n')}`);
}

// The built-in ABIs, parsed and keyed once here rather than at every start.
const { outputFiles } = await build({ entryPoints: ['src/decode/abiIndex.ts'], bundle: true, platform: 'node', format: 'esm', write: false, logLevel: 'warning' });
const { builtinRows } = await import(`data:text/javascript;base64,${Buffer.from(outputFiles[0].text).toString('base64')}`);
writeFileSync(new URL('builtin.json', out), JSON.stringify(builtinRows()));

// The code cache: the bundle compiled and run on sample lookups in a fresh process, then serialised.
const warm = spawnSync(process.execPath, [fileURLToPath(new URL('./warm-cache.mjs', import.meta.url))], { stdio: 'inherit' });
if (warm.status !== 0) throw new Error(`scripts/warm-cache.mjs failed (exit ${warm.status})`);
