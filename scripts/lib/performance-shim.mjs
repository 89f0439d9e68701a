// Injected into dist/txray.cjs and dist/evm.cjs (scripts/build.mjs) as the global `performance` their
// code reads: Node's own is a getter that loads perf_hooks (~5 ms) on first touch. EthereumJS's LRU
// cache touches it when it loads, to time entries txray never gives a lifetime; txray's stages read it
// for --debug's timings, whatever the options. The same clock (only differences of it are read),
// without the module.
const performance = { now: () => Number(process.hrtime.bigint()) / 1e6, timeOrigin: Date.now() };
export { performance };
