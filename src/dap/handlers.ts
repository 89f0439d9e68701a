/**
 * The requests a session answers, each a function of the session's state and the request's arguments
 * (a client's JSON: each field read is checked). The moves are the terminal's (nextStep, runTo); the
 * views are stackTrace, scopeVariables, evaluateAt and verifyBreakpoints.
 */
import { isAbsolute } from 'node:path';
import { framesAt } from '../debug/framesAt.js';
import { escapeShort } from '../raw/escape.js';
import { type Move, nextStep } from '../debug/nextStep.js';
import { runTo } from '../debug/runTo.js';
import { statusLine } from '../debug/statusLine.js';
import { evaluateAt } from './evaluateAt.js';
import { failureText } from './failureText.js';
import { SCOPES, scopeVariables } from './scopeVariables.js';
import { type ClientBase, stackTrace } from './stackTrace.js';
import type { DebugTarget, LaunchArgs, LoadTarget } from './types.js';
import { type Verified, verifyBreakpoints } from './verifyBreakpoints.js';

/** A session's state: what it debugs, where it stands, what stops it. */
export interface Session {
  target: DebugTarget | null;
  step: number;
  ended: boolean;
  configured: boolean;
  started: boolean;
  stopOnEntry: boolean;
  base: ClientBase;
  /** The lines asked for, by source path as the client gave it, with the ids they were given. */
  readonly requested: Map<string, { readonly lines: readonly number[]; readonly ids: readonly number[] }>;
  /** The breakpoints as the moves read them: `file:line`, the file as the compiler named it. */
  breakpoints: ReadonlySet<string>;
  /** By the compiler's name of a file, the path the client gave it a breakpoint by (perhaps through a link): the stack trace names it so. */
  readonly named: Map<string, string>;
  /** The `failure` exception filter is on. */
  failure: boolean;
  ids: number;
  readonly event: (event: string, body?: object) => void;
  readonly load: LoadTarget;
}

/** What a handler answers with: a body, or an error's message; `after` runs once the response is sent (the events that follow it). */
export type Answer = { readonly body?: object; readonly after?: () => void } | { readonly error: string };

type Handler = (s: Session, args: object) => Answer | Promise<Answer>;

const field = (args: object, name: string): unknown => (Object.hasOwn(args, name) ? Reflect.get(args, name) : undefined);
const THREAD = 1;

/** The target and the step, where the session stands at one; else why not (an error response). */
function cursor(s: Session): { readonly t: DebugTarget; readonly step: number } {
  if (s.target === null) throw new Error('nothing is loaded yet: launch a transaction first');
  if (s.ended) throw new Error('the run has ended (terminated); start a new session to step through it again');
  if (!s.started) throw new Error('not started yet: configurationDone starts the session');
  return { t: s.target, step: s.step };
}

function stop(s: Session, step: number, reason: 'entry' | 'step' | 'breakpoint' | 'exception'): void {
  s.step = step;
  const error = reason === 'exception' && s.target !== null ? failureText(s.target.rec, step) : undefined;
  // The terminal's status line says where it stopped (`step <i>/<n> · <file>:<line> · …`).
  s.event('stopped', { reason, threadId: THREAD, allThreadsStopped: true, description: s.target === null ? reason : statusLine(s.target.rec, step), ...(error === undefined ? {} : { text: error }) });
}

function terminate(s: Session): void {
  s.ended = true;
  s.event('terminated');
}

/** Where the session stops first: step 1 with stopOnEntry, else where running from the start stops. */
function start(s: Session, t: DebugTarget): void {
  s.started = true;
  if (t.rec.steps.count === 0) {
    s.event('output', { category: 'console', output: `${t.what} ran no code (a plain transfer, or a call to an account without code): there is no step to show.\n` });
    terminate(s);
    return;
  }
  const at = s.stopOnEntry ? { step: 0, why: 'entry' as const } : runTo(t.rec, -1, { breakpoints: s.breakpoints, failure: s.failure });
  if (at === null) terminate(s);
  else if (at.why === 'entry') stop(s, 0, 'entry');
  else stop(s, at.step, at.why === 'failure' ? 'exception' : 'breakpoint');
}

const toClient = (s: Session, line: number): number => (s.base.lines1 ? line : line - 1);

/** Every source's breakpoints verified against the target; the moves' set made from them. */
function verifyAll(s: Session, t: DebugTarget): Map<string, Verified[]> {
  const out = new Map<string, Verified[]>();
  const keys = new Set<string>();
  for (const [path, { lines }] of s.requested) {
    const verified = verifyBreakpoints(t.rec, t.cwd, path, lines);
    for (const v of verified) {
      if (!v.verified) continue;
      keys.add(v.key);
      if (isAbsolute(path)) s.named.set(v.key.slice(0, v.key.lastIndexOf(':')), path);
    }
    out.set(path, verified);
  }
  s.breakpoints = keys;
  return out;
}

const shown = (s: Session, path: string, v: Verified, id: number): object => ({ id, verified: v.verified, line: toClient(s, v.line), source: { path }, ...(v.verified ? {} : { message: v.message }) });

function launchArgs(args: object): LaunchArgs {
  const text = (name: string): string | undefined => {
    const v = field(args, name);
    if (v !== undefined && typeof v !== 'string') throw new Error(`launch's ${name} is a string`);
    return v;
  };
  const stopOnEntry = field(args, 'stopOnEntry');
  if (stopOnEntry !== undefined && typeof stopOnEntry !== 'boolean') throw new Error('launch\'s stopOnEntry is true or false');
  const [hash, rpcUrl, cwd] = [text('hash'), text('rpcUrl'), text('cwd')];
  return { ...(hash === undefined ? {} : { hash }), ...(rpcUrl === undefined ? {} : { rpcUrl }), ...(cwd === undefined ? {} : { cwd }), ...(stopOnEntry === undefined ? {} : { stopOnEntry }) };
}

async function launch(s: Session, args: object): Promise<Answer> {
  if (s.target !== null) return { error: `this session steps through ${s.target.what}; start another session for another` };
  const given = launchArgs(args);
  const t = await s.load(given);
  s.target = t;
  s.stopOnEntry = given.stopOnEntry === true;
  return {
    after: () => {
      // A node's words, escaped as every text of txray is: an editor's debug console runs ANSI sequences.
      for (const w of t.warnings) s.event('output', { category: 'console', output: `warning: ${escapeShort(w, 300)}\n` });
      // Breakpoints set before the launch are verified now.
      for (const [path, verified] of verifyAll(s, t)) verified.forEach((v, k) => void s.event('breakpoint', { reason: 'changed', breakpoint: shown(s, path, v, s.requested.get(path)?.ids[k] ?? 0) }));
      if (s.configured && !s.started) start(s, t);
    },
  };
}

function setBreakpoints(s: Session, args: object): Answer {
  const source = field(args, 'source');
  const path = typeof source === 'object' && source !== null ? field(source, 'path') : undefined;
  if (typeof path !== 'string') return { error: 'setBreakpoints needs source.path' };
  const given = field(args, 'breakpoints');
  const raw = Array.isArray(given) ? given.map((b: unknown) => (typeof b === 'object' && b !== null ? field(b, 'line') : undefined)) : field(args, 'lines');
  const asked = Array.isArray(raw) ? raw : [];
  if (!asked.every((l): l is number => Number.isSafeInteger(l))) return { error: 'setBreakpoints takes whole line numbers' };
  const lines = asked.map((l) => (s.base.lines1 ? l : l + 1));
  const ids = lines.map(() => s.ids++);
  s.requested.set(path, { lines, ids });
  if (s.target === null) return { body: { breakpoints: lines.map((line, k) => ({ id: ids[k], verified: false, line: toClient(s, line), message: 'the transaction is read at launch: verified then' })) } };
  const verified = verifyAll(s, s.target).get(path) ?? [];
  return { body: { breakpoints: verified.map((v, k) => shown(s, path, v, ids[k] ?? 0)) } };
}

/** A request that moves the cursor: answered, then `stopped` (or `terminated` past the end). */
const move = (how: Move): Handler => (s) => {
  const { t, step } = cursor(s);
  return { after: () => stop(s, nextStep(t.rec, step, how, s.breakpoints), 'step') };
};

const run = (backward: boolean): Handler => (s) => {
  const { t, step } = cursor(s);
  return {
    body: { allThreadsContinued: true },
    after: () => {
      const at = runTo(t.rec, step, { breakpoints: s.breakpoints, failure: s.failure, backward });
      if (at !== null) stop(s, at.step, at.why === 'failure' ? 'exception' : 'breakpoint');
      else if (backward) stop(s, 0, 'step');
      else terminate(s);
    },
  };
};

/** The open frame a request names by its id (0: the innermost), at the cursor. */
function frameOf(s: Session, id: unknown): { readonly t: DebugTarget; readonly at: number; readonly frame: number } {
  const { t, step } = cursor(s);
  const f = Number.isSafeInteger(id) ? framesAt(t.rec, step).reverse()[Number(id)] : undefined;
  if (f === undefined) throw new Error('no such frame at this step');
  return { t, at: f.at, frame: f.frame };
}

export const handlers: Readonly<Record<string, Handler>> = {
  initialize: (s, args) => {
    s.base = { lines1: field(args, 'linesStartAt1') !== false, columns1: field(args, 'columnsStartAt1') !== false };
    const capabilities = { supportsConfigurationDoneRequest: true, supportsStepBack: true, supportsEvaluateForHovers: true, exceptionBreakpointFilters: [{ filter: 'failure', label: 'Failure', description: 'where a failure began: the transaction\'s, a user operation\'s or batch call\'s, a caught call\'s', default: false }] };
    return { body: capabilities, after: () => s.event('initialized') };
  },
  launch,
  setBreakpoints,
  setExceptionBreakpoints: (s, args) => {
    const filters = field(args, 'filters');
    const list = Array.isArray(filters) ? filters : [];
    s.failure = list.includes('failure');
    return { body: { breakpoints: list.map((f: unknown) => ({ verified: f === 'failure' })) } };
  },
  configurationDone: (s) => {
    s.configured = true;
    const t = s.target;
    return { after: () => void (t !== null && !s.started && start(s, t)) };
  },
  threads: (s) => ({ body: { threads: [{ id: THREAD, name: s.target?.what ?? 'txray' }] } }),
  stackTrace: (s, args) => {
    const { t, step } = cursor(s);
    const frames = stackTrace(t, step, s.base, s.named);
    const first = Number.isSafeInteger(field(args, 'startFrame')) ? Number(field(args, 'startFrame')) : 0;
    const levels = Number.isSafeInteger(field(args, 'levels')) && Number(field(args, 'levels')) > 0 ? Number(field(args, 'levels')) : frames.length;
    return { body: { stackFrames: frames.slice(first, first + levels), totalFrames: frames.length } };
  },
  scopes: (s, args) => {
    const id = field(args, 'frameId');
    frameOf(s, id);
    return { body: { scopes: SCOPES.map((name, k) => ({ name, variablesReference: Number(id) * SCOPES.length + k + 1, expensive: false, ...(name === 'Locals' ? { presentationHint: 'locals' } : name === 'Stack' ? { presentationHint: 'registers' } : {}) })) } };
  },
  variables: (s, args) => {
    const ref = field(args, 'variablesReference');
    if (!Number.isSafeInteger(ref) || Number(ref) < 1) return { error: 'no such variables' };
    const { t, at, frame } = frameOf(s, Math.floor((Number(ref) - 1) / SCOPES.length));
    const all = scopeVariables(t, at, frame, SCOPES[(Number(ref) - 1) % SCOPES.length] ?? 'Locals');
    const from = Number.isSafeInteger(field(args, 'start')) ? Number(field(args, 'start')) : 0;
    const count = Number.isSafeInteger(field(args, 'count')) && Number(field(args, 'count')) > 0 ? Number(field(args, 'count')) : all.length;
    return { body: { variables: all.slice(from, from + count) } };
  },
  next: move('over'),
  stepIn: move('into'),
  stepOut: move('out'),
  stepBack: move('back'),
  continue: run(false),
  reverseContinue: run(true),
  evaluate: (s, args) => {
    const expression = field(args, 'expression');
    if (typeof expression !== 'string') return { error: 'evaluate needs an expression' };
    const { t, at, frame } = frameOf(s, field(args, 'frameId') ?? 0);
    const v = evaluateAt(t, at, frame, expression);
    return 'error' in v ? v : { body: { result: v.result, ...(v.type === undefined ? {} : { type: v.type }), variablesReference: 0 } };
  },
  disconnect: () => ({}),
};

