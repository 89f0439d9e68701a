/**
 * --internal: which frames' internal calls can be read (a call whose code matches an artifact, or a
 * verified contract, whose source map and AST are at hand; never a guess). readInternalCalls reads
 * them once txray's EVM has recorded their jumps. Pure.
 */
import type { InspectModel } from '../model/types.js';
import { walkCalls } from '../model/walk.js';
import type { Hex } from '../raw/types.js';
import { codeAddressOf, type FrameToLocate } from './locateFailures.js';
import { type CodeArtifact, matchArtifact } from './matchCode.js';
import type { DebugSource, SourceTable } from './sourceMap.js';

/** Whether a compilation kept the AST of any of its files. */
function hasAst(sources: SourceTable): boolean {
  if (sources.ast === undefined) return false;
  for (let id = 0; id < sources.count; id++) if (sources.ast(id) != null) return true;
  return false;
}

/**
 * Every call frame whose runtime code has a source map and the AST of its files (constructors are left
 * out); `withoutAst`: how many more frames matched code whose build kept no AST.
 */
export function internalFrames(model: InspectModel, artifacts: readonly CodeArtifact[], codes: ReadonlyMap<string, Hex>, verified: ReadonlyMap<string, DebugSource>): { frames: FrameToLocate[]; withoutAst: number } {
  const out: FrameToLocate[] = [];
  let withoutAst = 0;
  if (model.tree === null) return { frames: out, withoutAst };
  const withDebug = artifacts.filter((a) => a.debug !== undefined);
  walkCalls(model.tree.root, (n) => {
    const address = codeAddressOf(n);
    const code = address === null ? undefined : codes.get(address);
    if (address === null || code === undefined || code.length <= 2) return;
    const debug = matchArtifact(code, withDebug)?.debug?.runtime() ?? verified.get(address)?.runtime() ?? null;
    if (debug === null) return;
    if (hasAst(debug.sources)) out.push({ node: n, code, codeAddress: address, debug });
    else withoutAst++;
  });
  return { frames: out, withoutAst };
}
