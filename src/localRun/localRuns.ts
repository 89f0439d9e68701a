/**
 * The local-run service: every run of txray's EVM a command makes goes through here, once per
 * transaction (or call). The command's stages share one run: its config is the union of what they need,
 * decided once (`config`, asked at the first run: by then the decoder knows the artifacts), and each
 * stage reads the one result (the call tree, the source locations, the internal calls, the state diff,
 * the debugger's steps). The command's config asks up front for all its stages may read (see
 * pipeline/runConfigOf.ts, --online's verified contracts included); should a stage still ask for a part
 * the run did not keep, it gets a second run with the union, said as such under --debug.
 */
import type { LocalOptions, LocalTrace, Rerun } from '../evm/localTrace.js';
import type { TrailFilter } from '../evm/tracer.js';
import { shortHash } from '../format/format.js';
import type { StateOverride } from '../raw/types.js';
import { type AskedAhead, askAhead } from '../rpc/askAhead.js';
import type { RpcClient } from '../rpc/createRpcClient.js';
import { deadlineSignal } from '../rpc/deadline.js';
import { refusedRun } from './refusedRun.js';
import { type CallTarget, runCall } from './runCall.js';
import { type MinedInput, runMined } from './runMined.js';

/** What a run starts from: a mined transaction at its position; a call after a block; `txray call --tx`'s changed transaction at its position. */
export type RunTarget =
  | { readonly kind: 'mined'; readonly hash: string; readonly mined: MinedInput }
  | ({ readonly kind: 'call' } & CallTarget)
  | { readonly kind: 'rerun'; readonly hash: string; readonly mined: MinedInput; readonly overrides: StateOverride | null; readonly rerun: Rerun };

/** A run's result: the trace, and the block it ran in (a call: the header of the block it ran after). */
export type LocalResult = LocalTrace & { readonly block: unknown };

/** What a stage asks of a run beyond the command's config: parts, and the code addresses whose frames keep their jumps. */
export type RunAsk = Omit<LocalOptions, 'trailOf'> & { readonly trailAt?: ReadonlySet<string> };

export interface LocalRun {
  readonly kind: RunTarget['kind'];
  /**
   * A mined transaction's first reads asked for now, before anything decides that it runs here (beside
   * the last tracer the node may still serve): the run, if one is made, starts from their answers. Once
   * per run; nothing for a call.
   */
  prepare(): void;
  /** The one run (made at the first ask); made again only where `more` asks for what it did not keep. */
  result(more?: RunAsk): Promise<LocalResult>;
}

export interface LocalRuns {
  /** The run of `target` (the same one for the same transaction); `deadline` bounds its first run. */
  of(target: RunTarget, deadline: AbortSignal): LocalRun;
}

export interface RunSettings {
  /** What the command's stages need of every run, decided once the decoder knows the artifacts. */
  readonly config: () => Promise<LocalOptions>;
  /** Bounds a run made again (the first has its asker's deadline). */
  readonly timeoutMs: number;
  /** --debug: one line per run of the EVM. */
  readonly debug?: (line: string) => void;
}

const PARTS = ['logs', 'exits', 'jumps', 'steps', 'stateDiff', 'storage'] as const;

/** The union of two configs (a trail where either keeps one). */
function union(a: LocalOptions, b: RunAsk): LocalOptions {
  const out: { -readonly [K in keyof LocalOptions]: LocalOptions[K] } = { ...a };
  for (const p of PARTS) if (b[p] === true) out[p] = true;
  const at = b.trailAt;
  if (at !== undefined) {
    const before = a.trailOf;
    const filter: TrailFilter = (code) => at.has(code.address) || before?.(code) === true;
    out.trailOf = filter;
  }
  return out;
}

/** Whether a run kept with `kept` has what `ask` asks for (a trail: every frame of those code addresses kept one). */
function covers(kept: LocalOptions, ask: RunAsk, result: LocalResult): boolean {
  for (const p of PARTS) if (ask[p] === true && kept[p] !== true) return false;
  if (ask.trailAt === undefined) return true;
  if (result.facts === null) return false;
  for (const f of result.facts.values()) if (ask.trailAt.has(f.codeAddress) && f.trail === undefined) return false;
  return true;
}

function describeTarget(t: RunTarget): string {
  if (t.kind === 'call') return `a call after block ${t.block}`;
  const where = `block ${t.mined.at.blockNumber}, index ${t.mined.at.index}`;
  return t.kind === 'mined' ? `transaction ${shortHash(t.hash)} (${where})` : `a changed transaction ${shortHash(t.hash)} at its position (${where})`;
}

function describeKept(c: LocalOptions, r: LocalResult): string {
  // The tree's logs are kept unless asked otherwise (the tracer's TREE_ONLY).
  const parts = ['calls', ...PARTS.filter((p) => (p === 'logs' ? c.logs !== false : c[p] === true)), ...(c.trailOf === undefined ? [] : ['trails'])];
  const steps = r.steps === null ? '' : `, ${r.steps.count} steps`;
  const earlier = r.earlier > 0 ? `, after ${r.earlier} earlier transaction(s)` : '';
  return `kept ${parts.join(', ')}${steps}${earlier}`;
}

/** One run of `target` with `config` (`ahead`: its first reads, where they were asked already). */
function runOnce(client: RpcClient, target: RunTarget, config: LocalOptions, deadline: AbortSignal, ahead: AskedAhead | null): Promise<LocalResult> {
  if (target.kind === 'call') return runCall(client, target, deadline, config);
  if (target.kind === 'mined') return runMined(client, target.mined, deadline, config, null, ahead);
  return runMined(client, target.mined, deadline, config, { overrides: target.overrides, rerun: target.rerun }, ahead).catch((err: unknown) => {
    throw refusedRun(err, String(target.mined.tx.from)) ?? err;
  });
}

/** The memo of one target's run. */
function memo(client: RpcClient, target: RunTarget, firstDeadline: AbortSignal, s: RunSettings): LocalRun {
  let made: { readonly config: Promise<LocalOptions>; readonly result: Promise<LocalResult> } | null = null;
  // Asked by prepare, for the first run only (a run made again asks afresh: its first reads are the EVM's by then).
  let ahead: AskedAhead | null = null;
  const run = async (config: LocalOptions, deadline: AbortSignal): Promise<LocalResult> => {
    const started = performance.now();
    const ms = (): number => Math.round(performance.now() - started);
    const asked = ahead;
    ahead = null;
    try {
      const r = await runOnce(client, target, config, deadline, asked);
      s.debug?.(`local run: ${describeTarget(target)}: ${describeKept(config, r)}; ${ms()} ms`);
      return r;
    } catch (err) {
      s.debug?.(`local run: ${describeTarget(target)}: failed after ${ms()} ms`);
      throw err;
    }
  };
  const start = (config: Promise<LocalOptions>, deadline: AbortSignal): Promise<LocalResult> => {
    const result = config.then((c) => run(c, deadline));
    made = { config, result };
    return result;
  };
  let prepared = false;
  return {
    kind: target.kind,
    prepare() {
      if (prepared || made !== null || target.kind === 'call') return;
      prepared = true;
      ahead = askAhead(client, target.mined.tx, target.mined.receipt, firstDeadline, true);
    },
    async result(more = {}) {
      if (made === null) return start(s.config().then((c) => union(c, more)), firstDeadline);
      const before = made;
      const [kept, r] = await Promise.all([before.config, before.result]);
      if (covers(kept, more, r)) return r;
      // Asked for again meanwhile: the newest run, where it already keeps this.
      if (made !== before) return made.result;
      return start(Promise.resolve(union(kept, more)), deadlineSignal(s.timeoutMs));
    },
  };
}

export function createLocalRuns(client: RpcClient, s: RunSettings): LocalRuns {
  const runs = new Map<string, LocalRun>();
  return {
    of(target, deadline) {
      const key = target.kind === 'call' ? 'call' : `${target.kind}:${target.hash.toLowerCase()}`;
      let found = runs.get(key);
      if (found === undefined) runs.set(key, (found = memo(client, target, deadline, s)));
      return found;
    },
  };
}
