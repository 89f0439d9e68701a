/**
 * One editor's debug session, the Debug Adapter Protocol's requests mapped to the engine the terminal's
 * view runs on: the step log, its cursor moves (nextStep: next = `n`, stepIn = `s`, stepOut = `o`,
 * stepBack = `p`; runTo: continue = `c`, reverseContinue its mirror, the failure with the `failure` filter),
 * and its views (framesAt, localsAt, storageAt, the stack and memory). Its state is the target, the step,
 * the breakpoints and the filter; nothing of a terminal. Requests are handled one at a time, in order;
 * `send` writes each response and event.
 */
import { type Answer, handlers, type Session } from './handlers.js';
import type { Framed } from './readFrames.js';
import type { DapMessage, LoadTarget } from './types.js';

const isRequest = (m: unknown): m is { readonly seq: number; readonly type: 'request'; readonly command: string; readonly arguments?: unknown } =>
  typeof m === 'object' && m !== null && 'seq' in m && Number.isSafeInteger(m.seq) && 'type' in m && m.type === 'request' && 'command' in m && typeof m.command === 'string';

export interface DapSession {
  /** One message read (or why it could not be read), answered; the caller ends the run after a disconnect's answer. */
  handle(read: Framed): Promise<void>;
}

export function createDapSession(load: LoadTarget, send: (m: DapMessage) => void): DapSession {
  let seq = 1;
  const s: Session = {
    target: null,
    step: 0,
    ended: false,
    configured: false,
    started: false,
    stopOnEntry: false,
    base: { lines1: true, columns1: true },
    requested: new Map(),
    named: new Map(),
    breakpoints: new Set(),
    failure: false,
    ids: 1,
    event: (event, body) => send({ seq: seq++, type: 'event', event, ...(body === undefined ? {} : { body }) }),
    load,
  };
  const respond = (request_seq: number, command: string, a: Answer): void => {
    if ('error' in a) send({ seq: seq++, type: 'response', request_seq, command, success: false, message: a.error, body: { error: { id: 1, format: a.error, showUser: true } } });
    else send({ seq: seq++, type: 'response', request_seq, command, success: true, ...(a.body === undefined ? {} : { body: a.body }) });
  };
  return {
    async handle(read) {
      // A message that is no request has no seq to answer to: the error response names request 0.
      if ('bad' in read) {
        respond(0, 'unknown', { error: `txray's adapter could not read a message: ${read.bad}` });
        return;
      }
      const m = read.message;
      if (!isRequest(m)) {
        respond(0, 'unknown', { error: 'txray\'s adapter takes requests: {"seq", "type": "request", "command", "arguments"}' });
        return;
      }
      const handler = Object.hasOwn(handlers, m.command) ? handlers[m.command] : undefined;
      if (handler === undefined) {
        respond(m.seq, m.command, { error: `txray's adapter does not know the request '${m.command.slice(0, 60)}'` });
        return;
      }
      let answer: Answer;
      try {
        answer = await handler(s, typeof m.arguments === 'object' && m.arguments !== null ? m.arguments : {});
      } catch (e) {
        answer = { error: e instanceof Error ? e.message : String(e) };
      }
      respond(m.seq, m.command, answer);
      if (!('error' in answer)) answer.after?.();
    },
  };
}
