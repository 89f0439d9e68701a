/** node:https behind a module of its own, so that only an https: URL loads TLS and crypto (httpTransport.ts). */
export { Agent, request } from 'node:https';
