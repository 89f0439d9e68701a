/**
 * What a transaction did, in one line, from one actor's view: the action stage, pure, after decode.
 * The actor's movements are netted per asset (movements.ts); then a short ordered list of rules, the
 * first that matches wins: failed → deployed → approvals only → a protocol's own event from its known
 * emitter → liquidity added or removed → a wrap or an unwrap → one asset out and another in (a swap; an
 * NFT bought or sold) → minted or burned → one transfer → "Called Contract.function()".
 * Never claims an asset the actor did not move: every amount in the sentence is one of `sent`/`received`.
 */
import { APPROVAL, ZERO_ADDRESS } from '../decode/transfers.js';
import { checksumAddress } from '../decode/keccak.js';
import { shownName } from '../decode/shownName.js';
import { familyOf } from '../model/chain.js';
import type { Action, ActionKind, AssetAmount, InspectModel, NetChange } from '../model/types.js';
import { byteLength, lowerHex, wordToAddress } from '../raw/hex.js';
import type { Hex, RpcLog } from '../raw/types.js';
import { failureLine } from '../words/failureLine.js';
import { amountText, groupDigits, shortAddress, shortNumber } from '../format/format.js';
import { etherInsideCallsKnown, incompleteChanges, movementsOf, netChanges, sentAndReceived, type Wrapping } from './movements.js';
import { APPROVAL_FOR_ALL, protocolEvent, SAFE_EXECUTION, USER_OPERATION, type VenueHit, venueEvents } from './protocols.js';

/** An allowance this large is "unlimited" (the max uint256, or near it as some tokens store it). */
const UNLIMITED = 2n ** 255n;

/** The wrapped-native tokens txray knows by address (WETH on Ethereum, the OP Stack's predeploy). */
const KNOWN_WRAPPED = new Set(['0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2', '0x4200000000000000000000000000000000000006']);

export interface ActionResult {
  readonly action: Action;
  readonly netChanges: readonly NetChange[];
}

/** What the views need of the decode stage's names: a label (artifact, address book, --labels) by lower-case address. */
type NameOf = (address: string) => string | undefined;

/**
 * The action of a mined transaction or a simulation; null where nothing ran (pending, not found).
 * `viewOf`: another actor's view (--as).
 */
export function describeAction(model: InspectModel, viewOf?: Hex): ActionResult | null {
  // Without the transaction object, the receipt still says who sent it to whom.
  const r = model.receipt;
  const tx = model.tx ?? (r?.from !== undefined ? { hash: model.hash, blockHash: null, blockNumber: null, transactionIndex: null, from: r.from, to: r.to ?? null } : null);
  if (tx === null || (model.status !== 'success' && model.status !== 'reverted')) return null;
  // As every view names it: "Token(DAI)" where two Tokens are in the view.
  const nameOf: NameOf = (a) => shownName(model.decoded, a);
  const checksums = model.decoded?.checksums;
  const shown = (a: string): string => checksums?.get(a.toLowerCase()) ?? checksumAddress(a.toLowerCase());
  const logs = model.status === 'success' ? (model.receipt?.logs ?? []) : [];
  const actor = lowerHex(viewOf ?? actorOf({ ...model, tx }, logs));
  const { movements, wraps, unproven } = movementsOf(model, knownWrapped({ ...model, tx }));
  const changes = incompleteChanges(netChanges(movements, actor), unproven);
  const { sent, received } = sentAndReceived(changes, actor);
  const facts: Facts = { model: { ...model, tx }, actor, logs, sent, received, wraps, venues: venueEvents(logs), nameOf, shown, counterparties: movements };
  const found = RULES.reduce<Verdict | null>((done, rule) => done ?? rule(facts), null) ?? called(facts);
  return { action: { summary: found.summary, kind: found.kind, actor, protocols: found.protocols ?? [], sent, received }, netChanges: changes };
}

/** The wrapped-native tokens known by address on the model's chain (the OP Stack's predeploy only there). */
export function knownWrapped(model: Pick<InspectModel, 'tx' | 'receipt'>): ReadonlySet<string> {
  return familyOf(model.tx, model.receipt) === 'op-stack' ? KNOWN_WRAPPED : new Set([...KNOWN_WRAPPED].filter((a) => !a.startsWith('0x42000')));
}

/** The sender; the Safe for a Safe execution; the smart account of a single ERC-4337 user operation. */
function actorOf(model: InspectModel, logs: readonly RpcLog[]): Hex {
  const tx = model.tx!;
  const ops = logs.filter((l) => l.topics[0]?.toLowerCase() === USER_OPERATION && l.topics.length === 4);
  const [op] = ops;
  const account = op?.topics[2];
  if (ops.length === 1 && account !== undefined) return wordToAddress(account);
  const to = tx.to === null ? undefined : lowerHex(tx.to);
  if (to !== undefined && logs.some((l) => l.topics[0]?.toLowerCase() === SAFE_EXECUTION && l.address.toLowerCase() === to)) return to;
  return tx.from;
}

interface Facts {
  readonly model: InspectModel;
  readonly actor: Hex;
  readonly logs: readonly RpcLog[];
  readonly sent: readonly AssetAmount[];
  readonly received: readonly AssetAmount[];
  readonly wraps: readonly Wrapping[];
  readonly venues: readonly VenueHit[];
  readonly nameOf: NameOf;
  /** An address as the views show it (EIP-55 checksummed where the decode stage had it). */
  readonly shown: (address: string) => string;
  /** Every movement, for whom the actor's single transfer went to (or came from). */
  readonly counterparties: ReadonlyArray<{ readonly from: Hex; readonly to: Hex; readonly asset: string; readonly amount: bigint }>;
}

interface Verdict {
  readonly summary: string;
  readonly kind: ActionKind;
  readonly protocols?: readonly string[];
}

type Rule = (f: Facts) => Verdict | null;

const RULES: readonly Rule[] = [failed, deployed, delegated, toItself, approvalsOnly, protocolOwn, liquidity, wrapping, cycle, swapped, swappedAndPaid, mintedOrBurned, oneTransfer];

const list = (amounts: readonly AssetAmount[], nameOf: NameOf): string => amounts.map((a) => amountText(a, nameOf)).join(' and ');

/** Whether the transaction carried input data: it called code, beyond sending its value. */
const hasInput = (f: Facts): boolean => f.model.tx?.input !== undefined && f.model.tx.input !== '0x';

const who = (address: string, f: Pick<Facts, 'nameOf' | 'shown'>): string => f.nameOf(address) ?? shortAddress(f.shown(address));

/** The contract the transaction called, named where known, when it is not the venue itself ("via UniswapV2Router02"). */
function via(f: Facts): string {
  const to = f.model.tx?.to?.toLowerCase();
  if (to === undefined || f.venues.some((v) => v.emitter === to)) return '';
  const name = f.nameOf(to);
  return name === undefined ? '' : ` (via ${name})`;
}

const unique = (xs: readonly string[]): string[] => [...new Set(xs)];

function failed(f: Facts): Verdict | null {
  if (f.model.status !== 'reverted') return null;
  // Why, in the one line every view uses for it.
  return { summary: `Failed: ${failureLine(f.model, { decoded: f.model.decoded, short: true })}`, kind: 'failed' };
}

function deployed(f: Facts): Verdict | null {
  if (f.model.tx?.to !== null) return null;
  const created = f.model.receipt?.contractAddress ?? f.model.tree?.root.to ?? null;
  if (created === null) return { summary: 'Deployed a contract', kind: 'deploy' };
  const name = f.nameOf(created);
  return { summary: `Deployed ${name ?? 'a contract'} at ${f.shown(created)}`, kind: 'deploy' };
}

/** Approvals (ERC-20 Approval, ApprovalForAll) the actor gave, when it moved nothing. */
function approvalsOnly(f: Facts): Verdict | null {
  if (f.sent.length > 0 || f.received.length > 0) return null;
  const mine = f.logs.filter((l) => {
    const t0 = l.topics[0]?.toLowerCase();
    return (t0 === APPROVAL || t0 === APPROVAL_FOR_ALL) && l.topics.length === 3 && byteLength(l.data) === 32 && wordToAddress(l.topics[1]!).toLowerCase() === f.actor;
  });
  if (mine.length === 0) return null;
  const one = (l: RpcLog): string => {
    const meta = f.model.decoded?.tokens?.get(l.address.toLowerCase());
    const token = meta?.symbol ?? who(l.address.toLowerCase(), f);
    const spender = who(wordToAddress(l.topics[2]!).toLowerCase(), f);
    const value = BigInt(l.data);
    if (l.topics[0]!.toLowerCase() === APPROVAL_FOR_ALL) return value === 0n ? `Revoked ${spender} as operator of ${token}` : `Approved ${spender} as operator of all ${token}`;
    if (value === 0n) return `Revoked ${token} for ${spender}`;
    const decimals = meta?.decimals ?? null;
    const allowance = value >= UNLIMITED ? 'unlimited' : decimals !== null && meta?.symbol ? `${shortNumber(value, decimals)} ${meta.symbol}` : `${groupDigits(value)} base units`;
    return `Approved ${token} for ${spender} (${allowance})`;
  };
  const more = mine.length > 1 ? ` and ${mine.length - 1} more` : '';
  return { summary: `${one(mine[0]!)}${more}`, kind: 'approve' };
}

/** Lending and staking: the protocol's own event from a contract the address book names as that protocol's. */
function protocolOwn(f: Facts): Verdict | null {
  const hit = protocolEvent(f.logs, (a) => f.model.decoded?.bookKeys?.get(a));
  if (hit === null) return null;
  const about = (side: readonly AssetAmount[]): readonly AssetAmount[] => {
    const match = hit.asset === null ? [] : side.filter((a) => a.asset === hit.asset);
    return match.length > 0 ? match : side.slice(0, 1);
  };
  const on = hit.protocol;
  const verdict = (text: string | null): Verdict | null => (text === null ? null : { summary: text, kind: hit.kind, protocols: [on] });
  const sentText = about(f.sent).length > 0 ? list(about(f.sent), f.nameOf) : null;
  const receivedText = about(f.received).length > 0 ? list(about(f.received), f.nameOf) : null;
  switch (hit.kind) {
    case 'supply':
      return verdict(sentText && `Supplied ${sentText} to ${on}`);
    case 'withdraw':
      return verdict(receivedText && `Withdrew ${receivedText} from ${on}`);
    case 'borrow':
      return verdict(receivedText && `Borrowed ${receivedText} from ${on}`);
    case 'repay':
      return verdict(sentText && `Repaid ${sentText} to ${on}`);
    case 'liquidate':
      return verdict(`Liquidated a position on ${on}${sentText ? `: repaid ${sentText}` : ''}${receivedText ? `, received ${receivedText}` : ''}`);
    case 'stake':
      return verdict(sentText !== null ? `Staked ${sentText} with ${on}` : stakedByEvent(hit.log, f));
    case 'bridge': {
      // What crossed: the actor's own movement where the answers show it, else the event's figure.
      const crossed = sentText ?? eventAmount(hit, f);
      return { summary: crossed === null ? `Sent a message to ${on} through its bridge` : `Bridged ${crossed} to ${on}`, kind: 'bridge', protocols: [`${on} bridge`] };
    }
    default:
      return null;
  }
}

/** A bridge event's own amount, in ether or in its token (with the token's symbol and decimals where known). */
function eventAmount(hit: { readonly asset: Hex | null; readonly amount: bigint | null }, f: Facts): string | null {
  if (hit.amount === null) return null;
  if (hit.asset === null) return amountText({ asset: 'ETH', standard: 'ETH', amount: hit.amount });
  const meta = f.model.decoded?.tokens?.get(hit.asset);
  return amountText({ asset: hit.asset, standard: 'ERC-20', amount: hit.amount, ...(meta?.symbol ? { symbol: meta.symbol } : {}), ...(meta?.decimals != null ? { decimals: meta.decimals } : {}) }, f.nameOf);
}

/**
 * Lido's Submitted(sender, amount, referral) says the ether its sender staked: the sentence where the
 * ether leg is not in the answers (no trace, no transaction object), only for the actor's own event.
 */
function stakedByEvent(log: RpcLog, f: Facts): string | null {
  if (log.topics.length !== 2 || byteLength(log.data) < 32 || wordToAddress(log.topics[1]!).toLowerCase() !== f.actor) return null;
  return `Staked ${eventAmount({ asset: null, amount: BigInt(log.data.slice(0, 66)) }, f)} with Lido`;
}

/** Liquidity added (the pool's Mint, the actor receiving its share) or removed (its Burn). */
function liquidity(f: Facts): Verdict | null {
  const add = f.venues.find((v) => v.role === 'add');
  const remove = f.venues.find((v) => v.role === 'remove');
  if (add !== undefined && f.sent.length > 0) {
    const share = f.received.some((r) => r.asset === add.emitter) || add.venue !== 'Uniswap v2';
    if (share) return { summary: `Added liquidity: ${list(f.sent, f.nameOf)} to ${add.venue}${pool(add, f)}`, kind: 'add-liquidity', protocols: [add.venue] };
  }
  if (remove !== undefined && f.received.length > 0) {
    return { summary: `Removed liquidity: ${list(f.received, f.nameOf)} from ${remove.venue}${pool(remove, f)}`, kind: 'remove-liquidity', protocols: [remove.venue] };
  }
  return null;
}

const pool = (v: VenueHit, f: Facts): string => {
  const name = f.nameOf(v.emitter);
  return name === undefined ? '' : ` (${name})`;
};

/** ETH in, the wrapped token out (or back): the actor's whole movement, with the token's own event. */
function wrapping(f: Facts): Verdict | null {
  const [out] = f.sent;
  const [into] = f.received;
  if (f.sent.length !== 1 || f.received.length !== 1 || out === undefined || into === undefined) return null;
  const wrap = f.wraps.find((w) => w.kind === 'wrap' && out.asset === 'ETH' && into.asset === w.token && out.amount === into.amount);
  if (wrap !== undefined) return { summary: `Wrapped ${amountText(out)}`, kind: 'wrap' };
  const unwrap = f.wraps.find((w) => w.kind === 'unwrap' && into.asset === 'ETH' && out.asset === w.token && out.amount === into.amount);
  if (unwrap !== undefined) return { summary: `Unwrapped ${amountText(into)}`, kind: 'unwrap' };
  return null;
}

/** One asset out and a different one in: a swap, or an NFT bought or sold. */
function swapped(f: Facts): Verdict | null {
  const venues = unique(f.venues.filter((v) => v.role === 'swap').map((v) => v.venue));
  const isNft = (a: AssetAmount): boolean => a.standard === 'ERC-721' || a.standard === 'ERC-1155';
  const bulk = nftsForOne(f, isNft);
  if (bulk !== null) return { ...bulk, protocols: venues };
  const [out] = f.sent;
  const [into] = f.received;
  if (f.sent.length !== 1 || f.received.length !== 1 || out === undefined || into === undefined) return null;
  if (isNft(into) && !isNft(out)) return { summary: `Bought ${amountText(into, f.nameOf)} for ${amountText(out, f.nameOf)}${via(f)}`, kind: 'nft-trade', protocols: venues };
  if (isNft(out) && !isNft(into)) return { summary: `Sold ${amountText(out, f.nameOf)} for ${amountText(into, f.nameOf)}${via(f)}`, kind: 'nft-trade', protocols: venues };
  const on = venues.length > 0 ? ` on ${venues.join(' and ')}` : '';
  return { summary: `Swapped ${amountText(out, f.nameOf)} for ${amountText(into, f.nameOf)}${on}${via(f)}`, kind: 'swap', protocols: venues };
}

/** Several NFTs of one collection bought for one fungible asset (or sold for one): a sweep, one sentence. */
function nftsForOne(f: Facts, isNft: (a: AssetAmount) => boolean): Omit<Verdict, 'protocols'> | null {
  /** The collection, when there are several items and all are NFTs of one. */
  const collectionOf = (xs: readonly AssetAmount[]): AssetAmount | undefined => {
    const [first] = xs;
    return first !== undefined && xs.length > 1 && xs.every((x) => isNft(x) && x.asset === first.asset) ? first : undefined;
  };
  const many = (xs: readonly AssetAmount[], first: AssetAmount): string => `${xs.length} × ${f.nameOf(first.asset) ?? first.symbol ?? shortAddress(f.shown(first.asset))}`;
  const [paid] = f.sent;
  const [got] = f.received;
  const bought = collectionOf(f.received);
  if (f.sent.length === 1 && paid !== undefined && !isNft(paid) && bought !== undefined) return { summary: `Bought ${many(f.received, bought)} for ${amountText(paid, f.nameOf)}${via(f)}`, kind: 'nft-trade' };
  const sold = collectionOf(f.sent);
  if (f.received.length === 1 && got !== undefined && !isNft(got) && sold !== undefined) return { summary: `Sold ${many(f.sent, sold)} for ${amountText(got, f.nameOf)}${via(f)}`, kind: 'nft-trade' };
  return null;
}

/** Tokens the actor received from the zero address (minted), or sent to it (burned), and nothing else. */
function mintedOrBurned(f: Facts): Verdict | null {
  const fromZero = (a: AssetAmount): boolean => f.counterparties.some((m) => m.asset === a.asset && m.from === ZERO_ADDRESS && m.to === f.actor);
  const toZero = (a: AssetAmount): boolean => f.counterparties.some((m) => m.asset === a.asset && m.from === f.actor && m.to === ZERO_ADDRESS);
  if (f.sent.length === 0 && f.received.length > 0 && f.received.every(fromZero)) return { summary: `Minted ${list(f.received, f.nameOf)}`, kind: 'mint' };
  if (f.received.length === 0 && f.sent.length > 0 && f.sent.every(toZero)) return { summary: `Burned ${list(f.sent, f.nameOf)}`, kind: 'burn' };
  return null;
}

/** One asset sent and nothing back (or received and nothing given): a transfer, to or from whom it went. */
function oneTransfer(f: Facts): Verdict | null {
  // Only where every move of that asset went one way: a net figure from moves both ways (a cycle of
  // trades, a refund) sent to or received from one counterparty would be a transfer that never happened.
  const sending = f.sent.length === 1 && f.received.length === 0;
  if (!sending && !(f.received.length === 1 && f.sent.length === 0)) return null;
  const a = sending ? f.sent[0] : f.received[0];
  if (a === undefined) return null;
  // Without a call tree, a call's ether is its value alone: what came back inside it is not known, so
  // no transfer is claimed (the function called says what it did).
  if (a.asset === 'ETH' && hasInput(f) && !etherInsideCallsKnown(f.model)) return null;
  const moves = f.counterparties.filter((m) => m.asset === a.asset && (m.from === f.actor || m.to === f.actor) && m.from !== m.to);
  if (moves.some((m) => (sending ? m.to : m.from) === f.actor)) return null;
  // The whole amount to (or from) one address only where it all went there: a batch that paid two is said as two.
  const parties = unique(moves.map((m) => (sending ? m.to : m.from)));
  const [only] = parties;
  const party = only === undefined ? '' : ` ${sending ? 'to' : 'from'} ${parties.length === 1 ? who(only, f) : `${parties.length} addresses`}`;
  return { summary: `${sending ? 'Sent' : 'Received'} ${amountText(a, f.nameOf)}${party}`, kind: 'transfer' };
}

/** What the actor moved of one asset, each way (gross, not netted). */
function grossOf(f: Facts, asset: string): { readonly out: bigint; readonly in: bigint } {
  let out = 0n;
  let into = 0n;
  for (const m of f.counterparties) {
    if (m.asset !== asset || m.from === m.to) continue;
    if (m.from === f.actor) out += m.amount;
    if (m.to === f.actor) into += m.amount;
  }
  return { out, in: into };
}

/**
 * Trades that start and end in one asset (an arbitrage's cycle): the actor sent and got back the same
 * asset through pools' swaps, and that asset is all it netted. Said with both gross figures.
 */
function cycle(f: Facts): Verdict | null {
  const net = [...f.sent, ...f.received];
  const [a] = net;
  if (net.length !== 1 || a === undefined || f.venues.every((v) => v.role !== 'swap')) return null;
  const gross = grossOf(f, a.asset);
  if (gross.out === 0n || gross.in === 0n) return null;
  const venues = unique(f.venues.filter((v) => v.role === 'swap').map((v) => v.venue));
  const as = (amount: bigint): string => amountText({ ...a, amount }, f.nameOf);
  const change = `${gross.in >= gross.out ? '+' : '−'}${as(gross.in >= gross.out ? gross.in - gross.out : gross.out - gross.in)}`;
  return { summary: `Swapped ${as(gross.out)} for ${as(gross.in)} on ${venues.join(' and ')}${via(f)} (a cycle: ${change})`, kind: 'swap', protocols: venues };
}

/**
 * A swap and, beside it, ether paid to one address that sent nothing back (a searcher's payment to the
 * block's builder): the swap, then the payment, each said.
 */
function swappedAndPaid(f: Facts): Verdict | null {
  if (f.sent.length !== 2 || f.received.length !== 1) return null;
  const eth = f.sent.find((a) => a.asset === 'ETH');
  const other = f.sent.find((a) => a.asset !== 'ETH');
  if (eth === undefined || other === undefined || other.asset === f.received[0]!.asset) return null;
  const paid = f.counterparties.filter((m) => m.asset === 'ETH' && m.from === f.actor && m.to !== f.actor);
  const to = paid[0]?.to;
  if (to === undefined || paid.some((m) => m.to !== to) || f.counterparties.some((m) => m.from === to && m.to === f.actor)) return null;
  const swap = swapped({ ...f, sent: [other] });
  if (swap === null) return null;
  return { ...swap, summary: `${swap.summary}, and paid ${amountText(eth)} to ${who(to, f)}` };
}

/**
 * EIP-7702: a type-4 transaction that called nothing, moved nothing and logged nothing (empty input, no
 * value, no transfer, no event: a delegate's code may run on empty input): what it did was its
 * authorizations, each as the authorizations stage found it. An account delegated by its own
 * transaction is "its"; one delegated by another's (a sponsor's) is named.
 */
function delegated(f: Facts): Verdict | null {
  const facts = f.model.authorizations ?? [];
  if (facts.length === 0 || hasInput(f) || (f.model.tx?.value ?? 0n) > 0n || f.counterparties.length > 0 || f.logs.length > 0) return null;
  const applied = facts.filter((a) => a.applied === true && a.authority !== null);
  const unsure = facts.filter((a) => a.applied === null).length;
  const failedToo = facts.length - applied.length - unsure;
  const rest = [failedToo > 0 ? `${failedToo} not applied` : '', unsure > 0 ? `${unsure} not known whether applied` : ''].filter((x) => x !== '').join(', ');
  const tail = rest === '' ? '' : ` (${rest})`;
  if (applied.length === 1) {
    const a = applied[0]!;
    const own = a.authority === f.actor;
    const name = own ? '' : who(a.authority!, f);
    const summary = a.revocation ? `Cleared ${own ? 'its' : `${name}'s`} EIP-7702 delegation${tail}` : `Delegated ${own ? 'its account' : name} to ${who(a.address, f)} (EIP-7702${rest === '' ? '' : `; ${rest}`})`;
    return { summary, kind: 'delegate' };
  }
  if (applied.length > 1) return { summary: `Set ${applied.length} EIP-7702 delegations${tail}`, kind: 'delegate' };
  return { summary: `Set no EIP-7702 delegation: ${rest}`, kind: 'delegate' };
}

/** A transaction to its own sender: no call ran (a cancel, a nonce bump), and nothing moved but the fee. */
function toItself(f: Facts): Verdict | null {
  const tx = f.model.tx;
  if (tx?.to == null || tx.to.toLowerCase() !== f.actor || tx.from.toLowerCase() !== f.actor) return null;
  if (hasInput(f)) return null;
  return { summary: tx.value !== undefined && tx.value > 0n ? `Sent ${amountText({ asset: 'ETH', standard: 'ETH', amount: tx.value })} to itself` : 'Sent nothing to itself (a cancel or a nonce bump)', kind: 'transfer' };
}

/** Nothing else fits: the function called, by its contract's name where known. */
function called(f: Facts): Verdict {
  const to = f.model.tx?.to;
  const fn = f.model.decoded?.function;
  const target = to ? who(to.toLowerCase(), f) : 'a contract';
  const input = f.model.tx?.input;
  const selector = input !== undefined && input.length >= 10 ? input.slice(0, 10) : null;
  const venues = unique(f.venues.map((v) => v.venue));
  // A function no source names is said by its selector, never dressed up as a name; one that took
  // arguments is not written as if it took none (they are on the Input line).
  const summary = fn?.name ? `Called ${target}.${fn.name}(${fn.args.length > 0 ? '…' : ''})` : selector !== null ? `Called ${target} (selector ${selector})` : `Called ${target}`;
  return { summary, kind: 'call', protocols: venues };
}
