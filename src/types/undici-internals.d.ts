// undici ships types for its index only. txray loads the few modules it uses (the index would also load
// fetch, WebSocket, the cache and mock layers and the built-ins they need): the dispatchers, and the
// request() method the index would otherwise attach to every dispatcher.
declare module 'undici/lib/dispatcher/agent.js' {
  import type { Agent } from 'undici';
  const AgentClass: typeof Agent;
  export default AgentClass;
}
declare module 'undici/lib/dispatcher/env-http-proxy-agent.js' {
  import type { EnvHttpProxyAgent } from 'undici';
  const EnvHttpProxyAgentClass: typeof EnvHttpProxyAgent;
  export default EnvHttpProxyAgentClass;
}
declare module 'undici/lib/api/api-request.js' {
  import type { Dispatcher } from 'undici';
  const request: (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
  export default request;
}
declare module 'undici/lib/dispatcher/dispatcher.js' {
  const DispatcherClass: { prototype: { connect?: unknown } };
  export default DispatcherClass;
}
declare module 'undici/lib/api/api-connect.js' {
  const connect: unknown;
  export default connect;
}
