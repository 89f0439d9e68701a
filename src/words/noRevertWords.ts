/**
 * Why an operation failed where no revert data says it. A user operation's EntryPoint emits
 * UserOperationRevertReason when its execution returned one; a Safe's ExecutionFailure never carries
 * one, so without the call tree the reason is not known, not absent.
 */
export function noRevertWords(kind: 'userOperation' | 'safeTransaction', traced: boolean): string {
  return kind === 'safeTransaction' && !traced ? 'reason not known (no call tree)' : 'no revert reason emitted';
}
