/**
 * The front door, as the GitHub CLI's Factory: from one command's options as parsed and checked, the
 * parts every command takes — the node's client (--debug's request log, proxies, the deadline, headers,
 * the answer-size cap, the default endpoint, and --record's or a replay's seam), the decoder (--abi,
 * --labels, the project's artifacts, the signature database, a replay's parts) and the writers. The
 * lookup, `txray call` (and --tx), `txray block`, `txray debug` and `txray debug call` all take them here.
 */
import type { Decoder } from '../decode/createDecoder.js';
import type { Replayer } from '../record/createReplayer.js';
import { createRpcClient, type RpcClient } from '../rpc/createRpcClient.js';
import { secretsOf } from '../rpc/redactUrl.js';
import type { Io, SafeWriter } from './io.js';
import { type InspectOptions, looksLikeAlias, type OptionsSource, parseOptions } from './parseOptions.js';
import type { RunLog } from './runLog.js';
import type { Seams } from './seamsOf.js';
import { createWriters, type Writers } from './writeOutcomes.js';

export interface Decoding {
  readonly afterRequests: Promise<void>;
  readonly decoderReady: Promise<Decoder>;
}

export interface FrontDoor {
  /** The options as the run uses them (a seam's --online goes through it). */
  readonly opts: InspectOptions;
  readonly io: Io;
  readonly out: SafeWriter;
  readonly log: RunLog;
  /** --record: what the run read, noted; null without it. */
  readonly recorder: Seams['recorder'];
  /** The node's client, made once, when first asked (a call's ambiguous name may need it before the inputs do). */
  connect(): Promise<RpcClient>;
  /** The decoder, made once when first asked; `afterRequests`: when the first requests are out (the writers wait for it too). */
  decoder(): Promise<Decoding>;
  /** The lookup's, `txray call`'s writers; `single`: one input (its errors are the run's). */
  writers(single: boolean): Promise<Writers>;
  /** The client closed, where one was made. */
  close(): Promise<void>;
}

/** What the run may go through instead of the node: --record's file (noted), a replay's recording (answered). */
export interface DoorSeams {
  readonly record: boolean;
  readonly replay?: Replayer;
}

function secretsOfRun(opts: InspectOptions): string[] {
  // A proxy's credentials are secrets too (undici sends them as Proxy-Authorization; nothing prints them).
  const proxyCredentials = [opts.proxy.http, opts.proxy.https].flatMap((p) => (p === null ? [] : [new URL(p).username, new URL(p).password]));
  return secretsOf(opts.url, [...opts.headers.map(([, v]) => v), ...proxyCredentials]);
}

function connectTo(opts: InspectOptions, io: Io, log: RunLog): Promise<RpcClient> {
  return createRpcClient({
    url: opts.url,
    headers: opts.headers,
    interrupt: io.interrupt,
    timeoutMs: opts.timeoutMs,
    maxResponseBytes: opts.maxResponseBytes,
    debug: opts.debug ? (line) => log.debug(line) : undefined,
    proxy: opts.proxy,
    defaultEndpoint: opts.defaultEndpoint,
  });
}

/** How many of --abi's paths, at their end, are --override-code's artifact files (parseOptions puts them after --abi's). */
function overrideFilesOf(opts: InspectOptions): number {
  const call = opts.command.kind === 'call' ? opts.command.call : null;
  return call === null ? 0 : call.codes.filter((c) => c.source.kind === 'artifact').length;
}

/**
 * Decoding data: a bad --abi/--labels is a usage error, so those are loaded before any request.
 * Otherwise loading waits for the event loop's check phase (setImmediate), which comes after the
 * first poll has connected and written the requests: it then runs while the node works.
 * A call's signature may be a bare name that the ABIs know, and its arguments are checked against them.
 */
async function loadDecoder(opts: InspectOptions, io: Io, parts: Seams['parts']): Promise<Decoding> {
  const needsDecoderFirst = opts.abiPaths.length > 0 || opts.labels.length > 0 || opts.labelsFile !== undefined || opts.command.kind === 'call';
  const afterRequests = new Promise<void>((resolve) => setImmediate(resolve));
  const decoderReady = (needsDecoderFirst ? Promise.resolve() : afterRequests)
    .then(() => import('../decode/createDecoder.js'))
    .then((m) => m.createDecoder({ abiPaths: opts.abiPaths, projectAbis: opts.projectAbis, cwd: io.cwd ?? '.', env: io.env, labels: opts.labels, labelsFile: opts.labelsFile, dbDir: io.sigdb ?? null, parts, overrideFiles: overrideFilesOf(opts) }));
  if (needsDecoderFirst) await decoderReady;
  else decoderReady.catch(() => undefined);
  return { afterRequests, decoderReady };
}

/** The parts, from the options; the log takes their --debug and secrets from here on. Each part is made when first asked. */
async function openFrontDoor(given: InspectOptions, to: { readonly io: Io; readonly out: SafeWriter; readonly log: RunLog }, seams: DoorSeams = { record: false }): Promise<FrontDoor> {
  const { io, out, log } = to;
  log.debugOn = given.debug;
  log.secrets = secretsOfRun(given);
  const seam = !seams.record && seams.replay === undefined ? null : (await import('./seamsOf.js')).seamsOf(given, seams.record, seams.replay, log.secrets);
  const opts = seam?.opts ?? given;
  let decoding: Promise<Decoding> | undefined;
  let client: Promise<RpcClient> | undefined;
  return {
    opts,
    io,
    out,
    log,
    recorder: seam?.recorder ?? null,
    connect: () => (client ??= seam === null ? connectTo(opts, io, log) : seam.client(() => connectTo(opts, io, log))),
    decoder: () => (decoding ??= loadDecoder(opts, io, seam?.parts)),
    async writers(single) {
      const { afterRequests, decoderReady } = await (decoding ??= loadDecoder(opts, io, seam?.parts));
      return createWriters({ opts, io, out, log, single, afterRequests, decoderReady });
    },
    async close() {
      await (await client?.catch(() => undefined))?.close();
    },
  };
}

/** A command's words as parsed: the lookup's hashes, `txray call`'s words, `txray block`'s block, and the options. */
export type ParsedWords = Omit<OptionsSource, 'env' | 'stdin' | 'foundry'>;

/** The options, with what they may need read first: stdin for "-" (returned too), the Foundry project's endpoints for a word. */
export async function readOptions(args: ParsedWords, io: Io): Promise<{ readonly opts: InspectOptions; readonly stdin: string | undefined }> {
  const stdin = args.hashes?.includes('-') === true ? await (io.readStdin?.() ?? Promise.resolve('')) : undefined;
  // A word for the node (`--rpc-url mainnet`) is looked up in the Foundry project's [rpc_endpoints].
  const named = args.options.rpcUrl ?? io.env.ETH_RPC_URL;
  const foundry = looksLikeAlias(named) ? (await import('./foundryEndpoints.js')).foundryEndpoints(io.cwd ?? '.', io.env) : null;
  return { opts: parseOptions({ ...args, env: io.env, stdin, foundry }), stdin };
}

/** Where a run opens its front door: the run's output and log, and every door opened, closed together at its end. */
export class DoorOpener {
  private readonly opened: FrontDoor[] = [];
  constructor(private readonly to: { readonly io: Io; readonly out: SafeWriter; readonly log: RunLog }) {}

  get io(): Io {
    return this.to.io;
  }

  get out(): SafeWriter {
    return this.to.out;
  }

  get log(): RunLog {
    return this.to.log;
  }

  async open(opts: InspectOptions, seams?: DoorSeams): Promise<FrontDoor> {
    const door = await openFrontDoor(opts, this.to, seams);
    this.opened.push(door);
    return door;
  }

  async close(): Promise<void> {
    for (const door of this.opened) await door.close();
  }
}
