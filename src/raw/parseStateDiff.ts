/**
 * State diffs from either tracer, checked and turned into one explicit form (RpcAccountDiff): each
 * changed field as before → after, storage slot by slot.
 *
 * - trace_replayTransaction(hash, ["stateDiff"]) (Erigon, Reth, Nethermind, OpenEthereum):
 *   `stateDiff: {address: {balance, nonce, code, storage: {slot: diff}}}`, each diff "=" (unchanged),
 *   {"+": new} (created), {"-": old} (deleted) or {"*": {from, to}}.
 * - debug_traceTransaction with prestateTracer and diffMode (geth, Reth, anvil): `{pre, post}`. `pre`
 *   holds each changed account as it was (with only its changed slots), `post` only the fields that
 *   changed. A field missing from `post` did not change; a slot in `pre` missing from `post` was
 *   cleared; an account in `pre` missing from `post` altogether was deleted; one only in `post` did
 *   not exist before. geth writes nonces as JSON numbers, balances as hex.
 *
 * A diff that does not fit is dropped with a warning (the rest of the lookup is still shown): state
 * changes are an addition to the view, like the call tree.
 */
import { escapeShort } from './escape.js';
import { isAddress, isData, isQuantity, isRecord, lowerHex, toQuantity, ZERO_WORD } from './hex.js';
import type { Warn } from './parseRaw.js';
import type { Hex, RpcAccountDiff, RpcFieldChange, RpcSlotChange, StateSource } from './types.js';

/** trace_replayTransaction and trace_call put Parity's stateDiff in their result; the prestateTracer gives {pre, post}. */
export const isParityState = (source: StateSource): boolean => source === 'trace_replayTransaction' || source === 'trace_call';


const WORD = /^0x[0-9a-fA-F]{1,64}$/;

class Unfit extends Error {}

const unfit = (what: string): never => {
  throw new Unfit(what);
};

/** A storage key or value as a full 32-byte word, lower case (nodes send both padded and trimmed forms). */
function word(v: unknown, what: string): Hex {
  if (typeof v !== 'string' || !WORD.test(v)) return unfit(`${what} is not a 32-byte word`);
  return `0x${v.slice(2).toLowerCase().padStart(64, '0')}`;
}

function quantity(v: unknown, what: string): Hex {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return toQuantity(v);
  if (!isQuantity(v)) return unfit(`${what} is not a quantity`);
  return toQuantity(BigInt(v));
}

function code(v: unknown, what: string): Hex {
  if (!isData(v)) return unfit(`${what} is not hex data`);
  return lowerHex(v);
}

function address(a: string): Hex {
  if (!isAddress(a)) return unfit(`"${escapeShort(a, 50)}" is not an address`);
  return lowerHex(a);
}

const same = (a: Hex, b: Hex): boolean => a === b;

/** Parity's per-field diff: "=", {"+": v}, {"-": v} or {"*": {from, to}}; `empty` is the field's value when absent. */
function parityField(v: unknown, read: (x: unknown, what: string) => Hex, empty: Hex, what: string): { change?: RpcFieldChange; born: boolean; died: boolean } {
  if (v === '=' || v === undefined) return { born: false, died: false };
  if (!isRecord(v)) return unfit(`${what} is not a diff`);
  if ('+' in v) return { change: { before: empty, after: read(v['+'], what) }, born: true, died: false };
  if ('-' in v) return { change: { before: read(v['-'], what), after: empty }, born: false, died: true };
  const star = v['*'];
  if (!isRecord(star)) return unfit(`${what} is not a diff`);
  return { change: { before: read(star.from, what), after: read(star.to, what) }, born: false, died: false };
}

function fromReplay(result: unknown): RpcAccountDiff[] {
  if (!isRecord(result) || !isRecord(result.stateDiff)) return unfit('no stateDiff object');
  const out: RpcAccountDiff[] = [];
  for (const [key, entry] of Object.entries(result.stateDiff)) {
    const a = address(key);
    if (!isRecord(entry)) return unfit(`the entry of ${a} is not an object`);
    const balance = parityField(entry.balance, quantity, '0x0', `${a} balance`);
    const nonce = parityField(entry.nonce, quantity, '0x0', `${a} nonce`);
    const codeDiff = parityField(entry.code, code, '0x', `${a} code`);
    const storage: RpcSlotChange[] = [];
    const slots = entry.storage ?? {};
    if (!isRecord(slots)) return unfit(`the storage of ${a} is not an object`);
    for (const [slot, diff] of Object.entries(slots)) {
      const s = parityField(diff, word, ZERO_WORD, `${a} slot`);
      if (s.change !== undefined && !same(s.change.before, s.change.after)) storage.push({ slot: word(slot, `${a} slot key`), ...s.change });
    }
    const born = balance.born || nonce.born || codeDiff.born;
    const died = balance.died || nonce.died || codeDiff.died;
    const known = codeDiff.change?.after !== undefined && codeDiff.change.after !== '0x' ? codeDiff.change.after : codeDiff.change?.before;
    out.push({
      address: a,
      ...(balance.change && !same(balance.change.before, balance.change.after) ? { balance: balance.change } : {}),
      ...(nonce.change && !same(nonce.change.before, nonce.change.after) ? { nonce: nonce.change } : {}),
      ...(codeDiff.change && !same(codeDiff.change.before, codeDiff.change.after) ? { code: codeDiff.change } : {}),
      storage,
      existedBefore: !born,
      existsAfter: !died,
      ...(known !== undefined && known !== '0x' ? { knownCode: known } : {}),
    });
  }
  return out;
}

interface AccountFields {
  readonly balance?: Hex;
  readonly nonce?: Hex;
  readonly code?: Hex;
  readonly storage: Map<Hex, Hex>;
}

function prestateAccount(v: unknown, a: Hex, side: string): AccountFields {
  if (!isRecord(v)) return unfit(`${side}[${a}] is not an object`);
  const storage = new Map<Hex, Hex>();
  if (v.storage !== undefined && v.storage !== null) {
    if (!isRecord(v.storage)) return unfit(`${side}[${a}].storage is not an object`);
    for (const [slot, value] of Object.entries(v.storage)) storage.set(word(slot, `${side}[${a}] slot key`), word(value, `${side}[${a}] slot`));
  }
  return {
    ...(v.balance !== undefined && v.balance !== null ? { balance: quantity(v.balance, `${side}[${a}].balance`) } : {}),
    ...(v.nonce !== undefined && v.nonce !== null ? { nonce: quantity(v.nonce, `${side}[${a}].nonce`) } : {}),
    ...(v.code !== undefined && v.code !== null ? { code: code(v.code, `${side}[${a}].code`) } : {}),
    storage,
  };
}

function fromPrestate(result: unknown): RpcAccountDiff[] {
  if (!isRecord(result) || !isRecord(result.pre) || !isRecord(result.post)) return unfit('no pre and post objects');
  const pre = new Map<Hex, AccountFields>();
  const post = new Map<Hex, AccountFields>();
  for (const [k, v] of Object.entries(result.pre)) pre.set(address(k), prestateAccount(v, address(k), 'pre'));
  for (const [k, v] of Object.entries(result.post)) post.set(address(k), prestateAccount(v, address(k), 'post'));
  const out: RpcAccountDiff[] = [];
  for (const a of new Set([...pre.keys(), ...post.keys()])) {
    const before = pre.get(a);
    const after = post.get(a);
    const existsAfter = after !== undefined;
    const change = (field: 'balance' | 'nonce' | 'code', empty: Hex): RpcFieldChange | undefined => {
      const was = before?.[field] ?? empty;
      const now = existsAfter ? after[field] : empty; // a field missing from post did not change
      return now === undefined || same(was, now) ? undefined : { before: was, after: now };
    };
    const storage: RpcSlotChange[] = [];
    for (const [slot, value] of after?.storage ?? []) {
      const was = before?.storage.get(slot) ?? ZERO_WORD;
      if (!same(was, value)) storage.push({ slot, before: was, after: value });
    }
    // A slot in pre that post leaves out was cleared (or the whole account was).
    for (const [slot, was] of before?.storage ?? []) {
      if (!(after?.storage.has(slot) ?? false) && !same(was, ZERO_WORD)) storage.push({ slot, before: was, after: ZERO_WORD });
    }
    storage.sort((x, y) => (x.slot < y.slot ? -1 : 1));
    const balance = change('balance', '0x0');
    const nonce = change('nonce', '0x0');
    const codeChange = change('code', '0x');
    const known = after?.code ?? before?.code;
    // An empty account (no balance, nonce, code or storage) is the same as none (EIP-161); some
    // nodes list it in pre when value arrives, others leave it out.
    const existedBefore =
      before !== undefined && ((before.balance ?? '0x0') !== '0x0' || (before.nonce ?? '0x0') !== '0x0' || (before.code ?? '0x') !== '0x' || before.storage.size > 0);
    out.push({
      address: a,
      ...(balance ? { balance } : {}),
      ...(nonce ? { nonce } : {}),
      ...(codeChange ? { code: codeChange } : {}),
      storage,
      existedBefore,
      existsAfter,
      ...(known !== undefined && known !== '0x' ? { knownCode: known } : {}),
    });
  }
  return out;
}

/**
 * The accounts a state diff says changed, sorted by address; null (with a warning) when the answer
 * does not fit its method's shape. Accounts with nothing changed are left out.
 */
export function parseStateDiff(raw: unknown, source: StateSource, warn: Warn): RpcAccountDiff[] | null {
  try {
    const accounts = isParityState(source) ? fromReplay(raw) : fromPrestate(raw);
    return accounts
      .filter((d) => d.balance !== undefined || d.nonce !== undefined || d.code !== undefined || d.storage.length > 0 || d.existedBefore !== d.existsAfter)
      .sort((x, y) => (x.address < y.address ? -1 : 1));
  } catch (err) {
    if (!(err instanceof Unfit)) throw err;
    warn(`${source}: the state diff is malformed (${err.message}); state changes are not shown.`);
    return null;
  }
}
