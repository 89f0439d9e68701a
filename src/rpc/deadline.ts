/**
 * Deadlines as abort signals that fire. Node 20's AbortSignal.any holds its source signals weakly: an
 * AbortSignal.timeout held by nothing else is collected at the next full collection and never fires, so
 * a lookup waiting on a service that does not answer waited forever (with `--timeout 10`, not with 3: the
 * collection came in between). Here the timer holds the controller, and the controller the signal.
 */

/** Aborts with a TimeoutError after `ms`, or with the interrupt's reason when `interrupt` aborts first. */
export function deadlineSignal(ms: number, interrupt?: AbortSignal): AbortSignal {
  const ctl = new AbortController();
  // Not kept alive by the timer: a run that is done does not wait for its deadline.
  const timer = setTimeout(() => ctl.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), ms);
  timer.unref();
  if (interrupt !== undefined) follow(ctl, interrupt, () => clearTimeout(timer));
  return ctl.signal;
}

/** Aborts when either signal does, with its reason; both held for as long as the result is. */
export function eitherSignal(a: AbortSignal, b: AbortSignal | undefined): AbortSignal {
  if (b === undefined) return a;
  const ctl = new AbortController();
  follow(ctl, a);
  follow(ctl, b);
  return ctl.signal;
}

function follow(ctl: AbortController, source: AbortSignal, then?: () => void): void {
  if (source.aborted) {
    ctl.abort(source.reason);
    then?.();
    return;
  }
  const onAbort = (): void => {
    ctl.abort(source.reason);
    then?.();
  };
  source.addEventListener('abort', onAbort, { once: true });
  // Once the result has fired, the source need not call it any more.
  ctl.signal.addEventListener('abort', () => source.removeEventListener('abort', onAbort), { once: true });
}
