/**
 * --gas in the text view: the gas profile as a table after the call tree (loaded only with --gas),
 * and the folded stacks --gas-out writes for flame-graph viewers. Pure.
 */
import { shownName } from '../decode/shownName.js';
import type { ChalkInstance } from 'chalk';
import { rootCountsIntrinsicGas } from '../raw/parseCallTrace.js';
import Table from 'cli-table3';
import { gasOutsideCalls } from '../decode/gasProfile.js';

import type { GasProfile, GasRow, InspectModel, StackFrame } from '../model/types.js';
import { escapeShort } from '../raw/escape.js';
import { groupDigits, percent } from '../format/format.js';
import { showAddress, showTarget } from '../words/formatDecoded.js';

/** Rows the table shows; the rest are summed on one line. */
const TOP = 20;

const gas = (g: bigint | null): string => (g === null ? 'unknown' : groupDigits(g));

/** A row's name, as the call tree names its target (two instances of one contract told apart: "Token(DAI)"). */
function rowName(r: GasRow, m: InspectModel): string {
  const where = r.address === null ? '?' : showTarget(r.address, { decoded: m.decoded, short: true });
  return `${where}::${r.function !== null ? escapeShort(r.function, 40) : (r.selector ?? '?')}`;
}

export function* renderGasProfile(m: InspectModel, profile: GasProfile, c: ChalkInstance): Generator<string> {
  const calls = profile.rows.reduce((n, r) => n + r.calls, 0);
  yield `\n${c.bold(`Gas profile (${groupDigits(profile.rows.length)} ${profile.rows.length === 1 ? 'function' : 'functions'}, ${groupDigits(calls)} ${calls === 1 ? 'call' : 'calls'})`)}\n`;
  const table = new Table({
    head: ['contract::function', 'calls', 'gas used', 'self gas', 'of the tx'].map((h) => c.bold(h)),
    style: { head: [], border: [], compact: true },
    colAligns: ['left', 'right', 'right', 'right', 'right'],
  });
  const total = profile.rootGas;
  // Self gas as a share of the transaction's gas used (the receipt's), else of the root call's.
  const whole = m.receipt?.gasUsed ?? total;
  for (const r of profile.rows.slice(0, TOP)) {
    table.push([rowName(r, m), groupDigits(r.calls), gas(r.gasUsed), gas(r.selfGas), r.selfGas === null || whole === null || whole === 0n ? '' : percent(r.selfGas, whole)]);
  }
  yield `${table.toString()}\n`;
  const rest = profile.rows.slice(TOP);
  if (rest.length > 0) {
    const restSelf = rest.reduce<bigint | null>((n, r) => (n === null || r.selfGas === null ? null : n + r.selfGas), 0n);
    yield `  ${c.dim(`… ${groupDigits(rest.length)} more rows, ${gas(restSelf)} self gas`)}\n`;
  }
  yield `  ${c.dim('Self gas adds up to the tracer\'s root frame, gas used')} ${gas(total)}${profile.unknown > 0 ? c.dim(` (partial: ${groupDigits(profile.unknown)} ${profile.unknown === 1 ? 'call has' : 'calls have'} no gas used in the trace)`) : ''}\n`;
  const outside = gasOutsideCalls(m.receipt, profile);
  const receiptGas = m.receipt?.gasUsed;
  if (outside !== null && receiptGas !== undefined) {
    const counted = m.traceSource === 'local' ? "txray's EVM, as geth's callTracer does," : "geth's callTracer";
    const what = rootCountsIntrinsicGas(m.traceSource) ? `${counted} counts the intrinsic gas in its root call` : 'intrinsic gas less refunds';
    yield `  ${c.dim('Gas outside calls')} ${groupDigits(outside)} ${c.dim(`(the receipt's ${groupDigits(receiptGas)}, the call tree's root line, minus the root frame's ${gas(total)}: ${what})`)}\n`;
  }
}

/** A frame's name for a folded stack: "Contract::function", no ';' or whitespace (the format's separators). */
function frame(n: StackFrame, m: InspectModel): string {
  if (!('children' in n)) return (n.contract === null ? n.name : `${n.contract}.${n.name}`).replace(/[;\s]/g, '_');
  const fn = n.decoded?.function;
  const target = n.to === null ? '?' : (shownName(m.decoded, n.to) ?? showAddress(n.to, { decoded: m.decoded, short: false }));
  const name = n.type === 'create' ? 'constructor' : (fn?.name ?? (n.input !== null && n.input.length >= 10 ? n.input.slice(0, 10) : '(no data)'));
  return escapeShort(`${target}::${name}`, 120).replace(/[;\s]/g, '_');
}

/** Folded stacks ("a;b;c <self gas>" a line) for flamegraph.pl, inferno and speedscope; `prefix` names the transaction with several. */
export function* foldedStacks(m: InspectModel, profile: GasProfile, prefix?: string): Generator<string> {
  for (const { stack, selfGas } of profile.folded) {
    yield `${prefix !== undefined ? `${prefix};` : ''}${stack.map((n) => frame(n, m)).join(';')} ${selfGas}\n`;
  }
}
