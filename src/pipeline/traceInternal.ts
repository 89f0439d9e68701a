/**
 * --internal: the Solidity internal functions each matched frame ran. Where a frame's code matches an
 * artifact (or a verified contract) with a source map and ASTs, it reads the command's local run in
 * txray's EVM, which keeps every JUMP of those frames (see runConfigOf.ts; the others run untouched);
 * locate/internalCallsOf.ts reads the calls from them. The same run serves the source-location stage
 * after it. Nothing runs where no frame matched.
 */
import type { Decoder } from '../decode/createDecoder.js';
import type { LocalRun } from '../localRun/localRuns.js';
import { MAX_INTERNAL_CALLS } from '../locate/internalCallsOf.js';
import { internalFrames } from '../locate/internalFrames.js';
import { readInternalCalls } from '../locate/readInternalCalls.js';
import type { DebugSource } from '../locate/sourceMap.js';
import type { InspectModel } from '../model/types.js';
import { walkCalls } from '../model/walk.js';
import { withCallDecodings } from '../model/withCallDecodings.js';
import type { Hex } from '../raw/types.js';
import type { RpcClient } from '../rpc/createRpcClient.js';
import { codesToMatch } from './codesToMatch.js';
import { factsOf } from './factsOf.js';

/** The addresses whose code ran in a call frame (a callcode's names its caller: left out). */
function calledCode(model: InspectModel): string[] {
  const out = new Set<string>();
  if (model.tree !== null) walkCalls(model.tree.root, (n) => void (n.type === 'call' && n.to !== null && n.callType !== 'callcode' && out.add(n.to.toLowerCase())));
  return [...out];
}

const NO_MATCH = "--internal: no call ran code that matches an artifact with a source map here (the project's out/ or artifacts/, --abi build-info, Sourcify with --online): no internal calls to list.";

export async function traceInternal(
  client: RpcClient,
  decoder: Decoder,
  model: InspectModel,
  given: { readonly codes: ReadonlyMap<string, Hex>; readonly verified: ReadonlyMap<string, DebugSource> },
  run: LocalRun,
  s: { readonly timeoutMs: number; readonly debug?: (line: string) => void },
): Promise<InspectModel> {
  // Asked for and nothing to list: said, so that an empty tree is not read as "no internal function ran".
  const unmatched = { ...model, warnings: [...model.warnings, NO_MATCH] };
  if (model.tree === null) return model;
  const codes = await codesToMatch(client, decoder, model, calledCode(model), given, s.timeoutMs);
  if (codes === null) return unmatched;
  const { frames, withoutAst } = internalFrames(model, decoder.index.artifacts, codes, given.verified);
  // forge build leaves the ASTs out of its artifacts unless asked (--ast, or ast = true): the source files stand in where they are the ones it compiled.
  const noAst = withoutAst === 0 ? [] : [`--internal: ${withoutAst === 1 ? '1 call' : `${withoutAst} calls`} ran code whose build carries no AST (a Foundry build without --ast whose source files changed since, a verified contract), so their internal functions cannot be named; in a Foundry project, build with forge build --ast (or ast = true in foundry.toml).`];
  if (frames.length === 0) {
    s.debug?.('--internal: no frame ran code with a source map and an AST at hand; nothing run');
    return noAst.length === 0 ? unmatched : { ...model, warnings: [...model.warnings, ...noAst] };
  }
  const trailAt = new Set(frames.flatMap((f) => (f.codeAddress === null ? [] : [f.codeAddress])));
  const { facts, ms } = await factsOf(run, { exits: true, jumps: true, trailAt });
  if (typeof facts === 'string') {
    s.debug?.(`--internal: the local run gave nothing in ${ms} ms (${facts})`);
    return { ...model, warnings: [...model.warnings, `--internal: the transaction could not be run in txray's EVM (${facts}); no internal calls are shown.`] };
  }
  const read = readInternalCalls(frames, facts, model.events);
  let jumps = 0;
  for (const f of facts.values()) jumps += f.trail?.from.length ?? 0;
  s.debug?.(`--internal: a local run of ${ms} ms kept ${jumps} jump(s) of ${frames.length} frame(s) (${trailAt.size} code(s)); internal calls read for ${read.size}`);
  const unread = frames.length - read.size;
  const notes = [...noAst, ...(unread === 0 ? [] : [`--internal: ${unread === 1 ? '1 matched call is' : `${unread} matched calls are`} shown without internal calls: their run did not fit the artifact's map, or made more than ${MAX_INTERNAL_CALLS.toLocaleString('en-US')} internal calls.`])];
  const traced = withCallDecodings(model, read);
  return notes.length === 0 ? traced : { ...traced, warnings: [...traced.warnings, ...notes] };
}
