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
    const signal = deadlineSignal(150, interrupt.signal);
    const reason = aborted(signal);
    collect();
    await new Promise((r) => setTimeout(r, 20));
    collect();
    expect(await reason).toMatchObject({ name: 'TimeoutError' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  test('an interrupt aborts it at once, with the interrupt\'s reason', async () => {
    const interrupt = new AbortController();
    const signal = deadlineSignal(60_000, interrupt.signal);
    interrupt.abort(new Error('SIGINT'));
    expect(signal.aborted).toBe(true);
    expect((signal.reason as Error).message).toBe('SIGINT');
  });

  test('already interrupted: aborted from the start', () => {
    expect(deadlineSignal(60_000, AbortSignal.abort('gone')).reason).toBe('gone');
  });
});

describe('eitherSignal', () => {
  test('aborts with whichever fires first, and is the first itself when there is no second', () => {
    const a = new AbortController();
    const b = new AbortController();
    const either = eitherSignal(a.signal, b.signal);
    b.abort('b first');
    a.abort('a later');
    expect(either.reason).toBe('b first');
    expect(eitherSignal(a.signal, undefined)).toBe(a.signal);
  });
});
