/**
 * Terminal safety by allowlist. Text that came from a node or from chain data may hold ESC sequences,
 * carriage returns, C1 controls, bidi overrides or zero-width characters that would let a stranger's
 * revert string redraw the terminal (precedents: CVE-2021-25743, CVE-2024-52005). strip-ansi and
 * util.stripVTControlCharacters let several of these through, so we keep only what is known to be
 * printable: letters, marks, numbers, punctuation, symbols and plain spaces. Everything else
 * (Cc, Cf, Zl, Zp, Co, Cn, lone surrogates) is shown as a visible escape.
 */

/** A whole string of printable characters (the fast path of escapeText and of the JSON writer). */
export const SAFE_RUN = /^[\p{L}\p{M}\p{N}\p{P}\p{S}\p{Zs}]*$/u;
const SAFE_CHAR = /^[\p{L}\p{M}\p{N}\p{P}\p{S}\p{Zs}]$/u;

/** True when the code point may be printed as it is (backslash excluded: it is the escape itself). */
export function isPrintable(char: string): boolean {
  return char !== '\\' && SAFE_CHAR.test(char);
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
  if (SAFE_RUN.test(text) && !text.includes('\\')) return text;
  let out = '';
  // for…of walks code points; a lone surrogate arrives as a one-unit string and fails SAFE_CHAR.
  for (const char of text) out += isPrintable(char) ? char : visibleEscape(char);
  return out;
}

/** Escape untrusted text and cut it to at most `max` characters (for error messages). */
export function escapeShort(text: string, max = 200): string {
  const escaped = escapeText(text.length > max * 4 ? text.slice(0, max * 4) : text);
  return escaped.length > max ? `${escaped.slice(0, max - 1)}…` : escaped;
}
