/**
 * Decoded values for text: exact numbers with a short scientific hint, checksummed addresses with
 * their labels, strings quoted and escaped, long bytes shortened. Names from ABIs and the database
 * are third-party text too, and escaped like everything else.
 */

import { escapeText } from '../raw/escape.js';
import { isData } from '../raw/hex.js';
import { checksumAddress } from '../decode/keccak.js';
import { shortAddress, shortHex } from '../format/format.js';
import type { Decoded, DecodedArg, DecodedModel, JsonValue } from '../model/types.js';
import { shownName } from '../decode/shownName.js';
import type { RevertJson } from '../model/decodeRevert.js';

/** " [4e19]" for 40000000000000000000, " [1.234e8]" for 123456789; nothing below a million. */
export function sciHint(decimal: string): string {
  const neg = decimal.startsWith('-');
  const digits = neg ? decimal.slice(1) : decimal;
  if (!/^\d+$/.test(digits) || digits.length < 7) return '';
  const mantissa = `${digits[0]}${digits.length > 1 ? `.${digits.slice(1, 4)}` : ''}`.replace(/\.?0+$/, '');
  return ` [${neg ? '-' : ''}${mantissa}e${digits.length - 1}]`;
}

/** How addresses are shown: checksummed, short in tight places, with a label when one is known. */
export interface AddressStyle {
  readonly decoded: DecodedModel | undefined;
  readonly short: boolean;
}

export function showAddress(a: string, s: AddressStyle): string {
  const lower = a.toLowerCase();
  const checksummed = s.decoded?.checksums.get(lower) ?? a;
  const shown = s.short ? shortAddress(checksummed) : checksummed;
  const label = s.decoded?.labels.get(lower);
  if (label !== undefined) return `${escapeText(label)}(${shown})`;
  // EIP-7702: an account that runs a delegate's code is named by it.
  const delegate = s.decoded?.delegates?.get(lower);
  return delegate === undefined ? shown : `${shown} (delegated to ${delegateName(delegate, s)})`;
}

/** A delegate by its label, else its short address. */
function delegateName(delegate: string, s: AddressStyle): string {
  const name = s.decoded?.labels.get(delegate.toLowerCase());
  return name !== undefined ? escapeText(name) : shortAddress(s.decoded?.checksums.get(delegate.toLowerCase()) ?? checksumAddress(delegate));
}

/** A call target: its label alone when it has one (with its instance's tag where the label is ambiguous), else the address. */
export function showTarget(a: string, s: AddressStyle): string {
  const label = shownName(s.decoded, a);
  return label !== undefined ? escapeText(label) : showAddress(a, s);
}

function value(v: JsonValue, type: string, s: AddressStyle): string {
  if (Array.isArray(v)) {
    const inner = type.replace(/\[\d*\]$/, '');
    const isArray = type.endsWith(']');
    const items = v.slice(0, 8).map((x, i) => value(x, isArray ? inner : `component${i}`, s));
    const more = v.length > 8 ? `, …+${v.length - 8}` : '';
    return isArray ? `[${items.join(', ')}${more}]` : `(${items.join(', ')}${more})`;
  }
  if (typeof v === 'object') return `(${Object.entries(v).map(([k, x]) => `${escapeText(k)}: ${value(x, '', s)}`).join(', ')})`;
  if (typeof v === 'boolean') return String(v);
  if (type === 'address' || /^0x[0-9a-fA-F]{40}$/.test(v)) return showAddress(v, { ...s, short: true });
  if (type === 'string') return `"${escapeText(v)}"`;
  if (/^-?\d+$/.test(v) && (type.startsWith('uint') || type.startsWith('int') || type === '')) return `${v}${sciHint(v)}`;
  if (isData(v)) return shortHex(v, 8);
  return escapeText(v);
}

/** Revert data passed on as a `bytes` value, decoded: `Error("…")`, `Panic(0x11): …` (as describeRevert spells it) or the custom error by name; marked as revert data. */
function revertValue(r: RevertJson, s: AddressStyle): string | null {
  switch (r.kind) {
    case 'Error':
      return `Error("${escapeText(r.message)}") (revert data)`;
    case 'Panic':
      return `Panic(0x${r.code.slice(2).padStart(2, '0')}): ${escapeText(r.meaning)} (revert data)`;
    case 'custom':
      return r.name && r.args ? `${escapeText(r.name)}(${formatArgs(r.args, s)}) (revert data)` : null;
    default:
      return null;
  }
}

function argValue(a: DecodedArg, s: AddressStyle): string {
  return (a.revert !== undefined ? revertValue(a.revert, s) : null) ?? value(a.value, a.type, s);
}

/** An argument's value as shown, after its name. Guessed types have no names: the type stands in for one ("address: 0x…"). */
function labelled(a: DecodedArg, shown: string): string {
  return a.name ? `${escapeText(a.name)}: ${shown}` : a.name === undefined ? `${a.type}: ${shown}` : shown;
}

/** "from: 0xf39F…2266, amount: 40": the arguments of a call, as formatDecoded writes them between its parentheses. */
export function formatArgs(args: readonly DecodedArg[], s: AddressStyle): string {
  return args.map((a) => labelled(a, argValue(a, s))).join(', ');
}

/**
 * A run of calls or events to one function, folded into one line: the first one's arguments, each
 * followed by "… last" where the last one's differs ("leaf(i: 0 … 19999)"). When the two do not
 * decode alike (other arguments, or one guessed), the first one's alone, with "…" for the rest.
 */
export function formatDecodedRun(first: Decoded, last: Decoded, s: AddressStyle): string {
  const name = first.name === null ? (first.selector ?? '?') : escapeText(first.name);
  const alike = first.args.length === last.args.length && first.args.every((a, i) => a.name === last.args[i]!.name && a.type === last.args[i]!.type);
  if (!alike) return `${name}(${first.args.length === 0 ? '' : `${formatArgs(first.args, s)}, `}…)`;
  const args = first.args.map((a, i) => {
    const from = value(a.value, a.type, s);
    const to = value(last.args[i]!.value, a.type, s);
    return labelled(a, from === to ? from : `${from} … ${to}`);
  });
  return `${name}(${args.join(', ')})`;
}

/**
 * "transferFrom(from: 0xf39F…2266, to: 0xa513…c853, amount: 40000000000000000000 [4e19])"; guessed
 * types: "0xe10076ad(address: 0x…, uint256: 12)" (the views mark them as guessed).
 */
export function formatDecoded(d: Decoded, s: AddressStyle): string {
  const trailing = d.trailingBytes === undefined ? '' : ` +${d.trailingBytes} trailing byte${d.trailingBytes === 1 ? '' : 's'}`;
  return `${d.name === null ? (d.selector ?? '?') : escapeText(d.name)}(${formatArgs(d.args, s)})${trailing}`;
}

/** Return values: one unnamed value alone, else a parenthesised list. */
export function formatOutputs(outputs: readonly DecodedArg[], s: AddressStyle): string {
  if (outputs.length === 1 && !outputs[0]!.name) return argValue(outputs[0]!, s);
  return `(${formatArgs(outputs, s)})`;
}
