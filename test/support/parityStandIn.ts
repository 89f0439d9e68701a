/**
 * A Parity-shaped node for `txray call` tests: in front of a real anvil, it refuses the debug_* tracers
 * (method not found, as Erigon-style public endpoints do) and answers trace_call(call, types, block,
 * overrides) by asking anvil for the same call's callTracer frame and prestate diff and rewriting them
 * in the shapes Parity/Erigon/Reth write: flat entries with action/result/subtraces/traceAddress, and a
 * stateDiff of {"*": {from, to}} / {"+": v} / "=" per field. What it says is anvil's execution, only
 * translated; it invents nothing.
 */
import { forward, type RpcServer, startRpcServer } from './rpcServer.js';

type Frame = { type: string; from: string; to?: string; value?: string; gas: string; gasUsed: string; input: string; output?: string; error?: string; calls?: Frame[] };

function flatten(frame: Frame, at: number[], out: unknown[]): void {
  const kind = frame.type.toUpperCase();
  const calls = frame.calls ?? [];
  const base = { subtraces: calls.length, traceAddress: at, ...(frame.error !== undefined ? { error: frame.error === 'execution reverted' ? 'Reverted' : frame.error } : {}) };
  if (kind === 'CREATE' || kind === 'CREATE2') {
    out.push({ ...base, type: 'create', action: { from: frame.from, gas: frame.gas, init: frame.input, value: frame.value ?? '0x0', creationMethod: kind.toLowerCase() }, result: frame.error ? null : { address: frame.to, code: frame.output ?? '0x', gasUsed: frame.gasUsed } });
  } else if (kind === 'SELFDESTRUCT') {
    out.push({ ...base, type: 'suicide', action: { address: frame.from, refundAddress: frame.to, balance: frame.value ?? '0x0' }, result: null });
  } else {
    const output = frame.output ?? '0x';
    out.push({ ...base, type: 'call', action: { callType: kind.toLowerCase(), from: frame.from, to: frame.to, value: frame.value ?? '0x0', gas: frame.gas, input: frame.input }, result: frame.error && frame.output === undefined ? null : { gasUsed: frame.gasUsed, output } });
  }
  for (const [i, c] of calls.entries()) flatten(c, [...at, i], out);
}

type Account = { balance?: string; nonce?: number; code?: string; storage?: Record<string, string> };

function stateDiff(diff: { pre: Record<string, Account>; post: Record<string, Account> }): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const hex = (n: number | undefined): string => `0x${(n ?? 0).toString(16)}`;
  for (const address of new Set([...Object.keys(diff.pre), ...Object.keys(diff.post)])) {
    const pre = diff.pre[address];
    const post = diff.post[address] ?? {};
    const field = (before: string | undefined, after: string | undefined): unknown =>
      pre === undefined ? { '+': after ?? before ?? '0x0' } : after === undefined || after === before ? '=' : { '*': { from: before ?? '0x0', to: after } };
    const storage: Record<string, unknown> = {};
    for (const slot of new Set([...Object.keys(pre?.storage ?? {}), ...Object.keys(post.storage ?? {})])) {
      const before = pre?.storage?.[slot] ?? `0x${'0'.repeat(64)}`;
      const after = post.storage?.[slot] ?? `0x${'0'.repeat(64)}`;
      if (before !== after) storage[slot] = pre === undefined ? { '+': after } : { '*': { from: before, to: after } };
    }
    out[address] = {
      balance: field(pre?.balance, post.balance),
      nonce: field(pre === undefined ? undefined : hex(pre.nonce), post.nonce === undefined ? undefined : hex(post.nonce)),
      code: field(pre?.code, post.code),
      storage,
    };
  }
  return out;
}

export async function startParityStandIn(anvilUrl: string): Promise<RpcServer> {
  return startRpcServer(async ({ method, params }) => {
    if (method.startsWith('debug_')) return { error: { code: -32601, message: 'Method not found' } };
    if (method !== 'trace_call') return forward(anvilUrl, method, params);
    const [call, types, block, overrides] = params as [unknown, string[], string, Record<string, unknown> | undefined];
    const options = (tracer: Record<string, unknown>): Record<string, unknown> => (overrides === undefined ? tracer : { ...tracer, stateOverrides: overrides });
    const frame = await forward(anvilUrl, 'debug_traceCall', [call, block, options({ tracer: 'callTracer' })]);
    if ('error' in frame) return frame;
    const trace: unknown[] = [];
    flatten(frame.result as Frame, [], trace);
    let diff: Record<string, unknown> | null = null;
    if (types.includes('stateDiff')) {
      const state = await forward(anvilUrl, 'debug_traceCall', [call, block, options({ tracer: 'prestateTracer', tracerConfig: { diffMode: true } })]);
      if ('error' in state) return state;
      diff = stateDiff(state.result as never);
    }
    return { result: { output: (frame.result as Frame).output ?? '0x', trace, stateDiff: diff, vmTrace: null } };
  });
}
