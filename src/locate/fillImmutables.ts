/**
 * An artifact's runtime code with its immutables taken from the code deployed at the address it is
 * put in (`--override-code <addr>:<artifact>`): solc leaves zeros where a deployment writes each
 * immutable, always as a PUSH32's operand (the artifact's immutableReferences say where; a Hardhat
 * artifact does not, and its zero PUSH32s are those places). The deployed code is another build (the
 * fix is what differs), so places are paired by order among the PUSH32s of both, which holds where
 * the change adds or removes none: every other PUSH32 (event topics, constants) must then be the same
 * in both, or nothing is taken rather than a wrong value. The metadata trailer is not code.
 */
import { withoutMetadata } from './matchCode.js';
import type { Hex } from '../raw/types.js';
import { cell } from './cell.js';
import { instructions } from './sourceMap.js';

const PUSH32 = 0x7f;

/** The byte offsets of every PUSH32's operand in `hex` (no 0x), instruction by instruction. */
function push32Operands(hex: string): number[] {
  const { bytes, pcs } = instructions(`0x${hex}`);
  const out: number[] = [];
  for (const pc of pcs) if (bytes[pc] === PUSH32) out.push(pc + 1);
  return out;
}

const operand = (hex: string, at: number): string => hex.slice(at * 2, at * 2 + 64);

/** `code` with its immutables from `deployed`; `masks` the artifact's 32-byte immutable ranges (none: its zero PUSH32s). A string says why it cannot be done. */
export function fillImmutables(code: Hex, masks: ReadonlyArray<readonly [number, number]>, deployed: Hex): Hex | string {
  const mine = code.slice(2).toLowerCase();
  const body = withoutMetadata(mine);
  const ours = push32Operands(body);
  const wide = masks.filter(([, length]) => length === 32).map(([start]) => start);
  const sites = new Set(masks.length > 0 ? wide : ours.filter((at) => /^0+$/.test(operand(body, at))));
  if (sites.size === 0) return code;
  const theirBody = withoutMetadata(deployed.slice(2).toLowerCase());
  if (theirBody.length === 0) return 'there is no code there to take them from';
  const theirs = push32Operands(theirBody);
  if (theirs.length !== ours.length || ![...sites].every((at) => ours.includes(at))) return 'its PUSH32 instructions do not pair with the artifact\'s';
  let out = mine;
  for (let i = 0; i < ours.length; i++) {
    const at = cell(ours, i);
    const value = operand(theirBody, cell(theirs, i));
    if (!sites.has(at)) {
      if (operand(body, at) !== value) return 'its PUSH32 constants differ from the artifact\'s';
      continue;
    }
    out = `${out.slice(0, at * 2)}${value}${out.slice(at * 2 + 64)}`;
  }
  return `0x${out}`;
}
