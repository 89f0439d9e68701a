/**
 * What txray takes from undici, in one place: its modules, not undici's index (which would also load
 * fetch, WebSocket, the cache and mock layers and the built-ins they need). Only httpTransport.ts imports
 * this file, on demand (a dynamic import), so --help and usage errors never run undici's code.
 */
export { default as Agent } from 'undici/lib/dispatcher/agent.js';
export { default as request } from 'undici/lib/api/api-request.js';

/** The proxy agent, loaded where a proxy variable is set; with the connect() its tunnels are opened by. */
export async function loadProxyAgent(): Promise<typeof import('undici').EnvHttpProxyAgent> {
  const [agent, base, connect] = await Promise.all([
    import('undici/lib/dispatcher/env-http-proxy-agent.js'),
    import('undici/lib/dispatcher/dispatcher.js'),
    import('undici/lib/api/api-connect.js'),
  ]);
  // undici's index attaches its API to every dispatcher (Object.assign(Dispatcher.prototype, api)); the
  // proxy agent needs connect() of it, attached here as the index would.
  base.default.prototype.connect ??= connect.default;
  return agent.default;
}
