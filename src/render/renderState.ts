/**
 * --state in the text view: balance changes (ETH from the state diff with the fee split, tokens from
 * the transfer events), storage changes (named by variable where a layout is known), accounts.
 * Pure, like the other renderers; token symbols, variable names and labels are third-party text and
 * go through escapeText.
 */
import type { ChalkInstance } from 'chalk';

import { BASE_FEE_VAULT, L1_FEE_VAULT } from '../model/chain.js';
import type { AccountChange, AccountRole, FeeSplit, InspectModel, NamedSlotPart, StateModel, TokenBalance } from '../model/types.js';
import { toQuantity } from '../raw/hex.js';
import type { Hex } from '../raw/types.js';
import { escapeText } from '../raw/escape.js';
import { formatBytes, formatEth, formatGwei, formatUnits, groupDigits } from '../format/format.js';
import { type AddressStyle, sciHint, showAddress } from '../words/formatDecoded.js';

/** Lines each section shows at most; a transaction that touches 10,000 slots says how many it left out. */
const MAX_ROWS = 100;
const MAX_SLOTS = 200;

const signed = (n: bigint, text: string): string => (n > 0n ? `+${text}` : text);
const plural = (n: number, one: string, many = `${one}s`): string => `${groupDigits(n)} ${n === 1 ? one : many}`;

function who(a: AccountChange | { address: Hex; roles: readonly AccountRole[] }, s: AddressStyle, c: ChalkInstance): string {
  return `${showAddress(a.address, s)}${a.roles.length > 0 ? ` ${c.dim(a.roles.join(', '))}` : ''}`;
}

function tokenAmount(t: TokenBalance, s: AddressStyle): string {
  const n = t.change;
  const unit = t.symbol !== null ? escapeText(t.symbol) : `${t.kind} ${showAddress(t.token, { ...s, short: true })}`;
  if (t.kind === 'ERC-721') return `${signed(n, n.toString())} ${unit} ${n === 1n || n === -1n ? 'token' : 'tokens'}`;
  const id = t.tokenId !== undefined ? ` (id ${t.tokenId})` : '';
  if (t.decimals !== null && t.kind === 'ERC-20') return `${signed(n, formatUnits(n, t.decimals))} ${unit}${id}`;
  return `${signed(n, groupDigits(n))}${sciHint(n.toString())} ${unit}${id}${t.kind === 'ERC-20' ? ' (raw units: decimals unknown)' : ''}`;
}

function* balanceRows(m: InspectModel, state: StateModel, c: ChalkInstance): Generator<string> {
  const s: AddressStyle = { decoded: m.decoded, short: false };
  const tokens = m.decoded?.state?.tokens ?? [];
  const roles = new Map<string, readonly AccountRole[]>(state.accounts.map((a) => [a.address, a.roles]));
  const rows = state.balances.length + tokens.length;
  yield `\n${c.bold(`Balance changes (${groupDigits(rows)})`)}\n`;
  for (const a of state.balances.slice(0, MAX_ROWS)) {
    // The balances are the accounts whose balance changed (buildState).
    if (a.balance === null) continue;
    const { before, after } = a.balance;
    yield `  ${who(a, s, c)}\n      ${c.yellow(signed(after - before, formatEth(after - before)))}  ${c.dim(`${formatUnits(before, 18)} → ${formatUnits(after, 18)} ETH`)}\n`;
  }
  for (const t of tokens.slice(0, Math.max(0, MAX_ROWS - state.balances.length))) {
    yield `  ${who({ address: t.holder, roles: roles.get(t.holder) ?? [] }, s, c)}\n      ${c.yellow(tokenAmount(t, s))}\n`;
  }
  if (rows > MAX_ROWS) yield `  ${c.dim(`… ${plural(rows - MAX_ROWS, 'more row')} not shown (all of them are in --json)`)}\n`;
  const fee = state.fee;
  if (fee !== null) yield `  ${c.dim('Fee')}  ${formatEth(fee.total)}: ${feeParts(fee, s, c)}\n`;
  if (!state.feeInDiff && fee !== null) {
    yield `  ${c.dim(`The node's state diff leaves the fee out: the sender also paid ${formatEth(fee.total + fee.blobFee)}, not counted above.`)}\n`;
  } else if (state.expectedSum !== null && fee !== null) {
    const holds = state.ethSum === state.expectedSum;
    // What the ETH changes must add up to, by the chain's rules.
    const should = fee.rules === 'op-stack' ? (fee.mint !== null ? 'the ETH the deposit minted' : '0: an OP Stack chain burns nothing') : 'minus the burned fee';
    yield `  ${c.dim('Sum')}  ${formatEth(state.ethSum)} ${holds ? c.green(`= ${should} ✔`) : c.red(`≠ ${should} (${formatEth(state.expectedSum)}) ✘`)}\n`;
  }
}

/** Where the fee went, by the chain's rules, as far as the answers tell. */
function feeParts(fee: FeeSplit, s: AddressStyle, c: ChalkInstance): string {
  const coinbase = fee.coinbase !== null ? ` ${showAddress(fee.coinbase, { ...s, short: true })}` : '';
  if (fee.rules === 'op-stack') {
    if (fee.mint !== null) return `none: a deposit buys its gas on L1; it minted ${formatEth(fee.mint)} on L2`;
    const l1 = fee.l1Fee > 0n ? `, L1 data fee ${formatEth(fee.l1Fee)} to ${showAddress(L1_FEE_VAULT, { ...s, short: true })}` : '';
    // The part, the base fee and the priority part are known together (model/feeSplit.ts).
    if (fee.baseFeePart === null || fee.baseFeePerGas === null || fee.priority === null) return `${c.dim('the block header is not known, so the split is not either')}${l1}; nothing burned`;
    return `base fee part ${formatEth(fee.baseFeePart)} (base fee ${formatGwei(fee.baseFeePerGas)}) to ${showAddress(BASE_FEE_VAULT, { ...s, short: true })}, ${formatEth(fee.priority)} to the sequencer${coinbase}${l1}; nothing burned`;
  }
  if (fee.rules === 'arbitrum') return c.dim(`where it goes (the chain's fee accounts) the answers do not say${fee.l1Gas !== null ? `; ${groupDigits(fee.l1Gas)} of the gas paid for L1 calldata` : ''}`);
  if (fee.burned === null || fee.baseFeePerGas === null || fee.priority === null) return c.dim('the block header is not known, so the burned part is not either');
  return `${formatEth(fee.burned)} burned (base fee ${formatGwei(fee.baseFeePerGas)}), ${formatEth(fee.priority)} to the coinbase${coinbase}${fee.blobFee > 0n ? `, blob fee ${formatEth(fee.blobFee)} burned` : ''}`;
}

const slotText = (slot: Hex): string => {
  const n = BigInt(slot);
  return n < 1_000_000n ? `slot ${n}` : `slot ${slot.slice(0, 10)}…${slot.slice(-8)}`;
};
const wordText = (w: Hex): string => toQuantity(BigInt(w));

/** What nameSlots says of a string too long to sit in its slot: its length only. */
const LONG_BYTES = /^\(\d+ bytes\)$/;

/** A variable's path with the addresses in it (mapping keys) shown as elsewhere. */
function pathText(path: string, s: AddressStyle): string {
  return escapeText(path).replace(/0x[0-9a-fA-F]{40}\b/g, (a) => showAddress(a, { ...s, short: true }));
}

function partText(p: NamedSlotPart, s: AddressStyle): string {
  const v = (x: string | boolean): string =>
    typeof x === 'boolean'
      ? String(x)
      : p.type === 'address' || p.type.startsWith('contract ')
        ? showAddress(x, { ...s, short: true })
        : p.type === 'string'
          ? LONG_BYTES.test(x)
            ? x
            : `"${escapeText(x)}"`
          : `${escapeText(x)}${sciHint(x)}`;
  const change = p.change !== undefined && p.change !== '0' ? ` (${p.change.startsWith('-') ? p.change : `+${p.change}`})` : '';
  return `${pathText(p.path, s)}: ${v(p.before)} → ${v(p.after)}${change}`;
}

function* storageRows(m: InspectModel, state: StateModel, c: ChalkInstance): Generator<string> {
  const s: AddressStyle = { decoded: m.decoded, short: false };
  const changed = state.accounts.filter((a) => a.storage.length > 0);
  const slots = changed.reduce((n, a) => n + a.storage.length, 0);
  yield `\n${c.bold(`Storage changes (${plural(changed.length, 'contract')}, ${plural(slots, 'slot')})`)}\n`;
  let shown = 0;
  for (const a of changed) {
    if (shown >= MAX_SLOTS) break;
    const layout = m.decoded?.state?.layouts.get(a.address);
    const via = layout === undefined ? '' : c.dim(` · names from ${escapeText(layout.contract)}'s ${layout.verified === true ? 'verified ' : ''}storage layout${layout.via !== undefined ? ` (implementation ${showAddress(layout.via, { ...s, short: true })})` : ''}`);
    yield `  ${showAddress(a.address, s)}${via}\n`;
    const named = m.decoded?.state?.storage.get(a.address);
    for (const slot of a.storage.slice(0, MAX_SLOTS - shown)) {
      shown++;
      const parts = named?.get(slot.slot);
      if (parts === undefined || parts.length === 0) {
        yield `      ${c.dim(slotText(slot.slot))}: ${wordText(slot.before)} → ${wordText(slot.after)}\n`;
        continue;
      }
      for (const p of parts) yield `      ${partText(p, s)}  ${c.dim(slotText(slot.slot))}\n`;
    }
  }
  if (slots > shown) yield `  ${c.dim(`… ${plural(slots - shown, 'more slot')} not shown (all of them are in --json)`)}\n`;
}

function* accountRows(m: InspectModel, state: StateModel, c: ChalkInstance): Generator<string> {
  const s: AddressStyle = { decoded: m.decoded, short: false };
  yield `\n${c.bold(`Accounts (${groupDigits(state.accounts.length)})`)}\n`;
  for (const a of state.accounts.slice(0, MAX_ROWS)) {
    const what: string[] = [];
    if (a.nonce !== null) what.push(`nonce ${a.nonce.before} → ${a.nonce.after}`);
    if (a.delegation !== null) {
      const d = a.delegation;
      what.push(d.after !== null ? `delegates to ${showAddress(d.after, { ...s, short: true })} (EIP-7702)` : `delegation${d.before === null ? '' : ` to ${showAddress(d.before, { ...s, short: true })}`} cleared (EIP-7702)`);
    } else if (a.code !== null) {
      what.push(a.code.after > 0 ? `code ${formatBytes(a.code.after)}` : `code removed (${formatBytes(a.code.before)})`);
    }
    if (a.balance !== null) what.push('balance');
    if (a.storage.length > 0) what.push(plural(a.storage.length, 'slot'));
    yield `  ${who(a, s, c)}  ${what.join(', ')}\n`;
  }
  if (state.accounts.length > MAX_ROWS) yield `  ${c.dim(`… ${plural(state.accounts.length - MAX_ROWS, 'more account')} not shown (all of them are in --json)`)}\n`;
}

/** The three --state sections, or one line saying why there are none. */
export function* renderState(m: InspectModel, c: ChalkInstance): Generator<string> {
  const state = m.state;
  if (state === undefined) return;
  if (state === null) {
    if (m.status === 'success' || m.status === 'reverted') yield `\n${c.bold('State changes')}\n  ${c.dim('not shown: the node gave no state diff (see the warning).')}\n`;
    return;
  }
  yield* balanceRows(m, state, c);
  if (state.accounts.some((a) => a.storage.length > 0)) yield* storageRows(m, state, c);
  yield* accountRows(m, state, c);
}
