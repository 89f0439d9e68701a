/**
 * A small pool for work that goes to the network: at most `limit` jobs at once, started in order,
 * results kept in order. Used for --online's lookups and for the inputs of one run.
 */

/**
 * Runs `job(0)` … `job(count - 1)`, at most `limit` at a time. `inOrder` is told each result in input
 * order, as soon as every earlier one is in (so output can be written while later jobs still run).
 * A job that throws stops the pool: nothing new starts, the jobs running finish, then its error is
 * thrown (the first one, if several failed).
 */
export async function runInOrder<T>(count: number, limit: number, job: (i: number) => Promise<T>, inOrder?: (result: T, i: number) => void): Promise<T[]> {
  const results: T[] = new Array(count);
  const finished: boolean[] = new Array(count).fill(false);
  let next = 0;
  let told = 0;
  const failures: unknown[] = [];
  const worker = async (): Promise<void> => {
    while (next < count && failures.length === 0) {
      const i = next++;
      try {
        results[i] = await job(i);
      } catch (error) {
        failures.push(error);
        return;
      }
      finished[i] = true;
      for (; told < count && finished[told]; told++) inOrder?.(results[told] as T, told);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
  if (failures.length > 0) throw failures[0];
  return results;
}
