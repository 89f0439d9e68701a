/**
 * A transaction (or a call) run in an embedded EVM (EthereumJS) on the state at the parent block (read
 * through a StateReader: the node's, see localRun/nodeReader.ts), for every local run the local-run
 * service (localRun/) makes: a node without a call tracer, --tracer local, the source locations,
 * --internal, `txray call --tx`, the debugger. It hands on the model's call tree, a view of what its
 * tracer (tracer.ts) kept (callTreeOf.ts), and a prestateTracer diff ({pre, post}). A mined one is
 * checked every time against the receipt (status, gas used, every log); where they differ, the block's
 * earlier transactions are run first, as `cast run` does. Loaded only when needed (a dynamic import):
 * lookups on nodes with traces never load the EVM.
 */
import { Interrupted } from '../errors.js';
import { isAddress, isData, isHash, isQuantity, isRecord, toQuantity } from '../raw/hex.js';
import { parseTransaction } from '../raw/parseRaw.js';
import { bytesToHex, createAddressFromString, createFeeMarket1559Tx, createLegacyTx } from './evmEngine.js';
import { createLocalEvm, type Json, type LocalEvm, type RunResult } from './localEvm.js';
import { journalBefore, stateDiff } from './localStateDiff.js';
import type { NodeState } from './nodeState.js';
import { callTreeOf, type RecordedCalls } from './callTreeOf.js';
import { attachTracer, type EvmFrame, type FrameFacts, type TracedRun, type TracerConfig, TREE_ONLY } from './tracer.js';
import { balanceSlotOf, earlierHolderEntries } from '../rpc/askAhead.js';
import { letRequestsOut } from '../rpc/letRequestsOut.js';
import { NoState, type StateReader } from './stateReader.js';
import { type EvmHeader, parseEvmHeader } from '../raw/parseBlock.js';
import type { RpcReceipt } from '../raw/types.js';
import type { StepLog } from './stepLog.js';
import type { StorageRecord } from './storageTrace.js';

/** What a local run keeps beyond the call tree, which it always hands on (each part off unless asked for; `stateDiff` is --state's). */
export type LocalOptions = Partial<TracerConfig>;

export interface LocalTrace {
  /** The call tree, its root counting the whole transaction or call (its gas limit and its gas used, intrinsic gas included), and its logs. */
  readonly calls: RecordedCalls;
  /** A prestateTracer diff, {pre, post}, when asked for. */
  readonly stateDiff: Json | null;
  /** What the receipt says and the run did not (empty when they agree; a call has no receipt). */
  readonly mismatch: string[];
  /** How many of the block's earlier transactions ran first (0 when the parent's state sufficed, and for a call). */
  readonly earlier: number;
  /** What the EVM knows of each frame, by frameKey(traceAddress), when asked for (exits, jumps). */
  readonly facts: ReadonlyMap<string, FrameFacts> | null;
  /** Every step of the run, when asked for. */
  readonly steps: StepLog | null;
  /** Every storage access by frame, and the KECCAK256 inputs, when asked for. */
  readonly storage: StorageRecord | null;
}

type TracedResult = TracedRun<RunResult> & { readonly frame: EvmFrame; readonly diff: { pre: Json; post: Json } | null };

/** The EVM set up on the state `reader` reads, with `header` as its block context, and a traced run. */
async function makeRunner(reader: StateReader, header: EvmHeader, chainId: unknown, opts: LocalOptions): Promise<LocalEvm & { traced: (go: () => Promise<RunResult>) => Promise<TracedResult> }> {
  if (!isQuantity(chainId)) throw new Error('the node\'s chain id is not a quantity');
  const evm = await createLocalEvm(reader, header, Number(BigInt(chainId)));
  const config: TracerConfig = { ...TREE_ONLY, ...opts };
  const tracer = attachTracer(evm.vm, config);
  const traced = async (go: () => Promise<RunResult>): Promise<TracedResult> => {
    const before = journalBefore(evm.state);
    const run = await tracer.trace(go);
    if (run.frame === null) throw new Error('the EVM ran no frame');
    return { ...run, frame: run.frame, diff: config.stateDiff ? await stateDiff(evm.state, before) : null };
  };
  return { ...evm, traced };
}

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

/** At most this many runs on guesses before the earlier transactions run on real state (each costs one batch request, and a run of every transaction). */
const GUESS_ROUNDS = 3;

/** An error an earlier transaction may end with and the run go on past (the EVM's own, a refusal): not an interrupt, not missing state. */
const passable = (err: unknown): boolean => !(err instanceof Interrupted || err instanceof NoState);

/**
 * The block's earlier transactions run in order while guessing, each as the real run of them runs it
 * (its nonce and balance checked) for as long as nothing was guessed: up to the first guess the run is on
 * real state. One the EVM refuses after a guess is run again past the checks, to learn what it reads; the
 * round is then not the real run. Returns whether it may be (every refusal a real one).
 */
async function guessEarlier(state: NodeState, earlier: readonly Json[], runRaw: (raw: Json, guessing: boolean) => Promise<RunResult>): Promise<boolean> {
  let asMined = true;
  let asked = false;
  for (const t of earlier) {
    try {
      await unwound(state, () => runRaw(t, false));
    } catch (err) {
      if (!passable(err)) throw err;
      // A nonce or a balance may be a guess's (or an earlier transaction's that ran on one).
      if (!isRefusal(err) || state.guessedSoFar() === 0) continue;
      asMined = false;
      await unwound(state, () => runRaw(t, true)).catch((e: unknown) => {
        if (!passable(e)) throw e;
      });
    } finally {
      // A busy sender's transactions touch the same few accounts: what the first one that guessed read
      // is asked for at once, and comes back while the rest run (the others' guesses go in one batch after).
      if (!asked && state.guessedSoFar() > 0) {
        state.askGuessed();
        asked = true;
        await letRequestsOut();
      }
    }
  }
  return asMined;
}

/**
 * Run the block's `earlier` transactions before `tx`, with what they read fetched in a few batches
 * instead of one request per read: every sender and recipient at once, with `holders` (the balance
 * entries their token transfers read, where the token's layout is known: see earlierHolderEntries);
 * then they run on guesses (NodeState.guess), `tx` after them, and what they read and nobody fetched
 * yet is asked for in one batch, and again while the guesses find more. Where every guess of a round
 * turns out to be the node's value (an account or a slot that is empty: a new holder's balance), that
 * round was the real run and is kept; otherwise the journal is put back and, after the last round, they
 * run once more on real state.
 */
async function runEarlier(state: NodeState, earlier: readonly Json[], tx: Json, runRaw: (raw: Json, guessing: boolean) => Promise<RunResult>, holders: readonly string[]): Promise<void> {
  state.fetchAhead([...earlier, tx].flatMap((t) => [t.from, t.to].filter(isAddress).map((a) => a.toLowerCase())), holders);
  await letRequestsOut();
  for (let round = 0; round < GUESS_ROUNDS; round++) {
    const depth = state.depth();
    await state.checkpoint();
    try {
      let asMined = false;
      const missed = await state.guess(async () => void (asMined = await guessEarlier(state, earlier, runRaw)));
      // `tx` on top, only to learn its reads: undone whatever happens.
      const own = await state.guess(() => unwound(state, async () => {
        const top = state.depth();
        await state.checkpoint();
        await runRaw(tx, true).catch((err: unknown) => {
          if (!passable(err)) throw err;
        });
        await state.unwindTo(top);
      }));
      state.fetchAhead([...missed.accounts, ...own.accounts], [...missed.slots, ...own.slots]);
      if (asMined && (await state.guessedRight(missed))) {
        await state.commit();
        return;
      }
      await state.unwindTo(depth);
    } catch (err) {
      await state.unwindTo(depth);
      throw err;
    }
  }
  for (const t of earlier) {
    // One the EVM refuses here was refused by no one when it was mined: what follows may differ, and the receipt check says so.
    await unwound(state, () => runRaw(t, false)).catch((err: unknown) => {
      if (!passable(err)) throw err;
    });
  }
}

/** Where a run differs from the transaction's receipt: its status, its gas used, its logs (empty when they agree). */
function receiptDifferences(receipt: RpcReceipt, r: RunResult): string[] {
  const out: string[] = [];
  const status = r.execResult.exceptionError === undefined ? '0x1' : '0x0';
  if (receipt.status !== undefined && receipt.status !== status) out.push(`status ${status === '0x1' ? 'success' : 'reverted'}, receipt ${receipt.status === '0x1' ? 'success' : 'reverted'}`);
  if (receipt.gasUsed !== undefined && BigInt(receipt.gasUsed) !== r.totalGasSpent) out.push(`gas used ${r.totalGasSpent}, receipt ${BigInt(receipt.gasUsed)}`);
  const logs = receipt.logs;
  const mine = r.receipt.logs;
  const same = logs.length === mine.length && mine.every(([address, topics, data], i) => {
    const l = logs[i];
    return l !== undefined && l.address.toLowerCase() === bytesToHex(address) && l.data.toLowerCase() === bytesToHex(data) && l.topics.length === topics.length && l.topics.every((t, k) => t.toLowerCase() === bytesToHex(topics[k] ?? new Uint8Array(0)));
  });
  if (!same) out.push(`${mine.length} logs, receipt ${logs.length}${logs.length === mine.length ? ' (different)' : ''}`);
  return out;
}

/** What a mined transaction's run needs of its chain beyond the state, asked for before the EVM loads. */
export interface MinedContext {
  /** The transaction's block, with its transactions (running the earlier ones needs them). */
  readonly block: Promise<unknown>;
  readonly chainId: Promise<unknown>;
  /** eth_createAccessList at the parent block: what the node says the transaction touches (not Hardhat). */
  readonly accessList: Promise<unknown>;
}

/** How a mined transaction is run again: as it was mined, or changed (`txray call --tx`). */
export interface Rerun {
  /** Changed: the block's earlier transactions always run first (the receipt cannot say they are not needed). */
  readonly changed: boolean;
  /** Sent by another account (--from): it runs at that account's nonce. */
  readonly anotherSender: boolean;
}

const AS_MINED: Rerun = { changed: false, anotherSender: false };

/** The transaction at its sender's nonce where another account sends it (the signed nonce is the original sender's). */
async function withNonce(state: NodeState, tx: Json, rerun: Rerun): Promise<Json> {
  if (!rerun.anotherSender || !isAddress(tx.from)) return tx;
  const account = await state.getAccount(createAddressFromString(tx.from));
  return { ...tx, nonce: toQuantity(account?.nonce ?? 0n) };
}

/** Where a mined transaction stands: its block and its index in it. */
export interface Position {
  readonly blockNumber: bigint;
  readonly index: number;
}

/**
 * Whether `t` passes raw/'s checks of a transaction without a complaint: a field those checks would
 * warn of and leave out counts too, since the EVM would run the transaction with it.
 */
function sound(t: unknown): t is Json {
  if (!isRecord(t) || !isHash(t.hash)) return false;
  let complaints = 0;
  try {
    return parseTransaction(t, t.hash, () => void complaints++) !== null && complaints === 0;
  } catch {
    return false;
  }
}

/** The block's transactions before `index`, each through raw/'s checks, as the transaction itself was: one the node gave malformed stops the run. */
function earlierOf(transactions: readonly unknown[], index: number): Json[] {
  return transactions.slice(0, index).map((t, i) => {
    if (!sound(t)) throw new Error(`the node's block has a malformed transaction at index ${i}`);
    return t;
  });
}

/** The balance entries the `earlier` transactions' transfers of `tx`'s token read, where its access list (`entries`) tells the token's layout. */
function holdersOf(tx: Json, earlier: readonly Json[], entries: ReadonlyArray<{ readonly address: string; readonly storageKeys: readonly string[] }>): string[] {
  if (!isAddress(tx.to)) return [];
  const slot = balanceSlotOf(tx, new Set(entries.flatMap((e) => e.storageKeys.map((k) => `${e.address.toLowerCase()}:${k.toLowerCase()}`))));
  return slot === null ? [] : earlierHolderEntries(tx.to.toLowerCase(), earlier, slot);
}

/**
 * Re-execute a mined transaction (its transaction and receipt already fetched; `reader` reads its parent
 * block's state) and describe it as geth's tracers would.
 */
export async function traceLocally(reader: StateReader, tx: Json, receipt: RpcReceipt, at: Position, ahead: MinedContext, opts: LocalOptions, rerun: Rerun = AS_MINED): Promise<LocalTrace> {
  const { blockNumber, index } = at;
  const block = await ahead.block;
  if (!isRecord(block) || !Array.isArray(block.transactions)) throw new Error(`the node has no block ${blockNumber}`);
  const header = parseEvmHeader(block);
  const { state, runRaw, traced } = await makeRunner(reader, header, await ahead.chainId, opts);
  // What the node says the transaction touches, where it can say (not Hardhat), and the coinbase.
  const list = await ahead.accessList.catch((err: unknown) => {
    if (err instanceof Interrupted) throw err;
    return null;
  });
  const entries = (isRecord(list) && Array.isArray(list.accessList) ? list.accessList.filter(isRecord) : []).flatMap((e) =>
    isAddress(e.address) && Array.isArray(e.storageKeys) && e.storageKeys.every(isQuantity) ? [{ address: e.address, storageKeys: e.storageKeys }] : [],
  );
  state.prefetch([...entries, { address: header.miner, storageKeys: [] }]);
  // Written now: a run whose reads are all in already never waits on the network, and the coinbase is
  // read only at its end.
  await letRequestsOut();

  // The run on the parent's state; where the receipt disagrees, again after the block's earlier transactions.
  const compare = (r: RunResult): string[] => receiptDifferences(receipt, r);
  await state.checkpoint();
  // On the parent's state first. The EVM may refuse it there (a nonce or a balance that earlier
  // transactions of its block changed): then, as where its result differs from the receipt, the block's
  // earlier transactions run first, as `cast run` does. The first transaction has no such excuse.
  // A changed run (txray call --tx) has no receipt to tell whether the parent's state sufficed.
  const firstTry =
    rerun.changed && index > 0
      ? null
      : await unwound(state, async () => {
          const now = await withNonce(state, tx, rerun);
          return traced(() => runRaw(now));
        }).catch((err: unknown) => {
          if (index === 0 || !isRefusal(err)) throw err;
          return null;
        });
  let outcome = firstTry;
  let mismatch = firstTry === null ? ['refused on the parent block\'s state'] : compare(firstTry.result);
  let ranFirst = 0;
  if (mismatch.length > 0 && index > 0) {
    await state.revert();
    await state.checkpoint();
    const earlier = earlierOf(block.transactions, index);
    await runEarlier(state, earlier, tx, runRaw, holdersOf(tx, earlier, entries));
    ranFirst = earlier.length;
    const now = await withNonce(state, tx, rerun);
    outcome = await traced(() => runRaw(now));
    mismatch = compare(outcome.result);
  }
  if (outcome === null) throw new Error('refused on the parent block\'s state');
  const root = outcome.frame;
  // The root counts the whole transaction, as geth's callTracer's does: its gas limit and its gas used (intrinsic gas included).
  root.gas = isQuantity(tx.gas) ? BigInt(tx.gas) : null;
  root.gasUsed = outcome.result.totalGasSpent;
  return { calls: callTreeOf(root, outcome.logs), stateDiff: outcome.diff, mismatch, earlier: ranFirst, facts: outcome.facts, steps: outcome.steps, storage: outcome.storage };
}

/**
 * `txray call` on a node without a call tracer: the call run here on the state `reader` reads (after the block `at.header` names),
 * (a reader that applies the state overrides, see overrideReader.ts), as debug_traceCall would run it (a call without a gas price
 * pays no fee and is held to no base fee, as eth_call is).
 */
export async function simulateLocally(
  reader: StateReader,
  call: Json,
  at: { readonly header: EvmHeader; readonly chainId: unknown },
  opts: LocalOptions,
): Promise<LocalTrace> {
  const { header } = at;
  const priced = call.gasPrice !== undefined || call.maxFeePerGas !== undefined;
  const { common, state, run, traced } = await makeRunner(reader, priced ? header : { ...header, baseFeePerGas: header.baseFeePerGas === undefined ? undefined : '0x0' }, at.chainId, opts);
  const q = (v: unknown): bigint | undefined => (typeof v === 'string' ? BigInt(v) : undefined);
  if (!isAddress(call.from)) throw new Error('the call has no sender');
  const blockGas = BigInt(header.gasLimit);
  const from = createAddressFromString(call.from);
  const fields = {
    nonce: q(call.nonce) ?? (await state.getAccount(from))?.nonce ?? 0n,
    gasLimit: q(call.gas) ?? blockGas,
    ...(isAddress(call.to) ? { to: call.to } : {}),
    value: q(call.value) ?? 0n,
    data: isData(call.data) ? call.data : '0x',
  };
  const tx =
    call.maxFeePerGas !== undefined
      ? createFeeMarket1559Tx({ ...fields, maxFeePerGas: q(call.maxFeePerGas), maxPriorityFeePerGas: q(call.maxPriorityFeePerGas) ?? 0n, accessList: (call.accessList as never) ?? [] }, { common, freeze: false })
      : createLegacyTx({ ...fields, gasPrice: q(call.gasPrice) ?? 0n }, { common, freeze: false });
  // Unsigned: the sender is the call's `from`, as eth_call takes it.
  tx.getSenderAddress = () => from;
  await state.checkpoint();
  const outcome = await traced(() => run(tx, call.nonce === undefined));
  outcome.frame.gas = fields.gasLimit;
  outcome.frame.gasUsed = outcome.result.totalGasSpent;
  return { calls: callTreeOf(outcome.frame, outcome.logs), stateDiff: outcome.diff, mismatch: [], earlier: 0, facts: outcome.facts, steps: outcome.steps, storage: outcome.storage };
}
