/**
 * The envelopes' events and functions, by topic0 and selector, written out so that no hashing runs at
 * start-up (test/unit/operations.test.ts recomputes every one). Sources: the published artifacts of
 * @account-abstraction/contracts 0.6–0.8 and @safe-global/safe-contracts 1.3–1.4.1, Multicall3.
 */
import { USER_OPERATION } from '../action/protocols.js';
import { BUILTIN_LABELS } from '../decode/wellKnown.js';

/** UserOperationEvent(bytes32 indexed userOpHash, address indexed sender, address indexed paymaster, uint256 nonce, bool success, uint256 actualGasCost, uint256 actualGasUsed). */
export const USER_OPERATION_EVENT = USER_OPERATION;
/** UserOperationRevertReason(bytes32 indexed userOpHash, address indexed sender, uint256 nonce, bytes revertReason). */
export const USER_OPERATION_REVERT_REASON = '0x1c4fada7374c0a9ee8841fc38afe82932dc0f8e69012e927f061a8bae611a201';
/** PostOpRevertReason(bytes32 indexed userOpHash, address indexed sender, uint256 nonce, bytes revertReason), v0.7+. */
export const POST_OP_REVERT_REASON = '0xf62676f440ff169a3a9afdbf812e89e7f95975ee8e5c31214ffdef631c5f4792';
/** Safe: ExecutionSuccess(bytes32 txHash, uint256 payment) and ExecutionFailure (txHash indexed since 1.4.0). */
export const EXECUTION_SUCCESS = '0x442e715f626346e8c54381002da614f62bee8d27386535b2521ec8540898556e';
export const EXECUTION_FAILURE = '0x23428b18acfb3ea64b08dc0c1d296ea9c09702c09083ca5272e64d115b687d23';

/** handleOps and handleAggregatedOps, v0.6's UserOperation and v0.7+'s PackedUserOperation (v0.8, v0.9 share v0.7's). */
export const HANDLE_OPS: ReadonlySet<string> = new Set(['0x1fad948c', '0x765e827f', '0x4b1d7cf5', '0xdbed18e0']);
/** validateUserOp, v0.6 and v0.7+: the EntryPoint's validation call to the account, not its execution. */
export const VALIDATE_USER_OP: ReadonlySet<string> = new Set(['0x3a871cdd', '0x19822f7c']);
/** execTransaction(address,uint256,bytes,uint8,uint256,uint256,uint256,address,address,bytes). */
export const EXEC_TRANSACTION = '0x6a761202';

/** The batch envelopes: their selector, the function's name, and its calls' parameters as an ABI item. */
export const BATCHES: Readonly<Record<string, { readonly name: string; readonly signature: string }>> = {
  '0x252dba42': { name: 'aggregate', signature: 'function aggregate((address target, bytes callData)[] calls)' },
  '0x82ad56cb': { name: 'aggregate3', signature: 'function aggregate3((address target, bool allowFailure, bytes callData)[] calls)' },
  '0x174dea71': { name: 'aggregate3Value', signature: 'function aggregate3Value((address target, bool allowFailure, uint256 value, bytes callData)[] calls)' },
  '0x18dfb3c7': { name: 'executeBatch', signature: 'function executeBatch(address[] dest, bytes[] func)' },
  '0x47e1da2a': { name: 'executeBatch', signature: 'function executeBatch(address[] dest, uint256[] value, bytes[] func)' },
  '0x34fcd5be': { name: 'executeBatch', signature: 'function executeBatch((address target, uint256 value, bytes data)[] calls)' },
  '0x8d80ff0a': { name: 'multiSend', signature: 'function multiSend(bytes transactions)' },
};

/** The EntryPoints the address book knows (lower-case), by their canonical deployments' labels. */
export const ENTRY_POINTS: ReadonlySet<string> = new Set(Object.entries(BUILTIN_LABELS).flatMap(([a, name]) => (name.startsWith('EntryPoint ') ? [a.toLowerCase()] : [])));
