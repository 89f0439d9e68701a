/**
 * An iterative JSON writer. JSON.stringify recurses (a 10,000-deep call tree overflows the stack),
 * builds one giant string (a 15 MB trace twice over), and leaves C1 controls and bidi overrides raw.
 * This writer yields chunks, keeps its own stack, and escapes every character that is not plainly
 * printable as a \u sequence, which any JSON reader turns back into the same string.
 */
import { isPrintable, isSafeRun } from '../raw/escape.js';

const SHORT: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };

export function jsonString(s: string): string {
  if (isSafeRun(s) && !s.includes('"')) return `"${s}"`;
  let out = '"';
  for (const char of s) {
    const short = SHORT[char];
    if (short !== undefined) out += short;
    else if (isPrintable(char)) out += char;
    else {
      // Characters outside the BMP are printable pairs here; only lone surrogates reach this as one unit.
      for (let i = 0; i < char.length; i++) out += `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`;
    }
  }
  return `${out}"`;
}

function scalar(value: unknown): string | undefined {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return jsonString(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return jsonString(value.toString());
    case 'object':
      return undefined;
    default:
      return undefined; // undefined, functions, symbols: left out as JSON.stringify does
  }
}

/**
 * An object's entries, or an array read one element at a time (an element is only read when it is
 * written: a renderer's array may make its elements as they are read, see renderJson's callJson).
 */
interface OpenContainer {
  readonly keys: readonly string[] | null;
  readonly values: readonly unknown[];
  readonly length: number;
  index: number;
  readonly close: string;
}

function openContainer(value: object): OpenContainer {
  if (Array.isArray(value)) return { keys: null, values: value, length: value.length, index: 0, close: ']' };
  const keys: string[] = [];
  const values: unknown[] = [];
  for (const [key, v] of Object.entries(value)) {
    if (v !== undefined && typeof v !== 'function' && typeof v !== 'symbol') {
      keys.push(key);
      values.push(v);
    }
  }
  return { keys, values, length: keys.length, index: 0, close: '}' };
}

/**
 * Serialise `value` as JSON, `indent` spaces per level (0 = compact), in chunks of about `chunkSize`
 * characters. The output ends with a newline.
 */
export function* writeJson(value: unknown, indent = 0, chunkSize = 1 << 16): Generator<string> {
  let buf = '';
  const nl = indent > 0 ? '\n' : '';
  const colon = indent > 0 ? ': ' : ':';
  const pad = (depth: number): string => (indent > 0 ? ' '.repeat(indent * depth) : '');

  const top = scalar(value);
  if (top !== undefined || value === null || typeof value !== 'object') {
    yield `${top ?? 'null'}\n`;
    return;
  }
  const stack: OpenContainer[] = [openContainer(value)];
  buf += Array.isArray(value) ? '[' : '{';
  for (let open = stack.at(-1); open !== undefined; open = stack.at(-1)) {
    if (open.index >= open.length) {
      stack.pop();
      buf += open.length > 0 ? `${nl}${pad(stack.length)}${open.close}` : open.close;
      continue;
    }
    const key = open.keys === null ? null : (open.keys[open.index] ?? null);
    const child = open.values[open.index];
    buf += `${open.index > 0 ? ',' : ''}${nl}${pad(stack.length)}`;
    open.index++;
    if (key !== null) buf += jsonString(key) + colon;
    const text = scalar(child);
    if (text !== undefined) buf += text;
    else if (typeof child === 'object' && child !== null) {
      buf += Array.isArray(child) ? '[' : '{';
      stack.push(openContainer(child));
    } else buf += 'null'; // an array slot holding undefined, as JSON.stringify writes it
    if (buf.length >= chunkSize) {
      yield buf;
      buf = '';
    }
  }
  yield `${buf}\n`;
}
