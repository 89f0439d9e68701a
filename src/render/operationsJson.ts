/**
 * The operations as --json spells them: amounts as decimal strings, a revert as the failure's revert
 * is spelled (a custom error an ABI names with its name and arguments), each one's action.
 */
import { decodedRevertJson, type RevertJson } from '../model/decodeRevert.js';
import type { Action, DecodedRevert, InspectModel, Operation } from '../model/types.js';
import type { Hex } from '../raw/types.js';

export interface JsonOperation {
  readonly kind: Operation['kind'];
  readonly account: Hex;
  readonly success: boolean;
  readonly traceAddress: readonly number[] | null;
  readonly action: unknown;
  readonly [field: string]: unknown;
}

const revertJson = (r: { readonly decoded: DecodedRevert } | null): RevertJson | null => (r === null ? null : decodedRevertJson(r.decoded));

function one(o: Operation, action: (a: Action | null) => unknown): JsonOperation {
  const base = { kind: o.kind, account: o.account, success: o.success, traceAddress: o.traceAddress, action: action(o.action) };
  switch (o.kind) {
    case 'userOperation':
      return { ...base, entryPoint: o.entryPoint, userOpHash: o.userOpHash, nonce: o.nonce.toString(), paymaster: o.paymaster, actualGasCost: o.actualGasCost.toString(), actualGasUsed: o.actualGasUsed.toString(), revert: revertJson(o.revert) };
    case 'safeTransaction':
      return { ...base, safeTxHash: o.safeTxHash, revert: revertJson(o.revert) };
    case 'batchCall':
      return { ...base, via: o.via, calls: o.calls.map((c) => ({ to: c.to, value: c.value.toString(), function: c.function, success: c.success, ...(c.allowFailure !== undefined ? { allowFailure: c.allowFailure } : {}) })) };
  }
}

/** `action`: the action's own spelling (renderJson's actionJson), handed in so that the two stay one. */
export function operationsJson(m: InspectModel, action: (a: Action | null) => unknown): JsonOperation[] {
  return (m.operations ?? []).map((o) => one(o, action));
}
