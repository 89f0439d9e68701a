import type { AuthorizationOf, Hex, ReceiptOf, Reexecution, RpcL1Fee, RpcSlotChange, StateOverride, StateSource, TraceSource, TransactionOf } from '../raw/types.js';

/** Whose fee rules apply: Ethereum's, the OP Stack's or Arbitrum's (model/chain.ts tells which from the answers). */
export type FeeRules = 'ethereum' | 'op-stack' | 'arbitrum';

export type Status = 'success' | 'reverted' | 'pending' | 'not_found';

/**
 * One node of the call tree, in Parity's vocabulary whatever tracer produced it. Quantities are
 * converted (bigint); data stays hex as the node sent it. --json spells it back (renderJson's callJson).
 */
export interface CallNode {
  /** 'call' | 'create' | 'suicide' | 'reward'; an unknown type is kept as the node wrote it. */
  readonly type: string;
  readonly callType?: string;
  readonly creationMethod?: string;
  readonly rewardType?: string;
  readonly from: Hex | null;
  /** For a create: the created address. For a suicide: the beneficiary (with `from` the destroyed contract). */
  readonly to: Hex | null;
  readonly value: bigint | null;
  readonly gas: bigint | null;
  readonly gasUsed: bigint | null;
  readonly input: Hex | null;
  readonly output: Hex | null;
  readonly error: string | null;
  readonly traceAddress: readonly number[];
  readonly children: CallNode[];
  /**
   * Indices into the receipt's logs (in logIndex order) of the events this call emitted; present only
   * when the tracer tells where each log was emitted (callTracer with withLog).
   */
  logs?: number[];
  /** Set on a placeholder standing in for a root entry the node did not send. */
  readonly missing?: true;
  /** What the decode stage named in this call (absent before it runs, or where nothing was named). */
  decoded?: CallDecoding;
}

/** A call's names, as the decode stage found them. */
export interface CallDecoding {
  /** The function its input calls: a constructor for a create, receive() or fallback() for bare value, a precompile's operation. */
  readonly function?: Decoded;
  /** Its return values, by that function's outputs (a successful call). */
  readonly outputs?: readonly DecodedArg[];
  /** A failed call's revert data: Error, Panic, text or raw, and the custom error an ABI names (the data's selector decoded). */
  readonly revert?: DecodedRevert;
  /** A failed frame: the statement it stopped at, from a matched artifact's source map (the source-location stage). */
  readonly sourceLocation?: SourceLocation;
  /** And the internal calls that led there, innermost first, as far as its last jumps tell. */
  readonly calledFrom?: readonly SourceLocation[];
  /** --internal: what ran in the frame, in order: the Solidity internal functions it called (InternalCall), and its own calls (indexes into `children`) where they were made. */
  readonly internal?: readonly InternalItem[];
  /** --storage: every read and write of storage it made itself, in the order they ran (its calls' are theirs). */
  readonly storage?: readonly StorageItem[];
}

/** --storage: one SLOAD/SSTORE/TLOAD/TSTORE of a frame; slots and words as 0x-prefixed 32-byte hex. */
export interface StorageItem {
  readonly op: 'read' | 'write';
  /** The account whose storage it is (a delegatecall's: its caller's). */
  readonly address: Hex;
  readonly slot: Hex;
  /** A read: the word read. */
  readonly value?: Hex;
  /** A write: the word before and the word written (the same where it wrote what was there). */
  readonly before?: Hex;
  readonly after?: Hex;
  /** TLOAD/TSTORE (EIP-1153). */
  readonly transient?: true;
  /** A write undone by a revert of its frame or of one enclosing it. */
  readonly reverted?: true;
  /** The variable, where a storage layout names the slot ("total", "balances[0x7099…79C8]", "cfg.fee"). */
  readonly name?: string;
  /** Its value by its type: a read's value; a write's { before, after }. */
  readonly decoded?: JsonValue;
}

/** Inside an external frame: one of its internal calls, one of its own calls (an index into the frame's `children`), or one of its events (`event`: the frame's k-th, as placed in `events`). */
export type InternalItem = InternalCall | number | { readonly event: number };

/** A Solidity internal function a frame ran: entered by a JUMP its source map marks `i`, left by the matching `o`. */
export interface InternalCall {
  readonly name: string;
  /** The contract or library that defines it; null for a free function. */
  readonly contract: string | null;
  /** Where it is defined (`line` 1-based). */
  readonly file: string;
  readonly line: number;
  /** Gas from the jump in to the jump out (the frame's end, where it never returned), what it called included. */
  readonly gasUsed: bigint;
  /** It was running when the frame reverted. */
  readonly reverted?: true;
  /** Its jump in and jump out (the frame's end: the position after its last jump), as positions among the jumps read (a jump's index, or its step). */
  readonly from: number;
  readonly to: number;
  readonly inside: readonly InternalItem[];
}

/** A place in a Solidity file: `line` and `column` 1-based (the column in characters), `code` that line's text. */
export interface SourceLocation {
  /** As the project or Sourcify names it ("src/Bank.sol"). */
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly code: string;
  /** The map only says the statement lies in this function (via-IR builds). */
  readonly approximate?: true;
  /** The lines around it (a few each side), from `firstLine` on; `code` is among them. */
  readonly context: { readonly firstLine: number; readonly lines: readonly string[] };
}

export interface DecodedRevert {
  readonly revert: Revert;
  /** The custom error an ABI names, when the data is not an Error or a Panic. */
  readonly custom: Decoded | null;
}

/**
 * A transaction as the model holds it: the node's answer (raw/parseRaw checked it), its quantities
 * converted once (bigint; an index and a chain id as numbers), absent where the node left them out.
 */
export type Transaction = TransactionOf<bigint, number>;

/** An EIP-7702 authorization, its numbers (the signature's too) as bigint. */
export type Authorization = AuthorizationOf<bigint>;

/** What an EIP-7702 authorization did (the authorizations stage, pipeline/authorizationsOf.ts). */
export interface AuthorizationFact {
  readonly chainId: bigint | null;
  /** The delegate: the code the authority's account runs from now on (the zero address: the delegation cleared). */
  readonly address: Hex;
  readonly nonce: bigint | null;
  /** The signer, recovered from the signature; null where the signature does not recover (then it was not applied). */
  readonly authority: Hex | null;
  /** Whether it took effect; null where the state could not tell. */
  readonly applied: boolean | null;
  /** Why it did not take effect, or why that is not known. */
  readonly reason: string | null;
  /** An authorization to the zero address: it clears the authority's delegation. */
  readonly revocation: boolean;
}

/** A receipt as the model holds it: checked, quantities converted, logs as the node wrote them. */
export type Receipt = ReceiptOf<bigint, number, 'success' | 'reverted'>;

export interface CallTree {
  readonly root: CallNode;
  readonly count: number;
  readonly maxDepth: number;
}

export type Revert =
  | { readonly kind: 'error'; readonly message: string }
  | { readonly kind: 'panic'; readonly code: bigint; readonly meaning: string }
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'custom'; readonly selector: Hex; readonly data: Hex }
  | { readonly kind: 'empty' };

/** Why a transaction failed, as far as the trace tells. */
export interface Failure {
  /** The root entry's error string ("Reverted", "out of gas", …), or null without a trace. */
  readonly error: string | null;
  /** Decoded revert data, when the failure is a revert with data available. */
  readonly revert: Revert | null;
  /** The deepest call whose failure bubbled up unchanged to the root (the root itself when it failed on its own). */
  readonly origin: CallNode | null;
  /** Where the origin is an envelope that reverted with its own words (Multicall3's "call failed", a Safe's GS013): the failed call it ran (the operations stage). */
  readonly cause?: EnvelopeCause;
}

/** The failed call behind an envelope's own revert: its frame, whose envelope (a batch's account, a Safe), and which of the batch's calls (1-based; null for a Safe's one call). */
export interface EnvelopeCause {
  readonly traceAddress: readonly number[];
  readonly kind: 'batch' | 'safe';
  readonly account: Hex;
  readonly call: number | null;
}

/** An event drawn inside the tree: emitted by a call after `position` of its subcalls. */
export interface PlacedEvent {
  readonly position: number;
  /** Index into the receipt's logs. */
  readonly log: number;
}

/** What `txray call` simulated and how (absent for a mined transaction). */
export interface Simulation {
  /** Which node method answered: a tracer, or eth_call alone (no tree). */
  readonly method: 'debug_traceCall' | 'trace_call' | 'local' | 'eth_simulateV1' | 'eth_call';
  /** The block simulated at: its number and hash as the node gave them, and what was asked for. */
  readonly block: { readonly number: bigint; readonly hash: Hex | null; readonly asked: string };
  /** The state overrides as sent (geth's form, by address); null without any. */
  readonly overrides: StateOverride | null;
  /** eth_estimateGas's answer (null when a gas limit was given, or the node could not estimate). */
  readonly gasEstimate: bigint | null;
  /** Why the estimate failed, when it did (a revert, usually). */
  readonly gasEstimateError: string | null;
  /** Simulated from a signed transaction (--raw): `hash` is the hash it would have once sent. */
  readonly signed: boolean;
  /** eth_call's return data, when no tracer answered (with a tree, the root call holds it). */
  readonly output: Hex | null;
  /** `txray call --tx`: the mined transaction it ran again (below). */
  readonly replay?: ReplayFacts;
}

export interface InspectModel {
  /** The transaction hash; a simulated call has none unless it came signed (--raw). */
  readonly hash: Hex | null;
  /** `txray call`: what was simulated; absent for a mined transaction. */
  readonly simulation?: Simulation;
  readonly status: Status;
  readonly tx: Transaction | null;
  readonly receipt: Receipt | null;
  readonly tree: CallTree | null;
  readonly traceSource: TraceSource | null;
  /** Which tracer the tree came from, when it was not trace_transaction. */
  readonly traceNote: string | null;
  /** --confirmations: the blocks wanted on top of the transaction's block, and how many there were when --wait ended. */
  readonly confirmations?: { readonly wanted: number; readonly reached: number } | null;
  /** traceSource local: how txray's re-execution went (absent or null otherwise). */
  readonly reexecution?: Reexecution | null;
  /** Events per call, when the tracer placed them (null: they stay in the Logs section only). */
  readonly events: ReadonlyMap<CallNode, readonly PlacedEvent[]> | null;
  readonly failure: Failure | null;
  /** What it paid (would pay, for a simulation with a gas price): known from the receipt; split with --state's block header. */
  readonly fee: FeeSplit | null;
  /** --state: the changes (null when the node gave none); absent when not asked. */
  readonly state?: StateModel | null;
  readonly warnings: readonly string[];
  /** Not found as a transaction, and the node has a block with this hash: its number. */
  readonly blockOfHash?: bigint;
  /** EIP-7702: what each authorization of the list did (pipeline/authorizationsOf.ts); absent without a list. */
  readonly authorizations?: readonly AuthorizationFact[];
  /** Names for what the model holds (the decode stage); absent before it runs. */
  readonly decoded?: DecodedModel;
  /** What it did, in one line, from the actor's net movements (the action stage, after decode); null where nothing ran (pending, not found). */
  readonly action?: Action | null;
  /** Every holder's net movement per asset (the action stage): the actor first, then by address. */
  readonly netChanges?: readonly NetChange[];
  /** The operations the transaction carried (the operations stage, after the action); absent before it runs. */
  readonly operations?: readonly Operation[];
  /**
   * The node's results verbatim, for --json; null when the run prints text, so that a big answer's
   * parsed objects can be freed once the model is built.
   */
  readonly raw: {
    readonly transaction: unknown;
    readonly receipt: unknown;
    readonly trace: unknown;
    readonly callTrace: unknown;
    /** --state: the state diff's answer verbatim (absent when not asked). */
    readonly stateDiff?: unknown;
    /** A simulation's logs (it has no receipt): the tracer's surviving events, in order, with a logIndex. */
    readonly logs?: readonly unknown[];
  } | null;
}

export type ActionKind =
  | 'swap' | 'transfer' | 'approve' | 'wrap' | 'unwrap' | 'add-liquidity' | 'remove-liquidity' | 'supply' | 'withdraw' | 'borrow'
  | 'repay' | 'liquidate' | 'stake' | 'bridge' | 'mint' | 'burn' | 'nft-trade' | 'deploy' | 'batch' | 'call' | 'delegate' | 'failed';

/** An amount of one asset: ether, or a token (an NFT with its id). */
export interface AssetAmount {
  /** "ETH", or the token's lower-case address. */
  readonly asset: 'ETH' | Hex;
  readonly standard: 'ETH' | 'ERC-20' | 'ERC-721' | 'ERC-1155';
  /** In base units (wei, the token's smallest unit; an NFT's count); never negative here. */
  readonly amount: bigint;
  readonly tokenId?: string;
  /** What the token says of itself, where known. */
  readonly symbol?: string;
  readonly decimals?: number;
}

/** What a transaction (or a simulation) did, from one actor's view. */
export interface Action {
  /** The sentence: "Swapped 1 ETH for 1,994.01 TKA on Uniswap v2". */
  readonly summary: string;
  readonly kind: ActionKind;
  /** Whose view the sentence takes (the sender; the Safe for a Safe execution; the smart account of an ERC-4337 user operation; --as). */
  readonly actor: Hex;
  /** The venues that did it, by the protocol set's names ("Uniswap v2"). */
  readonly protocols: readonly string[];
  /** The actor's net movements, each asset once; the fee is not among them. */
  readonly sent: readonly AssetAmount[];
  readonly received: readonly AssetAmount[];
}

/** One holder's net movement of one asset over the transaction (signed). */
export interface NetChange {
  readonly holder: Hex;
  readonly asset: 'ETH' | Hex;
  readonly standard: AssetAmount['standard'];
  readonly tokenId?: string;
  readonly change: bigint;
  readonly symbol?: string;
  readonly decimals?: number;
  /** Without a call tree, a Deposit/Withdrawal of a token not known as wrapped ether touched it and was not counted: the change may be wrong. */
  readonly incomplete?: true;
}

/** What an account was to the transaction. */
export type AccountRole = 'sender' | 'recipient' | 'coinbase' | 'created' | 'destroyed' | 'new';

/** An EIP-7702 delegation: the account's code is 0xef0100 ‖ the address it runs the code of. */
export interface DelegationChange {
  readonly before: Hex | null;
  readonly after: Hex | null;
}

/** One account's change, from the state diff (--state). Quantities as bigints, slots as words. */
export interface AccountChange {
  readonly address: Hex;
  readonly roles: readonly AccountRole[];
  readonly balance: { readonly before: bigint; readonly after: bigint } | null;
  readonly nonce: { readonly before: bigint; readonly after: bigint } | null;
  /** Code sizes in bytes, when the code changed (created, destroyed, delegated). */
  readonly code: { readonly before: number; readonly after: number } | null;
  readonly delegation: DelegationChange | null;
  readonly storage: readonly RpcSlotChange[];
  /** The account's code as the tracer showed it, for naming it by artifact. */
  readonly knownCode?: Hex;
}

/** How the fee divides: the base fee burned (EIP-1559) and the rest to the block's coinbase. */
export interface FeeSplit {
  /** Which chain's rules split it: Ethereum's, the OP Stack's or Arbitrum's. */
  readonly rules: FeeRules;
  readonly gasUsed: bigint;
  /** 0 for an OP Stack deposit, which buys its gas on L1. */
  readonly effectiveGasPrice: bigint;
  /** gasUsed × effectiveGasPrice. */
  readonly execution: bigint;
  /** What the sender paid for the transaction: the execution fee, plus the L1 data fee on an OP Stack chain. */
  readonly total: bigint;
  /** Null when the block header is not known. */
  readonly baseFeePerGas: bigint | null;
  /** gasUsed × base fee (null when the header is not known, or the chain's rules do not say): burned on Ethereum, to the BaseFeeVault on an OP Stack chain. */
  readonly baseFeePart: bigint | null;
  /** Burned: the base fee's part on Ethereum, nothing on an OP Stack chain; null when not known. */
  readonly burned: bigint | null;
  /** To the coinbase (the SequencerFeeVault on an OP Stack chain). */
  readonly priority: bigint | null;
  /** EIP-4844 blob gas × blob gas price, burned as well. */
  readonly blobFee: bigint;
  readonly coinbase: Hex | null;
  /** OP Stack: the receipt's L1 data fee (to the L1FeeVault), and its inputs as the receipt gave them. */
  readonly l1Fee: bigint;
  readonly l1: RpcL1Fee | null;
  /** Arbitrum: the part of gasUsed that paid for L1 calldata. */
  readonly l1Gas: bigint | null;
  /** OP Stack deposit: the ETH minted on L2; null otherwise. */
  readonly mint: bigint | null;
}

export interface StateModel {
  readonly source: StateSource;
  /** Changed accounts: the sender first, then by address. */
  readonly accounts: readonly AccountChange[];
  /** ETH balance changes: the sender first, then by size of the change. */
  readonly balances: readonly AccountChange[];
  readonly fee: FeeSplit | null;
  /**
   * False when the diff's ETH changes leave the gas fee out (they add up to zero although a fee was
   * paid: seen on Erigon's trace_replayTransaction); the sender's change then lacks the fee.
   */
  readonly feeInDiff: boolean;
  /** The self-check: the diff's ETH changes added up, and what they should add up to (minus the burned fee), when known. */
  readonly ethSum: bigint;
  readonly expectedSum: bigint | null;
}

// What the decode stage adds to the model (it fills them; the renderers read them).

/**
 * Where a name came from; sourcify, etherscan (verified ABIs) and signatures (a signature service) only
 * with --online; signature: the function signature typed to `txray call`.
 */
export type NameSource = 'abi' | 'project' | 'builtin' | 'protocol' | 'database' | 'sourcify' | 'etherscan' | 'signatures' | 'signature';

/** One variable (or part of one) that lives in a changed slot, its values before and after. */
export interface NamedSlotPart {
  /** The state variable it belongs to ("balanceOf", "positions"). */
  readonly name: string;
  /**
   * Where in it: mapping keys in brackets (addresses checksummed, integers decimal), array indices,
   * struct members after a dot ("positions[42].owner", "allowance[0xf39F…][0x7099…]").
   */
  readonly path: string;
  /** The mapping keys on the way, in order. */
  readonly keys: readonly string[];
  /** Solidity type ("uint256", "address", "string"). */
  readonly type: string;
  /** Decoded like call arguments: integers as decimal strings, addresses checksummed, booleans as booleans. */
  readonly before: string | boolean;
  readonly after: string | boolean;
  /** after − before, for integers. */
  readonly change?: string;
}

/** A decoded value in JSON-safe form: integers as decimal strings, addresses checksummed, tuples as objects or arrays. */
export type JsonValue = string | boolean | JsonValue[] | { [name: string]: JsonValue };

export interface DecodedArg {
  /** Absent for guessed types. */
  readonly name?: string;
  readonly type: string;
  readonly indexed?: boolean;
  readonly value: JsonValue;
  /** A `bytes` argument that is itself call data of a known function, decoded (decode/nestedCalls.ts). */
  readonly call?: Decoded;
  /** `bytes` inside this argument's arrays and tuples that are call data: where in `value` ("[0].callData"), and the call. */
  readonly calls?: readonly NestedCall[];
  /** Safe's `multiSend(bytes)`: the packed transactions of its argument, each with its call data decoded where it is known. */
  readonly transactions?: readonly PackedTransaction[];
  /** A `bytes` value that is a known error's revert data (caught and passed on), decoded (decode/revertArgs.ts). */
  readonly revert?: RevertJson;
}

export interface NestedCall {
  /** A path into the argument's value: indices in brackets, tuple components after a dot ("[1].data"). */
  readonly path: string;
  readonly call: Decoded;
}

/** One transaction of a MultiSend batch. */
export interface PackedTransaction {
  /** 0 a call, 1 a delegatecall (as packed). */
  readonly operation: number;
  readonly to: Hex;
  /** Wei, decimal. */
  readonly value: string;
  readonly data: Hex;
  readonly call?: Decoded;
}

export interface Decoded {
  /** null when no source knows the selector and the types were guessed from the data's layout. */
  readonly name: string | null;
  /** Canonical signature, e.g. transfer(address,uint256); null for guessed types. */
  readonly signature: string | null;
  readonly args: readonly DecodedArg[];
  readonly source: NameSource | 'guessed';
  readonly contract?: string;
  /** Guessed types only: the selector no source names. */
  readonly selector?: Hex;
  readonly guessed?: true;
  /** Bytes after the canonical encoding that the function ignores (Solidity does); absent when there are none. */
  readonly trailingBytes?: number;
  /** A call inside call data at the depth bound (decode/nestedCalls.ts): its bytes arguments hold data that was not looked into. */
  readonly nestedCut?: 'depth';
}

export interface Transfer {
  readonly kind: 'ETH' | 'ERC-20' | 'ERC-721' | 'ERC-1155';
  readonly from: Hex;
  readonly to: Hex;
  /** Wei or token units (an ERC-721's: 1). */
  readonly amount: bigint;
  readonly token?: Hex;
  readonly tokenId?: string;
  /** ERC-20: what the token says of itself (symbol(), decimals() at the block) or the address book, where known. */
  readonly symbol?: string;
  readonly decimals?: number;
  /**
   * A row the wrapped-native token's Deposit or Withdrawal stands for (WETH9 emits no Transfer for them):
   * the token minted to its holder or burned from it, or the ether leg where no call of the tree shows it.
   * Added by the action stage (action/wrapTransfers.ts), which counts wraps; absent on every other row.
   */
  readonly event?: 'Deposit' | 'Withdrawal';
}

export interface DecodedModel {
  /** The transaction's input, decoded. */
  readonly function: Decoded | null;
  /** One entry per receipt log (same order), null where nothing decoded it. */
  readonly events: ReadonlyArray<Decoded | null>;
  /** Custom error of the root revert, when an ABI names it. */
  readonly error: Decoded | null;
  readonly transfers: readonly Transfer[];
  /** Lower-case address → name, for display. */
  readonly labels: ReadonlyMap<string, string>;
  /** Lower-case emitter → the address book's protocol key ("aave-v3-pool", "lido", "bridge:Base"); absent where none is known. */
  readonly bookKeys?: ReadonlyMap<string, string>;
  /** Lower-case address → its EIP-55 checksummed form, for every address the views show. */
  readonly checksums: ReadonlyMap<string, string>;
  /** --state: token balance changes and storage names (decodeState). */
  readonly state?: DecodedState;
  /** What the tokens the views show say of themselves (symbol(), decimals() at the block, or the address book), by lower-case address. */
  readonly tokens?: ReadonlyMap<string, { readonly symbol: string | null; readonly decimals: number | null }>;
  /**
   * Lower-case address → what tells it apart where another shown address bears the same label (the
   * token's symbol, else its short address): text says "Token(DAI)" where "Token" alone would be two.
   */
  readonly instances?: ReadonlyMap<string, string>;
  /** The gas profile, made once where a view shows it (--json, --html, --gas, --gas-out). */
  readonly gasProfile?: GasProfile;
  /** EIP-7702: accounts whose code (as read for names) is a delegation, by lower-case address → the delegate (lower case). */
  readonly delegates?: ReadonlyMap<string, Hex>;
  /** The failed call sent ether to a function its matched artifact says takes none (decode/notPayable.ts). */
  readonly notPayable?: NotPayable;
}

/** Ether sent to a function that is not payable: what the matched artifact says of it, and the value sent (wei). */
export interface NotPayable {
  readonly contract: string;
  readonly signature: string;
  readonly stateMutability: 'nonpayable' | 'view' | 'pure';
  readonly value: bigint;
}

export interface TokenBalance {
  readonly holder: Hex;
  readonly token: Hex;
  readonly kind: 'ERC-20' | 'ERC-721' | 'ERC-1155';
  /** ERC-1155: the id; ERC-721 changes count tokens. */
  readonly tokenId?: string;
  /** Signed, in the token's smallest unit. */
  readonly change: bigint;
  readonly symbol: string | null;
  readonly decimals: number | null;
}

export interface DecodedState {
  readonly tokens: readonly TokenBalance[];
  /** address → slot word → what lives there. */
  readonly storage: ReadonlyMap<string, ReadonlyMap<string, readonly NamedSlotPart[]>>;
  /** address → the artifact (or, `verified`, the verified contract: --online) whose layout named its slots, and the implementation it came through. */
  readonly layouts: ReadonlyMap<string, { readonly contract: string; readonly via?: Hex; readonly verified?: true }>;
}

export interface GasRow {
  /** The code that ran: the call's target (for a delegatecall, the code's address), a create's new contract. */
  readonly address: Hex | null;
  readonly function: string | null;
  readonly selector: Hex | null;
  readonly calls: number;
  /** Null when a call of this row has no known gas. */
  readonly gasUsed: bigint | null;
  readonly selfGas: bigint | null;
}

/** A frame of a gas stack: a call, or (--internal) an internal call inside one. */
export type StackFrame = CallNode | InternalCall;

export interface GasProfile {
  /** Sorted by self gas, largest first (unknown last). */
  readonly rows: readonly GasRow[];
  /** The root call's gas used (null when unknown). */
  readonly rootGas: bigint | null;
  /** Calls whose gas is unknown (failed Parity entries): the sums are partial when there are any. */
  readonly unknown: number;
  /** Folded stacks, one line per call path with its self gas ("a;b;c 123"), for flame-graph viewers. */
  readonly folded: readonly { readonly stack: readonly StackFrame[]; readonly selfGas: bigint }[];
}

/** How it ended, the operations it carried included: partial when it succeeded but a user operation or Safe transaction in it failed. */
export type Outcome = 'success' | 'reverted' | 'partial';

/** What every operation says: whose it was, whether it succeeded, the frame it ran in (null where the tree does not show it), its own action. */
interface OperationBase {
  readonly account: Hex;
  readonly success: boolean;
  readonly traceAddress: readonly number[] | null;
  readonly action: Action | null;
}

/** An ERC-4337 user operation, as its EntryPoint's UserOperationEvent says it (the figures verbatim). */
export interface UserOperation extends OperationBase {
  readonly kind: 'userOperation';
  readonly entryPoint: Hex;
  readonly userOpHash: Hex;
  readonly nonce: bigint;
  readonly paymaster: Hex | null;
  readonly actualGasCost: bigint;
  readonly actualGasUsed: bigint;
  /** Its execution's revert (UserOperationRevertReason), decoded as any revert; null where none was emitted. */
  readonly revert: { readonly data: Hex; readonly decoded: DecodedRevert } | null;
}

/** A Safe's execTransaction, as its ExecutionSuccess or ExecutionFailure says it. */
export interface SafeTransaction extends OperationBase {
  readonly kind: 'safeTransaction';
  readonly safeTxHash: Hex;
  /** The inner call's revert, where the tree has it. */
  readonly revert: { readonly data: Hex; readonly decoded: DecodedRevert } | null;
}

/** One call of a batch. `success` null where neither the tree nor the batch's own result tells. */
export interface BatchCall {
  readonly to: Hex;
  readonly value: bigint;
  readonly function: string | null;
  /** Its arguments, decoded by the ABI that names `function` (absent where none does, or the types were guessed). */
  readonly args?: readonly DecodedArg[];
  readonly success: boolean | null;
  /** Multicall3's allowFailure for this call (absent for batches that have no such flag). */
  readonly allowFailure?: boolean;
  /** A failed call's frame, where the tree shows it (its reason is read from there). */
  readonly traceAddress?: readonly number[];
  /** It succeeded, but the batch's own frame reverted after it: its effects were undone. */
  readonly rolledBack?: true;
}

/** Several calls in one envelope: Multicall3's aggregate calls, an account's executeBatch, a Safe's multiSend. */
export interface BatchOperation extends OperationBase {
  readonly kind: 'batchCall';
  /** The envelope's function: "aggregate3", "executeBatch", "multiSend"… */
  readonly via: string;
  readonly calls: readonly BatchCall[];
}

export type Operation = UserOperation | SafeTransaction | BatchOperation;

/** A block's header (`txray block`), converted: quantities as bigint. */
export interface BlockHeader {
  readonly number: bigint;
  /** Null for a pending block the node does not name yet. */
  readonly hash: Hex | null;
  readonly parentHash: Hex | null;
  /** Seconds since 1970. */
  readonly timestamp: bigint;
  readonly miner: Hex | null;
  readonly gasUsed: bigint;
  readonly gasLimit: bigint;
  /** Null before London. */
  readonly baseFeePerGas: bigint | null;
  /** Null before Cancun. */
  readonly blobGasUsed: bigint | null;
  readonly excessBlobGas: bigint | null;
  readonly transactionCount: number;
}

/** A revert as --json spells it (failure.revert, a call's revert, a bytes value that is revert data). */
export type RevertJson =
  | { readonly kind: 'Error'; readonly message: string }
  | { readonly kind: 'Panic'; readonly code: Hex; readonly meaning: string }
  | { readonly kind: 'text'; readonly text: string }
  | ({ readonly kind: 'custom'; readonly selector: Hex; readonly data: Hex } & Partial<Decoded>)
  | { readonly kind: 'empty' };

/** An outcome as the comparison reads it: the mined one from its receipt, the new one from the run. */
export interface OutcomeFacts {
  readonly status: Extract<Status, 'success' | 'reverted'>;
  /** After refunds, as the receipt counts it. */
  readonly gasUsed: bigint | null;
  readonly logs: number;
  /** Its revert data decoded; null for a success, or where it could not be had (`revertUnknown`). */
  readonly revert: { readonly data: Hex; readonly decoded: DecodedRevert } | null;
  /** Reverted, and no tracer nor local run gave its revert data. */
  readonly revertUnknown?: true;
  /** Failed without a revert: the error word, as failure.error says it ("out of gas", an invalid opcode). */
  readonly error?: string;
  /** Every holder's net movement per asset (the action stage's); null where not known. */
  readonly netChanges: readonly NetChange[] | null;
  /** The names its own lookup gave addresses (the mined transaction's may differ from the new run's: an override's code has its own). */
  readonly labels: ReadonlyMap<string, string> | null;
}

/** `txray call --tx`: what the model says of the mined transaction a simulation ran again. */
export interface ReplayFacts {
  readonly hash: Hex;
  /** Null for a pending transaction (run at --block). */
  readonly blockNumber: bigint | null;
  readonly transactionIndex: number | null;
  /** 'position': where it was mined; else the block asked for, as --block gave it. */
  readonly at: string;
  /** Anything differs from the mined transaction (a field, the input, an override). */
  readonly changed: boolean;
  /** At its position: where the run differs from the receipt (empty: it reproduced it); null elsewhere, or when changed. */
  readonly mismatch: readonly string[] | null;
  /** The block's earlier transactions replayed before it (at its position). */
  readonly replayed: number;
  /** The mined outcome; null while it is pending (no receipt). Set by the comparison stage (compareMined.ts). */
  readonly mined: OutcomeFacts | null;
}
