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

// The Unicode classes cost ~9 ms to compile on first use; only text with non-ASCII characters needs them.
const PRINTABLE_CLASS = '[\\p{L}\\p{M}\\p{N}\\p{P}\\p{S}\\p{Zs}]';
let unicode: { readonly run: RegExp; readonly char: RegExp } | undefined;
const classes = (): { readonly run: RegExp; readonly char: RegExp } =>
  (unicode ??= { run: new RegExp(`^${PRINTABLE_CLASS}*$`, 'u'), char: new RegExp(`^${PRINTABLE_CLASS}$`, 'u') });

/** True when every character is printable and none is a backslash (the fast path of the escapers). */
export function isSafeRun(text: string): boolean {
  return ASCII_RUN.test(text) || (!text.includes('\\') && classes().run.test(text));
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

/** Escape untrusted text and cut it to at most `max` characters (for error messages). */
export function escapeShort(text: string, max = 200): string {
  const escaped = escapeText(text.length > max * 4 ? text.slice(0, max * 4) : text);
  return escaped.length > max ? `${escaped.slice(0, max - 1)}…` : escaped;
}
