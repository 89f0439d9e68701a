/**
 * One step as `txray debug --at … --json` prints it, in a struct log's terms: the state before the
 * opcode, `depth` from 1, the stack top first, the frame's whole memory, and the storage the frame's
 * account has read and written in the transaction so far, this step's SLOAD or SSTORE included (as
 * geth's and anvil's struct loggers keep it: the last value read or written for each slot).
 */
import { framesAt } from './framesAt.js';
import { localsAt } from './localsAt.js';
import { opcodeName } from './opcodeName.js';
import { placeAt } from './placeAt.js';
import { storageAt } from './storageAt.js';
import type { DebugStepLog } from './types.js';
import { cell } from '../locate/cell.js';

const word = (v: bigint): string => `0x${v.toString(16).padStart(64, '0')}`;

export function stepJson(rec: DebugStepLog, i: number, hash: string | null): Record<string, unknown> {
  const s = rec.steps;
  const frame = rec.frames[cell(s.frame, i)];
  const place = placeAt(rec, i);
  const open = framesAt(rec, i);
  const storage: Record<string, string> = {};
  for (const [slot, value] of storageAt(rec, i, frame?.storageAddress ?? null)) storage[word(slot)] = word(value);
  return {
    schemaVersion: 1,
    hash,
    step: i + 1,
    steps: s.count,
    pc: s.pc[i],
    op: opcodeName(cell(s.op, i)),
    depth: s.depth[i],
    gas: s.gas[i],
    traceAddress: frame?.traceAddress ?? [],
    address: frame?.codeAddress ?? null,
    contract: frame?.contract ?? null,
    function: frame?.function ?? null,
    callStack: open.map((f) => f.name),
    source: place === null ? null : { file: place.file, line: place.line },
    stack: s.stackAt(i).reverse().map((v) => `0x${v.toString(16)}`),
    memory: `0x${Buffer.from(s.memoryAt(i)).toString('hex')}`,
    storage,
    locals: localsAt(rec, i),
  };
}
