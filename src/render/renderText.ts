/**
 * The text view: transaction, why it failed, logs, call tree. Pure: (model, chalk, width) → lines.
 * Everything that came from the node passes through escapeText or was validated as hex upstream.
 */
import { blockHashWords, notKnownWords } from '../words/notFound.js';
import type { ChalkInstance } from 'chalk';
import { checksumAddress } from '../decode/keccak.js';
import { chainIdOf, chainName, familyOf, isDeposit, L2_TX_TYPES, typeKey, unaliasL1 } from '../model/chain.js';
import type { AuthorizationFact, FeeSplit, InspectModel, Receipt, Simulation, Status, Transaction } from '../model/types.js';
import { byteLength, isAddress, toBig, toDecimal } from '../raw/hex.js';
import type { Hex, RpcLog } from '../raw/types.js';
import { escapeText } from '../raw/escape.js';
import { formatBytes, formatEth, formatGwei, formatUnits, formatValueShort, groupDigits, percent, shortHex, TX_TYPES } from '../format/format.js';
import { renderCallTree } from './renderCallTree.js';
import { nestedRows } from './renderNested.js';
import { sourceRows } from './renderSource.js';
import { failureLine, raisedIn } from '../words/failureLine.js';
import { describeNetChanges, NO_TREE_ETHER } from './describeNetChanges.js';
import { etherInsideCallsKnown } from '../action/movements.js';
import { operationRows, operationsNote } from './renderOperations.js';
import { wrapMark } from './wrapMark.js';
import { renderComparison } from './renderComparison.js';
import { isOutOfGas } from '../model/buildModel.js';
import { type AddressStyle, formatDecoded, formatDecodedRun, formatOutputs, sciHint, showAddress } from '../words/formatDecoded.js';
import { FOLD_AT } from './foldRuns.js';
import type { Decoded, DecodedModel } from '../model/types.js';

export interface TextOptions {
  readonly chalk: ChalkInstance;
  /** Columns to fit lines into. */
  readonly width: number;
  /** Shown on "not found", so the user sees which node was asked (already redacted). */
  readonly where: string;
  /** --state's sections (render/renderState.ts), handed in so that a lookup without --state never loads them. */
  readonly renderState?: (m: InspectModel, c: ChalkInstance) => Generator<string>;
  /** --full: the call tree's every line, no run of alike calls or events folded. */
  readonly full?: boolean;
}

const LABEL = 15;

/** A transaction type by name, Ethereum's and the L2s'. */
function typeText(type: string): string {
  const key = typeKey(type);
  return `${TX_TYPES[key] ?? L2_TX_TYPES[key]?.name ?? 'unknown type'} (${type})`;
}

/** An OP Stack deposit's own fields: where it came from on L1 and what it minted. */
function* depositRows(tx: Transaction, r: Receipt | null, c: ChalkInstance, s: AddressStyle): Generator<string> {
  if (!isDeposit(tx, r)) return;
  const mint = tx.mint;
  yield row(c, 'Minted', mint === undefined ? c.dim('not given') : `${formatEth(mint)} ${c.dim('(bought on L1, created on L2)')}`);
  if (tx.sourceHash !== undefined) yield row(c, 'Source hash', tx.sourceHash);
  if (tx.isSystemTx !== undefined) yield row(c, 'System tx', tx.isSystemTx ? 'yes' : 'no');
  yield row(c, 'L1 sender', `${showAddress(tx.from, s)} ${c.dim(`(if a contract on L1 sent it, its L1 address is ${unaliasL1(tx.from)}: L2 sees it aliased)`)}`);
  if (r?.depositNonce !== undefined) yield row(c, 'Deposit nonce', groupDigits(r.depositNonce));
}

/** An Arbitrum retryable's ticket, as the node gave it. */
function* retryableRows(tx: Transaction, c: ChalkInstance, s: AddressStyle): Generator<string> {
  const t = tx.retryable;
  if (t === undefined) return;
  const shown = (k: string, v: Hex): string =>
    isAddress(v) && /To$|beneficiary/.test(k) ? showAddress(v, { ...s, short: true }) : /Value|Refund|Fee|maxRefund|depositValue/.test(k) && v.length <= 66 ? formatEth(toBig(v)) : v.length > 66 ? shortHex(v, 32) : v;
  yield row(c, 'Retryable', Object.entries(t).map(([k, v]) => `${k} ${shown(k, v)}`).join(c.dim(' · ')));
}

/** The fee as the chain charges it: the execution fee, and an OP Stack chain's L1 data fee; a deposit pays none. */
function feeText(fee: FeeSplit, c: ChalkInstance): string {
  if (fee.mint !== null && fee.total === 0n) return `none ${c.dim('(a deposit pays for its gas on L1)')}`;
  const blob = fee.blobFee > 0n ? ` + blob fee ${formatEth(fee.blobFee)}` : '';
  if (fee.rules === 'op-stack' && fee.l1Fee > 0n) return `${formatEth(fee.total)} ${c.dim(`= L2 execution ${formatEth(fee.execution)} + L1 data fee ${formatEth(fee.l1Fee)}`)}${blob}`;
  if (fee.rules === 'arbitrum' && fee.l1Gas !== null) return `${formatEth(fee.total)} ${c.dim(`(of which L1 calldata: ${groupDigits(fee.l1Gas)} gas, ${formatEth(fee.l1Gas * fee.effectiveGasPrice)})`)}${blob}`;
  return `${formatEth(fee.total)}${blob}`;
}

export function statusBadge(status: Status, c: ChalkInstance): string {
  switch (status) {
    case 'success':
      return c.green.bold('✔ success');
    case 'reverted':
      return c.red.bold('✘ reverted');
    case 'pending':
      return c.yellow.bold('… pending');
    case 'not_found':
      return c.yellow.bold('? not found');
  }
}

function row(c: ChalkInstance, label: string, value: string): string {
  return `  ${c.dim(label.padEnd(LABEL))}${value}\n`;
}

function* transactionRows(m: InspectModel, o: TextOptions): Generator<string> {
  const c = o.chalk;
  const tx = m.tx;
  const r = m.receipt;
  const blockNumber = tx?.blockNumber ?? r?.blockNumber ?? undefined;
  const index = tx?.transactionIndex ?? r?.transactionIndex ?? undefined;
  // A simulation's block is in its own head; the receipt it stands on is made from the trace.
  const sim = m.simulation;
  if (blockNumber !== undefined && sim === undefined) yield row(c, 'Block', `${groupDigits(blockNumber)}${index !== undefined ? `, index ${index}` : ''}`);
  const s: AddressStyle = { decoded: m.decoded, short: false };
  if (tx) {
    yield row(c, 'From', showAddress(tx.from, s));
    if (tx.to !== null) yield row(c, 'To', showAddress(tx.to, s));
    else if (r?.contractAddress) yield row(c, 'To', `contract creation → ${c.cyan(showAddress(r.contractAddress, s))}`);
    else yield row(c, 'To', 'contract creation');
    const value = tx.value;
    if (value !== undefined) yield row(c, 'Value', formatEth(value));
    // A simulated call that was not signed has no type of its own.
    if (tx.type !== undefined || sim === undefined) yield row(c, 'Type', typeText(tx.type ?? '0x0'));
    const nonce = tx.nonce;
    if (nonce !== undefined && !isDeposit(tx, r)) yield row(c, 'Nonce', groupDigits(nonce));
    yield* depositRows(tx, r, c, s);
    yield* retryableRows(tx, c, s);
  } else if (r) {
    // No transaction object: the receipt repeats its sender and recipient.
    if (r.from !== undefined) yield row(c, 'From', showAddress(r.from, s));
    if (r.to) yield row(c, 'To', showAddress(r.to, s));
    if (r.type !== undefined) yield row(c, 'Type', typeText(r.type));
    if (r.contractAddress) yield row(c, 'Created', r.contractAddress);
  }
  yield* chainRows(m, c);
  yield* gasAndFeeRows(m, c);
  yield* inputRows(m, c, s, o.width);
  if (tx) yield* listRows(tx, m.authorizations, c, s);
}

/** The chain, where it is not Ethereum mainnet or the answers show an L2 family. */
function* chainRows(m: InspectModel, c: ChalkInstance): Generator<string> {
  const tx = m.tx;
  const r = m.receipt;
  const family = familyOf(tx, r);
  const chainId = chainIdOf(tx);
  if (family !== null || (chainId !== null && chainId !== 1)) {
    const name = chainId === null ? null : chainName(chainId);
    const what = family === 'op-stack' ? 'an OP Stack chain' : family === 'arbitrum' ? 'an Arbitrum chain' : null;
    yield row(c, 'Chain', [chainId === null ? null : `${name ?? 'chain'} (${chainId})`, what].filter((x) => x !== null).join(', '));
  }
}

/** Gas used against the limit (a simulation's estimate beside it), the prices, the fee, blob gas. */
function* gasAndFeeRows(m: InspectModel, c: ChalkInstance): Generator<string> {
  const tx = m.tx;
  const r = m.receipt;
  const sim = m.simulation;
  const limit = tx?.gas;
  const used = r?.gasUsed;
  const estimate = sim?.gasEstimate ?? undefined;
  if (sim !== undefined) {
    const parts = [used !== undefined ? `${groupDigits(used)} used` : `used: not known (${sim.method === 'eth_call' ? 'eth_call does not say' : sim.method === 'trace_call' ? 'trace_call leaves out the intrinsic gas' : 'the tracer does not say'})`, limit !== undefined ? `limit ${groupDigits(limit)}` : null, estimate !== undefined ? `eth_estimateGas ${groupDigits(estimate)}` : null];
    yield row(c, 'Gas', parts.filter((p) => p !== null).join(', '));
  } else if (used !== undefined && limit !== undefined) yield row(c, 'Gas', `${groupDigits(used)} used of ${groupDigits(limit)} (${percent(used, limit)})`);
  else if (used !== undefined) yield row(c, 'Gas used', groupDigits(used));
  else if (limit !== undefined) yield row(c, 'Gas limit', groupDigits(limit));
  if (tx) {
    const maxFee = tx.maxFeePerGas;
    const tip = tx.maxPriorityFeePerGas;
    const price = tx.gasPrice;
    if (maxFee !== undefined) yield row(c, 'Max fee', `${formatGwei(maxFee)}${tip !== undefined ? `, priority ${formatGwei(tip)}` : ''}`);
    else if (price !== undefined) yield row(c, 'Gas price', formatGwei(price));
  }
  const effective = r?.effectiveGasPrice ?? (tx?.maxFeePerGas === undefined ? tx?.gasPrice : undefined);
  if (effective !== undefined && r) yield row(c, 'Effective', formatGwei(effective));
  const fee = m.fee;
  if (fee !== null) yield row(c, sim !== undefined ? 'Fee if mined' : 'Fee', feeText(fee, c));
  const blobGas = r?.blobGasUsed;
  if (blobGas !== undefined) {
    const price = r?.blobGasPrice;
    yield row(c, 'Blob gas', `${groupDigits(blobGas)}${price !== undefined ? ` at ${formatGwei(price)}` : ''}`);
  }
  const maxBlobFee = tx?.maxFeePerBlobGas;
  if (maxBlobFee !== undefined) yield row(c, 'Max blob fee', formatGwei(maxBlobFee));
}

/** The input: its size and the function it calls (a creation's constructor). */
function* inputRows(m: InspectModel, c: ChalkInstance, s: AddressStyle, width: number): Generator<string> {
  const tx = m.tx;
  if (tx?.input !== undefined) {
    const size = byteLength(tx.input);
    const fn = m.decoded?.function;
    // A creation's input is init code: its constructor where an artifact names it, never a "selector".
    const where = tx.to === null ? `init code, ${escapeText(fn?.contract ?? '')}, ${fn?.source}` : `${tx.input.slice(0, 10)}, ${fn?.source}`;
    const what = fn ? `: ${c.bold(formatDecoded(fn, { ...s, short: true }))} ${c.dim(fn.guessed ? '(guessed types)' : `(${where})`)}` : tx.to === null ? ' of init code' : size >= 4 ? `, selector ${tx.input.slice(0, 10)}` : '';
    yield row(c, 'Input', size === 0 ? c.dim('none') : `${formatBytes(size)}${what}`);
    if (fn && tx.to !== null) yield* nestedRows(fn, c, s, width, 2 + LABEL);
  }
}

/** The access list, blob hashes and EIP-7702 authorizations, one per line. */
function* listRows(tx: Transaction, authorizations: readonly AuthorizationFact[] | undefined, c: ChalkInstance, s: AddressStyle): Generator<string> {
  const pad = ' '.repeat(2 + LABEL);
  if (tx.accessList && tx.accessList.length > 0) {
    const keys = tx.accessList.reduce((n, e) => n + e.storageKeys.length, 0);
    yield row(c, 'Access list', `${tx.accessList.length} ${tx.accessList.length === 1 ? 'address' : 'addresses'}, ${keys} storage ${keys === 1 ? 'key' : 'keys'}`);
    for (const e of tx.accessList) {
      yield `${pad}${e.address}\n`;
      for (const k of e.storageKeys) yield `${pad}  ${c.dim(k)}\n`;
    }
  }
  if (tx.blobVersionedHashes && tx.blobVersionedHashes.length > 0) {
    yield row(c, 'Blob hashes', String(tx.blobVersionedHashes.length));
    for (const h of tx.blobVersionedHashes) yield `${pad}${h}\n`;
  }
  if (tx.authorizationList && tx.authorizationList.length > 0) {
    yield row(c, 'Authorizations', String(tx.authorizationList.length));
    for (const [i, a] of tx.authorizationList.entries()) {
      const chain = a.chainId;
      const nonce = a.nonce;
      const facts = c.dim(`${chain !== undefined ? `  chain ${chain}` : ''}${nonce !== undefined ? `  nonce ${nonce}` : ''}`);
      const f = authorizations?.[i];
      if (f === undefined) {
        yield `${pad}${a.address}${facts}\n`;
        continue;
      }
      yield `${pad}${authorizationText(f, c, s)}${facts}${appliedText(f, c)}\n`;
    }
  }
}

/** "0xAuthority → Simple7702Account(0x5FbD…0aa3)"; a revocation says so. */
function authorizationText(f: AuthorizationFact, c: ChalkInstance, s: AddressStyle): string {
  const authority = f.authority === null ? c.yellow('signer not recovered') : (s.decoded?.checksums.get(f.authority) ?? checksumAddress(f.authority));
  const to = f.revocation ? 'revoked (its delegation cleared)' : showAddress(f.address, { ...s, short: true });
  return `${authority} → ${to}`;
}

function appliedText(f: AuthorizationFact, c: ChalkInstance): string {
  if (f.applied === true) return '';
  if (f.applied === false) return c.red(`  ✗ not applied: ${f.reason ?? ''}`);
  return c.yellow(`  ? not known whether applied: ${f.reason ?? ''}`);
}

/** " (gas used X of Y)": the transaction's (or the simulated call's) gas against its limit, where both are known. */
function gasOfLimit(m: InspectModel, c: ChalkInstance): string {
  const used = m.receipt?.gasUsed;
  const limit = m.tx?.gas;
  if (used === undefined || limit === undefined) return '';
  return c.dim(` (gas used ${groupDigits(used)} of ${groupDigits(limit)})`);
}

function* failureRows(m: InspectModel, o: TextOptions): Generator<string> {
  const c = o.chalk;
  const f = m.failure;
  yield `\n${c.bold(m.simulation !== undefined ? 'Why it would revert' : 'Why it failed')}\n`;
  const s: AddressStyle = { decoded: m.decoded, short: true };
  const line = failureLine(m, s);
  if (f === null || f.error === null) {
    yield `  ${c.dim(line)}\n`;
    return;
  }
  const custom = m.decoded?.error;
  const origin = f.origin;
  // What only this view adds beside the line: the gas a call ran out of, the custom error's selector and source, its data, what the ABI says.
  const np = m.decoded?.notPayable;
  if (origin !== null && origin !== m.tree?.root && isOutOfGas(origin.error)) yield `  ${c.red(line)}${gasOfLimit(m, c)}\n`;
  else if (custom) yield `  ${c.red(line)} ${c.dim(`(custom error ${f.revert?.kind === 'custom' ? f.revert.selector : ''}, from ${custom.source}${custom.contract ? ` ${escapeText(custom.contract)}` : ''})`)}\n`;
  else if (np !== undefined) yield `  ${c.red(line)} ${c.dim(`(reverted without data; ${escapeText(np.contract)}'s ABI says ${np.stateMutability})`)}\n`;
  else {
    yield `  ${c.red(line)}\n`;
    if (f.revert?.kind === 'custom') yield `  ${c.dim('data')}  ${shortHex(f.revert.data, 32)}\n`;
  }
  yield* sourceRows(m, c, o.width);
  const raised = raisedIn(m, s);
  if (raised !== null) yield `  ${c.dim('raised in')}  ${raised.origin}${raised.caller === null ? '' : `, ${c.dim('called by')} ${raised.caller}`}\n`;
}

function* logRows(logs: readonly RpcLog[], o: TextOptions, m: InspectModel): Generator<string> {
  const s: AddressStyle = { decoded: m.decoded, short: false };
  const c = o.chalk;
  yield `\n${c.bold(`Logs (${logs.length})`)}\n`;
  if (logs.length === 0) {
    yield `  ${c.dim('none')}\n`;
    return;
  }
  const dataKeep = Math.max(8, Math.min(32, Math.floor((o.width - 40) / 4)));
  let folded = false;
  const at = (i: number): string => {
    const logIndex = logs[i]?.logIndex;
    return logIndex !== undefined ? toDecimal(logIndex) : String(i);
  };
  for (let i = 0; i < logs.length; i++) {
    const log = logs[i];
    if (log === undefined) break;
    const run = o.full === true ? 1 : alikeLogs(logs, m.decoded?.events, i);
    const j = run >= FOLD_AT ? i + run - 1 : i;
    if (j === i) yield `  ${c.dim(`#${at(i)}`)} ${showAddress(log.address, s)}\n`;
    else yield `  ${c.dim(`#${at(i)} … #${at(j)}`)} ${showAddress(log.address, s)} ${c.bold(`· ${groupDigits(run)} ×`)}\n`;
    yield* logBody(log, logs[j] ?? log, m.decoded?.events[i], m.decoded?.events[j], { ...s, short: true }, c, dataKeep);
    folded ||= j > i;
    i = j;
  }
  if (folded) yield `  ${c.dim(`(runs of ${FOLD_AT} or more alike events are folded into one entry, "N ×"; --full shows every one)`)}\n`;
}

/**
 * A log's lines under its address: the decoded event, else its topics and data. For a folded run, the
 * first and the last log: each value is the first's, followed by "… last" where the last's differs.
 */
function* logBody(log: RpcLog, last: RpcLog, event: Decoded | null | undefined, lastEvent: Decoded | null | undefined, s: AddressStyle, c: ChalkInstance, dataKeep: number): Generator<string> {
  if (event) {
    const text = log === last || !lastEvent ? formatDecoded(event, s) : formatDecodedRun(event, lastEvent, s);
    yield `      ${c.green(text)} ${c.dim(`(${event.source})`)}\n`;
    return;
  }
  const range = (a: string, b: string): string => (a === b ? a : `${a} … ${b}`);
  // A folded run's logs have as many topics as the first (alikeLogs).
  for (const [k, topic] of log.topics.entries()) yield `      ${c.dim(`topic${k}`)} ${range(topic, last.topics[k] ?? topic)}\n`;
  const data = (l: RpcLog): string => (byteLength(l.data) === 0 ? c.dim('none') : shortHex(l.data, dataKeep));
  yield `      ${c.dim('data  ')} ${range(data(log), data(last))}\n`;
}

/**
 * How many logs from `start` on are alike, for the Logs section to fold them (1: not alike), one after
 * another from one contract: decoded events of one signature and source, or undecoded logs with the
 * same first topic and number of topics.
 */
function alikeLogs(logs: readonly RpcLog[], events: DecodedModel['events'] | undefined, start: number): number {
  const first = events?.[start] ?? null;
  const log = logs[start];
  if (log === undefined || (first === null ? log.topics[0] === undefined : first.signature === null)) return 1;
  const address = log.address.toLowerCase();
  let end = start + 1;
  for (; end < logs.length; end++) {
    const e = events?.[end] ?? null;
    const other = logs[end];
    if (other === undefined || other.address.toLowerCase() !== address) break;
    if (first === null ? e !== null || other.topics[0] !== log.topics[0] || other.topics.length !== log.topics.length : e === null || e.signature !== first.signature || e.source !== first.source) break;
  }
  return end - start;
}

/** The money flow: native value moved by calls, creates and selfdestructs, then token transfers from the logs. */
function* transferRows(m: InspectModel, decoded: DecodedModel, o: TextOptions): Generator<string> {
  const c = o.chalk;
  const transfers = decoded.transfers;
  const s: AddressStyle = { decoded: m.decoded, short: true };
  yield `\n${c.bold(`Transfers (${transfers.length})`)}\n`;
  if (!etherInsideCallsKnown(m)) yield `  ${c.yellow(NO_TREE_ETHER.transfers)}\n`;
  for (const t of transfers) {
    const amount =
      t.kind === 'ETH'
        ? formatValueShort(t.amount)
        : t.kind === 'ERC-721'
          ? `token #${t.tokenId}`
          : t.decimals !== undefined && t.symbol !== undefined
            ? `${formatUnits(t.amount, t.decimals)} ${escapeText(t.symbol)}`
            : `${groupDigits(t.amount)}${sciHint(t.amount.toString())}${t.kind === 'ERC-1155' ? ` of id ${t.tokenId}` : ''}`;
    const token = t.token !== undefined ? ` ${c.dim(t.kind)} ${showAddress(t.token, s)}` : ` ${c.dim('ETH')}`;
    yield `  ${showAddress(t.from, s)} → ${showAddress(t.to, s)}  ${c.yellow(amount)}${t.kind === 'ETH' ? '' : token}${t.event === undefined ? '' : c.dim(wrapMark(t))}\n`;
  }
}

/** What it did, in one line (the action stage's sentence; a symbol in it is the token's own text, escaped). */
function* actionRow(m: InspectModel, c: ChalkInstance): Generator<string> {
  if (m.action) yield row(c, 'Action', c.bold(escapeText(m.action.summary)));
}

/** Who ended up with what: each holder's net change per asset, the actor first. */
function* netChangeRows(m: InspectModel, o: TextOptions): Generator<string> {
  const c = o.chalk;
  const s: AddressStyle = { decoded: m.decoded, short: true };
  const section = describeNetChanges(m.netChanges ?? [], m.action?.actor, { address: (a) => showAddress(a, s), symbol: escapeText });
  if (section === null) return;
  yield `\n${c.bold(section.title)}\n`;
  if (!etherInsideCallsKnown(m)) yield `  ${c.yellow(NO_TREE_ETHER.netChanges)}\n`;
  if (section.incomplete) yield `  ${c.yellow(NO_TREE_ETHER.incomplete)}\n`;
  for (const { who, marks, parts } of section.rows) {
    yield `  ${who}${marks.map((k) => ` ${c.dim(k)}`).join('')}  ${parts.map((p) => (p.negative ? c.red(p.text) : c.green(p.text))).join(c.dim(' · '))}\n`;
  }
}

/** What a simulation ran, and where: said first and plainly, so that nobody takes it for a mined transaction. */
function* simulationHead(m: InspectModel, s: Simulation, o: TextOptions): Generator<string> {
  const c = o.chalk;
  const number = groupDigits(s.block.number);
  const asked = /^0x[0-9a-f]{1,16}$/i.test(s.block.asked) ? '' : ` (${escapeText(s.block.asked.length === 66 ? shortHex(s.block.asked as Hex, 8) : s.block.asked)})`;
  const r = s.replay;
  if (r === undefined) yield `${c.bold('Simulation')} at block ${number}${asked}: not a mined transaction, nothing was sent\n`;
  else if (r.at === 'position') yield `${c.bold('Re-run')} of ${r.hash} at its position in block ${number} (index ${r.transactionIndex}${r.replayed > 0 ? `, after ${r.replayed} earlier ${r.replayed === 1 ? 'transaction' : 'transactions'}` : ''})${r.changed ? ', changed' : ''}: nothing was sent\n`;
  else yield `${c.bold('Re-run')} of ${r.hash} ${s.block.asked === 'pending' ? `on the pending state (block ${number}, not mined yet)` : `on the state after block ${number}${asked}`}${r.changed ? ', changed' : ''}: nothing was sent\n`;
  yield* actionRow(m, c);
  const verdict = m.status === 'success' ? c.green.bold('✔ would succeed') : c.red.bold('✘ would revert');
  yield row(c, 'Status', `${verdict}${operationsNote(m, c)}`);
  const by = r?.at === 'position' ? `txray's own EVM on the parent block's state and the block's earlier transactions ${c.dim('(no node tracer starts between two transactions)')}` : s.method === 'local' ? `txray's own EVM on the node's state ${c.dim('(the node has no call tracer)')}` : `${s.method}${s.method === 'eth_call' ? c.dim(' (the outcome only: no call tree)') : s.method === 'eth_simulateV1' ? c.dim(' (the outcome and its events: no call tree)') : ''}`;
  yield row(c, 'Simulated by', by);
  if (s.signed && m.hash !== null) yield row(c, 'Hash if sent', m.hash);
  if (s.overrides !== null) {
    const what = Object.entries(s.overrides).map(([address, o]) => {
      const fields = Object.keys(o).map((k) => (k === 'stateDiff' ? `${Object.keys(o.stateDiff ?? {}).length} storage slot(s)` : k));
      return `${showAddress(address, { decoded: m.decoded, short: true })}: ${fields.join(', ')}`;
    });
    yield row(c, 'Overrides', what.join('; '));
  }
  // The tracer's answer holds the output in its root call; eth_call's (no tree) in the simulation.
  const output = s.output ?? m.tree?.root.output ?? null;
  if (output !== null && m.status === 'success') yield row(c, 'Returns', returnedText(m, output, c));
}

/** What the simulated call returned: decoded by its function's ABI where the tree's root call has it (as its line ends), else its bytes. */
function returnedText(m: InspectModel, output: Hex, c: ChalkInstance): string {
  if (byteLength(output) === 0) return c.dim('nothing');
  const root = m.tree?.root;
  const outputs = root !== undefined && root.output === output ? root.decoded?.outputs : undefined;
  if (outputs !== undefined && outputs.length > 0) return formatOutputs(outputs, { decoded: m.decoded, short: true });
  // No tree (eth_call alone) or no ABI for the function: the bytes, as the node returned them.
  return `${shortHex(output, 32)}${c.dim(' (not decoded)')}`;
}

/** The head: what it did, the transaction (or the simulation), why it failed, the logs. */
function* renderHead(m: InspectModel, o: TextOptions): Generator<string> {
  const c = o.chalk;
  if (m.simulation !== undefined) {
    yield* simulationHead(m, m.simulation, o);
    yield* transactionRows(m, o);
    if (m.status === 'reverted') yield* failureRows(m, o);
    yield* renderComparison(m, c);
    yield* operationRows(m, c);
    if (m.receipt) yield* logRows(m.receipt.logs, o, m);
    return;
  }
  yield `${c.bold('Transaction')} ${m.hash}\n`;
  yield* actionRow(m, c);
  yield row(c, 'Status', `${statusBadge(m.status, c)}${operationsNote(m, c)}`);
  if (m.status === 'not_found' && m.tree === null) {
    yield `  ${c.dim(m.blockOfHash === undefined || m.hash === null ? notKnownWords(o.where) : blockHashWords(m.blockOfHash, m.hash))}\n`;
    return;
  }
  if (m.status === 'pending') yield `  ${c.dim('known to the node, not mined yet: no receipt, logs or trace.')}\n`;
  yield* transactionRows(m, o);
  if (m.status === 'reverted') yield* failureRows(m, o);
  yield* operationRows(m, c);
  if (m.receipt) yield* logRows(m.receipt.logs, o, m);
}

/** Transfers, state changes (--state) and the call tree: what follows the head. */
function* renderTail(m: InspectModel, o: TextOptions): Generator<string> {
  if (m.status === 'not_found' && m.tree === null) return;
  // Without a call tree the section is shown empty too: it says that ether inside the calls is not known.
  if (m.decoded && (m.decoded.transfers.length > 0 || !etherInsideCallsKnown(m))) yield* transferRows(m, m.decoded, o);
  yield* netChangeRows(m, o);
  if (o.renderState) yield* o.renderState(m, o.chalk);
  if (m.tree) {
    // One convention for the root line's gas, whatever the tracer: the transaction's (see renderCallTree's rootGas).
    const rootGas = m.receipt?.gasUsed;
    yield* renderCallTree(m.tree, { ...o, decoded: m.decoded, rootGas }, m.traceNote, m.events && m.receipt ? { byNode: m.events, logs: m.receipt.logs } : undefined);
  }
}

export function* renderText(m: InspectModel, o: TextOptions): Generator<string> {
  yield* renderHead(m, o);
  yield* renderTail(m, o);
}
