/**
 * Terminal safety by allowlist. Text that came from a node or from chain data may hold ESC sequences,
 * carriage returns, C1 controls, bidi overrides or zero-width characters that would let a stranger's
 * revert string redraw the terminal (precedents: CVE-2021-25743, CVE-2024-52005). strip-ansi and
 * util.stripVTControlCharacters let several of these through, so we keep only what is known to be
 * printable: letters, marks, numbers, punctuation, symbols and plain spaces. Everything else
 * (Cc, Cf, Zl, Zp, Co, Cn, lone surrogates) is shown as a visible escape.
 */

/** Printable ASCII but the backslash: most text (hex, numbers, names) is all of it, and this test is cheap. */
const ASCII_RUN = /^[\x20-\x5b\x5d-\x7e]*$/;
/** Printable ASCII, the backslash included. */
const ASCII_TEXT = /^[\x20-\x7e]*$/;
/**
 * ASCII_RUN and the few other characters txray's own words carry (…, ·, ×, −, arrows, box drawing,
 * ✓ to ✗): all printable, so a line of txray's own with one of them needs no Unicode classes.
 */
const OWN_RUN = /^[\x20-\x5b\x5d-\x7e\u00b7\u00d7\u2026\u2190-\u21ff\u2212\u2500-\u257f\u2713-\u2717]*$/;

// The Unicode classes cost ~9 ms to compile on first use; only text with non-ASCII characters needs them.
const PRINTABLE_CLASS = '[\\p{L}\\p{M}\\p{N}\\p{P}\\p{S}\\p{Zs}]';
let unicode: { readonly run: RegExp; readonly char: RegExp } | undefined;
const classes = (): { readonly run: RegExp; readonly char: RegExp } =>
  (unicode ??= { run: new RegExp(`^${PRINTABLE_CLASS}*$`, 'u'), char: new RegExp(`^${PRINTABLE_CLASS}$`, 'u') });

/** True when every character is printable and none is a backslash (the fast path of the escapers). */
export function isSafeRun(text: string): boolean {
  return ASCII_RUN.test(text) || OWN_RUN.test(text) || (!text.includes('\\') && classes().run.test(text));
}

/** True when every character is printable (backslashes included: they are printable, if ambiguous). */
export function isPrintableText(text: string): boolean {
  return ASCII_TEXT.test(text) || classes().run.test(text);
}

/** True when the code point may be printed as it is (backslash excluded: it is the escape itself). */
export function isPrintable(char: string): boolean {
  return char !== '\\' && (ASCII_RUN.test(char) || classes().char.test(char));
}

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\\': '\\\\' };

function visibleEscape(char: string): string {
  const named = NAMED[char];
  if (named !== undefined) return named;
  const cp = char.codePointAt(0) ?? 0;
  if (cp < 0x100) return `\\x${cp.toString(16).padStart(2, '0')}`;
  return `\\u{${cp.toString(16)}}`;
}

/** Escape untrusted text for a terminal: the result holds only printable characters. */
export function escapeText(text: string): string {
  if (isSafeRun(text)) return text;
  let out = '';
  // for…of walks code points; a lone surrogate arrives as a one-unit string and is not printable.
  for (const char of text) out += isPrintable(char) ? char : visibleEscape(char);
  return out;
}

/** Escape untrusted text and cut it to at most `max` terminal columns (for error messages and table cells). */
export function escapeShort(text: string, max = 200): string {
  return cutToWidth(escapeText(text.length > max * 4 ? text.slice(0, max * 4) : text), max);
}

/**
 * East Asian Wide and Fullwidth code points, and emoji shown as pictures: two terminal columns each
 * (Unicode's EastAsianWidth.txt W/F classes and the emoji presentation blocks, ranges merged).
 */
const WIDE: ReadonlyArray<readonly [number, number]> = [
  [0x1100, 0x115f], [0x231a, 0x231b], [0x2329, 0x232a], [0x23e9, 0x23ec], [0x23f0, 0x23f0], [0x23f3, 0x23f3],
  [0x25fd, 0x25fe], [0x2614, 0x2615], [0x2648, 0x2653], [0x267f, 0x267f], [0x2693, 0x2693], [0x26a1, 0x26a1],
  [0x26aa, 0x26ab], [0x26bd, 0x26be], [0x26c4, 0x26c5], [0x26ce, 0x26ce], [0x26d4, 0x26d4], [0x26ea, 0x26ea],
  [0x26f2, 0x26f3], [0x26f5, 0x26f5], [0x26fa, 0x26fa], [0x26fd, 0x26fd], [0x2705, 0x2705], [0x270a, 0x270b],
  [0x2728, 0x2728], [0x274c, 0x274c], [0x274e, 0x274e], [0x2753, 0x2755], [0x2757, 0x2757], [0x2795, 0x2797],
  [0x27b0, 0x27b0], [0x27bf, 0x27bf], [0x2b1b, 0x2b1c], [0x2b50, 0x2b50], [0x2b55, 0x2b55], [0x2e80, 0x303e],
  [0x3041, 0x33ff], [0x3400, 0x4dbf], [0x4e00, 0x9fff], [0xa000, 0xa4cf], [0xa960, 0xa97f], [0xac00, 0xd7a3],
  [0xf900, 0xfaff], [0xfe10, 0xfe19], [0xfe30, 0xfe6f], [0xff00, 0xff60], [0xffe0, 0xffe6], [0x16fe0, 0x16fe4],
  [0x17000, 0x18cff], [0x1b000, 0x1b2ff], [0x1f004, 0x1f004], [0x1f0cf, 0x1f0cf], [0x1f18e, 0x1f18e],
  [0x1f191, 0x1f19a], [0x1f200, 0x1f251], [0x1f260, 0x1f265], [0x1f300, 0x1f64f], [0x1f680, 0x1f6ff],
  [0x1f7e0, 0x1f7eb], [0x1f90c, 0x1f9ff], [0x1fa70, 0x1faff], [0x20000, 0x3fffd],
];

/** Marks that sit on the character before them (combining accents, variation selectors): no column of their own. */
const ZERO_WIDTH = /^[\p{Mn}\p{Me}]$/u;

/** How many terminal columns one code point takes: 0, 1 or 2. */
export function charWidth(char: string): number {
  const cp = char.codePointAt(0) ?? 0;
  if (cp < 0x300) return 1;
  if (ZERO_WIDTH.test(char)) return 0;
  let lo = 0;
  let hi = WIDE.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const range = WIDE[mid];
    if (range === undefined) break;
    const [from, to] = range;
    if (cp < from) hi = mid - 1;
    else if (cp > to) lo = mid + 1;
    else return 2;
  }
  return 1;
}

/** The columns a (printable, escaped) text takes in a terminal. */
export function displayWidth(text: string): number {
  if (ASCII_TEXT.test(text)) return text.length;
  let n = 0;
  for (const char of text) n += charWidth(char);
  return n;
}

/**
 * The text cut to at most `width` columns, with … as the last column when anything was cut. Cuts fall
 * between code points, so a surrogate pair is never split, and a wide character that would straddle
 * the edge is left out whole.
 */
export function cutToWidth(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  if (width <= 0) return '';
  let out = '';
  let used = 0;
  for (const char of text) {
    const w = charWidth(char);
    if (used + w > width - 1) break;
    out += char;
    used += w;
  }
  return `${out}…`;
}
