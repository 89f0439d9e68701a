/**
 * The third source: a transaction re-executed in an embedded EVM (EthereumJS) on the node's state at
 * the parent block, for nodes that serve no call trace (Hardhat, public endpoints). It hands on what
 * geth's tracers would: a callTracer frame (withLog) and a prestateTracer diff ({pre, post}), so no stage
 * after it knows where they came from. Checked every time against the receipt (status, gas used, every
 * log); where they differ, the block's earlier transactions are replayed first, as `cast run` does.
 * Loaded only when needed (a dynamic import): lookups on nodes with traces never load the EVM.
 */
import type { Message } from '@ethereumjs/evm';
import { Interrupted } from '../errors.js';
import { isAddress, isQuantity, isRecord } from '../raw/hex.js';
import type { AskedAhead } from './askAhead.js';
import type { RpcClient } from './createRpcClient.js';
import { Account, bytesToHex, Common, createAddressFromString, createBlock, createCustomCommon, createFeeMarket1559Tx, createLegacyTx, createTxFromRPC, createVM, Holesky, Hoodi, hexToBytes, Mainnet, runTx, Sepolia, unpadBytes } from './evmEngine.js';
import { NodeState, NoState } from './nodeState.js';

type Json = Record<string, unknown>;
type Hex = `0x${string}`;

export interface LocalTrace {
  /** A geth callTracer frame (withLog), as debug_traceTransaction would answer. */
  readonly callTrace: Json;
  /** A prestateTracer diff, {pre, post}, when asked for. */
  readonly stateDiff: Json | null;
  /** What the receipt says and the run did not (empty when they agree). */
  readonly mismatch: string[];
  /** The block's earlier transactions replayed first (0 when the parent's state sufficed). */
  readonly replayed: number;
}

/** Hardfork by what the header carries (local chains), from the newest. */
function hardforkOf(header: Json): string {
  if (header.requestsHash !== undefined) return 'prague';
  if (header.parentBeaconBlockRoot !== undefined || header.excessBlobGas !== undefined) return 'cancun';
  if (header.withdrawalsRoot !== undefined) return 'shanghai';
  if (header.baseFeePerGas !== undefined) return 'london';
  return 'berlin';
}

const hex = (n: bigint): Hex => `0x${n.toString(16)}`;

const KNOWN_CHAINS: Readonly<Record<number, typeof Mainnet>> = { 1: Mainnet, 11155111: Sepolia, 17000: Holesky, 560048: Hoodi };

interface Frame {
  type: string;
  from: string;
  to?: string;
  value?: string;
  gas: string;
  gasUsed?: string;
  input: string;
  output?: string;
  error?: string;
  calls?: Frame[];
  logs?: Array<{ address: string; topics: string[]; data: string; position: string }>;
  /** Set while it runs: a static context (its children are static too). */
  static?: boolean;
}

/** The call kind of a message, as geth's callTracer names it: the opcode that made it, where the run saw it. */
function kindOf(m: Message, parentStatic: boolean, opcode: string | undefined): string {
  if (m.to === undefined) return m.salt !== undefined ? 'CREATE2' : 'CREATE';
  if (opcode !== undefined && CALL_OPS.has(opcode)) return opcode;
  if (m.delegatecall) return 'DELEGATECALL';
  if (m.codeAddress !== undefined && !m.codeAddress.equals(m.to)) return 'CALLCODE';
  if (m.isStatic && !parentStatic) return 'STATICCALL';
  return 'CALL';
}

const CALL_OPS = new Set(['CALL', 'CALLCODE', 'DELEGATECALL', 'STATICCALL']);

type JumpAnalysis = (code: Uint8Array) => unknown;
const shared = new WeakSet<object>();
/**
 * EthereumJS analyses a frame's code (jump destinations, push values, opcode table) afresh for every
 * message: a 200-deep chain through one contract did it 200 times, most of the run's garbage. The
 * analysis depends on the code alone and is only read after, so it is kept per code (the state hands
 * every frame the same bytes of an account's code). The interpreter's class is not exported: its
 * prototype is reached from the first frame that makes a call, before its child starts.
 */
function shareJumpAnalysis(interpreter: object): void {
  const proto = Object.getPrototypeOf(interpreter) as { _getValidJumpDestinations?: JumpAnalysis };
  if (shared.has(proto) || typeof proto._getValidJumpDestinations !== 'function') return;
  shared.add(proto);
  const analyse = proto._getValidJumpDestinations;
  // Per EVM as well: the opcode table in the analysis is that EVM's (its hardfork's).
  const byEvm = new WeakMap<object, WeakMap<Uint8Array, unknown>>();
  proto._getValidJumpDestinations = function (this: { _evm: object }, code: Uint8Array) {
    let done = byEvm.get(this._evm);
    if (done === undefined) byEvm.set(this._evm, (done = new WeakMap()));
    let found = done.get(code);
    if (found === undefined) done.set(code, (found = analyse.call(this, code)));
    return found;
  };
}

/** The EVM set up on the node's state at `stateBlock`, with `header` as its block context, and a traced run. */
async function makeRunner(client: RpcClient, header: Json, stateBlock: string, deadline: AbortSignal, chainIdAnswer?: Promise<unknown>) {
  const chainIdHex = await (chainIdAnswer ?? client.call('eth_chainId', [], deadline));
  const chainId = Number(BigInt(chainIdHex as string));
  // Mainnet and the public testnets: the hardfork by block number and time, as their clients decide it;
  // any other chain (anvil, Hardhat, devnets): by what the header carries.
  const known = KNOWN_CHAINS[chainId];
  let common: Common;
  if (known !== undefined) {
    common = new Common({ chain: known });
    common.setHardforkBy({ blockNumber: BigInt(header.number as string), timestamp: BigInt(header.timestamp as string) });
  } else common = createCustomCommon({ chainId }, Mainnet, { hardfork: hardforkOf(header) });
  const state = new NodeState(client, stateBlock, deadline, { common });
  const hashes = new Map<bigint, Uint8Array>();
  // BLOCKHASH asks the node.
  const blockchain = {
    async getBlock(n: bigint | number) {
      const number = BigInt(n);
      let h = hashes.get(number);
      if (h === undefined) {
        const b = await client.call('eth_getBlockByNumber', [hex(number), false], deadline);
        h = isRecord(b) && typeof b.hash === 'string' ? hexToBytes(b.hash as Hex) : new Uint8Array(32);
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
  const vm = await createVM({ common, stateManager: state, blockchain: blockchain as never });
  const block = header;
  const evmBlock = createBlock(
    {
      header: {
        number: BigInt(block.number as string),
        timestamp: BigInt(block.timestamp as string),
        gasLimit: BigInt(block.gasLimit as string),
        coinbase: block.miner as Hex,
        ...(block.baseFeePerGas !== undefined ? { baseFeePerGas: BigInt(block.baseFeePerGas as string) } : {}),
        ...(block.mixHash !== undefined ? { mixHash: block.mixHash as Hex } : {}),
        ...(block.difficulty !== undefined ? { difficulty: BigInt(block.difficulty as string) } : {}),
        ...(block.excessBlobGas !== undefined ? { excessBlobGas: BigInt(block.excessBlobGas as string), blobGasUsed: BigInt((block.blobGasUsed as string) ?? '0x0') } : {}),
        ...(block.parentBeaconBlockRoot !== undefined ? { parentBeaconBlockRoot: block.parentBeaconBlockRoot as Hex } : {}),
        ...(block.requestsHash !== undefined ? { requestsHash: block.requestsHash as Hex } : {}),
        ...(block.withdrawalsRoot !== undefined ? { withdrawalsRoot: block.withdrawalsRoot as Hex } : {}),
      },
    },
    { common, skipConsensusFormatValidation: true },
  );
  const run = async (t: Awaited<ReturnType<typeof createTxFromRPC>>, skipNonce = false): Promise<RunResult> =>
    runTx(vm, { tx: t, block: evmBlock, skipBlockGasLimitValidation: true, skipHardForkValidation: true, skipNonce });
  const runRaw = async (raw: Json, guessing = false): Promise<RunResult> => {
    const t = await createTxFromRPC(raw as never, { common, freeze: false });
    // The sender the node names: recovering it from the signature costs more than the rest of a small
    // run (secp256k1's tables are built on first use), and the receipt check catches a wrong one.
    if (isAddress(raw.from)) {
      const sender = createAddressFromString(raw.from);
      (t as unknown as { getSenderAddress: () => typeof sender }).getSenderAddress = () => sender;
    }
    // On guesses (see NodeState.guess) a nonce or a balance is often not the real one yet.
    return guessing ? runTx(vm, { tx: t, block: evmBlock, skipBlockGasLimitValidation: true, skipHardForkValidation: true, skipNonce: true, skipBalance: true }) : run(t);
  };

  const frames: Frame[] = [];
  const stack: Frame[] = [];
  /** The last opcode the running frame executed: the one that makes the next message, when it is a call. */
  let lastOp: string | undefined;
  const onBefore = (m: Message, done?: () => void): void => {
    const parentFrame = stack.at(-1);
    const type = kindOf(m, parentFrame?.static === true, parentFrame === undefined ? undefined : lastOp);
    lastOp = undefined;
    const frame: Frame = {
      type,
      // A delegatecall's message keeps the original caller; geth names the contract that made the call (its context).
      from: (type === 'DELEGATECALL' || type === 'CALLCODE' ? m.to! : m.caller).toString().toLowerCase(),
      ...(m.to !== undefined ? { to: (type === 'DELEGATECALL' || type === 'CALLCODE' ? (m.codeAddress ?? m.to) : m.to).toString().toLowerCase() } : {}),
      ...(type === 'STATICCALL' ? {} : { value: hex(m.value) }),
      gas: hex(m.gasLimit),
      input: bytesToHex(m.data),
      static: m.isStatic,
    };
    if (parentFrame !== undefined) (parentFrame.calls ??= []).push(frame);
    else frames.push(frame);
    stack.push(frame);
    done?.();
  };
  const onAfter = (r: { execResult: { executionGasUsed: bigint; returnValue: Uint8Array; exceptionError?: { error: string } }; createdAddress?: { toString(): string } }, done?: () => void): void => {
    const frame = stack.pop();
    if (frame !== undefined) {
      const e = r.execResult;
      frame.gasUsed = hex(e.executionGasUsed);
      if (e.returnValue.length > 0 && !(frame.type.startsWith('CREATE') && e.exceptionError === undefined)) frame.output = bytesToHex(e.returnValue);
      if (frame.type.startsWith('CREATE') && e.exceptionError === undefined) {
        frame.to = r.createdAddress?.toString().toLowerCase();
        frame.output = bytesToHex(e.returnValue);
      }
      if (e.exceptionError !== undefined) frame.error = e.exceptionError.error === 'revert' ? 'execution reverted' : e.exceptionError.error;
      delete frame.static;
    }
    done?.();
  };
  // The opcodes that say what a step-by-step trace would, wrapped where they run: a log's place among
  // its frame's calls, a selfdestruct's beneficiary and balance, which call opcode made the next
  // message. No per-step event: a 'step' listener costs every opcode of the run.
  type RunState = {
    stack: { peek(n: number): bigint[] };
    interpreter: { _result: { logs: Array<[Uint8Array, Uint8Array[], Uint8Array]> }; _env: { address: { toString(): string }; contract: { balance: bigint } } };
  };
  type OpEntry = { opHandler: (runState: RunState, common: unknown) => unknown };
  const opcodeMap = (vm.evm as unknown as { _opcodeMap: Array<OpEntry | undefined> })._opcodeMap;
  const wrap = (op: number, before: ((r: RunState) => void) | null, after: ((r: RunState) => void) | null): void => {
    const entry = opcodeMap[op];
    if (entry === undefined) return;
    const original = entry.opHandler;
    entry.opHandler = (runState, common) => {
      before?.(runState);
      const out = original(runState, common);
      if (after === null) return out;
      if (out instanceof Promise) return out.then((v) => (after(runState), v));
      after(runState);
      return out;
    };
  };
  for (const [op, name] of [[0xf1, 'CALL'], [0xf2, 'CALLCODE'], [0xf4, 'DELEGATECALL'], [0xfa, 'STATICCALL']] as const) {
    wrap(op, (r) => {
      lastOp = name;
      shareJumpAnalysis(r.interpreter);
    }, null);
  }
  for (let op = 0xa0; op <= 0xa4; op++) {
    wrap(op, null, (r) => {
      const frame = stack.at(-1);
      const log = r.interpreter._result.logs.at(-1);
      if (frame === undefined || log === undefined) return;
      const [address, topics, data] = log;
      (frame.logs ??= []).push({ address: bytesToHex(address), topics: topics.map((x) => bytesToHex(x)), data: bytesToHex(data), position: hex(BigInt(frame.calls?.length ?? 0)) });
    });
  }
  wrap(0xff, (r) => {
    const frame = stack.at(-1);
    if (frame === undefined) return;
    const [to] = r.stack.peek(1);
    const beneficiary = `0x${to!.toString(16).padStart(40, '0')}`;
    const env = r.interpreter._env;
    (frame.calls ??= []).push({ type: 'SELFDESTRUCT', from: env.address.toString().toLowerCase(), to: beneficiary, value: hex(env.contract.balance), gas: '0x0', gasUsed: '0x0', input: '0x' });
  }, null);

  const traced = async (go: () => Promise<RunResult>, wantState: boolean): Promise<{ frame: Frame; result: RunResult; pre: Json; post: Json }> => {
    frames.length = 0;
    stack.length = 0;
    // What the accounts held just before the transaction: read through the journal after it ran, from a copy taken now.
    const journalBefore = { accounts: new Map(state.accountStack.at(-1)), code: new Map(state.codeStack.at(-1)), storage: new Map(state.storageStack.at(-1)) };
    state.touched.clear();
    vm.evm.events!.on('beforeMessage', onBefore as never);
    vm.evm.events!.on('afterMessage', onAfter as never);
    let result: Awaited<ReturnType<typeof runTx>>;
    try {
      result = await go();
    } finally {
      vm.evm.events!.off('beforeMessage', onBefore as never);
      vm.evm.events!.off('afterMessage', onAfter as never);
    }
    const pre: Json = {};
    const post: Json = {};
    if (wantState) {
      for (const [address, slots] of state.touched) {
        const a = createAddressFromString(address);
        const key = a.toString();
        const beforeAccount = journalBefore.accounts.has(key) ? journalBefore.accounts.get(key) : await state.remoteAccount(a);
        const beforeCode = journalBefore.code.has(key) ? journalBefore.code.get(key)! : await state.remoteCode(a);
        const after = await state.view(address);
        const preEntry: Json = {};
        const postEntry: Json = {};
        const beforeBalance = beforeAccount?.balance ?? 0n;
        const beforeNonce = beforeAccount?.nonce ?? 0n;
        if (beforeAccount !== undefined) {
          preEntry.balance = hex(beforeBalance);
          preEntry.nonce = Number(beforeNonce);
          if (beforeCode.length > 0) preEntry.code = bytesToHex(beforeCode);
        }
        if (after.balance !== beforeBalance) postEntry.balance = hex(after.balance);
        if (after.nonce !== beforeNonce) postEntry.nonce = Number(after.nonce);
        if (bytesToHex(after.code) !== bytesToHex(beforeCode)) postEntry.code = bytesToHex(after.code);
        const preSlots: Json = {};
        const postSlots: Json = {};
        for (const slot of slots) {
          const id = `${key}_${slot}`;
          const word = (v: Uint8Array): string => `0x${bytesToHex(v).slice(2).padStart(64, '0')}`;
          const was = journalBefore.storage.has(id) ? journalBefore.storage.get(id)! : await state.remoteStorage(a, hexToBytes(slot as Hex));
          const now = await state.getStorage(a, hexToBytes(slot as Hex));
          if (word(was) !== word(now)) {
            preSlots[word(hexToBytes(slot as Hex))] = word(was);
            postSlots[word(hexToBytes(slot as Hex))] = word(now);
          }
        }
        if (Object.keys(preSlots).length > 0) {
          preEntry.storage = preSlots;
          postEntry.storage = postSlots;
        }
        const changed = Object.keys(postEntry).length > 0 || (beforeAccount === undefined && after.exists);
        if (!changed) continue;
        if (beforeAccount !== undefined) pre[address] = preEntry;
        if (after.exists || Object.keys(postEntry).length > 0) post[address] = postEntry;
      }
    }
    return { frame: frames[0]!, result, pre, post };
  };

  return { common, state, vm, run, runRaw, traced };
}

type RunResult = Awaited<ReturnType<typeof runTx>>;

/** Run `go`; where it throws, the journal is first put back as it was before (see NodeState.unwindTo). */
async function unwound<T>(state: NodeState, go: () => Promise<T>): Promise<T> {
  const depth = state.depth();
  try {
    return await go();
  } catch (err) {
    await state.unwindTo(depth);
    throw err;
  }
}

/** The EVM's refusals that earlier transactions of the block can explain: a nonce, a balance (EthereumJS's words). */
const isRefusal = (err: unknown): boolean => err instanceof Error && /doesn't have the correct nonce|doesn't have enough funds/.test(err.message);

/** At most this many runs on guesses before a replay (each costs one batch request, and a run of every transaction). */
const GUESS_ROUNDS = 3;

/**
 * What a replay of `txs` will read, fetched before it runs, in a few batches instead of one request per
 * read: every sender and recipient at once; then the transactions run on guesses (NodeState.guess), what
 * they read and nobody fetched yet is asked for in one batch, and again while the guesses find more. The
 * journal is left as it was.
 */
async function learnReads(state: NodeState, txs: readonly Json[], runRaw: (raw: Json, guessing: boolean) => Promise<RunResult>): Promise<void> {
  state.fetchAhead(txs.flatMap((t) => [t.from, t.to].filter(isAddress).map((a) => a.toLowerCase())), []);
  for (let round = 0; round < GUESS_ROUNDS; round++) {
    const depth = state.depth();
    await state.checkpoint();
    const missing = await state.guess(async () => {
      for (const t of txs) {
        await unwound(state, () => runRaw(t, true)).catch((err: unknown) => {
          if (err instanceof Interrupted || err instanceof NoState) throw err;
        });
      }
    }).finally(() => state.unwindTo(depth));
    if (missing.accounts.length + missing.slots.length === 0) return;
    state.fetchAhead(missing.accounts, missing.slots);
  }
}

/**
 * Re-execute a mined transaction (its transaction and receipt already fetched, and the first reads asked
 * ahead by askAhead) and describe it as geth's tracers would.
 */
export async function traceLocally(client: RpcClient, tx: Json, receipt: Json, ahead: AskedAhead, opts: { readonly state: boolean; readonly deadline: AbortSignal }): Promise<LocalTrace> {
  const blockNumber = BigInt(tx.blockNumber as string);
  const parent = hex(blockNumber - 1n);
  const block = await ahead.block;
  if (!isRecord(block) || !Array.isArray(block.transactions)) throw new Error(`the node has no block ${blockNumber}`);
  const { state, runRaw, traced } = await makeRunner(client, block, parent, opts.deadline, ahead.chainId);
  state.adopt(ahead.accounts.addresses, ahead.accounts.slots, ahead.accounts.answers);
  // What the node says the transaction touches, where it can say (not Hardhat), and the coinbase.
  const list = await ahead.accessList.catch((err: unknown) => {
    if (err instanceof Interrupted) throw err;
    return null;
  });
  const entries = isRecord(list) && Array.isArray(list.accessList) ? (list.accessList as Array<{ address: unknown; storageKeys: unknown }>) : [];
  state.prefetch([
    ...entries.filter((e): e is { address: string; storageKeys: string[] } => isAddress(e.address) && Array.isArray(e.storageKeys) && e.storageKeys.every(isQuantity)),
    ...(isAddress(block.miner) ? [{ address: block.miner, storageKeys: [] }] : []),
  ]);

  // The run on the parent's state; where the receipt disagrees, again after the block's earlier transactions.
  const compare = (r: RunResult): string[] => {
    const out: string[] = [];
    const status = r.execResult.exceptionError === undefined ? '0x1' : '0x0';
    if (receipt.status !== undefined && receipt.status !== status) out.push(`status ${status === '0x1' ? 'success' : 'reverted'}, receipt ${receipt.status === '0x1' ? 'success' : 'reverted'}`);
    if (typeof receipt.gasUsed === 'string' && BigInt(receipt.gasUsed) !== r.totalGasSpent) out.push(`gas used ${r.totalGasSpent}, receipt ${BigInt(receipt.gasUsed)}`);
    const logs = Array.isArray(receipt.logs) ? (receipt.logs as Json[]) : [];
    const mine = r.receipt.logs;
    const same = logs.length === mine.length && logs.every((l, i) => {
      const [address, topics, data] = mine[i]!;
      return String(l.address).toLowerCase() === bytesToHex(address) && String(l.data).toLowerCase() === bytesToHex(data) && Array.isArray(l.topics) && l.topics.length === topics.length && (l.topics as string[]).every((t, k) => t.toLowerCase() === bytesToHex(topics[k]!));
    });
    if (!same) out.push(`${mine.length} logs, receipt ${logs.length}${logs.length === mine.length ? ' (different)' : ''}`);
    return out;
  };
  await state.checkpoint();
  const index = Number(BigInt(tx.transactionIndex as string));
  // On the parent's state first. The EVM may refuse it there (a nonce or a balance that earlier
  // transactions of its block changed): then, as where its result differs from the receipt, the block's
  // earlier transactions are replayed first, as `cast run` does. The first transaction has no such excuse.
  const firstTry = await unwound(state, () => traced(() => runRaw(tx), opts.state)).catch((err: unknown) => {
    if (index === 0 || !isRefusal(err)) throw err;
    return null;
  });
  let outcome = firstTry;
  let mismatch = firstTry === null ? ['refused on the parent block\'s state'] : compare(firstTry.result);
  let replayed = 0;
  if (mismatch.length > 0 && index > 0) {
    await state.revert();
    await state.checkpoint();
    const earlier = (block.transactions as unknown[]).slice(0, index).filter(isRecord);
    await learnReads(state, [...earlier, tx], runRaw);
    for (const t of earlier) {
      try {
        await unwound(state, () => runRaw(t));
      } catch (err) {
        // One the EVM refuses here was refused by no one when it was mined: what follows may differ, and the receipt check says so.
        if (err instanceof Interrupted || err instanceof NoState) throw err;
      }
      replayed++;
    }
    outcome = await traced(() => runRaw(tx), opts.state);
    mismatch = compare(outcome.result);
  }
  if (outcome === null) throw new Error('refused on the parent block\'s state');
  const root = outcome.frame;
  // The callTracer's root counts the whole transaction: its gas limit and its gas used (intrinsic included).
  root.gas = tx.gas as string;
  root.gasUsed = hex(outcome.result.totalGasSpent);
  return { callTrace: root as unknown as Json, stateDiff: opts.state ? { pre: outcome.pre, post: outcome.post } : null, mismatch, replayed };
}

export interface LocalSimulation {
  /** A geth callTracer frame (withLog), as debug_traceCall would answer. */
  readonly callTrace: Json;
  /** A prestateTracer diff, {pre, post}, when asked for. */
  readonly stateDiff: Json | null;
}

/**
 * `txray call` on a node without a call tracer: the call run here on the node's state after `block`,
 * with the state overrides applied first, as debug_traceCall would run it (a call without a gas price
 * pays no fee and is held to no base fee, as eth_call is).
 */
export async function simulateLocally(
  client: RpcClient,
  call: Json,
  block: string,
  overrides: Readonly<Record<string, unknown>> | null,
  opts: { readonly state: boolean; readonly deadline: AbortSignal },
): Promise<LocalSimulation> {
  const header = await client.call('eth_getBlockByNumber', [block, false], opts.deadline);
  if (!isRecord(header)) throw new Error(`the node has no block ${block}`);
  const priced = call.gasPrice !== undefined || call.maxFeePerGas !== undefined;
  const { common, state, run, traced } = await makeRunner(client, priced ? header : { ...header, baseFeePerGas: header.baseFeePerGas === undefined ? undefined : '0x0' }, block, opts.deadline);
  for (const [address, o] of Object.entries(overrides ?? {})) {
    const a = createAddressFromString(address);
    const fields = o as { balance?: string; nonce?: string; code?: string; stateDiff?: Record<string, string> };
    if (fields.code !== undefined) await state.putCode(a, hexToBytes(fields.code as Hex));
    if (fields.balance !== undefined || fields.nonce !== undefined) {
      const account = (await state.getAccount(a)) ?? new Account();
      if (fields.balance !== undefined) account.balance = BigInt(fields.balance);
      if (fields.nonce !== undefined) account.nonce = BigInt(fields.nonce);
      await state.putAccount(a, account);
    }
    for (const [slot, value] of Object.entries(fields.stateDiff ?? {})) await state.putStorage(a, hexToBytes(slot as Hex), unpadBytes(hexToBytes(value as Hex)));
  }
  const from = createAddressFromString(call.from as string);
  const q = (v: unknown): bigint | undefined => (typeof v === 'string' ? BigInt(v) : undefined);
  const fields = {
    nonce: q(call.nonce) ?? (await state.getAccount(from))?.nonce ?? 0n,
    gasLimit: q(call.gas) ?? BigInt(header.gasLimit as string),
    ...(typeof call.to === 'string' ? { to: call.to as Hex } : {}),
    value: q(call.value) ?? 0n,
    data: (call.data as Hex | undefined) ?? '0x',
  };
  const tx =
    call.maxFeePerGas !== undefined
      ? createFeeMarket1559Tx({ ...fields, maxFeePerGas: q(call.maxFeePerGas), maxPriorityFeePerGas: q(call.maxPriorityFeePerGas) ?? 0n, accessList: (call.accessList as never) ?? [] }, { common, freeze: false })
      : createLegacyTx({ ...fields, gasPrice: q(call.gasPrice) ?? 0n }, { common, freeze: false });
  // Unsigned: the sender is the call's `from`, as eth_call takes it.
  (tx as unknown as { getSenderAddress: () => typeof from }).getSenderAddress = () => from;
  await state.checkpoint();
  const outcome = await traced(() => run(tx as never, call.nonce === undefined), opts.state);
  outcome.frame.gas = hex(fields.gasLimit);
  outcome.frame.gasUsed = hex(outcome.result.totalGasSpent);
  return { callTrace: outcome.frame as unknown as Json, stateDiff: opts.state ? { pre: outcome.pre, post: outcome.post } : null };
}
