/**
 * Every ABI item txray knows, keyed the way chain data names them: functions and errors by 4-byte
 * selector, events by (topic0, number of indexed topics). Candidates keep their source's priority
 * (--abi, then the project's artifacts, then the built-in ABIs, then the protocol set extracted from
 * published protocol packages, then the signature database) and all collisions are kept: the decoder
 * takes the first candidate that decodes cleanly.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Abi, AbiError, AbiEvent, AbiFunction, AbiParameter } from 'abitype';
import { parseAbi, parseAbiItem } from 'viem';
import { keccakHex } from './keccak.js';
import type { Hex } from '../raw/types.js';
import type { StorageLayout } from './nameStorage.js';
import type { DebugSource } from '../locate/sourceMap.js';
import { WELL_KNOWN } from './wellKnown.js';
import { AddressBook } from './addressBook.js';
import type { NameSource } from '../model/types.js';

export interface Candidate<T> {
  readonly item: T;
  readonly source: NameSource;
  /** Contract or standard the item came from ("Token", "ERC-20", "IUniswapV2Router02"); absent for the database. */
  readonly contract?: string;
}

/** A compiled contract: its ABI and, when the artifact has them, its creation and runtime code. */
export interface Artifact {
  readonly name: string;
  readonly abi: Abi;
  readonly source: NameSource;
  readonly bytecode?: Hex;
  readonly deployedBytecode?: Hex;
  /**
   * Byte ranges of the runtime code that each deployment fills in (immutables, linked libraries' and a
   * library's own address), [start, length]: compared as wildcards when code is matched to the artifact.
   */
  readonly runtimeMasks?: ReadonlyArray<readonly [number, number]>;
  /** solc's storageLayout, when the artifact carries it (Foundry: extra_output = ["storageLayout"]). */
  readonly storageLayout?: StorageLayout;
  /** solc's transientStorageLayout (0.8.27 on): its transient state variables; transient slots are named only from it. */
  readonly transientStorageLayout?: StorageLayout;
  /** Its source maps and source files, where its layout has them (read when a failed frame runs its code). */
  readonly debug?: DebugSource;
  /** Read from an --override-code file: it describes the code a re-run put there, not the mined code. */
  readonly override?: true;
  /** A Foundry project's artifact: its file from the project's folder (out/Vault.sol/Vault.json). */
  readonly file?: string;
}

const indexedCount = (e: AbiEvent): number => e.inputs.filter((i) => i.indexed).length;
const eventKey = (topic0: string, indexed: number): string => `${topic0.toLowerCase()}:${indexed}`;

/** Cap on the parameter placements tried for a database event (its indexed flags are unknown). */
const MAX_PLACEMENTS = 64;

/** Every way to mark `k` of the event's parameters indexed, leftmost first (the usual layout). */
function placements(sig: string, k: number): AbiEvent[] {
  const base = parseAbiItem(`event ${sig}`);
  if (base.type !== 'event') return [];
  const n = base.inputs.length;
  if (k > n) return [];
  const out: AbiEvent[] = [];
  const choose = (start: number, picked: number[]): void => {
    if (out.length >= MAX_PLACEMENTS) return;
    if (picked.length === k) {
      out.push({ ...base, inputs: base.inputs.map((p, i) => ({ ...p, indexed: picked.includes(i) })) });
      return;
    }
    for (let i = start; i < n; i++) choose(i + 1, [...picked, i]);
  };
  choose(0, []);
  return out;
}

/** The item type kept under each kind of key. */
interface Items {
  readonly functions: AbiFunction;
  readonly errors: AbiError;
  readonly events: AbiEvent;
}

/**
 * What one layer of the index adds: ABI items by key, the signatures --online checked, and the
 * candidate lists made from them (a memo is only valid for the layer whose additions it saw).
 */
class Layer {
  readonly items: { readonly [K in keyof Items]: Map<string, Array<Candidate<Items[K]>>> } = { functions: new Map(), errors: new Map(), events: new Map() };
  /** --online: signatures the signature service gave for a selector or topic0 (0x…), checked by the caller against it. */
  readonly signatures = { functions: new Map<string, string[]>(), events: new Map<string, string[]>() };
  // Candidate lists by selector or event key: a 20,000-call transaction asks for the same few keys thousands of times.
  readonly functionMemo = new Map<string, Array<Candidate<AbiFunction>>>();
  readonly eventMemo = new Map<string, Array<Candidate<AbiEvent>>>();
  empty = true;

  changed(): void {
    this.empty = false;
    this.functionMemo.clear();
    this.eventMemo.clear();
  }
}

export class AbiIndex {
  /** What this index adds over its base (everything, for an index without one). */
  private readonly own = new Layer();
  /** Shard texts by file, each with a leading newline so every line starts with "\n<key> ". */
  private readonly shards: Map<string, string>;
  private readonly books: Map<number, AddressBook>;
  private readonly dbPath: string | null;
  /** Once an overlay reads this index, adding to it would change what every overlay decodes. */
  private sealed = false;
  readonly artifacts: Artifact[];

  /**
   * @param dbDir the folder of the sharded signature database (functions/XX.txt, events/XX.txt), or null
   * @param base an index read through (see overlay)
   */
  constructor(
    private readonly dbDir: URL | null,
    private readonly base: AbiIndex | null = null,
  ) {
    this.dbPath = dbDir === null ? null : fileURLToPath(dbDir);
    // The files read are the same for every layer: their texts are shared.
    this.shards = base?.shards ?? new Map();
    this.books = base?.books ?? new Map();
    this.artifacts = base === null ? [] : [...base.artifacts];
  }

  /**
   * An index for one input: it reads this one, and what is added to it (--online's verified ABIs and
   * signatures) only it sees, so that inputs inspected at the same time never decode by each other's
   * lookups. This index can no longer be added to.
   */
  overlay(): AbiIndex {
    this.sealed = true;
    return new AbiIndex(this.dbDir, this);
  }

  add(abi: Abi, source: NameSource, contract?: string): void {
    for (const [, key, item] of keyed(abi)) this.addKeyed(key, item, source, contract);
  }

  private addKeyed(key: string, item: AbiFunction | AbiError | AbiEvent, source: NameSource, contract?: string): void {
    this.changing();
    if (item.type === 'function') push(this.own.items.functions, key, { item, source, contract });
    else if (item.type === 'error') push(this.own.items.errors, key, { item, source, contract });
    else push(this.own.items.events, key, { item, source, contract });
  }

  private changing(): void {
    if (this.sealed) throw new Error('the ABI index is shared by the inputs now: add to an input\'s overlay');
    this.own.changed();
  }

  /** The items under a key: the base's, then this layer's (so an input's own come after the offline ABIs). */
  private known<K extends keyof Items>(kind: K, key: string): Array<Candidate<Items[K]>> {
    const own = this.own.items[kind].get(key) ?? [];
    if (this.base === null) return own;
    const under = this.base.known(kind, key);
    return own.length === 0 ? under : [...under, ...own];
  }

  /** --online's signatures for a key: this layer's, else the base's. */
  private onlineSignatures(kind: 'functions' | 'events', key: string): readonly string[] {
    return this.own.signatures[kind].get(key) ?? this.base?.onlineSignatures(kind, key) ?? [];
  }

  addArtifact(a: Artifact): void {
    this.artifacts.push(a);
    this.add(a.abi, a.source, a.name);
  }

  /**
   * The built-in ABIs. The build writes them already parsed and keyed (builtin.json beside the
   * database), which saves parsing ~250 signatures and hashing their selectors at every start; without
   * that file they are parsed here.
   */
  addBuiltins(): void {
    if (this.dbDir !== null) {
      try {
        const rows = JSON.parse(readFileSync(new URL('builtin.json', this.dbDir), 'utf8')) as BuiltinRow[];
        for (const [, key, contract, item] of rows) this.addKeyed(key, item, 'builtin', contract);
        return;
      } catch {
        /* not built: parse below */
      }
    }
    for (const [, key, contract, item] of builtinRows()) this.addKeyed(key, item, 'builtin', contract);
  }

  /** A shard's text with a leading newline (empty when the build shipped no such file); read once. */
  private shard(file: string): string {
    let text = this.shards.get(file);
    if (text === undefined) {
      text = '\n';
      if (this.dbPath !== null) {
        try {
          text += readFileSync(join(this.dbPath, file), 'utf8');
        } catch {
          /* no database shipped (a build without it): nothing from it */
        }
      }
      this.shards.set(file, text);
    }
    return text;
  }

  /** The database's signature for a selector or topic (lower-case hex, no 0x), if it has one. */
  private lookup(kind: 'functions' | 'events', key: string): string | undefined {
    const text = this.shard(`${kind}/${key.slice(0, 2)}.txt`);
    const at = text.indexOf(`\n${key} `);
    if (at === -1) return undefined;
    const start = at + key.length + 2;
    const end = text.indexOf('\n', start);
    return text.slice(start, end === -1 ? undefined : end);
  }

  /**
   * The protocol set's items under a key (selector, or "topic0:indexed" for events; no 0x): lines of
   * `<key>\t<contract>\t<item JSON>`, only these parsed. A line that does not parse is skipped.
   */
  private protocolItems<T extends AbiFunction | AbiError | AbiEvent>(kind: 'functions' | 'errors' | 'events', key: string): Array<Candidate<T>> {
    const text = this.shard(`protocols/${kind}/${key.slice(0, 2)}.txt`);
    const out: Array<Candidate<T>> = [];
    const needle = `\n${key}\t`;
    for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) {
      const nameAt = at + needle.length;
      const jsonAt = text.indexOf('\t', nameAt);
      const end = text.indexOf('\n', nameAt);
      try {
        const item = JSON.parse(text.slice(jsonAt + 1, end === -1 ? undefined : end)) as T;
        out.push({ item, source: 'protocol', contract: text.slice(nameAt, jsonAt) });
      } catch {
        /* a damaged line: nothing from it */
      }
    }
    return out;
  }

  /** The functions of the loaded ABIs (--abi, the project's, the built-in ones) with this name, in priority order. */
  functionsNamed(name: string): Array<Candidate<AbiFunction>> {
    return this.loadedFunctions().filter((c) => c.item.name === name);
  }

  /** Every function of the loaded ABIs (--abi, the project's, the built-in ones), in priority order. */
  loadedFunctions(): Array<Candidate<AbiFunction>> {
    const out: Array<Candidate<AbiFunction>> = this.base === null ? [] : this.base.loadedFunctions();
    for (const list of this.own.items.functions.values()) out.push(...list);
    return out;
  }

  /**
   * Contracts' and tokens' names (and tokens' symbols and decimals) on one chain, from the shipped
   * address book (addresses/<chain id>.json beside the database, from published packages' lists; one
   * small file read per chain, when first needed, its entries looked up as asked); empty without it.
   */
  addressBook(chainId = 1): AddressBook {
    let book = this.books.get(chainId);
    if (book !== undefined) return book;
    let text = '';
    if (this.dbDir !== null && Number.isSafeInteger(chainId) && chainId >= 0) {
      try {
        text = readFileSync(new URL(`addresses/${chainId}.json`, this.dbDir), 'utf8');
      } catch {
        /* no file for this chain, or not built: no names from it */
      }
    }
    this.books.set(chainId, (book = new AddressBook(text)));
    return book;
  }

  /**
   * Functions with this selector, in priority order. Indexed ABIs are keyed by their computed selector,
   * and every database signature hashes to the selector it is filed under (test/unit/sigdb.test.ts
   * checks all of them), so a candidate's selector never needs computing again.
   */
  functionCandidates(selector: Hex): Array<Candidate<AbiFunction>> {
    // A layer that added nothing has the base's candidates, and the base's memo keeps them.
    if (this.base !== null && this.own.empty) return this.base.functionCandidates(selector);
    const sel = selector.toLowerCase();
    let list = this.own.functionMemo.get(sel);
    if (list === undefined) {
      list = this.functionsFor(sel);
      this.own.functionMemo.set(sel, list);
    }
    return list;
  }

  private functionsFor(sel: string): Array<Candidate<AbiFunction>> {
    const known = withoutRepeats(this.known('functions', sel), this.protocolItems<AbiFunction>('functions', sel.slice(2)));
    const fromDb = this.lookup('functions', sel.slice(2));
    const sigs: Array<[string, NameSource]> = fromDb !== undefined ? [[fromDb, 'database']] : this.onlineSignatures('functions', sel).map((s) => [s, 'signatures']);
    const out = [...known];
    for (const [sig, source] of sigs) {
      try {
        const item = parseAbiItem(`function ${sig}`);
        if (item.type !== 'function') continue;
        // The database has no parameter names: a known ABI with the same signature says more.
        if (!out.some((k) => signatureOf(k.item) === signatureOf(item))) out.push({ item, source });
      } catch {
        /* not a signature: nothing from it */
      }
    }
    return out;
  }

  /** --online: signatures the signature service gave for a selector or topic0 (0x…), checked by the caller against it. */
  addSignatures(kind: 'functions' | 'events', key: string, sigs: readonly string[]): void {
    this.changing();
    this.own.signatures[kind].set(key.toLowerCase(), [...sigs]);
  }

  /** Custom errors share the selector space with functions: database function signatures are tried too. */
  errorCandidates(selector: Hex): Array<Candidate<AbiError>> {
    const sel = selector.toLowerCase();
    const known = withoutRepeats(this.known('errors', sel), this.protocolItems<AbiError>('errors', sel.slice(2)));
    const fromDb = this.functionCandidates(selector).filter((c) => c.source === 'database');
    return [...known, ...fromDb.map((c): Candidate<AbiError> => ({ item: { type: 'error', name: c.item.name, inputs: c.item.inputs }, source: c.source }))];
  }

  /** Events with this topic0 and number of indexed parameters, in priority order (keyed like functions). */
  eventCandidates(topic0: Hex, indexed: number): Array<Candidate<AbiEvent>> {
    if (this.base !== null && this.own.empty) return this.base.eventCandidates(topic0, indexed);
    const key = eventKey(topic0, indexed);
    let list = this.own.eventMemo.get(key);
    if (list === undefined) {
      list = this.eventsFor(topic0.toLowerCase(), indexed);
      this.own.eventMemo.set(key, list);
    }
    return list;
  }

  private eventsFor(topic0: string, indexed: number): Array<Candidate<AbiEvent>> {
    const known = withoutRepeats(this.known('events', eventKey(topic0, indexed)), this.protocolItems<AbiEvent>('events', `${topic0.slice(2)}:${indexed}`));
    if (known.length > 0) return known;
    const fromDb = this.lookup('events', topic0.slice(2));
    const sigs: Array<[string, NameSource]> = fromDb !== undefined ? [[fromDb, 'database']] : this.onlineSignatures('events', topic0).map((s) => [s, 'signatures']);
    const out: Array<Candidate<AbiEvent>> = [];
    for (const [sig, source] of sigs) {
      try {
        out.push(...placements(sig, indexed).map((item) => ({ item, source })));
      } catch {
        /* not a signature */
      }
    }
    return out;
  }
}

type Kind = 'function' | 'error' | 'event';
/** [kind, key (selector or "topic0:indexed"), contract, ABI item]: one row of builtin.json. */
export type BuiltinRow = [Kind, string, string, AbiFunction | AbiError | AbiEvent];

/** The canonical type of a parameter, as selectors are computed from it: tuples spelled out. */
function canonicalType(p: AbiParameter): string {
  if (!p.type.startsWith('tuple')) return p.type;
  const components = (p as { components?: readonly AbiParameter[] }).components ?? [];
  return `(${components.map(canonicalType).join(',')})${p.type.slice('tuple'.length)}`;
}

const signatures = new WeakMap<object, string>();
/** "transfer(address,uint256)": the text whose keccak gives the selector or topic0 (memoised per item). */
export function signatureOf(item: AbiFunction | AbiEvent | AbiError): string {
  let sig = signatures.get(item);
  if (sig === undefined) {
    sig = `${item.name}(${item.inputs.map(canonicalType).join(',')})`;
    signatures.set(item, sig);
  }
  return sig;
}

const selectorOf = (item: AbiFunction | AbiError): string => `0x${keccakHex(signatureOf(item)).slice(0, 8)}`;

/** The index keys of an ABI's items: selectors for functions and errors, (topic0, indexed count) for events. */
function keyed(abi: Abi): Array<[Kind, string, AbiFunction | AbiError | AbiEvent]> {
  const out: Array<[Kind, string, AbiFunction | AbiError | AbiEvent]> = [];
  for (const item of abi) {
    try {
      if (item.type === 'function' || item.type === 'error') out.push([item.type, selectorOf(item), item]);
      else if (item.type === 'event' && !item.anonymous) out.push(['event', eventKey(`0x${keccakHex(signatureOf(item))}`, indexedCount(item)), item]);
    } catch {
      /* an item viem cannot format (malformed ABI entry): skip it */
    }
  }
  return out;
}

/** The built-in ABIs, parsed and keyed (the build writes these rows to builtin.json). */
export function builtinRows(): BuiltinRow[] {
  return Object.entries(WELL_KNOWN).flatMap(([contract, lines]) => keyed(parseAbi(lines as string[])).map(([kind, key, item]): BuiltinRow => [kind, key, contract, item]));
}

/** The known candidates, then the protocol set's where no known one has the same signature (its names are the ABI's own). */
function withoutRepeats<T extends AbiFunction | AbiError | AbiEvent>(known: Array<Candidate<T>>, protocol: Array<Candidate<T>>): Array<Candidate<T>> {
  if (protocol.length === 0) return known;
  const sigs = new Set(known.map((k) => withIndexed(k.item)));
  return [...known, ...protocol.filter((p) => !sigs.has(withIndexed(p.item)))];
}

/** The signature, and for an event its number of indexed parameters (the two together are its key). */
function withIndexed(item: AbiFunction | AbiError | AbiEvent): string {
  return `${signatureOf(item)}${item.type === 'event' ? indexedCount(item) : ''}`;
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}
