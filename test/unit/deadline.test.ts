import { getEventListeners } from 'node:events';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, test } from 'vitest';
import { deadlineSignal, eitherSignal } from '../../src/rpc/deadline.js';

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;
const aborted = (s: AbortSignal): Promise<unknown> => new Promise((r) => s.addEventListener('abort', () => r(s.reason), { once: true }));

describe('deadlineSignal', () => {
  test('fires after its time even when a full collection runs meanwhile (AbortSignal.any over AbortSignal.timeout did not, on Node 20)', async () => {
    const interrupt = new AbortController();
    const started = Date.now();
    const linked = eitherSignal(deadlineSignal(150), interrupt.signal);
    const reason = aborted(linked.signal);
    collect();
    await new Promise((r) => setTimeout(r, 20));
    collect();
    expect(await reason).toMatchObject({ name: 'TimeoutError' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

});

describe('eitherSignal', () => {
  test('aborts with whichever fires first, and is the first itself when there is no second', () => {
    const a = new AbortController();
    const b = new AbortController();
    const either = eitherSignal(a.signal, b.signal).signal;
    b.abort('b first');
    a.abort('a later');
    expect(either.reason).toBe('b first');
    expect(eitherSignal(a.signal, undefined).signal).toBe(a.signal);
  });

  test('an interrupt aborts a deadline at once, with the interrupt\'s reason; an aborted source aborts it from the start', () => {
    const interrupt = new AbortController();
    const linked = eitherSignal(deadlineSignal(60_000), interrupt.signal);
    interrupt.abort(new Error('SIGINT'));
    expect((linked.signal.reason as Error).message).toBe('SIGINT');
    expect(eitherSignal(deadlineSignal(60_000), AbortSignal.abort('gone')).signal.reason).toBe('gone');
  });

  test('released: the sources keep no listener, so a thousand requests under one interrupt add none', () => {
    const interrupt = new AbortController();
    const kept = eitherSignal(deadlineSignal(60_000), interrupt.signal);
    for (let i = 0; i < 1000; i++) eitherSignal(deadlineSignal(60_000), interrupt.signal).release();
    expect(getEventListeners(interrupt.signal, 'abort')).toHaveLength(1);
    kept.release();
    expect(getEventListeners(interrupt.signal, 'abort')).toHaveLength(0);
  });

  test('fifty requests in flight under one interrupt: no warning (they are not a leak)', async () => {
    const interrupt = new AbortController();
    const seen: Error[] = [];
    const onWarning = (w: Error): void => void seen.push(w);
    process.on('warning', onWarning);
    const linked = Array.from({ length: 50 }, () => eitherSignal(deadlineSignal(60_000), interrupt.signal));
    await new Promise((r) => setImmediate(r));
    process.off('warning', onWarning);
    for (const l of linked) l.release();
    expect(seen.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
  });
});
