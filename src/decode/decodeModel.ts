/**
 * The decode stage's walk: names what the model holds, never replaces it. Each call node gets its
 * `decoded` (function, outputs, revert), creates of a known artifact their constructor arguments, and
 * the model its events, transfers, labels and checksums (decodeLogs, transfers, labels).
 */
import type { AbiFunction } from 'abitype';
import type { CallNode, Decoded, DecodedArg, DecodedModel, DecodedRevert, InspectModel, Transfer } from '../model/types.js';
import { walkCalls } from '../model/walk.js';
import { byteLength } from '../raw/hex.js';
import { rootCountsIntrinsicGas } from '../raw/parseCallTrace.js';
import type { Hex } from '../raw/types.js';
import type { AbiIndex, Artifact } from './abiIndex.js';
import { decodeRevert } from '../model/decodeRevert.js';
import { decodeCallData, decodeConstructor, decodeReturn, type GuessMemo, guessCallData } from './callData.js';
import { byOwners, decodeLogs, type LogDecoding } from './decodeLogs.js';
import { withNestedCalls } from './nestedCalls.js';
import { bookKeys, checksumsOf, copyLabels, withChecksums, withSystemLabels } from './labels.js';
import { decodePrecompile, isPrecompile } from './precompiles.js';
import { nativeTransfers } from './transfers.js';
import { decodeCustomError, withReverts } from './revertArgs.js';

/** Value sent with empty calldata to code: receive() if the contract has one, else fallback(). */
const RECEIVE: Decoded = { name: 'receive', signature: 'receive()', args: [], source: 'builtin', contract: 'receive or fallback' };

/**
 * What value with no data runs in a contract named `name`, where an artifact of that name says: its
 * receive(), else its fallback(), else nothing (the call then reverts, and says why on its own). A
 * contract no artifact describes: receive or fallback, marked as not known which.
 */
function valueEntry(index: AbiIndex, name: string | undefined): Decoded | null {
  const artifact = name === undefined ? undefined : index.artifacts.find((a) => a.name === name && a.abi.length > 0);
  if (artifact === undefined) return RECEIVE;
  for (const kind of ['receive', 'fallback'] as const) {
    if (artifact.abi.some((i) => i.type === kind)) return { name: kind, signature: `${kind}()`, args: [], source: artifact.source, contract: artifact.name };
  }
  return null;
}

/** A failed call's revert data decoded, once per distinct data (and code that raised it) in a pass. */
function revertOf(node: CallNode, index: AbiIndex, memo: DecodeMemo, own: Artifact | undefined): DecodedRevert | null {
  const output = node.output!;
  const reverts = memo.of(memo.reverts, own);
  let found = reverts.get(output);
  if (found === undefined) reverts.set(output, (found = decodeRevertData(node, index, own)));
  return found;
}

function decodeRevertData(node: CallNode, index: AbiIndex, own: Artifact | undefined): DecodedRevert | null {
  if (node.error === null || node.output === null || byteLength(node.output) === 0) return null;
  // The ladder: Error and Panic first, then a custom error an ABI names, then text or raw data.
  const revert = decodeRevert(node.output);
  const custom = revert.kind !== 'error' && revert.kind !== 'panic' ? decodeCustomError(index, node.output, own) : null;
  return { revert, custom };
}

/**
 * What one decode pass has decoded, by the bytes decoded: a call's name and arguments depend only on its
 * input (and the candidates, fixed for the pass), its return values only on the function and the output,
 * a revert only on its data. A big transaction repeats them by the thousand: each distinct one is decoded
 * once, and the nodes share the (read-only) result. Keyed by the strings the model already holds; where
 * calls stop repeating, they stop being kept (see callLookups). (Logs are not: their key would be a new string
 * per log, topics and data joined, costing more memory than decoding them again.) One per pass, never
 * shared between inputs.
 */
class DecodeMemo {
  /** By the callee's matched artifact (none: undefined), then by input: its names decide first. */
  readonly calls = new Map<Artifact | undefined, Map<string, { decoded: Decoded; item: AbiFunction | null } | null>>();
  /**
   * Calls looked up and not found. When inputs do not repeat (a loop calling one function with a new
   * argument each time), the map costs more than decoding again: after 1,024 misses that are more than
   * half of the lookups, calls are no longer kept.
   */
  callLookups = 0;
  callMisses = 0;
  keepCalls = true;
  readonly outputs = new Map<AbiFunction, Map<string, DecodedArg[] | null>>();
  readonly reverts = new Map<Artifact | undefined, Map<string, DecodedRevert | null>>();
  readonly guesses: GuessMemo = new Map();

  /** The memo of one owner (the matched artifact, or undefined). */
  of<V>(byOwner: Map<Artifact | undefined, Map<string, V>>, own: Artifact | undefined): Map<string, V> {
    let inner = byOwner.get(own);
    if (inner === undefined) byOwner.set(own, (inner = new Map()));
    return inner;
  }
}

/** A call's function: by a candidate, else by guessed types; once per distinct input. */
function callOf(index: AbiIndex, input: Hex, memo: DecodeMemo, own: Artifact | undefined): { decoded: Decoded; item: AbiFunction | null } | null {
  const calls = memo.of(memo.calls, own);
  if (memo.keepCalls) {
    memo.callLookups++;
    const known = calls.get(input);
    if (known !== undefined) return known;
  }
  const call = decodeCallData(index, input, { own });
  const guess = call === null ? guessCallData(input, memo.guesses) : null;
  const found = call ?? (guess === null ? null : { decoded: guess, item: null });
  if (memo.keepCalls) {
    calls.set(input, found);
    if (++memo.callMisses >= 1024 && memo.callMisses * 2 > memo.callLookups) {
      memo.keepCalls = false;
      memo.calls.clear();
    }
  }
  return found;
}

function returnOf(item: AbiFunction, output: Hex, index: AbiIndex, memo: DecodeMemo): DecodedArg[] | null {
  let byOutput = memo.outputs.get(item);
  if (byOutput === undefined) memo.outputs.set(item, (byOutput = new Map()));
  let found = byOutput.get(output);
  if (found === undefined) {
    const values = decodeReturn(item, output);
    byOutput.set(output, (found = values === null ? null : withReverts(values, index)));
  }
  return found;
}

const inputFunction = (model: InspectModel, index: AbiIndex, owners: ReadonlyMap<string, Artifact>, guesses?: GuessMemo): Decoded | null => {
  const input = model.tx?.input;
  if (input === undefined) return null;
  // A creation's input is init code, not call data: its constructor where an artifact's creation code
  // begins it, else nothing (its first bytes are opcodes, never a selector).
  if (model.tx?.to == null) return decodeConstructor(index.artifacts, input)?.decoded ?? null;
  return decodeCallData(index, input, { own: owners.get(model.tx.to.toLowerCase()) })?.decoded ?? guessCallData(input, guesses);
};

/** What one call runs, by its kind: a constructor, receive()/fallback(), a precompile, or a function. */
function callDecoding(n: CallNode, isRoot: boolean, model: InspectModel, index: AbiIndex, labels: Map<string, string>, memo: DecodeMemo, own: Artifact | undefined): { function?: Decoded; outputs?: readonly DecodedArg[] } | null {
  if (n.input === null) return null;
  if (n.type === 'create') {
    const ctor = decodeConstructor(index.artifacts, n.input);
    if (ctor === null) return null;
    if (n.to !== null && !labels.has(n.to.toLowerCase())) labels.set(n.to.toLowerCase(), ctor.artifact.name);
    return { function: ctor.decoded };
  }
  if (n.type !== 'call') return null;
  if (byteLength(n.input) === 0) {
    // Value with no data runs the callee's receive() (or fallback()) when it is a contract; an
    // account without code spends no gas on it. Which of the two, only the callee's ABI says.
    // geth's callTracer counts the intrinsic gas in its root frame, so there gas says nothing.
    const gasTellsCode = !(isRoot && rootCountsIntrinsicGas(model.traceSource));
    if (!gasTellsCode || n.value === null || n.value === 0n || n.gasUsed === null || n.gasUsed === 0n) return null;
    const ran = valueEntry(index, n.to === null ? undefined : labels.get(n.to.toLowerCase()));
    return ran === null ? null : { function: ran };
  }
  if (n.to !== null && isPrecompile(n.to)) {
    // A precompile's input is not call data: decoded by its address, or left raw.
    const pre = decodePrecompile(n.to, n.input, n.error === null ? n.output : null);
    return pre === null ? null : pre.outputs === undefined ? { function: pre.function } : { function: pre.function, outputs: pre.outputs };
  }
  const call = callOf(index, n.input, memo, own);
  if (call === null) return null;
  const outputs = call.item !== null && n.error === null && n.output !== null ? returnOf(call.item, n.output, index, memo) : null;
  return outputs === null ? { function: call.decoded } : { function: call.decoded, outputs };
}

/** The value the transaction moved, and the tokens its logs moved (a reverted transaction moved no value). */
function transfersOf(model: InspectModel, tokens: readonly Transfer[]): Transfer[] {
  const tx = model.tx;
  const to = tx?.to ?? model.receipt?.contractAddress;
  const native = model.tree !== null ? nativeTransfers(model.tree.root) : tx?.value !== undefined && tx.value > 0n && to ? [{ kind: 'ETH' as const, from: tx.from, to, amount: tx.value }] : [];
  return [...(model.status === 'success' ? native : []), ...tokens];
}

/** Which contract's ABI an address runs: its label, else (EIP-7702) its delegate's. */
function contractsOf(labels: ReadonlyMap<string, string>, delegates: ReadonlyMap<string, Hex> | undefined): ReadonlyMap<string, string> {
  if (delegates === undefined || delegates.size === 0) return labels;
  const out = copyLabels(labels);
  for (const [account, delegate] of delegates) {
    const name = labels.get(delegate);
    if (name !== undefined && !out.has(account)) out.set(account, name);
  }
  return out;
}

/** What the code read for names found: the artifact each address's code matched, and (EIP-7702) the delegate each delegated account runs (lower-case addresses). */
export interface ByCode {
  readonly owners?: ReadonlyMap<string, Artifact>;
  readonly delegates?: ReadonlyMap<string, Hex>;
}

/**
 * Decode everything in the model; call nodes get their `decoded` in place (they are this run's own objects).
 * `early`: the logs already decoded, used when they are this model's logs. `byCode.owners`: the artifact
 * each address's code matched, whose names decide that contract's calls, events and errors.
 */
export function decodeModel(model: InspectModel, index: AbiIndex, extraLabels: ReadonlyMap<string, string>, early?: LogDecoding, byCode: ByCode = {}): DecodedModel {
  const owners = byCode.owners ?? new Map<string, Artifact>();
  const delegates = byCode.delegates;
  const labels = withSystemLabels(model, extraLabels, index);
  const memo = new DecodeMemo();
  const tree = model.tree;
  if (tree !== null) {
    walkCalls(tree.root, (n) => {
      const own = n.to === null || owners.size === 0 ? undefined : owners.get(n.to.toLowerCase());
      const call = callDecoding(n, n === tree.root, model, index, labels, memo, own);
      const revert = n.error === null || n.output === null ? null : revertOf(n, index, memo, own);
      if (call !== null || revert !== null) n.decoded = revert === null ? call! : { ...call, revert };
    });
  }
  // No tree (a simulation by eth_call alone): the revert data came with the failure itself.
  const failed = model.failure?.revert;
  const to = model.tx?.to?.toLowerCase();
  const rootError = tree !== null ? (tree.root.decoded?.revert?.custom ?? null) : failed?.kind === 'custom' ? decodeCustomError(index, failed.data, to === undefined ? undefined : owners.get(to)) : null;
  const logs = model.receipt?.logs ?? [];
  const fromLogs = byOwners(early !== undefined && early.logs === logs ? early : decodeLogs(logs, index), index, owners);
  const transfers = transfersOf(model, fromLogs.tokens);
  // The root call's input is the transaction's input: decoded once, above, when there is a tree.
  const root = tree?.root;
  const input = model.tx?.input;
  const sameAsRoot = root !== undefined && root.type === 'call' && input !== undefined && root.input?.toLowerCase() === input.toLowerCase();
  const fn = sameAsRoot ? (root.decoded?.function ?? null) : inputFunction(model, index, owners, memo.guesses);
  // The calls an envelope carries in its bytes arguments, on the transaction's input only: in the call
  // tree the frames they ran are the call's children already.
  const target = model.tx?.to ?? null;
  return {
    function: fn === null || input === undefined || target === null ? fn : withNestedCalls(fn, input, target, index, contractsOf(labels, delegates)),
    events: fromLogs.events,
    error: rootError,
    transfers,
    labels,
    bookKeys: bookKeys(model, index),
    // The contracts matched by code are shown too where only an argument names them (a spender, a path).
    checksums: withChecksums(withChecksums(checksumsOf(model, transfers), owners.keys()), delegates?.values() ?? []),
    ...(delegates !== undefined && delegates.size > 0 ? { delegates } : {}),
  };
}
