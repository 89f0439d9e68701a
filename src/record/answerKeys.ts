/**
 * How an answer is found again: a node's by its method and params (never by the batch it came in: batches
 * group differently from run to run), a service's by its URL without credentials or key.
 */

/** Query parameters that carry a key (Etherscan's `apikey`, and the names other services use). */
const KEY_PARAMS = /^(api[-_]?key|key|token|access[-_]?token|auth)$/i;

export const answerKeys = {
  rpc: (method: string, params: readonly unknown[]): string => JSON.stringify([method, params]),
  http(url: URL): string {
    const kept = [...url.searchParams].filter(([name]) => !KEY_PARAMS.test(name));
    const query = new URLSearchParams(kept).toString();
    return `${url.protocol}//${url.host}${url.pathname}${query === '' ? '' : `?${query}`}`;
  },
};
