import { expect, test } from 'vitest';
import { RpcFailure } from '../../src/errors.js';
import { isMethodNotFound } from '../../src/rpc/createRpcClient.js';

const rpcError = (code: number, message: string) => new RpcFailure('rpc-error', `trace_transaction: the node answered error ${code}: ${message}`, { rpcCode: code });

test.each([
  [-32601, 'the method trace_transaction does not exist/is not available', true], // geth
  [-32601, 'Method not found', true], // JSON-RPC spec wording
  [-32000, 'method trace_transaction is not supported', true],
  [-32000, 'trace namespace is not enabled', true],
  [-32004, 'Method not supported', true],
  [-32000, 'Unsupported method: trace_transaction', true],
  [-32000, 'execution timeout', false],
  [-32000, 'missing trie node', false],
  [-32005, 'rate limit exceeded', false],
])('code %i, %j → method missing: %s', (code, message, missing) => {
  expect(isMethodNotFound(rpcError(code, message))).toBe(missing);
});

test('transport failures are never "method not found"', () => {
  expect(isMethodNotFound(new RpcFailure('http', 'trace_transaction: http://x answered HTTP 404; check the URL path.'))).toBe(false);
  expect(isMethodNotFound(new Error('Method not found'))).toBe(false);
});
