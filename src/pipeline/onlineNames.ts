/**
 * --online: what the offline sources do not name, from verified sources. The contracts a transaction
 * called or heard from are looked up (Sourcify, else Etherscan with a key); their ABIs join the input's
 * overlay of the decoder's index (after the offline ABIs, before the signature database; no other input
 * sees them) and their names become labels (after the user's and the artifacts'). Then the selectors
 * and topics nothing names are asked of the signature service in one request, and a signature is kept
 * only if it hashes to its selector or topic.
 */
import type { Decoder } from '../decode/createDecoder.js';
import { checksumAddress, keccakHex } from '../decode/keccak.js';
import { parseStorageLayout, type VerifiedLayout, type VerifiedLayouts } from '../decode/nameStorage.js';
import { inlineDebug } from '../decode/loadDebug.js';
import type { DebugSource } from '../locate/sourceMap.js';
import { EIP1967_IMPLEMENTATION } from '../model/accountCode.js';
import { walkCalls } from '../model/walk.js';
import type { CallNode, InspectModel } from '../model/types.js';
import { isAddress, isQuantity } from '../raw/hex.js';
import type { Hex } from '../raw/types.js';
import type { RpcClient } from '../rpc/createRpcClient.js';
import { fetchOnline, type OnlineSettings, type VerifiedContract } from '../rpc/fetchOnline.js';
import { Interrupted } from '../errors.js';
import { blockOf } from './blockOf.js';
import { deadlineSignal } from '../rpc/deadline.js';

/** At most this many contracts are looked up per transaction. */
const MAX_ONLINE_CONTRACTS = 32;

/** The calls of the model's tree in the order they ran (none without a tree). */
function nodes(model: InspectModel): CallNode[] {
  const out: CallNode[] = [];
  if (model.tree) walkCalls(model.tree.root, (n) => void out.push(n));
  return out;
}

/** The contracts worth asking about: the recipient, the targets of calls with call data, the emitters of logs. */
function contractsOf(model: InspectModel): Hex[] {
  const out = new Set<Hex>();
  const add = (a: string | null | undefined): void => {
    if (a && isAddress(a) && out.size < MAX_ONLINE_CONTRACTS) out.add(lower(a));
  };
  add(model.tx?.to);
  add(model.receipt?.contractAddress);
  for (const n of nodes(model)) if (n.type === 'call' && n.input !== null && n.input.length >= 10) add(n.to);
  for (const l of model.receipt?.logs ?? []) add(l.address);
  return [...out];
}

const lower = (h: Hex): Hex => `0x${h.slice(2).toLowerCase()}`;

const selectorOf = (input: string | null | undefined): Hex | null => (input && /^0x[0-9a-fA-F]{8}/.test(input) ? `0x${input.slice(2, 10).toLowerCase()}` : null);

/** The selectors of the transaction's input (not a creation's init code) and of every call in the tree. */
function callSelectors(model: InspectModel): Set<Hex> {
  const out = new Set<Hex>();
  const sel = selectorOf(model.tx?.to == null ? null : model.tx.input);
  if (sel !== null) out.add(sel);
  for (const n of nodes(model)) {
    const s = n.type === 'call' ? selectorOf(n.input) : null;
    if (s !== null) out.add(s);
  }
  return out;
}

const BEACON_SLOT = '0xa3f0ad74e5423aebfd80d3ef4346578335a9a72aeaee59ff6cb3582b35133d50';
const IMPLEMENTATION_CALL = '0x5c60da1b'; // implementation()

/**
 * Proxies no service may resolve: contracts called with a selector nothing names, whose implementation
 * the trace does not show (no delegatecall of the same input under the call). Their EIP-1967
 * implementation slot, and a beacon's implementation(), are read at the transaction's block: only
 * there, and in two batch requests at most. Best effort: a node that will not say gives no names.
 */
async function proxySlots(client: RpcClient, model: InspectModel, addresses: readonly Hex[], unnamed: readonly string[], timeoutMs: number): Promise<Hex[]> {
  const unknownSelectors = new Set(unnamed);
  const shown = new Set<string>();
  const candidates = new Set<Hex>();
  const consider = (to: string | null | undefined, input: string | null | undefined, children: readonly CallNode[]): void => {
    const sel = selectorOf(input);
    if (!to || sel === null || !unknownSelectors.has(sel)) return;
    if (children.some((c) => c.callType === 'delegatecall' && c.input?.toLowerCase() === input?.toLowerCase())) shown.add(to.toLowerCase());
    else if (isAddress(to)) candidates.add(lower(to));
  };
  if (model.tree === null) consider(model.tx?.to, model.tx?.input, []);
  for (const n of nodes(model)) if (n.type === 'call') consider(n.to, n.input, n.children);
  const asked = [...candidates].filter((a) => !shown.has(a) && addresses.includes(a)).slice(0, 8);
  if (asked.length === 0) return [];
  const block = blockOf(model);
  const deadline = deadlineSignal(timeoutMs);
  const word = (v: unknown): Hex | null => (isQuantity(v) && BigInt(v) !== 0n && BigInt(v) < 1n << 160n ? `0x${BigInt(v).toString(16).padStart(40, '0')}` : null);
  try {
    const answers = await client.batch(asked.flatMap((a) => [{ method: 'eth_getStorageAt', params: [a, EIP1967_IMPLEMENTATION, block] }, { method: 'eth_getStorageAt', params: [a, BEACON_SLOT, block] }]), deadline);
    const out: Hex[] = [];
    const beacons: Hex[] = [];
    asked.forEach((_a, i) => {
      const [a, b] = [answers[2 * i], answers[2 * i + 1]];
      const impl = word(a !== undefined && 'result' in a ? a.result : null);
      const beacon = word(b !== undefined && 'result' in b ? b.result : null);
      if (impl !== null) out.push(impl);
      else if (beacon !== null) beacons.push(beacon);
    });
    if (beacons.length > 0) {
      const fromBeacons = await client.batch(beacons.map((b) => ({ method: 'eth_call', params: [{ to: b, data: IMPLEMENTATION_CALL }, block] })), deadline);
      for (const a of fromBeacons) {
        const impl = 'result' in a && typeof a.result === 'string' && a.result.length === 66 ? word(a.result) : null;
        if (impl !== null) out.push(impl);
      }
    }
    return out;
  } catch (err) {
    if (err instanceof Interrupted) throw err;
    return [];
  }
}

export interface OnlineNames {
  readonly labels: Map<string, string>;
  readonly warnings: string[];
  /** Whether anything joined the index (then earlier decoding must be done again). */
  readonly added: boolean;
  readonly requests: number;
  /** The verified contracts' source maps and files, by address (where the service gave them). */
  readonly debug: ReadonlyMap<string, DebugSource>;
  /** The verified contracts' storage layouts, by address: each checked, a malformed one left out. */
  readonly layouts: VerifiedLayouts;
}

/** The storage layouts of the verified contracts, checked; a contract without a usable one is not listed. */
function layoutsOf(contracts: Iterable<VerifiedContract>): Map<string, VerifiedLayout> {
  const out = new Map<string, VerifiedLayout>();
  for (const c of contracts) {
    const storage = c.storageLayout === undefined ? undefined : parseStorageLayout(c.storageLayout);
    const transient = c.transientStorageLayout === undefined ? undefined : parseStorageLayout(c.transientStorageLayout);
    if (storage === undefined && transient === undefined) continue;
    out.set(c.address.toLowerCase(), { contract: c.name ?? checksumAddress(c.address), ...(storage === undefined ? {} : { storage }), ...(transient === undefined ? {} : { transient }) });
  }
  return out;
}

export async function onlineNames(client: RpcClient, decoder: Decoder, model: InspectModel, s: OnlineSettings, timeoutMs: number, interrupt?: AbortSignal): Promise<OnlineNames> {
  const labels = new Map<string, string>();
  const none = (warnings: string[] = []): OnlineNames => ({ labels, warnings, added: false, requests: 0, debug: new Map(), layouts: new Map() });
  const addresses = contractsOf(model);
  const index = decoder.index;
  // The selectors and topics nothing names yet (asked after the verified ABIs joined the index).
  const unknown = (): { function: string[]; event: string[] } => {
    const fns = callSelectors(model);
    for (const n of nodes(model)) {
      const revert = n.error !== null ? selectorOf(n.output) : null;
      if (revert !== null && revert !== '0x08c379a0' && revert !== '0x4e487b71') fns.add(revert);
    }
    const events = new Set<Hex>();
    for (const l of model.receipt?.logs ?? []) {
      const topic = l.topics[0];
      const t = topic === undefined ? undefined : lower(topic);
      if (t !== undefined && index.eventCandidates(t, l.topics.length - 1).length === 0) events.add(t);
    }
    return { function: [...fns].filter((f) => index.functionCandidates(f).length === 0 && index.errorCandidates(f).length === 0), event: [...events] };
  };
  if (addresses.length === 0) {
    const nothing = unknown();
    if (nothing.function.length === 0 && nothing.event.length === 0) return none();
  }
  let chainId: number;
  try {
    chainId = Number(BigInt(String(model.tx?.chainId ?? (await client.call('eth_chainId', [], deadlineSignal(timeoutMs))))));
  } catch (err) {
    if (err instanceof Interrupted) throw err;
    return none(['--online: the node did not say its chain id, so no verified ABIs were looked up.']);
  }
  let added = false;
  const taken = new Set<VerifiedContract>();
  const take = (contracts: readonly VerifiedContract[]): void => {
    for (const c of contracts) {
      if (taken.has(c)) continue;
      taken.add(c);
      index.add(c.abi, c.source, c.name ?? undefined);
      if (c.name !== null) labels.set(c.address, c.name);
      added ||= c.abi.length > 0;
    }
  };
  // After the services answered: calls still named by no ABI (at most by the database, which has no
  // parameter names), to contracts no service verified, may be a proxy's: its slots say where to look.
  const proxies = async (contracts: readonly VerifiedContract[]): Promise<Hex[]> => {
    take(contracts);
    const verified = new Set(contracts.map((c) => c.address));
    const weak = [...callSelectors(model)].filter((sel) => index.functionCandidates(sel).every((c) => c.source === 'database'));
    return proxySlots(client, model, addresses.filter((a) => !verified.has(a)), weak, timeoutMs);
  };
  const unnamed = (contracts: readonly VerifiedContract[]): ReturnType<typeof unknown> => {
    take(contracts);
    return unknown();
  };
  const found = await fetchOnline({ settings: s, chainId, addresses, unknown: unnamed, more: proxies, timeoutMs, interrupt });
  // Never a name that does not hash to what it names.
  for (const [key, sigs] of found.signatures.function) {
    const good = sigs.filter((sig) => `0x${keccakHex(sig).slice(0, 8)}` === key);
    if (good.length > 0) {
      index.addSignatures('functions', key, good);
      added = true;
    }
  }
  for (const [key, sigs] of found.signatures.event) {
    const good = sigs.filter((sig) => `0x${keccakHex(sig)}` === key);
    if (good.length > 0) {
      index.addSignatures('events', key, good);
      added = true;
    }
  }
  const debug = new Map<string, DebugSource>();
  for (const c of taken) if (c.sources !== undefined) debug.set(c.address.toLowerCase(), inlineDebug(c.sources.files, c.sources.runtimeMap, c.sources.creationMap, c.sources.viaIR));
  return { labels, warnings: found.warnings, added, requests: found.requests, debug, layouts: layoutsOf(taken) };
}
