/** `txray call --tx`: a model's outcome in the comparison's terms (status, gas used, logs, revert, net changes). */
import type { OutcomeFacts } from './types.js';
import type { InspectModel } from './types.js';

/** A model's outcome as the comparison reads it (a mined one's gas and logs from its receipt). */
export function outcomeOf(m: InspectModel): OutcomeFacts {
  const reverted = m.status !== 'success';
  const f = m.failure;
  const data = m.tree?.root.output ?? null;
  // A failure that is no revert (out of gas, an invalid opcode) has no revert data to know: its error word is the fact.
  const error = reverted && f !== null && f.revert === null && f.error !== null && m.tree !== null && !/revert/i.test(f.error) ? f.error : null;
  return {
    status: reverted ? 'reverted' : 'success',
    gasUsed: m.receipt?.gasUsed ?? null,
    logs: m.receipt?.logs.length ?? 0,
    revert: !reverted || f === null || f.revert === null || data === null ? null : { data, decoded: { revert: f.revert, custom: m.decoded?.error ?? null } },
    ...(error !== null ? { error } : reverted && (f === null || f.revert === null) ? { revertUnknown: true as const } : {}),
    netChanges: m.netChanges ?? null,
    labels: m.decoded?.labels ?? null,
  };
}

