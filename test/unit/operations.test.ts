import { encodeAbiParameters, encodePacked, type Hex, toEventSelector, toFunctionSelector } from 'viem';
import { describe, expect, test } from 'vitest';
import { unpackMultiSend } from '../../src/decode/unpackMultiSend.js';
import { BATCHES, ENTRY_POINTS, EXEC_TRANSACTION, EXECUTION_FAILURE, EXECUTION_SUCCESS, HANDLE_OPS, POST_OP_REVERT_REASON, USER_OPERATION_EVENT, USER_OPERATION_REVERT_REASON, VALIDATE_USER_OP } from '../../src/operations/signatures.js';
import { txOutcome } from '../../src/operations/txOutcome.js';
import type { CallNode, InspectModel, Operation } from '../../src/model/types.js';
import type { RpcLog } from '../../src/raw/types.js';
import { AbiIndex } from '../../src/decode/abiIndex.js';
import { findOperations } from '../../src/operations/findOperations.js';
import { decodedModel } from '../support/decodedModel.js';

const OP = '(address,uint256,bytes,bytes,uint256,uint256,uint256,uint256,uint256,bytes,bytes)';
const PACKED = '(address,uint256,bytes,bytes,bytes32,uint256,bytes32,bytes,bytes)';

describe('the envelopes\' topics and selectors, recomputed', () => {
  test('events', () => {
    expect(USER_OPERATION_EVENT).toBe(toEventSelector('UserOperationEvent(bytes32,address,address,uint256,bool,uint256,uint256)'));
    expect(USER_OPERATION_REVERT_REASON).toBe(toEventSelector('UserOperationRevertReason(bytes32,address,uint256,bytes)'));
    expect(POST_OP_REVERT_REASON).toBe(toEventSelector('PostOpRevertReason(bytes32,address,uint256,bytes)'));
    expect(EXECUTION_SUCCESS).toBe(toEventSelector('ExecutionSuccess(bytes32,uint256)'));
    expect(EXECUTION_FAILURE).toBe(toEventSelector('ExecutionFailure(bytes32,uint256)'));
  });

  test('functions', () => {
    expect([...HANDLE_OPS]).toEqual([`handleOps(${OP}[],address)`, `handleOps(${PACKED}[],address)`, `handleAggregatedOps((${OP}[],address,bytes)[],address)`, `handleAggregatedOps((${PACKED}[],address,bytes)[],address)`].map((f) => toFunctionSelector(f)));
    expect([...VALIDATE_USER_OP]).toEqual([`validateUserOp(${OP},bytes32,uint256)`, `validateUserOp(${PACKED},bytes32,uint256)`].map((f) => toFunctionSelector(f)));
    expect(EXEC_TRANSACTION).toBe(toFunctionSelector('execTransaction(address,uint256,bytes,uint8,uint256,uint256,uint256,address,address,bytes)'));
    for (const [selector, { signature }] of Object.entries(BATCHES)) expect(toFunctionSelector(signature)).toBe(selector);
  });

  test('the address book knows the canonical EntryPoints, v0.6 to v0.9', () => {
    expect([...ENTRY_POINTS]).toEqual(['0x5ff137d4b0fdcd49dca30c7cf57e578a026d2789', '0x0000000071727de22e5e9d8baf0edac6f37da032', '0x4337084d9e255ff0702461cf8895ce9e3b5ff108', '0x433709009b8330fda32311df1c2afa402ed8d009']);
  });
});

describe('unpackMultiSend', () => {
  const entry = (operation: number, to: Hex, value: bigint, data: Hex): Hex => encodePacked(['uint8', 'address', 'uint256', 'uint256', 'bytes'], [operation, to, value, BigInt((data.length - 2) / 2), data]);
  const A = '0x00000000000000000000000000000000000000aa';
  const B = '0x00000000000000000000000000000000000000bb';

  test('entries back to back, in order, as MultiSend packs them', () => {
    const packed = `${entry(0, A, 5n, '0xa9059cbb')}${entry(1, B, 0n, '0x').slice(2)}` as Hex;
    expect(unpackMultiSend(packed)).toEqual([
      { operation: 0, to: A, value: 5n, data: '0xa9059cbb' },
      { operation: 1, to: B, value: 0n, data: '0x' },
    ]);
    expect(unpackMultiSend('0x')).toEqual([]);
  });

  test('malformed or hostile bytes: null, never a partial list', () => {
    const good = entry(0, A, 0n, '0x1234');
    expect(unpackMultiSend(good.slice(0, -2) as Hex)).toBeNull();
    expect(unpackMultiSend(`${good}00` as Hex)).toBeNull();
    // A length word near 2^256: past the end of what is there.
    const huge = `0x00${A.slice(2)}${'0'.repeat(64)}${'f'.repeat(64)}` as Hex;
    expect(unpackMultiSend(huge)).toBeNull();
    expect(unpackMultiSend(entry(2, A, 0n, '0x'))).toBeNull();
    expect(unpackMultiSend('0xzz' as Hex)).toBeNull();
  });
});

describe('the outcome', () => {
  const op = (kind: Operation['kind'], success: boolean): Operation =>
    kind === 'batchCall'
      ? { kind, account: '0x01', success, traceAddress: null, action: null, via: 'aggregate3', calls: [] }
      : kind === 'safeTransaction'
        ? { kind, account: '0x01', success, traceAddress: null, action: null, safeTxHash: '0x02', revert: null }
        : { kind, account: '0x01', success, traceAddress: null, action: null, entryPoint: '0x03', userOpHash: '0x02', nonce: 0n, paymaster: null, actualGasCost: 1n, actualGasUsed: 1n, revert: null };

  test('partial only where a user operation or a Safe transaction failed inside a success', () => {
    expect(txOutcome({ status: 'success', operations: [op('userOperation', true), op('userOperation', false)] })).toBe('partial');
    expect(txOutcome({ status: 'success', operations: [op('safeTransaction', false)] })).toBe('partial');
    expect(txOutcome({ status: 'success', operations: [op('batchCall', false)] })).toBe('success');
    expect(txOutcome({ status: 'reverted', operations: [op('userOperation', false)] })).toBe('reverted');
    expect(txOutcome({ status: 'pending' })).toBeNull();
  });
});

describe('user operations: the event and its frame must agree', () => {
  const EP = '0x00000000000000000000000000000000000000e4' as Hex;
  const ACCOUNT = '0x0000000000000000000000000000000000000acc' as Hex;
  const word = (a: string): Hex => `0x${a.slice(2).padStart(64, '0')}`;
  const event = (success: boolean): RpcLog => ({
    address: EP,
    topics: [USER_OPERATION_EVENT as Hex, `0x${'33'.repeat(32)}`, word(ACCOUNT), word('0x00')],
    data: encodeAbiParameters([{ type: 'uint256' }, { type: 'bool' }, { type: 'uint256' }, { type: 'uint256' }], [0n, success, 5n, 6n]),
  });
  const node = (o: Partial<CallNode> & Pick<CallNode, 'from' | 'to' | 'input' | 'traceAddress'>): CallNode => ({ type: 'call', callType: 'call', value: 0n, gas: null, gasUsed: null, output: null, error: null, children: [], ...o });
  /** handleOps at the root, its execution call to the account at [0] (failed or not). */
  const traced = (success: boolean, callFailed: boolean): InspectModel => {
    const exec = node({ from: EP, to: ACCOUNT, input: '0xb61d27f6', traceAddress: [0], error: callFailed ? 'Reverted' : null });
    const root = node({ from: '0x0000000000000000000000000000000000000b0b', to: EP, input: '0x765e827f', traceAddress: [], children: [exec] });
    return { ...decodedModel({ from: '0x0000000000000000000000000000000000000b0b', to: EP, input: '0x765e827f', logs: [event(success)] }), tree: { root, count: 2, maxDepth: 1 } };
  };
  const index = new AbiIndex(null);

  test('they agree: listed with its frame and the event\'s own figures', () => {
    const warnings: string[] = [];
    const ops = findOperations(traced(true, false), index, warnings);
    expect(ops).toMatchObject([{ kind: 'userOperation', account: ACCOUNT, success: true, traceAddress: [0], actualGasCost: 5n, actualGasUsed: 6n }]);
    expect(warnings).toEqual([]);
  });

  test('the event says success, its call failed: not listed, and a warning says why', () => {
    const warnings: string[] = [];
    expect(findOperations(traced(true, true), index, warnings)).toEqual([]);
    expect(warnings.join('\n')).toMatch(/says it succeeded, but its call at \[0\] failed/);
  });

  test('no handleOps frame and not a known EntryPoint: its events are not read', () => {
    const model = traced(true, false);
    const other: InspectModel = { ...model, tree: { root: { ...model.tree!.root, input: '0x12345678' }, count: 2, maxDepth: 1 } };
    const warnings: string[] = [];
    expect(findOperations(other, index, warnings)).toEqual([]);
    expect(warnings.join('\n')).toContain('neither a known EntryPoint nor called through handleOps');
  });
});
