/**
 * One turn of the event loop, so that requests just asked for are written to their sockets. The HTTP
 * client writes a request on a later turn, not when it is asked: work that holds the processor right
 * after asking (loading the EVM's file, a run of the EVM, which never waits on the network) would
 * otherwise send it only once that work is done, and the answer's wait would no longer overlap it.
 */
export function letRequestsOut(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}
