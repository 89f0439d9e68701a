/**
 * The Action row of a transaction that carried user operations, or a Safe transaction that failed:
 * it speaks of the operations, each by its account and its own sentence
 * ("2 user operations: 0xA1…: sent 5 TKA to 0xB2…; 0xC3…: failed, InsufficientBalance(…)").
 */
import { checksumAddress } from '../decode/keccak.js';
import type { Action, InspectModel, Operation } from '../model/types.js';
import type { Hex } from '../raw/types.js';

/** An operation's sentence as one clause: lower-case first, its failure said as "failed, why". */
function clause(o: Operation): string {
  const summary = o.action?.summary ?? (o.success ? 'succeeded' : 'failed');
  if (summary.startsWith('Failed: ')) return `failed, ${summary.slice('Failed: '.length)}`;
  return `${summary.charAt(0).toLowerCase()}${summary.slice(1)}`;
}

/**
 * Null where the transaction's own action stands (no user operation, no failed Safe transaction).
 * `asked`: --as's account; where it is one operation's account, that operation's own action is its view
 * (what its operation moved; the gas it paid is the operation's actualGasCost, not a transfer).
 */
export function bundleAction(model: InspectModel, operations: readonly Operation[], action: Action | null, asked: Hex | undefined): Action | null {
  if (action === null) return null;
  if (asked !== undefined) {
    const own = operations.filter((o) => o.kind !== 'batchCall' && o.account === asked.toLowerCase());
    return own.length === 1 ? own[0]!.action : null;
  }
  const ops = operations.filter((o) => o.kind === 'userOperation');
  const safes = operations.filter((o) => o.kind === 'safeTransaction');
  const carried = ops.length > 0 ? ops : safes.some((o) => !o.success) ? safes : [];
  if (carried.length === 0) return null;
  const labels = model.decoded?.labels;
  const checksums = model.decoded?.checksums;
  // Short as the views write it ("0xA1b2…c3D4"); the operations sit below the views, so it is spelled here.
  const short = (a: string): string => `${a.slice(0, 6)}…${a.slice(-4)}`;
  const who = (a: string): string => labels?.get(a) ?? short(checksums?.get(a) ?? checksumAddress(a));
  const noun = carried[0]!.kind === 'userOperation' ? 'user operation' : 'Safe transaction';
  const head = `${carried.length} ${noun}${carried.length === 1 ? '' : 's'}`;
  return { ...action, kind: carried.length === 1 ? action.kind : 'batch', summary: `${head}: ${carried.map((o) => `${who(o.account)}: ${clause(o)}`).join('; ')}` };
}
