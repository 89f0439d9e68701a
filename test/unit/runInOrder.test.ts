import { describe, expect, test } from 'vitest';
import { runInOrder } from '../../src/rpc/runInOrder.js';

/** A job that finishes after `ms[i]` milliseconds, recording how many ran at once. */
function timed(ms: readonly number[]) {
  let running = 0;
  let most = 0;
  const started: number[] = [];
  const job = async (i: number): Promise<string> => {
    started.push(i);
    most = Math.max(most, ++running);
    await new Promise((r) => setTimeout(r, ms[i]));
    running--;
    return `r${i}`;
  };
  return { job, started, most: () => most };
}

describe('runInOrder', () => {
  test('results in input order, jobs started in order, never more than the limit at once', async () => {
    const t = timed([30, 5, 20, 1, 10, 1]);
    expect(await runInOrder(6, 2, t.job)).toEqual(['r0', 'r1', 'r2', 'r3', 'r4', 'r5']);
    expect(t.started).toEqual([0, 1, 2, 3, 4, 5]);
    expect(t.most()).toBe(2);
  });

  test('told in input order, though the first finishes last', async () => {
    const t = timed([30, 1, 1, 1]);
    const told: Array<[string, number]> = [];
    await runInOrder(4, 4, t.job, (r, i) => told.push([r, i]));
    expect(told).toEqual([['r0', 0], ['r1', 1], ['r2', 2], ['r3', 3]]);
  });

  test('a later result is told only after the slow one before it', async () => {
    const order: string[] = [];
    const job = async (i: number): Promise<number> => {
      await new Promise((r) => setTimeout(r, i === 0 ? 30 : 1));
      order.push(`done ${i}`);
      return i;
    };
    await runInOrder(2, 2, job, (_r, i) => order.push(`told ${i}`));
    expect(order).toEqual(['done 1', 'done 0', 'told 0', 'told 1']);
  });

  test('nothing to run: an empty result, no job', async () => {
    expect(await runInOrder(0, 4, () => Promise.reject(new Error('never')))).toEqual([]);
  });

  test('a job that throws: nothing new starts, the running ones finish, then its error', async () => {
    const started: number[] = [];
    const finished: number[] = [];
    const job = async (i: number): Promise<number> => {
      started.push(i);
      await new Promise((r) => setTimeout(r, i === 1 ? 20 : 1));
      if (i === 0) throw new Error('job 0 failed');
      finished.push(i);
      return i;
    };
    await expect(runInOrder(5, 2, job)).rejects.toThrow('job 0 failed');
    expect(started).toEqual([0, 1]);
    expect(finished).toEqual([1]);
  });
});
