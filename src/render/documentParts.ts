/**
 * The --json document's text (compact, as --json prints it, without its last newline) in parts whose
 * concatenation is that text: the node's raw answers that the HTML report never shows (UNREAD) each
 * apart, marked `unread`, and the rest of the document around them. renderHtml compresses each part
 * as a gzip member of its own, which the page then leaves compressed and unparsed.
 */
import type { JsonDocument } from './renderJson.js';
import { writeJson } from './writeJson.js';

export interface DocumentPart {
  readonly text: string;
  readonly unread: boolean;
}

/** The document's members the page does not read, by their path: the receipt's raw logs and the raw trace. */
const UNREAD: ReadonlyArray<readonly [string, ...string[]]> = [['receipt', 'logs'], ['trace']];

/**
 * `value` with the member at `path` replaced by `by` (every object on the way copied, its keys in their
 * order), and what was there; null where the path leads to no object or array.
 */
function replaced(value: unknown, path: readonly string[], by: string): { readonly outline: object; readonly member: unknown } | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const [key, ...rest] = path;
  if (key === undefined || !Object.hasOwn(value, key)) return null;
  const old: unknown = Reflect.get(value, key);
  if (rest.length === 0) return typeof old === 'object' && old !== null ? { outline: { ...value, [key]: by }, member: old } : null;
  const inner = replaced(old, rest, by);
  return inner === null ? null : { outline: { ...value, [key]: inner.outline }, member: inner.member };
}

const textOf = (value: unknown): string => [...writeJson(value, 0)].join('').slice(0, -1);

export function documentParts(doc: JsonDocument): DocumentPart[] {
  // Each unread member is written in place as a marker string no answer can foresee (it must also be found
  // exactly once in the text), then its own text goes between the pieces of the rest.
  const nonce = `txray-part-${Math.random().toString(36).slice(2)}-${Date.now().toString(36)}`;
  let outline: unknown = doc;
  const cut: Array<{ readonly marker: string; readonly value: unknown }> = [];
  for (const [i, path] of UNREAD.entries()) {
    const marker = `"${nonce}-${i}"`;
    const next = replaced(outline, path, marker.slice(1, -1));
    if (next === null) continue;
    outline = next.outline;
    cut.push({ marker, value: next.member });
  }
  const text = textOf(outline);
  const found = cut.map((c) => ({ ...c, at: text.indexOf(c.marker) })).sort((a, b) => a.at - b.at);
  if (found.some((c) => c.at < 0 || text.indexOf(c.marker, c.at + 1) >= 0)) return [{ text: textOf(doc), unread: false }];
  const parts: DocumentPart[] = [];
  let from = 0;
  for (const c of found) {
    parts.push({ text: text.slice(from, c.at), unread: false }, { text: textOf(c.value), unread: true });
    from = c.at + c.marker.length;
  }
  parts.push({ text: text.slice(from), unread: false });
  return parts;
}
