/**
 * Deployed codes a project's build no longer matches, said only where the code is surely that contract
 * built from other sources: no artifact's code is it, yet one artifact's (by name, exactly one) has the same
 * function dispatch (the selectors the code compares the call's against) and solc's CBOR tail naming the
 * same compiler version, with another metadata hash (other sources or settings). Anything less says nothing.
 */
import type { Hex } from '../raw/types.js';
import { type CodeArtifact, matchArtifact, withoutMetadata } from './matchCode.js';
import { instructions } from './sourceMap.js';

/** A deployed code the artifact at `file` (as shown) was built from, before the sources changed. */
export interface RebuiltCode {
  readonly address: string;
  readonly name: string;
  readonly file: string;
}

/** solc's CBOR tail (hex, no 0x): the compiler version it names (`solc` → three bytes) and the whole tail; null where there is none. */
function tailOf(code: string): { readonly solc: string; readonly tail: string } | null {
  const hex = code.toLowerCase().replace(/^0x/, '');
  const body = withoutMetadata(hex);
  if (body.length === hex.length) return null;
  const tail = hex.slice(body.length);
  // "solc" as a CBOR text key, then a byte string of 3 (major, minor, patch).
  const m = /64736f6c6343([0-9a-f]{6})/.exec(tail);
  return m === null ? null : { solc: m[1]!, tail };
}

/** The selectors the dispatcher compares the call's with: PUSH4 then EQ (or DUP2 then EQ), as solc writes it. */
function dispatchOf(code: string): string {
  const { bytes, pcs } = instructions(`0x${withoutMetadata(code)}`);
  const op = (i: number): number => (i < pcs.length ? (bytes[pcs[i] ?? 0] ?? 0) : 0);
  const out = new Set<string>();
  for (let i = 0; i < pcs.length; i++) {
    // PUSH4 0x63, EQ 0x14, DUP2 0x81
    if (op(i) !== 0x63 || !(op(i + 1) === 0x14 || (op(i + 1) === 0x81 && op(i + 2) === 0x14))) continue;
    const at = pcs[i] ?? 0;
    out.add(Buffer.from(bytes.subarray(at + 1, at + 5)).toString('hex'));
  }
  return [...out].sort().join(',');
}

/** Of `codes` (by lower-case address), those at `addresses` that the artifacts were surely built from before a change. */
export function rebuiltCodes(codes: ReadonlyMap<string, Hex>, addresses: readonly string[], artifacts: readonly CodeArtifact[]): RebuiltCode[] {
  const out: RebuiltCode[] = [];
  const built = artifacts.filter((a) => a.file !== undefined && a.deployedBytecode !== undefined && a.deployedBytecode.length > 2);
  for (const address of addresses) {
    const code = codes.get(address);
    const mine = code === undefined ? null : tailOf(code);
    if (code === undefined || mine === null || matchArtifact(code, artifacts) !== undefined) continue;
    const dispatch = dispatchOf(code);
    if (dispatch === '') continue;
    const same = built.filter((a) => {
      const theirs = tailOf(a.deployedBytecode!);
      return theirs !== null && theirs.solc === mine.solc && theirs.tail !== mine.tail && dispatchOf(a.deployedBytecode!) === dispatch;
    });
    const first = same[0];
    if (first === undefined || same.some((a) => a.name !== first.name || a.file !== first.file)) continue;
    out.push({ address, name: first.name, file: first.file! });
  }
  return out;
}
