import type { InspectModel, Transfer } from '../../src/model/types.js';
import type { Hex, RpcLog } from '../../src/raw/types.js';

/**
 * A mined, successful transaction's model after decode, made of what a stage after decode reads: its
 * sender and recipient, its input, its logs and transfers, labels and the address book's protocol keys.
 * No tree, as without a trace.
 */
export function decodedModel(o: { from: Hex; to: Hex; input?: Hex; value?: bigint; logs?: RpcLog[]; transfers?: Transfer[]; labels?: Record<string, string>; bookKeys?: Record<string, string> }): InspectModel {
  return {
    hash: `0x${'11'.repeat(32)}`,
    status: 'success',
    tx: { hash: null, blockHash: null, blockNumber: 1n, transactionIndex: 0, from: o.from, to: o.to, input: o.input ?? '0x12345678', ...(o.value !== undefined ? { value: o.value } : {}) },
    receipt: { transactionHash: `0x${'11'.repeat(32)}`, logs: o.logs ?? [], status: 'success' },
    tree: null,
    traceSource: null,
    traceNote: null,
    events: null,
    failure: null,
    fee: null,
    warnings: [],
    raw: null,
    decoded: { function: null, events: [], error: null, transfers: o.transfers ?? [], labels: new Map(Object.entries(o.labels ?? {})), bookKeys: new Map(Object.entries(o.bookKeys ?? {})), checksums: new Map() },
  };
}
