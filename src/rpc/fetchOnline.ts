/**
 * --online: verified ABIs by address (Sourcify's v2 contract API; Etherscan's v2 API where a key is
 * set) and signatures by selector (the OpenChain-compatible lookup Sourcify runs), through the disk
 * cache. Every answer is hostile input: its size is capped, its shape checked, every name and type
 * checked before it is kept (what is kept is still escaped wherever it is shown). A service that is
 * slow, failing or rate-limited costs at most the deadline and one warning line; the lookup goes on
 * with offline names. Nothing here runs without --online.
 */
import type { AbiError, AbiEvent, AbiEventParameter, AbiFunction, AbiStateMutability } from 'abitype';
import { Interrupted } from '../errors.js';
import { escapeShort } from '../raw/escape.js';
import { isAddress, isRecord, lowerHex } from '../raw/hex.js';
import type { Hex, Json } from '../raw/types.js';
import { cacheRead, cacheWrite } from './diskCache.js';
import { deadlineSignal, eitherSignal } from './deadline.js';
import type { ProxySettings } from './proxy.js';
import { readUpTo } from './readBody.js';
import { runInOrder } from './runInOrder.js';

export interface OnlineSettings {
  readonly sourcifyUrl: URL;
  readonly signaturesUrl: URL;
  readonly etherscanUrl: URL;
  /** ETHERSCAN_API_KEY: a secret like a URL's credentials; never printed. */
  readonly etherscanKey: string | null;
  readonly cacheDir: string | null;
  /** Proxies from the environment, as the node's requests use them. */
  readonly proxy: ProxySettings;
  /** The seam every service answer passes (src/record/): given the network's GET, the GET to use. */
  readonly seam?: (network: OnlineGet) => OnlineGet;
}

/** A checked ABI item (names and types only, every one checked), in abitype's shape so that the ABI index takes it as it is. */
export type OnlineAbiItem = AbiFunction | AbiEvent | AbiError;

export interface VerifiedContract {
  readonly address: Hex;
  readonly name: string | null;
  readonly abi: readonly OnlineAbiItem[];
  readonly source: 'sourcify' | 'etherscan';
  /** Where a proxy delegates to, as the service resolved it. */
  readonly implementations: readonly Hex[];
  /** Sourcify: the compilation's source texts, its own source ids and the code's source maps (for where a failed frame stopped). */
  readonly sources?: OnlineSources;
  /** Sourcify: solc's storage layouts, as sent (an object, unchecked: the decoder checks them before any use). */
  readonly storageLayout?: Json;
  readonly transientStorageLayout?: Json;
}

/** The sources Sourcify recompiled, by path, with its ids (its own: it compiles only the target's sources). */
export interface OnlineSources {
  readonly files: Readonly<Record<string, { readonly id: number; readonly content: string }>>;
  readonly runtimeMap: string | null;
  readonly creationMap: string | null;
  readonly viaIR: boolean;
}

/** A field of a value a service sent, as `value[key]` reads it; undefined where the value is no object. */
const fieldOf = (value: unknown, key: string): unknown => (typeof value === 'object' && value !== null ? Reflect.get(value, key) : undefined);

/** The source fields of a Sourcify answer, each checked; undefined where it gave no usable map. */
function sourcesOf(doc: object, compilation: unknown): OnlineSources | undefined {
  const map = (v: unknown): string | null => {
    const m = fieldOf(v, 'sourceMap');
    return typeof m === 'string' && m !== '' ? m : null;
  };
  const runtimeMap = map(fieldOf(doc, 'runtimeBytecode'));
  const creationMap = map(fieldOf(doc, 'creationBytecode'));
  const texts = fieldOf(doc, 'sources') ?? {};
  const ids = fieldOf(doc, 'sourceIds') ?? {};
  if ((runtimeMap === null && creationMap === null) || typeof texts !== 'object' || typeof ids !== 'object' || texts === null || ids === null) return undefined;
  const files: Record<string, { id: number; content: string }> = {};
  for (const [path, v] of Object.entries(ids).slice(0, MAX_ITEMS)) {
    const id = fieldOf(v, 'id');
    const content = fieldOf(fieldOf(texts, path), 'content');
    if (typeof id === 'number' && Number.isSafeInteger(id) && id >= 0 && typeof content === 'string') files[path] = { id, content };
  }
  return { files, runtimeMap, creationMap, viaIR: fieldOf(fieldOf(compilation, 'compilerSettings'), 'viaIR') === true };
}

/** What a lookup found, for the cache: verified, or not (kept a day, then asked again). */
type Found = { readonly verified: VerifiedContract } | { readonly verified: null };

/** A verified contract keeps its ABI; "not verified", a proxy's implementation (it may change) and "no signature" are asked again after a day. */
const DAY_MS = 24 * 3600 * 1000;
const MAX_BODY = 8 * 1024 * 1024;
const MAX_ITEMS = 4000;
const MAX_NAME = 100;
const PARALLEL = 4;
const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]{0,99}$/;
const TYPE = /^(address|bool|string|bytes([1-9]|[12][0-9]|3[0-2])?|u?int(8|16|24|32|40|48|56|64|72|80|88|96|104|112|120|128|136|144|152|160|168|176|184|192|200|208|216|224|232|240|248|256)?|tuple)(\[\d{0,10}\])*$/;

function param(p: unknown, event: boolean, depth = 0): AbiEventParameter {
  if (!isRecord(p) || depth > 8) throw new Error('not a parameter');
  const r = p;
  if (typeof r.type !== 'string' || !TYPE.test(r.type)) throw new Error('not a type');
  const name = typeof r.name === 'string' && IDENT.test(r.name) ? r.name : '';
  const indexed = event ? { indexed: r.indexed === true } : {};
  if (!r.type.startsWith('tuple')) return { name, type: r.type, ...indexed };
  if (!Array.isArray(r.components) || r.components.length > 64) throw new Error('a tuple without components');
  return { name, type: r.type, components: r.components.map((c) => param(c, false, depth + 1)), ...indexed };
}

const MUTABILITIES: readonly AbiStateMutability[] = ['pure', 'view', 'nonpayable', 'payable'];
/** The function's mutability as said (older compilers say `constant` and `payable`); unsaid, nonpayable (txray shows none of it). */
function mutabilityOf(r: Record<string, unknown>): AbiStateMutability {
  const said = MUTABILITIES.find((m) => m === r.stateMutability);
  if (said !== undefined) return said;
  return r.constant === true ? 'view' : r.payable === true ? 'payable' : 'nonpayable';
}

/** One function, event or error item, checked; null where it is none of them (or anonymous: no topic0 names it). */
function abiItem(r: Record<string, unknown>): OnlineAbiItem | null {
  if (typeof r.name !== 'string' || !IDENT.test(r.name)) return null;
  const name = r.name;
  const inputs = (list: unknown, event: boolean) => (Array.isArray(list) ? list : []).map((p) => param(p, event));
  if (r.type === 'function') return { type: 'function', name, inputs: inputs(r.inputs, false), outputs: inputs(r.outputs, false), stateMutability: mutabilityOf(r) };
  if (r.type === 'event') return r.anonymous === true ? null : { type: 'event', name, inputs: inputs(r.inputs, true) };
  if (r.type === 'error') return { type: 'error', name, inputs: inputs(r.inputs, false) };
  return null;
}

/** The function, event and error items of an ABI an answer holds, each checked; the rest left out. */
export function checkedAbi(abi: unknown): OnlineAbiItem[] {
  if (!Array.isArray(abi)) return [];
  const out: OnlineAbiItem[] = [];
  for (const x of abi.slice(0, MAX_ITEMS)) {
    // An array is no item either (it names nothing).
    if (!isRecord(x)) continue;
    try {
      const item = abiItem(x);
      if (item !== null) out.push(item);
    } catch {
      /* one malformed item: the others still count */
    }
  }
  return out;
}

const contractName = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim().slice(0, MAX_NAME) : null);

/** Where a service failed, for its one warning line. */
class ServiceTrouble {
  readonly why = new Set<string>();
  add(why: string): void {
    this.why.add(why);
  }
}

/** One GET of a service: its status, its body as JSON (null where it is not), its Retry-After. */
export type OnlineGet = (url: URL, signal: AbortSignal) => Promise<{ readonly status: number; readonly json: unknown; readonly retryAfterMs: number | null }>;
type Get = OnlineGet;

/** What every request of one lookup shares: the client, the services, the chain and the deadline. */
interface Ask {
  readonly get: Get;
  readonly s: OnlineSettings;
  readonly chainId: number;
  readonly signal: AbortSignal;
  readonly deadlineAt: number;
}

/** GET a JSON document, its body capped; undici (keep-alive per origin), loaded only with --online. */
async function makeGet(proxy: ProxySettings, timeoutMs: number): Promise<{ get: Get; close: () => Promise<void> }> {
  const transport = await (await import('./httpTransport.js')).createHttpTransport(PARALLEL, proxy, timeoutMs);
  const get: Get = async (url, signal) => {
    const res = await transport.request(url, { method: 'GET', headers: { accept: 'application/json' }, signal });
    const text = (
      await readUpTo(res.body, MAX_BODY, () => {
        res.body.destroy();
        throw new Error(`an answer larger than ${MAX_BODY / (1024 * 1024)} MiB`);
      })
    ).toString('utf8');
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {
      /* not JSON: the status says the rest */
    }
    const after = res.headers['retry-after'];
    const seconds = typeof after === 'string' && /^\d{1,6}$/.test(after) ? Number(after) * 1000 : null;
    return { status: res.status, json, retryAfterMs: seconds };
  };
  return { get, close: () => transport.close() };
}

/** GET with one retry after a 429 whose Retry-After fits the deadline. */
async function getOnce(a: Ask, url: URL, trouble: ServiceTrouble): Promise<{ status: number; json: unknown } | null> {
  for (let attempt = 0; attempt < 2; attempt++) {
    let r: Awaited<ReturnType<Get>>;
    try {
      r = await a.get(url, a.signal);
    } catch (err) {
      if (a.signal.aborted) trouble.add('no answer in time');
      else trouble.add(escapeShort(err instanceof Error ? err.message : String(err), 80));
      return null;
    }
    if (r.status === 429) {
      const wait = r.retryAfterMs ?? 1000;
      if (attempt === 0 && Date.now() + wait < a.deadlineAt) {
        await new Promise((resolve) => setTimeout(resolve, wait));
        continue;
      }
      trouble.add('rate-limited (HTTP 429)');
      return null;
    }
    if (r.status >= 500) {
      trouble.add(`HTTP ${r.status}`);
      return null;
    }
    return { status: r.status, json: r.json };
  }
  return null;
}

/** Sourcify v2: a verified contract, null when it has none (404), undefined when it could not tell. */
async function fromSourcify(a: Ask, address: Hex, trouble: ServiceTrouble): Promise<VerifiedContract | null | undefined> {
  const url = new URL(`${a.s.sourcifyUrl.pathname.replace(/\/$/, '')}/v2/contract/${a.chainId}/${address}`, a.s.sourcifyUrl);
  url.searchParams.set('fields', 'abi,compilation,proxyResolution,sources,sourceIds,runtimeBytecode.sourceMap,creationBytecode.sourceMap,storageLayout,transientStorageLayout');
  const r = await getOnce(a, url, trouble);
  if (r === null) return undefined;
  if (r.status === 404) return null;
  const doc = r.json;
  if (r.status !== 200 || typeof doc !== 'object' || doc === null) {
    trouble.add(`HTTP ${r.status}`);
    return undefined;
  }
  const compilation = fieldOf(doc, 'compilation');
  const listed = fieldOf(fieldOf(doc, 'proxyResolution'), 'implementations');
  const implementations = Array.isArray(listed) ? listed.map((i) => fieldOf(i, 'address')).filter(isAddress).slice(0, 4) : [];
  const sources = sourcesOf(doc, compilation);
  const layout = (k: string): Json | undefined => {
    const l = fieldOf(doc, k);
    return isRecord(l) ? l : undefined;
  };
  const [storageLayout, transientStorageLayout] = [layout('storageLayout'), layout('transientStorageLayout')];
  const layouts = { ...(storageLayout === undefined ? {} : { storageLayout }), ...(transientStorageLayout === undefined ? {} : { transientStorageLayout }) };
  return { address, name: contractName(fieldOf(compilation, 'name')), abi: checkedAbi(fieldOf(doc, 'abi')), source: 'sourcify', implementations: implementations.map(lowerHex), ...(sources === undefined ? {} : { sources }), ...layouts };
}

/** Etherscan v2 getsourcecode: a verified contract, null when not verified, undefined when it could not tell. */
async function fromEtherscan(a: Ask, address: Hex, trouble: ServiceTrouble): Promise<VerifiedContract | null | undefined> {
  const url = new URL(a.s.etherscanUrl.href);
  for (const [k, v] of [['chainid', String(a.chainId)], ['module', 'contract'], ['action', 'getsourcecode'], ['address', address], ['apikey', a.s.etherscanKey!]] as const) url.searchParams.set(k, v);
  const r = await getOnce(a, url, trouble);
  if (r === null) return undefined;
  const doc = r.json;
  if (r.status !== 200 || typeof doc !== 'object' || doc === null) {
    trouble.add(`HTTP ${r.status}`);
    return undefined;
  }
  const result = fieldOf(doc, 'result');
  if (fieldOf(doc, 'status') !== '1' || !Array.isArray(result)) {
    // "Max rate limit reached", "Invalid API Key": said in its own words (never with the key).
    trouble.add(escapeShort(typeof result === 'string' ? result : String(fieldOf(doc, 'message') ?? 'an error'), 80));
    return undefined;
  }
  const row: unknown = result[0];
  const written = fieldOf(row, 'ABI');
  if (typeof written !== 'string' || !written.trim().startsWith('[')) return null; // "Contract source code not verified"
  let abi: unknown;
  try {
    abi = JSON.parse(written);
  } catch {
    return null;
  }
  const named = fieldOf(row, 'Implementation');
  const implementation = fieldOf(row, 'Proxy') === '1' && isAddress(named) ? [lowerHex(named)] : [];
  return { address, name: contractName(fieldOf(row, 'ContractName')), abi: checkedAbi(abi), source: 'etherscan', implementations: implementation };
}

export interface OnlineFound {
  readonly contracts: VerifiedContract[];
  /** Signatures by selector or topic0 (0x-prefixed, lower case), as the service gave them: verified by the caller. */
  readonly signatures: { readonly function: Map<string, string[]>; readonly event: Map<string, string[]> };
  readonly warnings: string[];
  /** How many requests went out (0 when the cache answered everything). */
  readonly requests: number;
}

/** The services' troubles, one each, for their warning lines. */
interface Troubles {
  readonly sourcify: ServiceTrouble;
  readonly etherscan: ServiceTrouble;
  readonly signatures: ServiceTrouble;
}

export interface OnlineLookup {
  readonly settings: OnlineSettings;
  readonly chainId: number;
  readonly addresses: readonly Hex[];
  /** The selectors and topics still unnamed once `contracts` are known: asked of the signature service. */
  readonly unknown: (contracts: readonly VerifiedContract[]) => { readonly function: readonly string[]; readonly event: readonly string[] };
  /** More addresses to look up once the first ones are known (a proxy's implementation read from the node). */
  readonly more?: (contracts: readonly VerifiedContract[]) => Promise<readonly Hex[]>;
  readonly timeoutMs: number;
  readonly interrupt?: AbortSignal;
}

/**
 * Verified contracts for `addresses` (and the implementations their proxies resolve to), then
 * signatures for the selectors and topics `unknown` returns once those are known, all within `timeoutMs`.
 */
export async function fetchOnline(o: OnlineLookup): Promise<OnlineFound> {
  const s = o.settings;
  const deadlineAt = Date.now() + o.timeoutMs;
  const linked = eitherSignal(deadlineSignal(o.timeoutMs), o.interrupt);
  const http = lazyHttp(s.proxy, o.timeoutMs, s.seam);
  const a: Ask = { get: http.get, s, chainId: o.chainId, signal: linked.signal, deadlineAt };
  const trouble: Troubles = { sourcify: new ServiceTrouble(), etherscan: new ServiceTrouble(), signatures: new ServiceTrouble() };
  try {
    const contracts = await verifiedContracts(a, o, trouble);
    const signatures = await lookUpSignatures(a, o.unknown(contracts), trouble.signatures);
    return { contracts, signatures, warnings: warningsOf(s, trouble), requests: http.requests() };
  } catch (err) {
    if (o.interrupt?.aborted) throw new Interrupted('interrupted');
    throw err;
  } finally {
    linked.release();
    await http.close();
  }
}

/** The HTTP client, made by the first request (the ones that start beside it wait for the same one), and the requests counted. */
function lazyHttp(proxy: ProxySettings, timeoutMs: number, seam?: (network: Get) => Get): { get: Get; requests: () => number; close: () => Promise<void> } {
  let http: ReturnType<typeof makeGet> | null = null;
  let requests = 0;
  const network: Get = async (url, signal) => {
    http ??= makeGet(proxy, timeoutMs);
    return (await http).get(url, signal);
  };
  const get = seam === undefined ? network : seam(network);
  return {
    get: (url, signal) => {
      requests++;
      return get(url, signal);
    },
    requests: () => requests,
    // A client that could not be made has nothing to close (its failure was already said).
    close: async () => void (await (await http?.catch(() => null))?.close()),
  };
}

/** The addresses' verified contracts (in the addresses' order), then their proxies' implementations', then those `more` names. */
async function verifiedContracts(a: Ask, o: OnlineLookup, trouble: Troubles): Promise<VerifiedContract[]> {
  const contracts: VerifiedContract[] = [];
  const seen = new Set<string>();
  const rounds = async (first: readonly Hex[]): Promise<void> => {
    let round = [...new Set(first.map(lowerHex))].filter((x) => !seen.has(x));
    for (let depth = 0; depth < 2 && round.length > 0; depth++) {
      for (const x of round) seen.add(x);
      const asked = round;
      const found = (await runInOrder(asked.length, PARALLEL, (i) => lookUpContract(a, asked[i]!, trouble))).filter((c) => c !== null);
      contracts.push(...found);
      // A proxy's implementations: their ABIs name the calls to it.
      round = [...new Set(found.flatMap((c) => c.implementations))].filter((x) => !seen.has(x));
    }
  };
  await rounds(o.addresses);
  if (o.more !== undefined && !a.signal.aborted) await rounds(await o.more(contracts));
  return contracts;
}

/** One address's verified contract, from the cache or the services (cached); null when none is known. */
async function lookUpContract(a: Ask, address: Hex, trouble: Troubles): Promise<VerifiedContract | null> {
  // v3: the answers since the storage layouts were asked (older ones lack them, and the source fields before v2).
  const key = `contracts-v3/${a.chainId}/${address}.json`;
  const cached = cacheRead<Found>(a.s.cacheDir, key, (f) => (f.verified === null || f.verified.implementations.length > 0 ? DAY_MS : null));
  // A cached ABI is checked again as a service's answer is: an older txray wrote some in another shape.
  if (cached !== undefined) return cached.verified === null ? null : { ...cached.verified, abi: checkedAbi(cached.verified.abi) };
  const fromS = await fromSourcify(a, address, trouble.sourcify);
  const fromE = fromS == null && a.s.etherscanKey !== null ? await fromEtherscan(a, address, trouble.etherscan) : null;
  // Not verified only when every service asked said so; where one could not tell, nothing is cached.
  const v = fromS ?? fromE ?? (fromS === undefined || fromE === undefined ? undefined : null);
  if (v === undefined) return null;
  const found: Found = { verified: v };
  cacheWrite(a.s.cacheDir, key, found);
  return v;
}

type Signatures = OnlineFound['signatures'];

/** Signatures for the wanted selectors and topics: from the cache, the rest in one request (cached). */
async function lookUpSignatures(a: Ask, wanted: { readonly function: readonly string[]; readonly event: readonly string[] }, trouble: ServiceTrouble): Promise<Signatures> {
  const sigs = { function: new Map<string, string[]>(), event: new Map<string, string[]>() };
  const ask: Record<'function' | 'event', string[]> = { function: [], event: [] };
  for (const kind of ['function', 'event'] as const) {
    for (const key of [...new Set(wanted[kind])].slice(0, 200)) {
      const cached = cacheRead<string[]>(a.s.cacheDir, `signatures/${kind}/${key}.json`, (names) => (names.length === 0 ? DAY_MS : null));
      if (cached !== undefined) sigs[kind].set(key, cached);
      else ask[kind].push(key);
    }
  }
  if (ask.function.length + ask.event.length === 0 || a.signal.aborted) return sigs;
  // One request for every selector and topic still unknown.
  const url = new URL(`${a.s.signaturesUrl.pathname.replace(/\/$/, '')}/signature-database/v1/lookup`, a.s.signaturesUrl);
  if (ask.function.length > 0) url.searchParams.set('function', ask.function.join(','));
  if (ask.event.length > 0) url.searchParams.set('event', ask.event.join(','));
  const r = await getOnce(a, url, trouble);
  const result = fieldOf(r?.json, 'result');
  if (r !== null && r !== undefined && (r.status !== 200 || fieldOf(r.json, 'ok') !== true || typeof result !== 'object' || result === null)) trouble.add(`HTTP ${r.status}`);
  else if (result) {
    for (const kind of ['function', 'event'] as const) {
      for (const key of ask[kind]) {
        const list = fieldOf(fieldOf(result, kind), key);
        const names = Array.isArray(list) ? list.map((x) => fieldOf(x, 'name')).filter((n): n is string => typeof n === 'string' && n.length <= 1000).slice(0, 8) : [];
        sigs[kind].set(key, names);
        cacheWrite(a.s.cacheDir, `signatures/${kind}/${key}.json`, names);
      }
    }
  }
  return sigs;
}

/** One line per service that did not answer every lookup. */
function warningsOf(s: OnlineSettings, trouble: Troubles): string[] {
  const warnings: string[] = [];
  const say = (what: string, where: URL, t: ServiceTrouble): void => {
    if (t.why.size === 0) return;
    const line = `--online: ${what} (${where.origin}) did not answer every lookup (${[...t.why].slice(0, 3).join('; ')}); offline names are used there.`;
    // The API key is a secret: whatever a service or a library said, it is never shown.
    warnings.push(s.etherscanKey ? line.replaceAll(s.etherscanKey, '…') : line);
  };
  say('Sourcify', s.sourcifyUrl, trouble.sourcify);
  say('Etherscan', new URL(s.etherscanUrl.origin), trouble.etherscan);
  say('the signature database', s.signaturesUrl, trouble.signatures);
  return warnings;
}
