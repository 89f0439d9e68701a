/**
 * One chain's part of the shipped address book (addresses/<chain id>.json beside the signature
 * database: `[[address, name, symbol, decimals, key], …]`, lower-case addresses, from published
 * packages' lists). Most lookups name a few addresses of the many the book holds: each is found in the
 * file's text as it is asked for, and only its row is parsed, instead of the whole file into a map in
 * every run. A transaction that names many addresses gets the map after all, once the lookups add up to
 * more than parsing the file would cost. Either way an address's entry is its first well-formed row.
 */

/** An address book entry: a contract's or token's name, and a token's symbol and decimals where known. */
export interface BookEntry {
  readonly name: string;
  readonly symbol: string | null;
  readonly decimals: number | null;
  /** Which protocol's contract it is ("aave-v3-pool", "lido", "bridge:Base"), where the book's source says. */
  readonly key: string | null;
}

const ADDRESS = /^0x[0-9a-f]{40}$/;

/** Lookups in the text before the whole file is parsed into a map instead. */
const LOOKUPS_BEFORE_MAP = 64;

export class AddressBook {
  private readonly memo = new Map<string, BookEntry | undefined>();
  private lookups = 0;
  /** Every entry, once the lookups made parsing the file worth it (null: not yet, or it does not parse). */
  private all: Map<string, BookEntry> | null = null;

  /** @param text the file's text ('' where there is none: an empty book) */
  constructor(private readonly text: string) {}

  /** The entry of a lower-case address: its first well-formed row, if the book has one. */
  get(address: string): BookEntry | undefined {
    if (this.all !== null) return this.all.get(address);
    if (this.memo.has(address)) return this.memo.get(address);
    // Parsed once: a file that does not parse is not parsed again at every later lookup.
    if (++this.lookups === LOOKUPS_BEFORE_MAP + 1 && (this.all = this.parsed()) !== null) return this.all.get(address);
    let entry: BookEntry | undefined;
    if (ADDRESS.test(address)) {
      // In JSON a quote inside a string is escaped, so `["0x…"` only ever opens a row.
      const key = `["${address}"`;
      for (let at = this.text.indexOf(key); at !== -1 && entry === undefined; at = this.text.indexOf(key, at + 1)) entry = entryOf(rowAt(this.text, at));
    }
    this.memo.set(address, entry);
    return entry;
  }

  has(address: string): boolean {
    return this.get(address) !== undefined;
  }

  /** Every well-formed row, in the file's order (tests; a run looks addresses up); nothing where the file does not parse. */
  *[Symbol.iterator](): IterableIterator<[string, BookEntry]> {
    yield* entriesOf(rowsOf(this.text) ?? []);
  }

  /** The first well-formed row of each address; null where the file does not parse (lookups stay in the text, as before). */
  private parsed(): Map<string, BookEntry> | null {
    const rows = rowsOf(this.text);
    if (rows === null) return null;
    const all = new Map<string, BookEntry>();
    for (const [address, entry] of entriesOf(rows)) if (!all.has(address)) all.set(address, entry);
    return all;
  }
}

/** The file's rows, or null where it is not a JSON array. */
function rowsOf(text: string): unknown[] | null {
  try {
    const rows: unknown = JSON.parse(text === '' ? '[]' : text);
    return Array.isArray(rows) ? rows : null;
  } catch {
    return null;
  }
}

function* entriesOf(rows: readonly unknown[]): IterableIterator<[string, BookEntry]> {
  for (const row of rows) {
    const entry = entryOf(row);
    if (entry !== undefined) yield [(row as [string])[0], entry];
  }
}

/** The row opening at `at` (its `[`), parsed; undefined where it does not close or is not JSON. */
function rowAt(text: string, at: number): unknown {
  let inString = false;
  for (let i = at + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5d) {
      try {
        return JSON.parse(text.slice(at, i + 1));
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** A row's entry where it has the book's shape: [address, name, symbol | null, decimals | null, key | null]. */
function entryOf(row: unknown): BookEntry | undefined {
  if (!Array.isArray(row) || row.length < 4 || typeof row[0] !== 'string' || !ADDRESS.test(row[0])) return undefined;
  const [, name, symbol, decimals, key] = row as unknown[];
  if (typeof name !== 'string' || name === '') return undefined;
  if (symbol !== null && typeof symbol !== 'string') return undefined;
  if (decimals !== null && !(Number.isSafeInteger(decimals) && (decimals as number) >= 0 && (decimals as number) <= 255)) return undefined;
  return { name, symbol: symbol as string | null, decimals: decimals as number | null, key: typeof key === 'string' ? key : null };
}
