/**
 * A build without ASTs (forge build's default): the functions of a source file read from its text, in the
 * shape functionDefinitions reads (a SourceUnit's contracts and their FunctionDefinitions, `src` in UTF-8
 * bytes). Only `function <name>(…) … { … }` with a body is taken, its range from the keyword to the closing
 * brace, as solc's own `src` spans it; comments and string literals are passed over. The text is one the
 * build compiled (its keccak256 checked); a function is still named only where the code's source map holds
 * that very range (internalCallsOf), so a misread text names nothing.
 */
import type { Json } from '../raw/types.js';

const CONTAINERS = new Set(['contract', 'library', 'interface']);
const isWordByte = (b: number | undefined): boolean => b !== undefined && ((b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || b === 0x5f || b === 0x24);

/** Where the comment or string literal at `i` ends (one past it), or `i` where none starts there. */
function skipOpaque(t: Uint8Array, i: number): number {
  const b = t[i];
  if (b === 0x2f && t[i + 1] === 0x2f) {
    const end = t.indexOf(0x0a, i);
    return end < 0 ? t.length : end;
  }
  if (b === 0x2f && t[i + 1] === 0x2a) {
    for (let k = i + 2; k < t.length - 1; k++) if (t[k] === 0x2a && t[k + 1] === 0x2f) return k + 2;
    return t.length;
  }
  if (b === 0x22 || b === 0x27) {
    for (let k = i + 1; k < t.length; k++) {
      if (t[k] === 0x5c) k++;
      else if (t[k] === b) return k + 1;
      else if (t[k] === 0x0a) return k;
    }
    return t.length;
  }
  return i;
}

/** The tokens that matter here: words (with where they start), and the brackets and semicolons. */
function tokensOf(t: Uint8Array): Array<{ readonly at: number; readonly text: string }> {
  const out: Array<{ at: number; text: string }> = [];
  for (let i = 0; i < t.length; ) {
    const past = skipOpaque(t, i);
    if (past !== i) {
      i = past;
      continue;
    }
    if (isWordByte(t[i])) {
      let k = i;
      while (isWordByte(t[k])) k++;
      out.push({ at: i, text: Buffer.from(t.subarray(i, k)).toString('latin1') });
      i = k;
      continue;
    }
    const c = String.fromCharCode(t[i] ?? 0);
    if ('{}();'.includes(c)) out.push({ at: i, text: c });
    i++;
  }
  return out;
}

/** The SourceUnit outline of file `id`'s text (see above). */
export function scanFunctions(text: Uint8Array, id: number): Json {
  const tokens = tokensOf(text);
  const top: Json[] = [];
  let container: { name: string; nodes: Json[]; depth: number } | null = null;
  let depth = 0;
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i]!;
    if (tok.text === '{') depth++;
    else if (tok.text === '}') {
      depth--;
      if (container !== null && depth === container.depth) {
        top.push({ nodeType: 'ContractDefinition', name: container.name, nodes: container.nodes });
        container = null;
      }
    } else if (depth === 0 && container === null && CONTAINERS.has(tok.text) && tokens[i + 1] !== undefined && /^[A-Za-z_$]/.test(tokens[i + 1]!.text)) {
      container = { name: tokens[i + 1]!.text, nodes: [], depth: 0 };
    } else if (tok.text === 'function' && depth === (container === null ? 0 : 1) && /^[A-Za-z_$]/.test(tokens[i + 1]?.text ?? '') && tokens[i + 2]?.text === '(') {
      const end = bodyEnd(tokens, i + 2);
      if (end === null) continue;
      const node = { nodeType: 'FunctionDefinition', kind: 'function', name: tokens[i + 1]!.text, src: `${tok.at}:${end - tok.at}:${id}` };
      if (container === null) top.push(node);
      else container.nodes.push(node);
    }
  }
  return { nodeType: 'SourceUnit', scanned: true, nodes: top };
}

/** One past the closing brace of the body after the header from token `from` (its parameter list's '('), null where it has none. */
function bodyEnd(tokens: ReadonlyArray<{ readonly at: number; readonly text: string }>, from: number): number | null {
  let parens = 0;
  let k = from;
  for (; k < tokens.length; k++) {
    const x = tokens[k]!.text;
    if (x === '(') parens++;
    else if (x === ')') parens--;
    else if (parens === 0 && (x === ';' || x === '}')) return null;
    else if (parens === 0 && x === '{') break;
  }
  let braces = 0;
  for (; k < tokens.length; k++) {
    const x = tokens[k]!.text;
    if (x === '{') braces++;
    else if (x === '}' && --braces === 0) return tokens[k]!.at + 1;
  }
  return null;
}
