// Injected into dist/evm.cjs (scripts/build.mjs) as the global `performance` its code reads: Node's own
// is a getter that loads perf_hooks (~5 ms) on first touch, and EthereumJS's LRU cache touches it when
// it loads, to time entries txray never gives a lifetime. The same clock, without the module.
const performance = { now: () => Number(process.hrtime.bigint()) / 1e6, timeOrigin: Date.now() };
export { performance };
