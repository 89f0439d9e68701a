/**
 * The decode stage: adds names to what the model holds, never replaces it. Call nodes get
 * `function` (and `outputs`, `revert`), logs get `event`, creates of a known artifact get their
 * constructor arguments, and the money flow is collected as `transfers`.
 * Every candidate must decode cleanly and re-encode to the same bytes before it names anything.
 */
import type { AbiError, AbiEvent, AbiFunction, AbiParameter } from 'abitype';
import {
  decodeAbiParameters,
  decodeErrorResult,
  encodeAbiParameters,
  encodeErrorResult,
} from 'viem';
import type { CallNode, Decoded, DecodedArg, DecodedModel, DecodedNodeFields, InspectModel, JsonValue, Transfer } from '../model/types.js';
import { byteLength, isAddress, toBig, wordToAddress } from '../raw/hex.js';
import { rootCountsIntrinsicGas } from '../raw/parseCallTrace.js';
import type { Hex, RpcLog } from '../raw/types.js';
import { type AbiIndex, type Artifact, type Candidate, signatureOf } from './abiIndex.js';
import { chainIdOf, type FeeRules, familyOf, systemLabels } from '../model/chain.js';
import { decodeRevert, revertToJson } from '../model/decodeRevert.js';

import { checksumAddress } from './keccak.js';
import { guessTypes } from './guessTypes.js';
import { decodePrecompile, isPrecompile } from './precompiles.js';
import { decodeStaticWords } from './staticWords.js';

function jsonValue(value: unknown, param: AbiParameter): JsonValue {
  const type = param.type;
  const array = type.endsWith(']') ? /^(.*)\[(\d*)\]$/.exec(type) : null;
  if (array) return (value as unknown[]).map((v) => jsonValue(v, { ...param, type: array[1]! }));
  if (type === 'tuple') {
    const components = (param as { components?: readonly AbiParameter[] }).components ?? [];
    const named = components.length > 0 && components.every((c) => c.name);
    const items = components.map((c, i) => jsonValue(Array.isArray(value) ? value[i] : (value as Record<string, unknown>)[c.name ?? String(i)], c));
    return named ? Object.fromEntries(components.map((c, i) => [c.name!, items[i]!])) : items;
  }
  if (typeof value === 'bigint') return value.toString();
  if (type === 'address' && typeof value === 'string' && isAddress(value)) return checksumAddress(value);
  if (typeof value === 'boolean' || typeof value === 'string') return value;
  return String(value);
}

function args(params: readonly AbiParameter[], values: readonly unknown[] | Record<string, unknown> | undefined, withIndexed = false): DecodedArg[] {
  return params.map((p, i) => {
    const raw = Array.isArray(values) ? values[i] : (values as Record<string, unknown> | undefined)?.[p.name ?? String(i)] ?? (values as unknown[] | undefined)?.[i];
    const name = p.name ?? '';
    const value = jsonValue(raw, p);
    return withIndexed ? { name, type: p.type, indexed: (p as { indexed?: boolean }).indexed === true, value } : { name, type: p.type, value };
  });
}

/**
 * Parameters from data: by word when they are all static (exactly the words, each canonical, when
 * `exact`), else by viem's codec, which must then re-encode to the same bytes when `exact`.
 * Throws when the data does not fit.
 */
function decodeParams(params: readonly AbiParameter[], data: Hex, exact: boolean): readonly unknown[] {
  const fast = decodeStaticWords(params, data, exact);
  if (fast === null) throw new Error('the data does not fit the parameters');
  if (fast !== undefined) return fast;
  const values = decodeAbiParameters(params, data);
  if (exact && encodeAbiParameters(params, values).toLowerCase() !== data.toLowerCase()) throw new Error('the data does not re-encode to itself');
  return values;
}

function named(item: AbiFunction | AbiEvent | AbiError, c: Candidate<unknown>, decodedArgs: DecodedArg[]): Decoded {
  return { name: item.name, signature: signatureOf(item), args: decodedArgs, source: c.source, ...(c.contract ? { contract: c.contract } : {}) };
}

/**
 * Call data by a candidate of its selector. The index files candidates under their true selector, so
 * only the parameters are decoded here, and they must re-encode to exactly the bytes that were sent.
 */
export function decodeCallData(index: AbiIndex, input: Hex): { decoded: Decoded; item: AbiFunction } | null {
  if (byteLength(input) < 4) return null;
  const data = input.toLowerCase() as Hex;
  const body = `0x${data.slice(10)}` as Hex;
  const candidates = index.functionCandidates(data.slice(0, 10) as Hex);
  for (const c of candidates) {
    try {
      const values = decodeParams(c.item.inputs, body, true);
      return { decoded: named(c.item, c, args(c.item.inputs, values)), item: c.item };
    } catch {
      /* this candidate does not fit: try the next */
    }
  }
  // None fits exactly: the first whose canonical encoding is followed only by extra bytes (a router's
  // tracking suffix, a memo), which the function never reads. Those bytes are counted, not dropped. A
  // database signature with no parameters would "fit" any data this way: too weak to name anything.
  for (const c of candidates) {
    if (c.source === 'database' && c.item.inputs.length === 0) continue;
    try {
      const values = decodeAbiParameters(c.item.inputs, body);
      const canonical = encodeAbiParameters(c.item.inputs, values).toLowerCase();
      if (canonical.length >= body.length || !body.startsWith(canonical)) continue;
      const decoded = { ...named(c.item, c, args(c.item.inputs, values)), trailingBytes: (body.length - canonical.length) / 2 };
      return { decoded, item: c.item };
    } catch {
      /* next */
    }
  }
  // Nor that: the first whose canonical encoding is exactly the bytes sent plus the zero padding of a
  // last dynamic value that the sender left off (routers and bots send `bytes` unpadded at the end of
  // the call data; the callee reads the same values). A database signature with no dynamic parameter
  // could not need padding: none is tried.
  const short = (body.length - 2) % 64;
  if (short === 0) return null;
  const padded = `${body}${'0'.repeat(64 - short)}` as Hex;
  for (const c of candidates) {
    if (!c.item.inputs.some((p) => p.type === 'bytes' || p.type === 'string')) continue;
    try {
      const values = decodeParams(c.item.inputs, padded, true);
      return { decoded: named(c.item, c, args(c.item.inputs, values)), item: c.item };
    } catch {
      /* next */
    }
  }
  return null;
}

/** Guessed types by selector, reused while they fit (a big transaction calls the same unknown function many times). */
const guessMemo = new Map<string, AbiParameter[]>();

/**
 * Types for call data that no source names (see guessTypes), kept only when the values decoded with
 * them re-encode to exactly the same bytes. Its args carry a type and a value, no name.
 */
export function guessCallData(input: Hex): Decoded | null {
  if (input.length < 10) return null;
  const data = input.toLowerCase() as Hex;
  const selector = data.slice(0, 10) as Hex;
  const body = `0x${data.slice(10)}` as Hex;
  const known = guessMemo.get(selector);
  const again = known === undefined ? null : fitGuess(selector, known, body);
  if (again !== null) return again;
  const params = guessTypes(body);
  const guess = params === null ? null : fitGuess(selector, params, body);
  if (guess !== null && params !== null) {
    if (guessMemo.size >= 4096) guessMemo.clear();
    guessMemo.set(selector, params);
  }
  return guess;
}

function fitGuess(selector: Hex, params: readonly AbiParameter[], body: Hex): Decoded | null {
  let values: readonly unknown[];
  try {
    values = decodeParams(params, body, true);
  } catch {
    return null;
  }
  const guessedArgs: DecodedArg[] = [];
  for (let i = 0; i < params.length; i++) guessedArgs.push({ type: params[i]!.type, value: jsonValue(values[i], params[i]!) });
  return { name: null, selector, guessed: true, signature: null, args: guessedArgs, source: 'guessed' };
}

export function decodeReturn(item: AbiFunction, output: Hex): DecodedArg[] | null {
  if (item.outputs.length === 0 || byteLength(output) === 0) return null;
  try {
    return args(item.outputs, decodeParams(item.outputs, output, true));
  } catch {
    return null;
  }
}

export function decodeErrorData(index: AbiIndex, data: Hex): Decoded | null {
  if (byteLength(data) < 4) return null;
  const lower = data.toLowerCase() as Hex;
  for (const c of index.errorCandidates(lower.slice(0, 10) as Hex)) {
    try {
      const { args: values } = decodeErrorResult({ abi: [c.item], data: lower });
      if (encodeErrorResult({ abi: [c.item], errorName: c.item.name, args: (values ?? []) as unknown[] }).toLowerCase() !== lower) continue;
      return named(c.item, c, args(c.item.inputs, (values ?? []) as unknown[]));
    } catch {
      /* next */
    }
  }
  return null;
}

/** Indexed parameters of these types are stored as their hash: the topic is all there is. */
const hashedInTopic = (type: string): boolean => type === 'string' || type === 'bytes' || type.startsWith('tuple') || type.endsWith(']');

/**
 * A log by a candidate of its (topic0, indexed count) key: indexed parameters from the topics, the
 * others from the data, which must hold all of them (a candidate that runs past its end does not fit).
 */
function decodeEvent(item: AbiEvent, log: RpcLog): unknown[] {
  const topics = log.topics.slice(1);
  const plain = item.inputs.filter((p) => !p.indexed);
  const fromData = plain.length === 0 ? [] : decodeParams(plain, log.data, false);
  let t = 0;
  let d = 0;
  return item.inputs.map((p) => {
    if (!p.indexed) return fromData[d++];
    const topic = topics[t++];
    if (topic === undefined) throw new Error('fewer topics than indexed parameters');
    return hashedInTopic(p.type) ? topic : decodeParams([p], topic, false)[0];
  });
}

export function decodeLog(index: AbiIndex, log: RpcLog): Decoded | null {
  const topic0 = log.topics[0];
  if (topic0 === undefined) return null; // anonymous events stay raw
  for (const c of index.eventCandidates(topic0, log.topics.length - 1)) {
    try {
      return named(c.item, c, args(c.item.inputs, decodeEvent(c.item, log), true));
    } catch {
      /* next */
    }
  }
  return null;
}

/** Constructor arguments, when the init code is a known artifact's creation code followed by them. */
export function decodeConstructor(artifacts: readonly Artifact[], init: Hex): { artifact: Artifact; decoded: Decoded } | null {
  const lower = init.toLowerCase();
  for (const a of artifacts) {
    const code = a.bytecode?.toLowerCase();
    if (code === undefined || code.length < 10 || !lower.startsWith(code)) continue;
    const ctor = a.abi.find((i) => i.type === 'constructor') as { inputs: readonly AbiParameter[] } | undefined;
    const inputs = ctor?.inputs ?? [];
    const rest = `0x${lower.slice(code.length)}` as Hex;
    try {
      const values = inputs.length === 0 ? [] : decodeAbiParameters(inputs, rest);
      const decoded: Decoded = { name: 'constructor', signature: `constructor(${inputs.map((i) => i.type).join(',')})`, args: args(inputs, values as unknown[]), source: a.source, contract: a.name };
      return { artifact: a, decoded };
    } catch {
      /* the tail is not this constructor's arguments */
    }
  }
  return null;
}

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

const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
const TRANSFER_SINGLE = '0xc3d58168c5ae7397731d063d5bbf3d657854427343f4c083240f7aacaa2d0f62';
const TRANSFER_BATCH = '0x4a39dc06d4c0dbc64b70af90fd698a233a518aa5d07e595d983b8c0526c8f7fb';

export function tokenTransfers(logs: readonly RpcLog[]): Transfer[] {
  const out: Transfer[] = [];
  for (const log of logs) {
    const first = log.topics[0]?.toLowerCase();
    if (first !== TRANSFER && first !== TRANSFER_SINGLE && first !== TRANSFER_BATCH) continue; // most logs: no copies made
    const [t0, t1, t2, t3] = log.topics.map((t) => t.toLowerCase() as Hex);
    if (t0 === TRANSFER && log.topics.length === 3 && byteLength(log.data) === 32) {
      out.push({ kind: 'ERC-20', token: log.address, from: wordToAddress(t1!), to: wordToAddress(t2!), amount: toBig(log.data).toString() });
    } else if (t0 === TRANSFER && log.topics.length === 4 && byteLength(log.data) === 0) {
      out.push({ kind: 'ERC-721', token: log.address, from: wordToAddress(t1!), to: wordToAddress(t2!), amount: '1', tokenId: BigInt(t3!).toString() });
    } else if (t0 === TRANSFER_SINGLE && log.topics.length === 4 && byteLength(log.data) === 64) {
      out.push({ kind: 'ERC-1155', token: log.address, from: wordToAddress(t2!), to: wordToAddress(t3!), tokenId: BigInt(log.data.slice(0, 66)).toString(), amount: BigInt(`0x${log.data.slice(66)}`).toString() });
    } else if (t0 === TRANSFER_BATCH && log.topics.length === 4) {
      try {
        const [ids, values] = decodeAbiParameters([{ type: 'uint256[]' }, { type: 'uint256[]' }], log.data);
        ids.forEach((id, i) => out.push({ kind: 'ERC-1155', token: log.address, from: wordToAddress(t2!), to: wordToAddress(t3!), tokenId: id.toString(), amount: (values[i] ?? 0n).toString() }));
      } catch {
        /* malformed batch: not a transfer we can read */
      }
    }
  }
  return out;
}

/** Value that really moved: calls (not delegate/static), creates and selfdestructs outside any failed subtree. */
function nativeTransfers(root: CallNode): Transfer[] {
  const out: Transfer[] = [];
  const stack: CallNode[] = [root];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.error !== null) continue; // reverted: nothing under it moved
    const value = n.value !== null ? toBig(n.value) : 0n;
    const moves = n.type === 'suicide' || n.type === 'create' || (n.type === 'call' && (n.callType === undefined || n.callType === 'call'));
    if (value > 0n && moves && n.from !== null && n.to !== null) out.push({ kind: 'ETH', from: n.from, to: n.to, amount: value.toString() });
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
  }
  return out;
}

function revertOf(node: CallNode, index: AbiIndex, memo: DecodeMemo): { json: Record<string, unknown>; custom: Decoded | null } | null {
  const output = node.output!;
  let found = memo.reverts.get(output);
  if (found === undefined) memo.reverts.set(output, (found = revertJson(node, index)));
  return found;
}

function revertJson(node: CallNode, index: AbiIndex): { json: Record<string, unknown>; custom: Decoded | null } | null {
  if (node.error === null || node.output === null || byteLength(node.output) === 0) return null;
  // The ladder: Error and Panic first, then a custom error an ABI names, then text or raw data.
  const basic = decodeRevert(node.output);
  if (basic.kind !== 'error' && basic.kind !== 'panic') {
    const custom = decodeErrorData(index, node.output);
    if (custom !== null) return { json: { kind: 'custom', ...custom, selector: node.output.slice(0, 10), data: node.output }, custom };
  }
  return { json: revertToJson(basic), custom: null };
}

/** `known` plus the checksummed forms of `more` (lower-case addresses). */
export function withChecksums(known: ReadonlyMap<string, string>, more: Iterable<string>): Map<string, string> {
  const out = new Map(known);
  for (const a of more) if (!out.has(a) && isAddress(a)) out.set(a, checksumAddress(a));
  return out;
}

/** Checksummed forms of the addresses the views show: parties, call targets, emitters, transfer ends. */
function checksumsOf(model: InspectModel, transfers: readonly Transfer[]): Map<string, string> {
  const seen = new Set<string>();
  // Calls repeat their addresses: one the same as the last added is skipped before it is lower-cased.
  let last: string | null | undefined;
  const add = (a: string | null | undefined): void => {
    if (a && a !== last) seen.add((last = a).toLowerCase());
  };
  add(model.tx?.from);
  add(model.tx?.to);
  add(model.receipt?.contractAddress);
  for (const l of model.receipt?.logs ?? []) add(l.address);
  for (const t of transfers) [t.from, t.to, t.token].forEach(add);
  for (const a of model.state?.accounts ?? []) add(a.address);
  if (model.state?.fee?.coinbase) add(model.state.fee.coinbase);
  if (model.tree) {
    const stack: CallNode[] = [model.tree.root];
    while (stack.length > 0) {
      const n = stack.pop()!;
      add(n.from);
      add(n.to);
      for (const c of n.children) stack.push(c);
    }
  }
  const out = new Map<string, string>();
  for (const a of seen) if (isAddress(a)) out.set(a, checksumAddress(a));
  return out;
}

/**
 * What one decode pass has decoded, by the bytes decoded: a call's name and arguments depend only on its
 * input (and the candidates, fixed for the pass), its return values only on the function and the output,
 * a revert only on its data. A big transaction repeats them by the thousand: each distinct one is decoded
 * once, and the nodes share the (read-only) result. Keyed by the strings the model already holds; where
 * calls stop repeating, they stop being kept (see callLookups). (Logs are not: their key would be a new string
 * per log, topics and data joined, costing more memory than decoding them again.)
 */
class DecodeMemo {
  readonly calls = new Map<string, { decoded: Decoded; item: AbiFunction | null } | null>();
  /**
   * Calls looked up and not found. When inputs do not repeat (a loop calling one function with a new
   * argument each time), the map costs more than decoding again (~20 ms and its memory at 20,000 calls,
   * measured): after 1,024 misses that are more than half of the lookups, calls are no longer kept.
   */
  callLookups = 0;
  callMisses = 0;
  keepCalls = true;
  readonly outputs = new Map<AbiFunction, Map<string, DecodedArg[] | null>>();
  readonly reverts = new Map<string, { json: Record<string, unknown>; custom: Decoded | null } | null>();
}

/** A call's function: by a candidate, else by guessed types; once per distinct input. */
function callOf(index: AbiIndex, input: Hex, memo: DecodeMemo): { decoded: Decoded; item: AbiFunction | null } | null {
  if (memo.keepCalls) {
    memo.callLookups++;
    const known = memo.calls.get(input);
    if (known !== undefined) return known;
  }
  const call = decodeCallData(index, input);
  const guess = call === null ? guessCallData(input) : null;
  const found = call ?? (guess === null ? null : { decoded: guess, item: null });
  if (memo.keepCalls) {
    memo.calls.set(input, found);
    if (++memo.callMisses >= 1024 && memo.callMisses * 2 > memo.callLookups) {
      memo.keepCalls = false;
      memo.calls.clear();
    }
  }
  return found;
}

function returnOf(item: AbiFunction, output: Hex, memo: DecodeMemo): DecodedArg[] | null {
  let byOutput = memo.outputs.get(item);
  if (byOutput === undefined) memo.outputs.set(item, (byOutput = new Map()));
  let found = byOutput.get(output);
  if (found === undefined) byOutput.set(output, (found = decodeReturn(item, output)));
  return found;
}

/** The receipt's share of the decoding: its logs by name and the token transfers they record. */
export interface LogDecoding {
  readonly logs: readonly RpcLog[];
  readonly events: ReadonlyArray<Decoded | null>;
  readonly tokens: readonly Transfer[];
}

/** Needs only the receipt, so it can run while the trace is still on its way. */
export function decodeLogs(logs: readonly RpcLog[], index: AbiIndex): LogDecoding {
  return { logs, events: logs.map((l) => decodeLog(index, l)), tokens: tokenTransfers(logs) };
}

const inputFunction = (model: InspectModel, index: AbiIndex): Decoded | null => {
  const input = model.tx?.input;
  if (input === undefined) return null;
  // A creation's input is init code, not call data: its constructor where an artifact's creation code
  // begins it, else nothing (its first bytes are opcodes, never a selector).
  if (model.tx?.to == null) return decodeConstructor(index.artifacts, input)?.decoded ?? null;
  return decodeCallData(index, input)?.decoded ?? guessCallData(input);
};

/**
 * What the view's head shows, from the transaction and receipt alone (the model has no tree yet):
 * the input's function, the logs' events, labels and checksums. The same as decodeModel gives for
 * these, as long as no artifact can name a contract from the trace (see Decoder.namesFromTrace).
 */
export function decodeHead(model: InspectModel, index: AbiIndex, labels: ReadonlyMap<string, string>, early: LogDecoding): DecodedModel {
  const fromLogs = early.logs === model.receipt?.logs ? early : decodeLogs(model.receipt?.logs ?? [], index);
  return { function: inputFunction(model, index), events: fromLogs.events, error: null, transfers: [], labels: withSystemLabels(model, labels, index), checksums: checksumsOf(model, []) };
}

/**
 * The labels given, then the names of the chain's system contracts, then (on mainnet, or a chain that
 * does not say which it is, or a local one that may fork mainnet) the address book's: the given ones win.
 */
function withSystemLabels(model: InspectModel, given: ReadonlyMap<string, string>, index: AbiIndex): Map<string, string> {
  const labels = new Map(given);
  for (const [address, name] of Object.entries(systemLabels(familyOfModel(model)))) if (!labels.has(address)) labels.set(address, name);
  const chain = bookChain(model);
  if (chain !== null) for (const [address, entry] of index.addressBook(chain)) if (!labels.has(address)) labels.set(address, entry.name);
  return labels;
}

/**
 * Which chain's part of the address book applies: the transaction's chain; mainnet's where it names
 * none (and nothing says it is an L2) or on a local chain (which may fork mainnet); none on an L2 that
 * does not say which it is.
 */
export function bookChain(model: InspectModel): number | null {
  const chainId = chainIdOf(model.tx);
  if (chainId !== null && chainId !== 31337) return chainId;
  return familyOfModel(model) === null ? 1 : null;
}

/** The chain family the answers show, or (--state) the fee rules the diff showed. */
const familyOfModel = (model: InspectModel): FeeRules | null => familyOf(model.tx, model.receipt) ?? (model.state?.fee?.rules === 'op-stack' ? 'op-stack' : null);

/** A token's symbol and decimals from the address book, where it applies and knows both. */
export function bookToken(model: InspectModel, index: AbiIndex, token: string): { symbol: string; decimals: number } | null {
  const chain = bookChain(model);
  const e = chain === null ? undefined : index.addressBook(chain).get(token.toLowerCase());
  return e?.symbol != null && e.decimals !== null ? { symbol: e.symbol, decimals: e.decimals } : null;
}

/**
 * Decode everything in the model; call nodes are annotated in place (they are this run's own objects).
 * `early`: the logs already decoded, used when they are this model's logs.
 */
export function decodeModel(model: InspectModel, index: AbiIndex, extraLabels: ReadonlyMap<string, string>, early?: LogDecoding): DecodedModel {
  const labels = withSystemLabels(model, extraLabels, index);
  const memo = new DecodeMemo();
  let rootError: Decoded | null = null;
  const tree = model.tree;
  if (tree !== null) {
    const stack: CallNode[] = [tree.root];
    while (stack.length > 0) {
      const n = stack.pop()!;
      const node = n as CallNode & DecodedNodeFields;
      if (n.type === 'create' && n.input !== null) {
        const ctor = decodeConstructor(index.artifacts, n.input);
        if (ctor !== null) {
          node.function = ctor.decoded;
          if (n.to !== null && !labels.has(n.to.toLowerCase())) labels.set(n.to.toLowerCase(), ctor.artifact.name);
        }
      } else if (n.type === 'call' && n.input !== null && byteLength(n.input) === 0) {
        // Value with no data runs the callee's receive() (or fallback()) when it is a contract; an
        // account without code spends no gas on it. Which of the two, only the callee's ABI says.
        // geth's callTracer counts the intrinsic gas in its root frame, so there gas says nothing.
        const gasTellsCode = !(n === tree.root && rootCountsIntrinsicGas(model.traceSource));
        if (gasTellsCode && n.value !== null && toBig(n.value) > 0n && n.gasUsed !== null && toBig(n.gasUsed) > 0n) {
          const ran = valueEntry(index, n.to === null ? undefined : labels.get(n.to.toLowerCase()));
          if (ran !== null) node.function = ran;
        }
      } else if (n.type === 'call' && n.input !== null && n.to !== null && isPrecompile(n.to)) {
        // A precompile's input is not call data: decoded by its address, or left raw.
        const pre = decodePrecompile(n.to, n.input, n.error === null ? n.output : null);
        if (pre !== null) {
          node.function = pre.function;
          if (pre.outputs !== undefined) node.outputs = pre.outputs;
        }
      } else if (n.type === 'call' && n.input !== null) {
        const call = callOf(index, n.input, memo);
        if (call !== null) {
          node.function = call.decoded;
          if (call.item !== null && n.error === null && n.output !== null) {
            const outputs = returnOf(call.item, n.output, memo);
            if (outputs !== null) node.outputs = outputs;
          }
        }
      }
      const revert = n.error === null || n.output === null ? null : revertOf(n, index, memo);
      if (revert !== null) {
        node.revert = revert.json;
        if (n === tree.root) rootError = revert.custom;
      }
      for (const child of n.children) stack.push(child);
    }
  }
  // No tree (a simulation by eth_call alone): the revert data came with the failure itself.
  const revert = model.failure?.revert;
  if (tree === null && revert?.kind === 'custom') rootError = decodeErrorData(index, revert.data);
  const logs = model.receipt?.logs ?? [];
  const tx = model.tx;
  const input = tx?.input;
  const native =
    tree !== null
      ? nativeTransfers(tree.root)
      : tx && tx.value !== undefined && toBig(tx.value) > 0n && (tx.to ?? model.receipt?.contractAddress)
        ? [{ kind: 'ETH' as const, from: tx.from, to: (tx.to ?? model.receipt!.contractAddress)!, amount: toBig(tx.value).toString() }]
        : [];
  const fromLogs = early !== undefined && early.logs === logs ? early : decodeLogs(logs, index);
  const transfers = [...(model.status === 'success' ? native : []), ...fromLogs.tokens];
  // The root call's input is the transaction's input: decoded once, above, when there is a tree.
  const root = tree?.root as (CallNode & DecodedNodeFields) | undefined;
  const sameAsRoot = root !== undefined && root.type === 'call' && input !== undefined && root.input?.toLowerCase() === input.toLowerCase();
  return {
    function: sameAsRoot ? (root.function ?? null) : inputFunction(model, index),
    events: fromLogs.events,
    error: rootError,
    transfers,
    labels,
    checksums: checksumsOf(model, transfers),
  };
}
