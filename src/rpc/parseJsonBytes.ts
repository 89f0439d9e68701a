/**
 * JSON.parse of a large answer from its bytes, without ever making its text one string. A receipt's
 * logs or a Parity trace (tens of MB as text) is mostly one array of objects; one JSON.parse of the
 * whole text needs that text as a string, which V8 puts straight into its old generation, where it
 * waits for a full collection that a short run seldom makes. Here that array is parsed in slices of
 * about 100 KiB (small strings that die young), and what is around it (the envelope, the receipt's other
 * fields) is parsed with a marker in the array's place. The result is what JSON.parse of the whole text
 * gives, or the whole text is parsed after all: the slices are cut where the bytes `},{` suggest, and
 * each cut is proved by the parse (see inSlices); one that does not parse sends the answer to JSON.parse.
 */
import { isAscii } from 'node:buffer';

/** Below this, one JSON.parse of the text. */
const SLICED_FROM = 1 << 20;
/**
 * A slice's least length. V8's JSON parser puts what it makes straight into the old generation for a
 * text of 100 KiB or more (as for the whole text: no copying by scavenges), and a string up to 128 KiB
 * is an ordinary young object, gone at the next scavenge.
 */
const SLICE_BYTES = 104 * 1024;
/** Cuts and ends that did not parse (inside a string or an element), at most, before the text is parsed whole. */
const MAX_MISSES = 64;
const CUT = Buffer.from('},{');
const OPEN = Buffer.from('[{');
const CLOSE = Buffer.from('}]');
/** A string value no node sends (checked: seen exactly once, or the whole text is parsed). */
const MARKER = '\u0000txray: the array';
const MARKER_JSON = JSON.stringify(MARKER);
const COMMA = 0x2c;
const BRACKET_OPEN = 0x5b;
const BRACKET_CLOSE = 0x5d;
const BACKSLASH = 0x5c;

/** What JSON.parse(bytes as UTF-8) gives; throws what it throws. */
export function parseJsonBytes(bytes: Buffer): unknown {
  const sliced = bytes.length < SLICED_FROM ? undefined : inSlices(bytes);
  return sliced === undefined ? JSON.parse(bytes.toString('utf8')) : sliced.value;
}

/**
 * Why the slices give JSON.parse's answer. The skeleton (the bytes before the array's `[`, the marker,
 * the bytes after its `]`) parses with the marker found once as a value, and the byte before `[` is no
 * backslash: so `[` stands where a value starts, outside any string. Each slice starts right after `[`
 * or after a slice that parsed as whole elements, so it is read from the same state as in the whole
 * text, and parses as `[` + slice + `]` only where it is whole elements; the `]` after the last is then
 * the array's own. The skeleton's bytes are read as in the whole text, so the two parses agree.
 * Cuts are only looked for at `},{` (as JSON.stringify and the nodes write arrays of objects):
 * anything else (white space between elements, an array of arrays, one element) parses whole.
 */
function inSlices(bytes: Buffer): { readonly value: unknown } | undefined {
  const firstCut = bytes.indexOf(CUT);
  if (firstCut === -1) return undefined;
  const open = bytes.lastIndexOf(OPEN, firstCut);
  if (open === -1 || (open > 0 && bytes[open - 1] === BACKSLASH)) return undefined;
  // Text that is all ASCII reads as Latin-1, a plain copy (what nodes send: hex, numbers, names).
  const encoding = isAscii(bytes) ? 'latin1' : 'utf8';
  const elements: unknown[] = [];
  let from = open + 1;
  let cut = bytes.indexOf(CUT, from + SLICE_BYTES);
  // The first `}]` not yet ruled out as the array's end (one inside a string or an element is passed over).
  let close = -1;
  let misses = 0;
  // The bytes parsed by slices that did not parse: each miss parses again from `from`, so a node could
  // otherwise make one answer cost dozens of whole parses. Past one body's length, the text is parsed whole.
  let wasted = 0;
  const tried = (end: number): boolean => {
    if (addSlice(bytes, from, end, encoding, elements)) return true;
    wasted += end - from;
    return false;
  };
  while (misses <= MAX_MISSES && wasted <= bytes.length) {
    if (close < from) close = bytes.indexOf(CLOSE, from);
    if (close === -1) return undefined;
    if (cut !== -1 && cut < close && tried(cut + 1)) {
      from = cut + 2;
      cut = bytes.indexOf(CUT, from + SLICE_BYTES);
      continue;
    }
    misses++;
    if (cut !== -1 && cut < close) cut = bytes.indexOf(CUT, cut + 1);
    else if (tried(close + 1)) return withArray(bytes, open, close + 1, encoding, elements);
    else close = bytes.indexOf(CLOSE, close + 1);
  }
  return undefined;
}

/** Parse bytes[from, end) (whole elements, between a `[` or `,` and a `,` or `]`) as an array; its elements added. */
function addSlice(bytes: Buffer, from: number, end: number, encoding: BufferEncoding, elements: unknown[]): boolean {
  // The bytes either side become `[` and `]` for the parse (the buffer is txray's own), then are put back.
  const before = bytes[from - 1]!;
  const after = bytes[end]!;
  if ((before !== BRACKET_OPEN && before !== COMMA) || (after !== BRACKET_CLOSE && after !== COMMA)) return false;
  bytes[from - 1] = BRACKET_OPEN;
  bytes[end] = BRACKET_CLOSE;
  const text = bytes.toString(encoding, from - 1, end + 1);
  bytes[from - 1] = before;
  bytes[end] = after;
  let slice: unknown;
  try {
    slice = JSON.parse(text);
  } catch {
    return false;
  }
  if (!Array.isArray(slice)) return false;
  for (const element of slice) elements.push(element);
  return true;
}

/** The skeleton parsed, the marker replaced by the array; undefined where the marker is not found exactly once. */
function withArray(bytes: Buffer, open: number, close: number, encoding: BufferEncoding, elements: readonly unknown[]): { readonly value: unknown } | undefined {
  if (bytes[close] !== BRACKET_CLOSE) return undefined;
  let found = 0;
  let value: unknown;
  try {
    value = JSON.parse(`${bytes.toString(encoding, 0, open)}${MARKER_JSON}${bytes.toString(encoding, close + 1)}`, (_key, v: unknown) => {
      if (v !== MARKER) return v;
      found++;
      return elements;
    });
  } catch {
    return undefined;
  }
  return found === 1 ? { value } : undefined;
}
