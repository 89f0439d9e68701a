/**
 * What local re-execution takes from EthereumJS, in one place. The package builds it into its own file,
 * dist/evm.cjs (scripts/build.mjs), with its own code cache: a lookup on a node with traces never reads
 * it, and one that re-executes compiles it from that cache. Only the files localTrace.ts brings in
 * (localEvm, nodeState, tracer, localStateDiff) import it, and those are reached only through
 * loadLocalTrace.ts's dynamic import, so nothing else may (stateReader.ts and stepLog.ts do not).
 */
export { createBlock } from '@ethereumjs/block';
export { Common, createCustomCommon, Holesky, Hoodi, Mainnet, Sepolia } from '@ethereumjs/common';
export { SimpleStateManager } from '@ethereumjs/statemanager';
export { createFeeMarket1559Tx, createLegacyTx, createTxFromRPC } from '@ethereumjs/tx';
export { Account, bytesToHex, createAddressFromString, hexToBytes, unpadBytes } from '@ethereumjs/util';
export { createVM, runTx } from '@ethereumjs/vm';
// The keccak EthereumJS itself runs (the build hands it this one too).
export { keccak_256 } from '../hash/wasmKeccak.js';
