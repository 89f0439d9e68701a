/**
 * Who moved what: every transfer the decode stage found (ether from the call tree, tokens from the logs)
 * and the wrapped-native token's Deposit/Withdrawal (WETH9 emits no Transfer for them), netted per
 * holder and asset. Pure: reads the decoded model only.
 */
import { DEPOSIT, WITHDRAWAL, ZERO_ADDRESS } from '../decode/transfers.js';
import type { AssetAmount, InspectModel, NetChange, Transfer } from '../model/types.js';
import { byteLength, lowerHex, wordToAddress } from '../raw/hex.js';
import type { Hex, RpcLog } from '../raw/types.js';


/** One movement of one asset between two holders, lower-case throughout. */
export interface Movement {
  readonly from: Hex;
  readonly to: Hex;
  readonly asset: 'ETH' | Hex;
  readonly standard: AssetAmount['standard'];
  readonly amount: bigint;
  readonly tokenId?: string;
  readonly symbol?: string;
  readonly decimals?: number;
}

/** A wrap or an unwrap of the wrapped-native token, as its events said. */
export interface Wrapping {
  readonly kind: 'wrap' | 'unwrap';
  readonly token: Hex;
  readonly holder: Hex;
  readonly amount: bigint;
}


function fromTransfer(t: Transfer): Movement | null {
  const amount = t.amount;
  // Zero-amount transfers are address-poisoning spam (an ERC-721 moves one token: its amount is 1).
  if (amount === 0n) return null;
  return {
    from: lowerHex(t.from),
    to: lowerHex(t.to),
    asset: t.token === undefined ? 'ETH' : lowerHex(t.token),
    standard: t.kind,
    amount,
    ...(t.tokenId !== undefined ? { tokenId: t.tokenId } : {}),
    ...(t.symbol !== undefined ? { symbol: t.symbol } : {}),
    ...(t.decimals !== undefined ? { decimals: t.decimals } : {}),
  };
}

/** A Deposit or Withdrawal event's facts, by its shape only (topic0, one indexed holder, one word of data). */
function wrapEvent(log: RpcLog): Wrapping | null {
  const topic0 = log.topics[0]?.toLowerCase();
  if ((topic0 !== DEPOSIT && topic0 !== WITHDRAWAL) || log.topics.length !== 2 || byteLength(log.data) !== 32) return null;
  const amount = BigInt(log.data);
  if (amount === 0n) return null;
  return { kind: topic0 === DEPOSIT ? 'wrap' : 'unwrap', token: lowerHex(log.address), holder: lowerHex(wordToAddress(log.topics[1]!)), amount };
}

/** Whether the token did with ether what the event says: took it from its holder (a wrap) or paid it out (an unwrap). */
const provenBy = (w: Wrapping, ether: readonly Movement[], knownWrapped: ReadonlySet<string>): boolean =>
  knownWrapped.has(w.token) || ether.some((m) => m.amount === w.amount && (w.kind === 'wrap' ? m.from === w.holder && m.to === w.token : m.from === w.token && m.to === w.holder));

/**
 * The wrapped-native token's Deposit and Withdrawal, recognised by their shape and by what the token
 * did with ether: a Deposit counts only where its holder sent the token exactly that much ether, a
 * Withdrawal only where the token sent its holder exactly that much (other contracts emit events of the
 * same signature for other things). Known wrapped-native addresses need no other proof.
 */
export function wrappings(logs: readonly RpcLog[], ether: readonly Movement[], knownWrapped: ReadonlySet<string>): Wrapping[] {
  return logs.map(wrapEvent).filter((w): w is Wrapping => w !== null && provenBy(w, ether, knownWrapped));
}

/** A wrap as the token minted to its holder, an unwrap as burned from it (the zero address is the issuer). */
export const wrapEnds = (w: Pick<Wrapping, 'kind' | 'holder'>): { readonly from: Hex; readonly to: Hex } => (w.kind === 'wrap' ? { from: ZERO_ADDRESS, to: w.holder } : { from: w.holder, to: ZERO_ADDRESS });

export interface Movements {
  /** All of them: the transfers, then each wrap's token (and its ether, where no transfer had it). */
  readonly movements: readonly Movement[];
  readonly wraps: readonly Wrapping[];
  /** The decode stage's transfers (ether first, then tokens, as it lists them). */
  readonly transferred: readonly Movement[];
  /** Each wrap's token movement, in the order of `wraps`. */
  readonly wrapped: readonly Movement[];
  /**
   * Without a call tree: the Deposit/Withdrawal events of a token not known as wrapped-native, whose
   * ether could not be seen to prove them (a WETH at another address): not counted, so the changes of
   * their holder and token may be wrong (see incompleteChanges).
   */
  readonly unproven: readonly Wrapping[];
}

/**
 * Every movement: the transfers, and each wrap as the token minted to its holder (an unwrap as burned
 * from it), so that every holder's changes per asset add up to zero with the zero address as the issuer.
 */
export function movementsOf(model: InspectModel, knownWrapped: ReadonlySet<string>): Movements {
  // The rows a wrap added to the Transfers view (action/wrapTransfers.ts) are counted from the logs below.
  const transfers = model.status === 'reverted' ? [] : (model.decoded?.transfers ?? []).filter((t) => t.event === undefined);
  const transferred = transfers.map(fromTransfer).filter((m): m is Movement => m !== null);
  const movements = [...transferred];
  const wrapped: Movement[] = [];
  const ether = movements.filter((m) => m.asset === 'ETH');
  const wraps = model.status === 'reverted' ? [] : wrappings(model.receipt?.logs ?? [], ether, knownWrapped);
  const meta = (token: Hex): Pick<Movement, 'symbol' | 'decimals'> => {
    const seen = movements.find((m) => m.asset === token && m.symbol !== undefined);
    if (seen !== undefined) return { symbol: seen.symbol!, ...(seen.decimals !== undefined ? { decimals: seen.decimals } : {}) };
    // A wrap moved no Transfer of the token: what the token said of itself, read with the others.
    const told = model.decoded?.tokens?.get(token);
    return told?.symbol != null && told.decimals != null ? { symbol: told.symbol, decimals: told.decimals } : {};
  };
  // Without a call tree the ether of a wrap made through another contract, or of any unwrap, is in no
  // transfer; the known wrapped-native token (WETH9) moves exactly that ether whenever it emits the
  // event, so its leg is added where the transfers lack it.
  const unmatched = [...ether];
  for (const w of wraps) {
    const token: Movement = { ...wrapEnds(w), asset: w.token, standard: 'ERC-20', amount: w.amount, ...meta(w.token) };
    wrapped.push(token);
    movements.push(token);
    const [payer, payee] = w.kind === 'wrap' ? [w.holder, w.token] : [w.token, w.holder];
    const leg = unmatched.findIndex((m) => m.from === payer && m.to === payee && m.amount === w.amount);
    if (leg >= 0) unmatched.splice(leg, 1);
    else if (knownWrapped.has(w.token)) movements.push({ from: payer, to: payee, asset: 'ETH', standard: 'ETH', amount: w.amount });
  }
  const unproven = model.status === 'reverted' || etherInsideCallsKnown(model) ? [] : (model.receipt?.logs ?? []).map(wrapEvent).filter((w): w is Wrapping => w !== null && !provenBy(w, ether, knownWrapped));
  return { movements, wraps, transferred, wrapped, unproven };
}

/**
 * The net changes with those an unproven wrap touches marked incomplete: its holder's change in the
 * token (the mint or burn was not counted) and in ether, and the token's ether (the leg not seen). A
 * router's `+1 ETH · −1 WETH` is then said to be incomplete rather than read as a fact.
 */
export function incompleteChanges(changes: readonly NetChange[], unproven: readonly Wrapping[]): NetChange[] {
  if (unproven.length === 0) return [...changes];
  const touched = new Set(unproven.flatMap((w) => [`${w.holder} ${w.token}`, `${w.holder} ETH`, `${w.token} ETH`]));
  return changes.map((c) => (touched.has(`${c.holder} ${c.asset}`) ? { ...c, incomplete: true } : c));
}

/**
 * Whether the transfers and net changes hold every movement of ether. A successful transaction's ether
 * moved inside its calls is known from its call tree only; without one (--tracer none, a node without
 * traces where the local run failed, a simulation by eth_call or eth_simulateV1) they hold the
 * transaction's own value and the known wrapped-native token's legs, and the views say so.
 */
export const etherInsideCallsKnown = (m: Pick<InspectModel, 'status' | 'tree'>): boolean => m.status !== 'success' || m.tree !== null;

const assetKey = (m: { asset: string; tokenId?: string }): string => (m.tokenId === undefined ? m.asset : `${m.asset}#${m.tokenId}`);

/** Every holder's net change per asset; changes that net to zero are left out. The actor first, then by address. */
export function netChanges(movements: readonly Movement[], actor: Hex): NetChange[] {
  const byHolder = new Map<Hex, Map<string, { change: bigint; sample: Movement }>>();
  const add = (holder: Hex, m: Movement, delta: bigint): void => {
    let assets = byHolder.get(holder);
    if (assets === undefined) byHolder.set(holder, (assets = new Map()));
    const key = assetKey(m);
    const known = assets.get(key);
    assets.set(key, { change: (known?.change ?? 0n) + delta, sample: known?.sample.symbol !== undefined ? known.sample : m });
  };
  for (const m of movements) {
    if (m.from === m.to) continue;
    add(m.from, m, -m.amount);
    add(m.to, m, m.amount);
  }
  const holders = [...byHolder].sort(([a], [b]) => (a === actor ? -1 : b === actor ? 1 : a < b ? -1 : a > b ? 1 : 0));
  const out: NetChange[] = [];
  for (const [holder, assets] of holders) {
    for (const { change, sample } of assets.values()) {
      if (change === 0n) continue;
      out.push({
        holder,
        asset: sample.asset,
        standard: sample.standard,
        change,
        ...(sample.tokenId !== undefined ? { tokenId: sample.tokenId } : {}),
        ...(sample.symbol !== undefined ? { symbol: sample.symbol } : {}),
        ...(sample.decimals !== undefined ? { decimals: sample.decimals } : {}),
      });
    }
  }
  return out;
}

/** One holder's net changes as amounts sent and received (each asset once). */
export function sentAndReceived(changes: readonly NetChange[], holder: Hex): { sent: AssetAmount[]; received: AssetAmount[] } {
  const sent: AssetAmount[] = [];
  const received: AssetAmount[] = [];
  for (const c of changes) {
    if (c.holder !== holder) continue;
    const { holder: _holder, change, incomplete: _incomplete, ...rest } = c;
    (change < 0n ? sent : received).push({ ...rest, amount: change < 0n ? -change : change });
  }
  return { sent, received };
}
