/**
 * Patterns in a block's finished models that look like MEV, said as "looks like", never "is":
 * - a sandwich (mev-inspect's rule, tightened as brontes does): a front-run and a back-run sent by the
 *   same account, trading one pool in opposite directions, around at least one victim from another
 *   sender trading in the front-run's direction. The sender is the transaction's, never the swap
 *   event's `sender` (a public router's address): trades by different senders through one router are
 *   never a sandwich;
 * - an arbitrage: one transaction whose swaps form a cycle back to the token it started from, with a
 *   profit in that token for the sender (and the contract it called, which often keeps it);
 * - a liquidation: a lending protocol's liquidation event (Aave's LiquidationCall, Compound's
 *   LiquidateBorrow and AbsorbDebt);
 * - payments to the fee recipient inside transactions (a searcher's bribe), besides the tips.
 */
import { liquidatorOf } from '../action/protocols.js';
import type { InspectModel } from '../model/types.js';
import type { Hex } from '../raw/types.js';
import { profitOf } from './flows.js';
import { swapsOf, type Swap } from './swapsOf.js';
import type { MevFinding } from './types.js';
import { lowerHex } from '../raw/hex.js';

interface Trade {
  readonly index: number;
  readonly model: Ran;
  readonly hash: Hex;
  readonly sender: Hex;
  /** The pool's coins that went in and came out. */
  readonly sideIn: string;
  readonly sideOut: string;
}

/** A transaction that ran, as the finders read it. */
type Ran = InspectModel & { hash: Hex; tx: NonNullable<InspectModel['tx']> };

const ran = (m: InspectModel): m is Ran => m.status === 'success' && m.hash !== null && m.tx !== null;

/** Whose flows count as the actor's: the sender, and the contract it called (a searcher's contract keeps the proceeds). */
const holdersOf = (models: readonly Ran[]): Set<string> => new Set(models.flatMap((m) => [m.tx.from, ...(m.tx.to !== null ? [m.tx.to] : [])].map(lowerHex)));

/** Each pool's trades in block order; a transaction that trades one pool both ways is left out of that pool (it is no front- or back-run). */
function tradesByPool(models: readonly InspectModel[], swaps: ReadonlyMap<InspectModel, readonly Swap[]>): Map<Hex, Trade[]> {
  const pools = new Map<Hex, Trade[]>();
  models.forEach((m, index) => {
    if (!ran(m)) return;
    const ways = new Map<Hex, Map<string, Swap>>();
    for (const s of swaps.get(m) ?? []) {
      let way = ways.get(s.pool);
      if (way === undefined) ways.set(s.pool, (way = new Map()));
      way.set(`${s.sideIn}>${s.sideOut}`, s);
    }
    for (const [pool, one] of ways) {
      const [only] = one.values();
      if (one.size !== 1 || only === undefined) continue;
      const { sideIn, sideOut } = only;
      let list = pools.get(pool);
      if (list === undefined) pools.set(pool, (list = []));
      list.push({ index, model: m, hash: m.hash, sender: lowerHex(m.tx.from), sideIn, sideOut });
    }
  });
  return pools;
}

function sandwiches(models: readonly InspectModel[], swaps: ReadonlyMap<InspectModel, readonly Swap[]>): MevFinding[] {
  // One finding per front and back pair, with every pool they sandwich.
  const found = new Map<string, { front: Trade; back: Trade; victims: Map<number, Hex>; pools: Hex[] }>();
  for (const [pool, trades] of tradesByPool(models, swaps)) {
    const used = new Set<number>();
    for (const front of trades) {
      if (used.has(front.index)) continue;
      const back = trades.find((t) => t.index > front.index && t.sender === front.sender && t.sideIn === front.sideOut && t.sideOut === front.sideIn);
      if (back === undefined) continue;
      const victims = trades.filter((t) => t.index > front.index && t.index < back.index && t.sender !== front.sender && t.sideIn === front.sideIn && t.sideOut === front.sideOut);
      if (victims.length === 0) continue;
      used.add(front.index).add(back.index);
      const key = `${front.index}:${back.index}`;
      let entry = found.get(key);
      if (entry === undefined) found.set(key, (entry = { front, back, victims: new Map(), pools: [] }));
      for (const v of victims) entry.victims.set(v.index, v.hash);
      entry.pools.push(pool);
    }
  }
  return [...found.values()]
    .sort((a, b) => a.front.index - b.front.index)
    .map(({ front, back, victims, pools }) => {
      const ordered = [front.hash, ...[...victims].sort(([a], [b]) => a - b).map(([, hash]) => hash), back.hash];
      const runs = [front.model, back.model];
      return { kind: 'sandwich', transactions: ordered, actor: front.sender, pools, ...profitOf(runs, holdersOf(runs)) };
    });
}

/** The swaps' tokens, if they chain one into the next and the last back into the first. */
function isCycle(swaps: readonly Swap[]): boolean {
  if (swaps.length < 2) return false;
  return swaps.every((s, i) => {
    const next = swaps[(i + 1) % swaps.length];
    return s.tokenIn !== null && s.tokenOut !== null && s.tokenOut === next?.tokenIn;
  });
}

function arbitrages(models: readonly InspectModel[], swaps: ReadonlyMap<InspectModel, readonly Swap[]>): MevFinding[] {
  const out: MevFinding[] = [];
  for (const m of models) {
    const own = swaps.get(m) ?? [];
    const start = own[0]?.tokenIn;
    if (!ran(m) || !isCycle(own) || start === undefined || start === null) continue;
    const flows = profitOf([m], holdersOf([m]));
    if ((flows.profit.find((f) => f.asset === start)?.amount ?? 0n) <= 0n) continue;
    out.push({ kind: 'arbitrage', transactions: [m.hash], actor: lowerHex(m.tx.from), pools: [...new Set(own.map((s) => s.pool))], ...flows });
  }
  return out;
}

function liquidations(models: readonly InspectModel[]): MevFinding[] {
  const out: MevFinding[] = [];
  for (const m of models) {
    if (!ran(m)) continue;
    const events = (m.receipt?.logs ?? []).flatMap((l) => {
      const who = liquidatorOf(l);
      return who === null ? [] : [{ who, pool: lowerHex(l.address) }];
    });
    const [first] = events;
    if (first === undefined) continue;
    const actor = first.who;
    out.push({ kind: 'liquidation', transactions: [m.hash], actor, pools: [...new Set(events.map((e) => e.pool))], ...profitOf([m], new Set([actor])) });
  }
  return out;
}

/** Ether each transaction's calls sent straight to the fee recipient. */
function feeRecipientPayments(models: readonly InspectModel[], miner: Hex | null): MevFinding[] {
  if (miner === null) return [];
  const out: MevFinding[] = [];
  for (const m of models) {
    if (!ran(m)) continue;
    const paid = (m.decoded?.transfers ?? []).filter((t) => t.kind === 'ETH' && t.event === undefined && lowerHex(t.to) === miner).reduce((sum, t) => sum + t.amount, 0n);
    if (paid > 0n) out.push({ kind: 'fee-recipient-payment', transactions: [m.hash], actor: lowerHex(m.tx.from), pools: [], profit: null, payment: paid });
  }
  return out;
}

export function findMev(models: readonly InspectModel[], miner: Hex | null): MevFinding[] {
  const swaps = new Map<InspectModel, readonly Swap[]>();
  for (const m of models) if (ran(m)) swaps.set(m, swapsOf(m.receipt?.logs ?? []));
  return [...sandwiches(models, swaps), ...arbitrages(models, swaps), ...liquidations(models), ...feeRecipientPayments(models, miner)];
}
