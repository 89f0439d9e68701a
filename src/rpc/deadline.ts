/**
 * Deadlines as abort signals that fire. Node 20's AbortSignal.any holds its source signals weakly: an
 * AbortSignal.timeout held by nothing else is collected at the next full collection and never fires, so
 * a lookup waiting on a service that does not answer waited forever (with `--timeout 10`, not with 3: the
 * collection came in between). Here the timer holds the controller, and the controller the signal.
 */
import { setMaxListeners } from 'node:events';

/** Aborts with a TimeoutError after `ms`. */
export function deadlineSignal(ms: number): AbortSignal {
  const ctl = new AbortController();
  // Not kept alive by the timer: a run that is done does not wait for its deadline.
  setTimeout(() => ctl.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), ms).unref();
  return ctl.signal;
}

export interface Linked {
  readonly signal: AbortSignal;
  /** Stop following the sources (call it when the work is done: each source keeps a listener until then). */
  release(): void;
}

/**
 * A signal that aborts when either source does, with its reason; `b` may be absent. Each request in
 * flight holds a listener on both sources until released (a batch of lookups: dozens at once on the
 * interrupt), so Node's warning at eleven listeners, meant for leaks, is off for them.
 */
export function eitherSignal(a: AbortSignal, b: AbortSignal | undefined): Linked {
  if (b === undefined) return { signal: a, release: () => undefined };
  setMaxListeners(0, a, b);
  const ctl = new AbortController();
  const sources = [a, b];
  const onAbort = (event: Event): void => {
    release();
    ctl.abort((event.target as AbortSignal).reason);
  };
  const release = (): void => {
    for (const s of sources) s.removeEventListener('abort', onAbort);
  };
  const fired = sources.find((s) => s.aborted);
  if (fired !== undefined) ctl.abort(fired.reason);
  else for (const s of sources) s.addEventListener('abort', onAbort, { once: true });
  return { signal: ctl.signal, release };
}
