/**
 * The embedded EVM's set-up for local re-execution (localTrace.ts): the chain's rules, the state at a
 * block as a StateReader gives it (nodeState.ts), the block context, and two ways to run a transaction. What a run
 * is made to record (the call tree, frame facts, steps, the state diff) is the business of tracer.ts and
 * localStateDiff.ts. Loaded only with localTrace.ts, on demand: it imports the EVM.
 */
import type { VM } from '@ethereumjs/vm';
import { isAddress } from '../raw/hex.js';
import { Common, createAddressFromString, createBlock, createCustomCommon, createTxFromRPC, createVM, Holesky, Hoodi, hexToBytes, keccak_256, Mainnet, runTx, Sepolia } from './evmEngine.js';
import { NodeState } from './nodeState.js';
import type { StateReader } from './stateReader.js';
import type { EvmHeader } from '../raw/parseBlock.js';
import type { Hex, Json } from '../raw/types.js';

// One Hex and one Json for the whole program (raw/types.ts), handed on to the EVM's other files.
export type { Hex, Json };
export type RunResult = Awaited<ReturnType<typeof runTx>>;
export type EvmTx = Awaited<ReturnType<typeof createTxFromRPC>>;

/** Hardfork by what the header carries (local chains), from the newest. */
function hardforkOf(header: EvmHeader): string {
  if (header.requestsHash !== undefined) return 'prague';
  if (header.parentBeaconBlockRoot !== undefined || header.excessBlobGas !== undefined) return 'cancun';
  if (header.withdrawalsRoot !== undefined) return 'shanghai';
  if (header.baseFeePerGas !== undefined) return 'london';
  return 'berlin';
}

const KNOWN_CHAINS: Readonly<Record<number, typeof Mainnet>> = { 1: Mainnet, 11155111: Sepolia, 17000: Holesky, 560048: Hoodi };

/** Inputs longer than this are hashed afresh each time (code, call data): what repeats is short. */
const REMEMBERED_INPUT = 128;
/** At most this many hashes are remembered (then the memory starts over). */
const REMEMBERED_HASHES = 1 << 16;

/**
 * keccak256 for one EVM, remembering its answers for short inputs: contracts hash the same few keys
 * over and over (a mapping's slot is hashed at each read and each write of it, in every transaction of
 * a re-executed block: a block of transfers from one sender hashes its balance's key hundreds of times),
 * and in a process this short the hash runs mostly unoptimised. Each caller gets its own copy.
 */
function rememberingKeccak(): (data: Uint8Array) => Uint8Array {
  const known = new Map<string, Uint8Array>();
  return (data) => {
    if (data.length > REMEMBERED_INPUT) return keccak_256(data);
    const key = Buffer.from(data.buffer, data.byteOffset, data.length).toString('latin1');
    let hash = known.get(key);
    if (hash === undefined) {
      if (known.size >= REMEMBERED_HASHES) known.clear();
      known.set(key, (hash = keccak_256(data)));
    }
    return hash.slice();
  };
}

/**
 * Mainnet and the public testnets: the hardfork by block number and time, as their clients decide it;
 * any other chain (anvil, Hardhat, devnets): by what the header carries.
 */
function commonFor(chainId: number, header: EvmHeader): Common {
  const known = KNOWN_CHAINS[chainId];
  const customCrypto = { keccak256: rememberingKeccak() };
  if (known === undefined) return createCustomCommon({ chainId }, Mainnet, { hardfork: hardforkOf(header), customCrypto });
  const common = new Common({ chain: known, customCrypto });
  common.setHardforkBy({ blockNumber: BigInt(header.number), timestamp: BigInt(header.timestamp) });
  return common;
}

/** The chain as the EVM sees it: only BLOCKHASH reads it, and asks the reader (each number once). */
function readerBlockchain(reader: StateReader) {
  const hashes = new Map<bigint, Uint8Array>();
  return {
    async getBlock(n: bigint | number) {
      const number = BigInt(n);
      let h = hashes.get(number);
      if (h === undefined) {
        const found = await reader.blockHash(number);
        h = found === null ? new Uint8Array(32) : hexToBytes(found);
        hashes.set(number, h);
      }
      const found = h;
      return { hash: () => found };
    },
    async putBlock() {},
    shallowCopy() {
      return this;
    },
  };
}

/** The header's optional fields each hardfork wants, where the node gave them. */
function optionalFields(block: EvmHeader): Record<string, bigint | Hex> {
  const out: Record<string, bigint | Hex> = {};
  for (const key of ['baseFeePerGas', 'difficulty', 'excessBlobGas'] as const) {
    const v = block[key];
    if (v !== undefined) out[key] = BigInt(v);
  }
  if (block.excessBlobGas !== undefined) out.blobGasUsed = block.blobGasUsed === undefined ? 0n : BigInt(block.blobGasUsed);
  for (const key of ['mixHash', 'parentBeaconBlockRoot', 'requestsHash', 'withdrawalsRoot'] as const) {
    const v = block[key];
    if (v !== undefined) out[key] = v;
  }
  return out;
}

/** The block context the transaction runs in, from the node's header as raw/ checked it (the fields each hardfork wants). */
function blockContext(block: EvmHeader, common: Common) {
  return createBlock(
    {
      header: { number: BigInt(block.number), timestamp: BigInt(block.timestamp), gasLimit: BigInt(block.gasLimit), coinbase: block.miner, ...optionalFields(block) },
    },
    { common, skipConsensusFormatValidation: true },
  );
}

/** One entry of the EVM's opcode table, as far as txray reads and wraps it. */
export interface OpEntry {
  readonly opcodeInfo: { readonly dynamicGas: boolean; readonly isInvalid: boolean };
  opHandler: (runState: OpRunState, common: unknown) => unknown;
}

/** The interpreter's run state, as far as the wrapped opcodes read it. */
export interface OpRunState {
  readonly programCounter: number;
  /** The gas left (after the opcode's own cost, seen from after its handler). */
  readonly gasLeft: bigint;
  readonly stack: { peek(n: number): bigint[] };
  readonly memory: { read(offset: number, size: number): Uint8Array };
  readonly interpreter: {
    _result: { logs: Array<[Uint8Array, Uint8Array[], Uint8Array]> };
    _env: { address: { toString(): string }; contract: { balance: bigint } };
    /** The word at `key` of the running frame's storage (`original`: as the transaction found it; `trackBAL`: counted as a read of the block's access list). */
    storageLoad(key: Uint8Array, original: boolean, trackBAL: boolean): Promise<Uint8Array>;
    transientStorageLoad(key: Uint8Array): Uint8Array;
  };
}

/** The VM's opcode table (its own: each EVM builds one for its hardfork). */
/** An EthereumJS address as txray writes addresses: 0x and lower case. */
export const addressOf = (a: { toString(): string }): Hex => `0x${a.toString().slice(2).toLowerCase()}`;

export const opcodeTable = (vm: VM): Array<OpEntry | undefined> => Reflect.get(vm.evm, '_opcodeMap');

/**
 * Wrap one opcode's handler where it runs: `before` and `after` see the run state around it. Only the
 * wrapped opcodes pay (a 'step' listener would cost every opcode of the run). A `before` that returns a
 * promise is awaited before the opcode runs: only for the opcodes the interpreter awaits (SLOAD, SSTORE,
 * the calls…); a synchronous opcode's promise would not be waited for.
 */
export function wrapOpcode(vm: VM, op: number, before: ((r: OpRunState) => void | Promise<void>) | null, after: ((r: OpRunState) => void) | null): void {
  const entry = opcodeTable(vm)[op];
  if (entry === undefined) return;
  const original = entry.opHandler;
  const finish = (runState: OpRunState, out: unknown): unknown => {
    if (after === null) return out;
    if (out instanceof Promise) return out.then((v) => {
      after(runState);
      return v;
    });
    after(runState);
    return out;
  };
  entry.opHandler = (runState, common) => {
    const waiting = before?.(runState);
    if (waiting instanceof Promise) return waiting.then(() => finish(runState, original(runState, common)));
    return finish(runState, original(runState, common));
  };
}

type JumpAnalysis = (code: Uint8Array) => unknown;
/** The EVMs whose interpreters share their code's analysis: only those of local runs. */
const sharing = new WeakMap<object, WeakMap<Uint8Array, unknown>>();
const patched = new WeakSet<object>();

/**
 * EthereumJS analyses a frame's code (jump destinations, push values, opcode table) afresh for every
 * message: a deep chain of calls through one contract does it once per frame, most of the run's garbage.
 * The analysis depends on the code and the EVM's opcode table alone and is only read after, so it is kept
 * per EVM and per code (the state hands every frame the same bytes of an account's code).
 *
 * The patch is on the interpreter's prototype, so it is process-wide: the class is not exported, and the
 * EVM makes a new interpreter for every message inside its own call, with no hook between the two, so
 * no single instance can be patched before it runs. That is safe: an interpreter of an EVM not set up
 * here (none exists in txray today) calls the original analysis unchanged, and an EVM's cache lives and
 * dies with that EVM. The prototype is reached from the first PUSH the EVM runs (see reachInterpreter).
 */
function shareJumpAnalysis(interpreter: object): void {
  const proto: { _getValidJumpDestinations?: JumpAnalysis } = Object.getPrototypeOf(interpreter);
  if (patched.has(proto) || typeof proto._getValidJumpDestinations !== 'function') return;
  patched.add(proto);
  const analyse = proto._getValidJumpDestinations;
  proto._getValidJumpDestinations = function (this: { _evm: object }, code: Uint8Array) {
    const done = sharing.get(this._evm);
    if (done === undefined) return analyse.call(this, code);
    let found = done.get(code);
    if (found === undefined) done.set(code, (found = analyse.call(this, code)));
    return found;
  };
}

/**
 * Hand `reached` the interpreter of the first frame that runs a PUSH (PUSH0 to PUSH32). The analysis
 * runs at a frame's first JUMP or JUMPI, and code reaches a jump only after a PUSH of its destination:
 * so even the first frame's analysis is shared, and a run of contracts that make no call (a block of
 * token transfers) shares it too. Each PUSH's own handler is put back after its first run, unless
 * something wrapped it since (then this one stays, and costs a check).
 */
function reachInterpreter(vm: VM, reached: (interpreter: object) => void): void {
  for (let op = 0x5f; op <= 0x7f; op++) {
    const entry = opcodeTable(vm)[op];
    if (entry === undefined) continue;
    const original = entry.opHandler;
    const once: OpEntry['opHandler'] = (runState, common) => {
      reached(runState.interpreter);
      if (entry.opHandler === once) entry.opHandler = original;
      return original(runState, common);
    };
    entry.opHandler = once;
  }
}

export interface LocalEvm {
  readonly common: Common;
  readonly state: NodeState;
  readonly vm: VM;
  /** Run an EthereumJS transaction in the block (`skipNonce`: a call without a nonce, as eth_call takes it). */
  readonly run: (t: EvmTx, skipNonce?: boolean) => Promise<RunResult>;
  /** Run a transaction as the node gave it; `guessing`: on guessed state (see NodeState.guess). */
  readonly runRaw: (raw: Json, guessing?: boolean) => Promise<RunResult>;
}

/**
 * The block's transactions as the node gave them, made EthereumJS transactions once each (the earlier
 * ones may run in more than one round). EthereumJS gives every transaction its own copy of the chain's rules
 * and rebuilds that copy's parameter tables, which cost most of a small transfer's run: the first
 * transaction's copy, its tables built, is handed to all the others as it is (no transaction changes it;
 * runTx only sets its hardfork to the block's, which it already is).
 */
function transactionsOf(common: Common): (raw: Json) => Promise<EvmTx> {
  const made = new WeakMap<Json, Promise<EvmTx>>();
  let shared: Common | null = null;
  const make = async (raw: Json): Promise<EvmTx> => {
    const t = await createTxFromRPC(raw as never, { common: shared ?? common, freeze: false });
    if (shared === null) {
      const rules = t.common;
      rules.copy = () => rules;
      rules.updateParams = () => undefined;
      shared = rules;
    }
    // The sender the node names: recovering it from the signature costs more than the rest of a small
    // run (secp256k1's tables are built on first use), and the receipt check catches a wrong one.
    if (isAddress(raw.from)) {
      const sender = createAddressFromString(raw.from);
      t.getSenderAddress = () => sender;
    }
    return t;
  };
  return (raw) => {
    let p = made.get(raw);
    if (p === undefined) made.set(raw, (p = make(raw)));
    return p;
  };
}

/** The EVM set up on the state `reader` reads, with `header` as its block context, on chain `chainId`. */
export async function createLocalEvm(reader: StateReader, header: EvmHeader, chainId: number): Promise<LocalEvm> {
  const common = commonFor(chainId, header);
  const state = new NodeState(reader, { common });
  const vm = await createVM({ common, stateManager: state, blockchain: readerBlockchain(reader) as never });
  sharing.set(vm.evm, new WeakMap());
  reachInterpreter(vm, shareJumpAnalysis);
  const block = blockContext(header, common);
  const run = async (t: EvmTx, skipNonce = false): Promise<RunResult> => runTx(vm, { tx: t, block, skipBlockGasLimitValidation: true, skipHardForkValidation: true, skipNonce });
  const txOf = transactionsOf(common);
  const runRaw = async (raw: Json, guessing = false): Promise<RunResult> => {
    const t = await txOf(raw);
    // On guesses (see NodeState.guess) a nonce or a balance is often not the real one yet.
    return guessing ? runTx(vm, { tx: t, block, skipBlockGasLimitValidation: true, skipHardForkValidation: true, skipNonce: true, skipBalance: true }) : run(t);
  };
  return { common, state, vm, run, runRaw };
}
