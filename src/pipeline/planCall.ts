/**
 * From `txray call`'s checked input to the call object the node is asked to run: the calldata encoded
 * (a signature, a name the loaded ABIs know, --data, or --create's init code with constructor
 * arguments), or a signed transaction (--raw) read back with its sender; a typed signature joins the
 * decoder's ABIs. No request is made here.
 */
import { type AbiIndex, signatureOf } from '../decode/abiIndex.js';
import { encodeCall, encodeCreate, parseSignature } from '../decode/encodeCall.js';
import { parseSignedTransaction } from '../decode/parseSignedTransaction.js';
import { toQuantity } from '../raw/hex.js';
import type { Hex, StateOverride } from '../raw/types.js';
import type { CodeSource } from './codeSource.js';
import type { CallPlan } from './simulateCall.js';

export interface CallInput {
  /** Null for a creation (--create) and for --raw (the transaction names its own). */
  readonly to: Hex | null;
  /** A signature or a function name, with its argument words; absent with --data, --raw or a bare creation. */
  readonly sig?: string;
  readonly args: readonly string[];
  readonly from: Hex;
  readonly value: bigint;
  /** --data: the calldata as given. */
  readonly data?: Hex;
  /** --create: the init code. */
  readonly create?: Hex;
  /** --raw: the signed transaction, as given (read once the run starts). */
  readonly raw?: string;
  /** A number (hex), a tag, a block hash, or 'default' (pending where the node has it, else latest). */
  readonly block: string;
  readonly gasLimit?: bigint;
  /** geth-style state overrides by lower-case address; null without any. */
  readonly overrides: StateOverride | null;
  /** --override-code from an artifact or a contract name: set into `overrides` once resolved (resolveCodes.ts). */
  readonly codes: readonly CodeOverride[];
  /** --tx: the mined transaction to run again, and which of from and value were given (else its own). */
  readonly replay?: { readonly hash: Hex; readonly from: boolean; readonly value: boolean };
}

/** One --override-code whose code is not hex as given. */
export interface CodeOverride {
  readonly address: Hex;
  readonly source: Exclude<CodeSource, { readonly kind: 'hex' }>;
}

/** `prefer`: the artifact the target's code matched (null: none), where a bare function name needs it (see resolveFunction). */
export async function planCall(input: CallInput, index: AbiIndex | null, prefer?: string | null): Promise<CallPlan> {
  if (input.raw !== undefined) {
    const signed = await parseSignedTransaction(input.raw);
    return { call: signed.call, hash: signed.hash, block: input.block, overrides: input.overrides };
  }
  const data = input.create !== undefined ? encodeCreate(input.create, input.sig, input.args) : (input.data ?? (input.sig !== undefined ? encodeCall(input.sig, input.args, index, prefer) : '0x'));
  // The signature typed is an ABI of its own: it names the call where no loaded ABI does, and with return
  // types (cast's "divide(uint256,uint256)(uint256)") decodes what the call returns.
  if (input.create === undefined && input.sig?.includes('(') === true && index !== null) {
    const typed = parseSignature(input.sig);
    const loaded = index.functionCandidates(data.slice(0, 10) as Hex).filter((c) => c.source !== 'database' && signatureOf(c.item) === signatureOf(typed));
    // Only where no loaded ABI has the same function (theirs carry parameter and contract names), or
    // where none of those says what it returns and the typed one does.
    if (loaded.length === 0 || (typed.outputs.length > 0 && loaded.every((c) => c.item.outputs.length === 0))) index.add([typed], 'signature');
  }
  const call = {
    from: input.from,
    ...(input.to !== null ? { to: input.to } : {}),
    value: toQuantity(input.value),
    data,
    ...(input.gasLimit !== undefined ? { gas: toQuantity(input.gasLimit) } : {}),
  };
  return { call, hash: null, block: input.block, overrides: input.overrides };
}
