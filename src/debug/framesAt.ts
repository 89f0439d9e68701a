/**
 * The frames open at a step, outermost first: the seam where internal function calls join the
 * external frames. Today every frame is an external call (`Contract::function`); the stage that tells
 * internal calls from jumps, the source map and the AST adds its frames here, and the call-stack pane,
 * the status line and the keys that step over or out of calls (n, o, p) follow them without change.
 */
import { shortAddress } from '../format/format.js';
import type { DebugRecording } from './types.js';

export interface OpenFrame {
  readonly kind: 'external';
  /** The recording's frame. */
  readonly frame: number;
  /** `Contract::function`, or what is known of them (the address, the selector). */
  readonly name: string;
}

/** The name a frame is shown by: its contract and function where known, else its address and selector. */
function frameName(rec: DebugRecording, index: number): string {
  const f = rec.frames[index]!;
  const contract = f.contract ?? (f.codeAddress === null ? '?' : shortAddress(f.codeAddress));
  const fn = f.function ?? f.selector ?? (f.kind.startsWith('create') ? 'constructor' : '-');
  return `${contract}::${fn}`;
}

export function framesAt(rec: DebugRecording, step: number): OpenFrame[] {
  const out: OpenFrame[] = [];
  let at: number | null = rec.frames.length === 0 ? null : rec.steps.frame[step]!;
  while (at !== null) {
    out.push({ kind: 'external', frame: at, name: frameName(rec, at) });
    at = rec.frames[at]!.parent;
  }
  return out.reverse();
}
