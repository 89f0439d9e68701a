/**
 * The fast path of ABI decoding. Parameters that are all elementary static types (uintN, intN,
 * address, bool, bytesN) take one 32-byte word each, so decoding them is cutting words: no byte
 * cursor, no re-encoding. A 20,000-call transaction decodes the same few signatures thousands of
 * times, and this is where the time went. Anything else (dynamic types, tuples, arrays) is left to
 * viem's codec: the functions here then return undefined.
 *
 * `exact` is the rule for call data and return data: the data must be exactly the words and each word
 * the canonical encoding of its value, which is what "decodes and re-encodes to the same bytes" means
 * for these types. Without it (event data), extra bytes are ignored and a word is read as viem reads
 * it; a bool that is not 0 or 1 fails either way.
 */
import type { AbiParameter } from 'abitype';

type Kind = { readonly t: 'uint' | 'int' | 'bytes'; readonly n: number } | { readonly t: 'address' | 'bool'; readonly n: 0 };

const kinds = new Map<string, Kind | null>();

/** The elementary static kind of an ABI type, or null (dynamic, tuple, array, unknown). */
function kindOf(type: string): Kind | null {
  let k = kinds.get(type);
  if (k !== undefined) return k;
  k = null;
  if (type === 'address' || type === 'bool') k = { t: type, n: 0 };
  else {
    const m = /^(uint|int|bytes)(\d+)?$/.exec(type);
    if (m !== null) {
      const t = m[1] as 'uint' | 'int' | 'bytes';
      const n = m[2] === undefined ? (t === 'bytes' ? -1 : 256) : Number(m[2]);
      const ok = t === 'bytes' ? n >= 1 && n <= 32 : n >= 8 && n <= 256 && n % 8 === 0;
      if (ok) k = { t, n };
    }
  }
  kinds.set(type, k);
  return k;
}

// viem reads integers of up to 48 bits as JavaScript numbers and refuses a word beyond the safe range.
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const ZERO_WORD_PREFIX = '0'.repeat(24);

/** One word (64 lower-case hex digits) as the value viem would give for this kind; null if it does not fit. */
function word(w: string, k: Kind, exact: boolean): unknown {
  switch (k.t) {
    case 'address':
      if (exact && !w.startsWith(ZERO_WORD_PREFIX)) return null;
      return `0x${w.slice(24)}`;
    case 'bool':
      if (w === '0'.repeat(64)) return false;
      if (w === `${'0'.repeat(63)}1`) return true;
      return null;
    case 'bytes': {
      const used = k.n * 2;
      if (exact && /[^0]/.test(w.slice(used))) return null;
      return `0x${w.slice(0, used)}`;
    }
    case 'uint': {
      const v = BigInt(`0x${w}`);
      if (exact ? k.n < 256 && v >> BigInt(k.n) !== 0n : k.n <= 48 && v > MAX_SAFE) return null;
      return v;
    }
    case 'int': {
      const v = BigInt.asIntN(256, BigInt(`0x${w}`));
      if (exact ? k.n < 256 && BigInt.asIntN(k.n, v) !== v : k.n <= 48 && (v > MAX_SAFE || v < -MAX_SAFE)) return null;
      return v;
    }
  }
}

/** The kinds of all parameters, or null when one of them is not elementary static. */
function kindsOf(params: readonly AbiParameter[]): Kind[] | null {
  const out: Kind[] = [];
  for (const p of params) {
    const k = kindOf(p.type);
    if (k === null) return null;
    out.push(k);
  }
  return out;
}

/** Hex digits viem reads for these kinds: whole words, but of a final bytesN only its N bytes. */
function leniencyNeed(ks: readonly Kind[]): number {
  const last = ks[ks.length - 1];
  if (last === undefined) return 0;
  return (ks.length - 1) * 64 + (last.t === 'bytes' ? last.n * 2 : 64);
}

/**
 * Decode `hex` (0x-prefixed, any case) as `params`. undefined: not a static-only list (use the general
 * codec); null: the data does not fit; else the values in parameter order.
 */
export function decodeStaticWords(params: readonly AbiParameter[], hex: string, exact: boolean): unknown[] | null | undefined {
  const ks = kindsOf(params);
  if (ks === null) return undefined;
  const digits = hex.length - 2;
  if (exact ? digits !== ks.length * 64 : digits < leniencyNeed(ks) || (digits > 0 && digits < 64)) return null;
  const body = hex.toLowerCase();
  const out: unknown[] = new Array(ks.length);
  for (let i = 0; i < ks.length; i++) {
    const v = word(body.slice(2 + i * 64, 2 + (i + 1) * 64), ks[i]!, exact);
    if (v === null) return null;
    out[i] = v;
  }
  return out;
}
