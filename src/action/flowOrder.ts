/**
 * The movements the action stage counts (movementsOf), in the order they happened, for the report's
 * fund flow. Ether moves as a call enters; a token moves, and a wrapped-native token is minted or
 * burned, at its log. Where the tracer said where each log was emitted (the callTracer's log positions,
 * model.events), calls and logs interleave as they ran; without that, ether comes first, then the
 * logs in their order. Pure: reads the decoded model only.
 */
import { tokenTransfers } from '../decode/transfers.js';
import type { CallNode, InspectModel } from '../model/types.js';
import { walkCalls } from '../model/walk.js';
import type { RpcLog } from '../raw/types.js';
import { knownWrapped } from './describeAction.js';
import { type Movement, movementsOf, wrapEnds, wrappings } from './movements.js';

/**
 * Where in the run each call entered and each log was emitted, as sortable keys: a call's key is its
 * place in the walk (parents before children, children in the order they ran); a log emitted before
 * a call's child p shares that child's key and sorts before it; a log after the last child takes the
 * key of whatever runs after the call's whole subtree. Logs without a place sort after every call.
 */
function momentsOf(model: InspectModel): { calls: Array<{ node: CallNode; key: number }>; logKey: (log: number) => number } {
  const tree = model.tree;
  if (tree === null) return { calls: [], logKey: () => Number.POSITIVE_INFINITY };
  const order: CallNode[] = [];
  const dead = new Set<CallNode>();
  walkCalls(tree.root, (node, parent) => {
    order.push(node);
    if (node.error !== null || (parent !== null && dead.has(parent))) dead.add(node);
  });
  const index = new Map<CallNode, number>(order.map((n, i) => [n, i]));
  // What runs after a call's subtree: its last child's end, or the next call in the walk for a leaf.
  const end = new Map<CallNode, number>();
  for (const [i, node] of [...order.entries()].reverse()) {
    const last = node.children.at(-1);
    // A child comes after its parent in the walk, so its end is known by now.
    end.set(node, (last === undefined ? undefined : end.get(last)) ?? i + 1);
  }
  const logKeys = new Map<number, number>();
  for (const [node, placed] of model.events ?? []) {
    for (const { position, log } of placed) {
      const next = node.children[position];
      logKeys.set(log, next !== undefined ? index.get(next)! : end.get(node)!);
    }
  }
  return {
    calls: order.flatMap((node, key) => (dead.has(node) ? [] : [{ node, key }])),
    logKey: (log) => logKeys.get(log) ?? Number.POSITIVE_INFINITY,
  };
}

/** A place in the run: the key of momentsOf, then a call after the logs that share its key, then the log's index. */
interface Place {
  readonly key: number;
  readonly call: boolean;
  readonly log: number;
}

interface MoveAt {
  readonly from: string;
  readonly to: string;
  readonly asset: string;
  readonly amount: bigint;
  readonly tokenId?: string | undefined;
  readonly place: Place;
}

const sameMove = (m: Movement, c: MoveAt): boolean =>
  m.from === c.from.toLowerCase() && m.to === c.to.toLowerCase() && m.asset === (c.asset === 'ETH' ? 'ETH' : c.asset.toLowerCase()) && m.amount === c.amount && m.tokenId === c.tokenId;

/**
 * Each of `pending` (a list in the order its source made it) takes the place of the first candidate, in
 * turn, that is the same move: `pending` is a subsequence of the candidates (those the action stage
 * left out, a zero amount say, match nothing).
 */
function placeEach(pending: readonly Movement[], candidates: readonly MoveAt[], places: Map<Movement, Place>): void {
  let next = 0;
  for (const c of candidates) {
    const p = pending[next];
    if (p === undefined) return;
    if (sameMove(p, c)) {
      places.set(p, c.place);
      next++;
    }
  }
}

/** Every movement of movementsOf once, in the order it happened. */
export function movementsInOrder(model: InspectModel): Movement[] {
  const wrapped = knownWrapped(model);
  const { movements, transferred, wrapped: wrapMoves } = movementsOf(model, wrapped);
  // The transfers list ether (in the walk's order), then tokens (in the logs' order); the wraps follow the logs too.
  const ether = transferred.filter((m) => m.asset === 'ETH');
  const tokens = transferred.filter((m) => m.asset !== 'ETH');
  const logs: readonly RpcLog[] = model.status === 'success' ? (model.receipt?.logs ?? []) : [];
  const { calls, logKey } = momentsOf(model);
  const places = new Map<Movement, Place>();
  placeEach(ether, calls.flatMap(({ node, key }) => (node.from !== null && node.to !== null && node.value !== null ? [{ from: node.from, to: node.to, asset: 'ETH', amount: node.value, place: { key, call: true, log: 0 } }] : [])), places);
  const atLog = (i: number): Place => ({ key: logKey(i), call: false, log: i });
  placeEach(tokens, logs.flatMap((log, i) => tokenTransfers([log]).map((t) => ({ from: t.from, to: t.to, asset: t.token!, amount: t.amount, tokenId: t.tokenId, place: atLog(i) }))), places);
  placeEach(wrapMoves, logs.flatMap((log, i) => wrappings([log], ether, wrapped).map((w) => ({ ...wrapEnds(w), asset: w.token, amount: w.amount, place: atLog(i) }))), places);
  // Without a call tree, the transaction's value moved before anything else.
  const unplaced: Place = { key: Number.POSITIVE_INFINITY, call: false, log: Number.POSITIVE_INFINITY };
  const placeOf = (m: Movement): Place => places.get(m) ?? (m.asset === 'ETH' ? { key: -1, call: true, log: 0 } : unplaced);
  const before = (a: Place, b: Place): number => (a.key !== b.key ? (a.key < b.key ? -1 : 1) : a.call !== b.call ? (a.call ? 1 : -1) : a.log - b.log);
  // A wrapped-native token is ether one for one (its Deposit or Withdrawal was proven so): its decimals are ether's.
  const wrapsOf = new Set(wrapMoves);
  return movements
    .map((m, i) => ({ m, i, p: placeOf(m) }))
    .sort((a, b) => before(a.p, b.p) || a.i - b.i)
    .map(({ m }) => (wrapsOf.has(m) && m.decimals === undefined ? { ...m, decimals: 18 } : m));
}
