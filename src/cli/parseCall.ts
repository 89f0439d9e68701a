/**
 * `txray call`'s words and options, checked before any request: the target, signature and arguments
 * (encoded later, once the ABIs are loaded, since a bare name is looked up in them), the sender, value,
 * block, gas limit and state overrides. Every failure is a UsageError (exit 2).
 */
import { UsageError } from '../errors.js';
import { parseAmount } from '../decode/encodeCall.js';
import { escapeShort } from '../raw/escape.js';
import type { RpcAccountStateOverride, RpcStateOverride } from 'viem';
import { isAddress, toQuantity } from '../raw/hex.js';
import type { Hex, StateOverride } from '../raw/types.js';
import type { CallInput, CodeOverride } from '../pipeline/planCall.js';
import { parseOverrideCode } from './parseOverrideCode.js';
import { parseStateOverride } from './parseStateOverride.js';

export interface RawCallOptions {
  readonly from?: string;
  readonly value?: string;
  readonly data?: string;
  readonly block?: string;
  readonly gasLimit?: string;
  readonly create?: string;
  readonly raw?: string;
  readonly overrideBalance?: readonly string[];
  readonly overrideNonce?: readonly string[];
  readonly overrideCode?: readonly string[];
  readonly overrideStateDiff?: readonly string[];
  readonly stateOverride?: string;
  readonly tx?: string;
}

const ZERO_ADDRESS: Hex = '0x0000000000000000000000000000000000000000';
const TAGS = ['latest', 'pending', 'earliest', 'safe', 'finalized'];
const MAX_UINT256 = 2n ** 256n - 1n;


function address(text: string, what: string): Hex {
  const s = text.trim();
  if (!isAddress(s)) throw new UsageError(`${what} '${escapeShort(s, 60)}' is not an address (0x and 40 hex digits).`);
  return `0x${s.slice(2).toLowerCase()}`;
}

function bytes(text: string, what: string): Hex {
  const s = text.trim();
  if (!/^0x([0-9a-fA-F]{2})*$/.test(s)) throw new UsageError(`${what} takes hex bytes (0x and an even number of hex digits), not '${escapeShort(s, 40)}'.`);
  return `0x${s.slice(2).toLowerCase()}`;
}

function amount(text: string, what: string, max = MAX_UINT256): bigint {
  const n = parseAmount(text);
  if (n === null || n < 0n || n > max) throw new UsageError(`${what} takes a whole amount in wei (decimal, 0x-hex, or with a unit: 1.5ether, 10gwei), not '${escapeShort(text, 40)}'.`);
  return n;
}

/** A 32-byte word from a number or hex (a storage slot or value). */
function word(text: string, what: string): Hex {
  const n = parseAmount(text);
  if (n === null || n < 0n || n > MAX_UINT256) throw new UsageError(`${what} '${escapeShort(text, 70)}' is not a 32-byte word (a number or 0x-hex of up to 64 digits).`);
  return `0x${n.toString(16).padStart(64, '0')}`;
}

export function parseBlock(text: string | undefined, isRaw: boolean): string {
  if (text === undefined) return isRaw ? 'default' : 'latest';
  const s = text.trim().toLowerCase();
  if (TAGS.includes(s)) return s;
  if (/^0x[0-9a-f]{64}$/.test(s)) return s;
  if (/^(0x[0-9a-f]{1,16}|\d{1,19})$/.test(s)) return toQuantity(BigInt(s));
  throw new UsageError(`--block takes a block number, a tag (${TAGS.join(', ')}) or a block hash, not '${escapeShort(text, 70)}'.`);
}

/** Every form --override-code's code takes (parseOverrideCode.ts), said where none was given. */
const CODE_FORMS = '<address>:<code>, the code as runtime hex (0x…), an artifact file (Foundry or Hardhat), a file of hex, or the name of a contract of the project';

/** `<addr>:<rest>` for the override options; the address is checked, the rest handed back. */
function splitOverride(text: string, option: string, parts: 2 | 3): [Hex, string, string] {
  const pieces = text.split(':');
  if (pieces.length !== parts) {
    const form = parts === 3 ? '<address>:<slot>:<value>' : '<address>:<value>';
    throw new UsageError(`${option} takes ${form}, not '${escapeShort(text, 80)}'.`);
  }
  // As many pieces as `parts`: the defaults fill only what a two-part form does not have.
  const [head = '', second = '', third = ''] = pieces;
  return [address(head, `${option}:`), second, third];
}

/**
 * The state overrides: --state-override's file first, the options on top (a slot of --override-state-diff
 * joins the file's `state` where it replaces the account's storage). Code from an artifact or a contract
 * name is set once known (`codes`).
 */
export function parseOverrides(raw: RawCallOptions, codes: CodeOverride[] = []): StateOverride | null {
  const out: RpcStateOverride = raw.stateOverride === undefined ? {} : parseStateOverride(raw.stateOverride);
  const entry = (a: Hex): RpcAccountStateOverride => (out[a] ??= {});
  for (const t of raw.overrideBalance ?? []) {
    const [a, v] = splitOverride(t, '--override-balance', 2);
    entry(a).balance = toQuantity(amount(v, '--override-balance'));
  }
  for (const t of raw.overrideNonce ?? []) {
    const [a, v] = splitOverride(t, '--override-nonce', 2);
    const n = parseAmount(v);
    if (n === null || n < 0n || n >= 2n ** 64n) throw new UsageError(`--override-nonce takes a nonce from 0 to 2^64-1, not '${escapeShort(v, 40)}'.`);
    entry(a).nonce = toQuantity(n);
  }
  for (const t of raw.overrideCode ?? []) {
    // A path may hold a colon of its own: the address is what comes before the first one.
    const colon = t.indexOf(':');
    // Nothing after the colon is as nothing after the address: every form is said.
    if (colon < 0 || t.slice(colon + 1).trim() === '') throw new UsageError(`--override-code takes ${CODE_FORMS}, not '${escapeShort(t, 80)}'.`);
    const [a] = splitOverride(`${t.slice(0, colon)}:x`, '--override-code', 2);
    const source = parseOverrideCode(t.slice(colon + 1));
    if (source.kind === 'hex') entry(a).code = source.code;
    else codes.push({ address: a, source });
  }
  for (const t of raw.overrideStateDiff ?? []) {
    const [a, slot, value] = splitOverride(t, '--override-state-diff', 3);
    const e = entry(a);
    const diff = e.state ?? (e.stateDiff ??= {});
    diff[word(slot, '--override-state-diff slot')] = word(value, '--override-state-diff value');
  }
  return Object.keys(out).length === 0 ? null : out;
}

/** --tx: the mined transaction to run again, and the changes asked (each absent where not given). */
function parseReplay(tx: string, words: readonly string[], raw: RawCallOptions, base: Pick<CallInput, 'overrides' | 'codes'>, gasLimit: bigint | undefined): CallInput {
  const text = tx.trim();
  if (!/^0x[0-9a-fA-F]{64}$/.test(text)) throw new UsageError(`--tx takes a transaction hash (0x and 64 hex digits), not '${escapeShort(text, 70)}'.`);
  const clash = raw.create !== undefined ? '--create' : raw.raw !== undefined ? '--raw' : null;
  if (clash !== null) throw new UsageError(`--tx runs a mined transaction again: it takes no ${clash}.`);
  const [sig, ...args] = words;
  if (raw.data !== undefined && sig !== undefined) throw new UsageError('give either --data or a signature with its arguments, not both.');
  if (sig !== undefined && /^0x[0-9a-fA-F]{40}$/.test(sig)) throw new UsageError('--tx calls the transaction\'s own target: give the new signature and arguments without an address.');
  return {
    to: null,
    args,
    ...(sig !== undefined ? { sig } : {}),
    ...(raw.data !== undefined ? { data: bytes(raw.data, '--data') } : {}),
    from: raw.from === undefined ? ZERO_ADDRESS : address(raw.from, '--from'),
    value: raw.value === undefined ? 0n : amount(raw.value, '--value'),
    block: raw.block === undefined ? 'position' : parseBlock(raw.block, false),
    ...(gasLimit !== undefined ? { gasLimit } : {}),
    ...base,
    replay: { hash: text.toLowerCase() as Hex, from: raw.from !== undefined, value: raw.value !== undefined },
  };
}

export function parseCall(words: readonly string[], raw: RawCallOptions): CallInput {
  const codes: CodeOverride[] = [];
  const overrides = parseOverrides(raw, codes);
  const gasLimit = raw.gasLimit === undefined ? undefined : amount(raw.gasLimit, '--gas-limit', 2n ** 64n - 1n);
  if (raw.tx !== undefined) return parseReplay(raw.tx, words, raw, { overrides, codes }, gasLimit);
  const block = parseBlock(raw.block, raw.raw !== undefined);
  if (raw.raw !== undefined) {
    const extra = words.length > 0 ? 'target, signature or arguments' : raw.from !== undefined ? '--from' : raw.value !== undefined ? '--value' : raw.data !== undefined ? '--data' : raw.create !== undefined ? '--create' : raw.gasLimit !== undefined ? '--gas-limit' : null;
    if (extra !== null) throw new UsageError(`--raw simulates the signed transaction exactly as it is: it takes no ${extra}.`);
    bytes(raw.raw, '--raw');
    return { to: null, args: [], from: ZERO_ADDRESS, value: 0n, raw: raw.raw.trim(), block, overrides, codes };
  }
  const from = raw.from === undefined ? ZERO_ADDRESS : address(raw.from, '--from');
  const value = raw.value === undefined ? 0n : amount(raw.value, '--value');
  const common = { from, value, block, overrides, codes, ...(gasLimit !== undefined ? { gasLimit } : {}) };
  if (raw.create !== undefined) {
    if (raw.data !== undefined) throw new UsageError('--create takes the init code itself; leave out --data.');
    const [sig, ...args] = words;
    return { to: null, create: bytes(raw.create, '--create'), ...(sig !== undefined ? { sig } : {}), args, ...common };
  }
  if (words.length === 0) throw new UsageError('txray call needs the address to call (or --create <initcode>, or --raw <signed transaction>); see txray call --help.');
  const [target = '', sig, ...args] = words;
  const to = address(target, 'the target');
  if (raw.data !== undefined) {
    if (sig !== undefined) throw new UsageError('give either --data or a signature with its arguments, not both.');
    return { to, data: bytes(raw.data, '--data'), args: [], ...common };
  }
  return { to, ...(sig !== undefined ? { sig } : {}), args, ...common };
}
