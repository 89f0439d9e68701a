/**
 * One chain's part of the shipped address book (addresses/<chain id>.json beside the signature
 * database: `[[address, name, symbol, decimals, key], …]`, lower-case addresses, from published
 * packages' lists). A lookup names a few dozen addresses of the ~1,000 mainnet's part holds: each is
 * found in the file's text as it is asked for, and only its row is parsed (parsing the whole file and
 * filling a map was ~2 ms of every lookup on mainnet and local chains).
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

export class AddressBook {
  private readonly memo = new Map<string, BookEntry | undefined>();

  /** @param text the file's text ('' where there is none: an empty book) */
  constructor(private readonly text: string) {}

  /** The entry of a lower-case address, if the book has a well-formed one. */
  get(address: string): BookEntry | undefined {
    if (this.memo.has(address)) return this.memo.get(address);
    // In JSON a quote inside a string is escaped, so `["0x…"` only ever opens a row.
    const at = ADDRESS.test(address) ? this.text.indexOf(`["${address}"`) : -1;
    const entry = at === -1 ? undefined : entryOf(rowAt(this.text, at));
    this.memo.set(address, entry);
    return entry;
  }

  has(address: string): boolean {
    return this.get(address) !== undefined;
  }

  /** Every well-formed entry, in the file's order (a run looks addresses up one by one; this reads the whole file). */
  *[Symbol.iterator](): IterableIterator<[string, BookEntry]> {
    let rows: unknown;
    try {
      rows = JSON.parse(this.text === '' ? '[]' : this.text);
    } catch {
      return;
    }
    if (!Array.isArray(rows)) return;
    for (const row of rows) {
      const entry = entryOf(row);
      if (entry !== undefined) yield [(row as [string])[0], entry];
    }
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
