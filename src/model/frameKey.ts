/** A frame's key among its transaction's frames: its traceAddress, joined ('' is the top frame, '0,2' its first call's third). */
export const frameKey = (traceAddress: readonly number[]): string => traceAddress.join(',');
