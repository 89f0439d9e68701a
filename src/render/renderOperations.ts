/**
 * The operations a transaction carried, for the text view: the Status line's count of failures, and a
 * section per kind — User operations (n), Safe transaction, Batch (n calls) — one entry each. Pure;
 * names and reasons are escaped (formatDecoded, escapeText), addresses checksummed.
 */
import type { ChalkInstance } from 'chalk';
import { checksumAddress } from '../decode/keccak.js';
import type { BatchOperation, InspectModel, Operation, SafeTransaction, UserOperation } from '../model/types.js';
import { escapeText } from '../raw/escape.js';
import { formatEth, formatValueShort, groupDigits } from '../format/format.js';
import { type AddressStyle, formatArgs, showAddress } from '../words/formatDecoded.js';
import { causeAt, causeWords, placeWords } from '../words/causeWords.js';
import { operationReason } from '../words/operationReason.js';

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** " · 1 of 2 user operations failed" (and of Safe transactions; "would fail" for a simulation), for the Status line; empty where none failed. */
export function operationsNote(m: InspectModel, c: ChalkInstance): string {
  const fail = m.simulation != null ? 'would fail' : 'failed';
  const ops = m.operations ?? [];
  const parts: string[] = [];
  for (const [kind, word] of [['userOperation', 'user operation'], ['safeTransaction', 'Safe transaction']] as const) {
    const all = ops.filter((o) => o.kind === kind);
    const failed = all.filter((o) => !o.success).length;
    if (failed > 0) parts.push(all.length === 1 ? `its ${word} ${fail}` : `${failed} of ${plural(all.length, word)} ${fail}`);
  }
  return parts.length === 0 ? '' : c.yellow(` · ${parts.join(', ')}`);
}

const who = (a: string, s: AddressStyle): string => showAddress(checksumAddress(a), s);

/** A failed operation's reason, and where its innermost failing frame stopped in the source where that is known. */
function verdict(o: UserOperation | SafeTransaction, c: ChalkInstance, s: AddressStyle, m: InspectModel): string {
  if (o.success) return c.green('✔ succeeded');
  const at = causeAt(m, o.traceAddress)?.at ?? null;
  return c.red(`✘ failed: ${operationReason(o, m.tree !== null, s)}${at === null ? '' : ` at ${placeWords(at)}`}`);
}

/** Its action and the frame it ran in, on the lines under an entry. */
function* detail(o: Operation, c: ChalkInstance): Generator<string> {
  if (o.action) yield `      ${c.dim('action')}  ${escapeText(o.action.summary)}\n`;
  if (o.traceAddress !== null) yield `      ${c.dim('ran at')}  trace [${o.traceAddress.join(',')}]\n`;
}

function* userOperationRows(ops: readonly UserOperation[], c: ChalkInstance, s: AddressStyle, m: InspectModel): Generator<string> {
  yield `\n${c.bold(`User operations (${ops.length})`)}\n`;
  for (const [i, o] of ops.entries()) {
    const paymaster = o.paymaster === null ? 'none' : who(o.paymaster, s);
    yield `  ${c.dim(`#${i + 1}`)} ${who(o.account, s)} ${c.dim('· nonce')} ${o.nonce} ${c.dim('·')} ${verdict(o, c, s, m)}\n`;
    yield `      ${c.dim('gas cost')} ${formatEth(o.actualGasCost)} ${c.dim(`(${groupDigits(o.actualGasUsed)} gas) · paymaster`)} ${paymaster} ${c.dim('· hash')} ${o.userOpHash}\n`;
    yield* detail(o, c);
  }
}

function* safeRows(safes: readonly SafeTransaction[], c: ChalkInstance, s: AddressStyle, m: InspectModel): Generator<string> {
  yield `\n${c.bold(safes.length === 1 ? 'Safe transaction' : `Safe transactions (${safes.length})`)}\n`;
  for (const o of safes) {
    yield `  ${who(o.account, s)} ${c.dim('·')} ${verdict(o, c, s, m)}\n`;
    yield `      ${c.dim('safeTxHash')} ${o.safeTxHash}\n`;
    yield* detail(o, c);
  }
}

/** Past this many characters a batch call's arguments are cut to "(…)": one line per call, whatever it was given. */
const MAX_ARGS_TEXT = 96;

/** ".depositFor(to: 0x…, amount: 5)", or ".depositFor(…)" where its arguments are cut; "" where no ABI names it. */
function callText(call: BatchOperation['calls'][number], s: AddressStyle): string {
  if (call.function === null) return '';
  const args = call.args === undefined ? null : formatArgs(call.args, s);
  return `.${escapeText(call.function)}(${args === null || args.length > MAX_ARGS_TEXT ? '…' : args})`;
}

function* batchRows(b: BatchOperation, c: ChalkInstance, s: AddressStyle, m: InspectModel): Generator<string> {
  yield `\n${c.bold(`Batch (${plural(b.calls.length, 'call')})`)} ${c.dim(`${escapeText(b.via)} by`)} ${who(b.account, s)}${b.traceAddress !== null ? c.dim(` at trace [${b.traceAddress.join(',')}]`) : ''}${b.success ? '' : `  ${c.red('✘ reverted')}`}\n`;
  for (const [i, call] of b.calls.entries()) {
    const fn = callText(call, s);
    const value = call.value > 0n ? ` ${formatValueShort(call.value)}` : '';
    const why = call.success === false ? causeWords(m, call.traceAddress ?? null, s) : null;
    const failed = `${call.allowFailure === true ? '✘ failed (allowed)' : '✘ failed'}${why === null ? '' : `: ${why}`}`;
    const outcome = call.success === null ? c.dim('? not known') : call.rolledBack ? c.yellow('✔ rolled back (the batch reverted)') : call.success ? c.green('✔') : c.red(failed);
    yield `  ${c.dim(`${i + 1}.`)} ${who(call.to, s)}${fn}${value}  ${outcome}\n`;
  }
}

export function* operationRows(m: InspectModel, c: ChalkInstance): Generator<string> {
  const ops = m.operations ?? [];
  if (ops.length === 0) return;
  const s: AddressStyle = { decoded: m.decoded, short: true };
  const users = ops.filter((o): o is UserOperation => o.kind === 'userOperation');
  const safes = ops.filter((o): o is SafeTransaction => o.kind === 'safeTransaction');
  if (users.length > 0) yield* userOperationRows(users, c, s, m);
  if (safes.length > 0) yield* safeRows(safes, c, s, m);
  for (const b of ops) if (b.kind === 'batchCall') yield* batchRows(b, c, s, m);
}
