/**
 * Node answers after validation, still as the node wrote them: quantities and data are hex strings,
 * exactly as sent. Only fields txray reads are typed; the verbatim objects travel beside these for --json.
 */
export type Hex = `0x${string}`;

export interface RpcAccessListEntry {
  readonly address: Hex;
  readonly storageKeys: readonly Hex[];
}

export interface RpcAuthorization {
  readonly chainId?: Hex;
  readonly address: Hex;
  readonly nonce?: Hex;
}

export interface RpcTransaction {
  readonly hash: Hex;
  readonly blockHash: Hex | null;
  readonly blockNumber: Hex | null;
  readonly transactionIndex: Hex | null;
  readonly from: Hex;
  readonly to: Hex | null;
  readonly value?: Hex;
  readonly gas?: Hex;
  readonly gasPrice?: Hex;
  readonly maxFeePerGas?: Hex;
  readonly maxPriorityFeePerGas?: Hex;
  readonly maxFeePerBlobGas?: Hex;
  readonly input?: Hex;
  readonly nonce?: Hex;
  readonly type?: Hex;
  readonly chainId?: Hex;
  readonly accessList?: readonly RpcAccessListEntry[];
  readonly blobVersionedHashes?: readonly Hex[];
  readonly authorizationList?: readonly RpcAuthorization[];
}

export interface RpcLog {
  readonly address: Hex;
  readonly topics: readonly Hex[];
  readonly data: Hex;
  readonly logIndex?: Hex;
}

export interface RpcReceipt {
  readonly transactionHash: Hex;
  readonly blockHash?: Hex;
  readonly blockNumber?: Hex;
  readonly transactionIndex?: Hex;
  readonly contractAddress?: Hex | null;
  readonly gasUsed?: Hex;
  readonly effectiveGasPrice?: Hex;
  /** '0x1' success, '0x0' failure; absent on pre-Byzantium receipts, which carry `root` instead. */
  readonly status?: '0x0' | '0x1';
  readonly root?: Hex;
  readonly blobGasUsed?: Hex;
  readonly blobGasPrice?: Hex;
  readonly logs: readonly RpcLog[];
}

/** One entry of a Parity-style trace (trace_transaction), normalised to what every type shares. */
export interface RpcTraceEntry {
  readonly type: string;
  readonly traceAddress: readonly number[];
  readonly subtraces: number | null;
  readonly action: Readonly<Record<string, unknown>>;
  readonly result: Readonly<Record<string, unknown>> | null;
  readonly error: string | null;
}
