import { expect, test } from 'vitest';
import { Interrupted, RpcFailure } from '../../src/errors.js';
import { isMethodNotFound } from '../../src/rpc/createRpcClient.js';
import type { TracerState } from '../../src/rpc/types.js';
import { type Rung, walkLadder } from '../../src/sources/tracerLadder.js';

const missing = (method: string) => new RpcFailure('rpc-error', `${method}: the node answered error -32601: Method not found`, { rpcCode: -32601 });
const broken = (method: string) => new RpcFailure('rpc-error', `${method}: the node answered error -32000: missing trie node`, { rpcCode: -32000 });

/** A node that has some methods, lacks others, and fails on the rest; the rungs record what was asked. */
function ladder(node: Record<string, 'has' | 'lacks' | 'fails'>, asked: string[]): Rung<string>[] {
  const rung = (method: string, flag?: Rung<string>['flag']): Rung<string> => ({
    method,
    flag,
    ask: async (lacking) => {
      asked.push(method);
      if (node[method] === 'lacks') throw missing(method);
      if (node[method] === 'fails') throw broken(method);
      return `${method} after ${lacking.join(',') || 'nothing'}`;
    },
    down: (err) => (isMethodNotFound(err) ? { lacks: method, warning: `no ${method}` } : null),
  });
  return [rung('trace_transaction', 'traceMissing'), rung('debug_traceTransaction', 'callTracerMissing'), rung('local')];
}

const fresh = (): TracerState => ({ mode: 'auto', traceMissing: false, replayMissing: false });

test.each([
  ['the top rung answers', { trace_transaction: 'has' }, ['trace_transaction'], 'answered trace_transaction: trace_transaction after nothing'],
  ['one rung missing: the next answers, told what was missing', { trace_transaction: 'lacks', debug_traceTransaction: 'has' }, ['trace_transaction', 'debug_traceTransaction'], 'answered debug_traceTransaction: debug_traceTransaction after trace_transaction'],
  ['two missing: down to the last', { trace_transaction: 'lacks', debug_traceTransaction: 'lacks', local: 'has' }, ['trace_transaction', 'debug_traceTransaction', 'local'], 'answered local: local after trace_transaction,debug_traceTransaction'],
  ['a real failure ends the walk where it happened', { trace_transaction: 'lacks', debug_traceTransaction: 'fails' }, ['trace_transaction', 'debug_traceTransaction'], 'failed debug_traceTransaction after trace_transaction'],
  ['every rung missing: exhausted', { trace_transaction: 'lacks', debug_traceTransaction: 'lacks', local: 'lacks' }, ['trace_transaction', 'debug_traceTransaction', 'local'], 'exhausted after trace_transaction,debug_traceTransaction,local'],
] as const)('%s', async (_name, node, wantAsked, want) => {
  const asked: string[] = [];
  const warnings: string[] = [];
  const climb = await walkLadder(ladder(node, asked), fresh(), warnings);
  const said =
    climb.kind === 'answered' ? `answered ${climb.method}: ${climb.answer}` : climb.kind === 'failed' ? `failed ${climb.method} after ${climb.lacking.join(',')}` : `exhausted after ${climb.lacking.join(',')}`;
  expect(said).toBe(want);
  expect(asked).toEqual(wantAsked);
  expect(warnings).toEqual(climb.lacking.map((m) => `no ${m}`));
});

test('what one input learns, the next skips: a rung known missing is not asked again', async () => {
  const tracer = fresh();
  const node = { trace_transaction: 'lacks', debug_traceTransaction: 'lacks', local: 'has' } as const;
  const first: string[] = [];
  await walkLadder(ladder(node, first), tracer, []);
  expect(first).toEqual(['trace_transaction', 'debug_traceTransaction', 'local']);
  expect(tracer).toMatchObject({ traceMissing: true, callTracerMissing: true });
  const second: string[] = [];
  const climb = await walkLadder(ladder(node, second), tracer, []);
  expect(second).toEqual(['local']);
  // Skipped rungs are not said to be missing again: only this walk's findings are.
  expect(climb.lacking).toEqual([]);
});

test('a real failure teaches nothing: the next input asks the same rung again', async () => {
  const tracer = fresh();
  const asked: string[] = [];
  await walkLadder(ladder({ trace_transaction: 'fails' }, asked), tracer, []);
  await walkLadder(ladder({ trace_transaction: 'fails' }, asked), tracer, []);
  expect(asked).toEqual(['trace_transaction', 'trace_transaction']);
  expect(tracer.traceMissing).toBe(false);
});

test('an interrupt is passed on from any rung, even one whose errors mean "go down"', async () => {
  const rungs: Rung<string>[] = [{ method: 'trace_transaction', ask: () => Promise.reject(new Interrupted('interrupted')), down: () => ({}) }];
  await expect(walkLadder(rungs, fresh(), [])).rejects.toBeInstanceOf(Interrupted);
});

test('a rung without `down` fails on any error', async () => {
  const rungs: Rung<string>[] = [{ method: 'eth_call', ask: () => Promise.reject(missing('eth_call')) }];
  const climb = await walkLadder(rungs, fresh(), []);
  expect(climb.kind).toBe('failed');
});
