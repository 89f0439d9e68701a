/**
 * The "called from" places of a failure, the same for the text view and the HTML report (which reads
 * them from the --json document): pure, over whatever shape a view holds its frames in.
 */
import type { SourceLocation } from '../model/types.js';

/** One external frame on the way from the root to the failure's origin, as the source-location stage placed it. */
export interface PlacedFrame {
  readonly failed: boolean;
  /** The statement it stopped at. */
  readonly place: SourceLocation | undefined;
  /** The internal calls that led there, innermost first. */
  readonly calledFrom: readonly SourceLocation[] | undefined;
  /** Its function's signature, named on the place where the frame was entered. */
  readonly signature: string | null | undefined;
}

export interface CalledFrom {
  readonly place: SourceLocation;
  readonly signature: string | null | undefined;
}

/**
 * `frames`: the root first, the origin last. The origin's internal calls, then each failed frame around
 * it that was placed too (where it called the one inside) with its own internal calls; each group names
 * its frame's function on its last place.
 */
export function calledFromChain(frames: readonly PlacedFrame[]): CalledFrom[] {
  const origin = frames[frames.length - 1];
  if (origin === undefined) return [];
  const out: CalledFrom[] = [];
  const group = (places: readonly SourceLocation[], signature: string | null | undefined): void => {
    places.forEach((place, i) => {
      out.push({ place, signature: i === places.length - 1 ? signature : undefined });
    });
  };
  group(origin.calledFrom ?? [], origin.signature);
  for (const f of frames.slice(0, -1).reverse()) if (f.failed && f.place !== undefined) group([f.place, ...(f.calledFrom ?? [])], f.signature);
  return out;
}
