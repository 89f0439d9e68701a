/**
 * The operations as --json spells them: amounts as decimal strings, a revert as the failure's revert
 * is spelled (a custom error an ABI names with its name and arguments), each one's action.
 */
import { decodedRevertJson, type RevertJson } from '../model/decodeRevert.js';
import type { Action, DecodedArg, DecodedRevert, InspectModel, Operation, SourceLocation } from '../model/types.js';
import { causeAt, causeWords } from '../words/causeWords.js';
import type { Hex } from '../raw/types.js';

interface JsonOperationBase<A> {
  readonly account: Hex;
  readonly success: boolean;
  readonly traceAddress: readonly number[] | null;
  readonly action: A | null;
}

/** One operation as --json spells it; `A` is the action's spelling (renderJson's JsonAction). */
export type JsonOperation<A = unknown> = JsonOperationBase<A> &
  (
    | { readonly kind: 'userOperation'; readonly entryPoint: Hex; readonly userOpHash: Hex; readonly nonce: string; readonly paymaster: Hex | null; readonly actualGasCost: string; readonly actualGasUsed: string; readonly revert: RevertJson | null; readonly sourceLocation?: SourceLocation }
    | { readonly kind: 'safeTransaction'; readonly safeTxHash: Hex; readonly revert: RevertJson | null; readonly sourceLocation?: SourceLocation }
    | { readonly kind: 'batchCall'; readonly via: string; readonly calls: ReadonlyArray<{ readonly to: Hex; readonly value: string; readonly function: string | null; readonly args?: readonly DecodedArg[]; readonly success: boolean | null; readonly allowFailure?: boolean; readonly rolledBack?: true; readonly reason?: string }> }
  );

const revertJson = (r: { readonly decoded: DecodedRevert } | null): RevertJson | null => (r === null ? null : decodedRevertJson(r.decoded));

function one<A>(m: InspectModel, o: Operation, action: (a: Action | null) => A | null): JsonOperation<A> {
  const base = { account: o.account, success: o.success, traceAddress: o.traceAddress, action: action(o.action) };
  // A failed operation: where its innermost failing frame stopped in the source, as the call tree has it.
  const at = o.success ? null : (causeAt(m, o.traceAddress)?.at ?? null);
  const placed = at === null ? {} : { sourceLocation: at };
  const s = { decoded: m.decoded, short: true };
  switch (o.kind) {
    case 'userOperation':
      return { kind: o.kind, ...base, entryPoint: o.entryPoint, userOpHash: o.userOpHash, nonce: o.nonce.toString(), paymaster: o.paymaster, actualGasCost: o.actualGasCost.toString(), actualGasUsed: o.actualGasUsed.toString(), revert: revertJson(o.revert), ...placed };
    case 'safeTransaction':
      return { kind: o.kind, ...base, safeTxHash: o.safeTxHash, revert: revertJson(o.revert), ...placed };
    case 'batchCall':
      return {
        kind: o.kind, ...base, via: o.via,
        calls: o.calls.map((c) => {
          const reason = c.success === false ? causeWords(m, c.traceAddress ?? null, s) : null;
          return { to: c.to, value: c.value.toString(), function: c.function, ...(c.args !== undefined ? { args: c.args } : {}), success: c.success, ...(c.allowFailure !== undefined ? { allowFailure: c.allowFailure } : {}), ...(c.rolledBack ? { rolledBack: true } : {}), ...(reason !== null ? { reason } : {}) };
        }),
      };
  }
}

/** `action`: the action's own spelling (renderJson's actionJson), handed in so that the two stay one. */
export function operationsJson<A>(m: InspectModel, action: (a: Action | null) => A | null): JsonOperation<A>[] {
  return (m.operations ?? []).map((o) => one(m, o, action));
}
