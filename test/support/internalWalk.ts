/**
 * The internal calls a transaction's frames made, read independently of txray: from a node's opcode
 * trace (debug_traceTransaction's struct logs; anvil started with --steps-tracing) and the solc output
 * of the project (each contract's runtime code, source map and the files' ASTs): a JUMP whose map
 * entry is `i` enters the function whose definition holds its landing's range, the next `o` at that
 * frame's depth leaves it. The frame's own wrapper (the jump site mapped to the very definition it
 * jumps into) and jumps into no function are followed for the matching but not listed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface StructLog {
  readonly pc: number;
  readonly op: string;
  readonly gas: number;
  readonly depth: number;
  readonly stack?: readonly string[];
}

export interface WalkedCall {
  name: string;
  contract: string | null;
  file: string;
  line: number;
  gasUsed: bigint;
  reverted?: true;
  children: WalkedCall[];
  calls?: number[];
  callsBefore: number;
}

interface Entry {
  readonly s: number;
  readonly l: number;
  readonly f: number;
  readonly j: string;
}

interface Definition {
  readonly name: string;
  readonly contract: string | null;
  readonly s: number;
  readonly l: number;
  readonly f: number;
}

/** One contract of a Foundry out/ folder written with ASTs: its runtime code and the map of each pc. */
export interface BuiltCode {
  readonly code: string;
  readonly entryAt: Map<number, Entry>;
}

/** A project's runtime codes (by contract name), its functions and files (by source id). */
export interface Built {
  readonly codes: Map<string, BuiltCode>;
  readonly definitions: Definition[];
  readonly files: Map<number, { path: string; bytes: Buffer }>;
}

function entriesOf(code: string, map: string): Map<number, Entry> {
  const bytes = Buffer.from(code.replace(/^0x/, ''), 'hex');
  const parts = map.split(';');
  const out = new Map<number, Entry>();
  let e: Entry = { s: -1, l: 0, f: -1, j: '-' };
  let k = 0;
  for (let pc = 0; pc < bytes.length && k < parts.length; pc++, k++) {
    const [s, l, f, j] = parts[k]!.split(':');
    e = { s: s ? Number(s) : e.s, l: l ? Number(l) : e.l, f: f ? Number(f) : e.f, j: j ? j : e.j };
    out.set(pc, e);
    const op = bytes[pc]!;
    if (op >= 0x60 && op <= 0x7f) pc += op - 0x5f;
  }
  return out;
}

/** Every FunctionDefinition in an AST, at any depth, with the contract around it. */
function definitionsIn(node: unknown, contract: string | null, out: Definition[]): void {
  if (Array.isArray(node)) {
    for (const n of node) definitionsIn(n, contract, out);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const n = node as Record<string, unknown>;
  const here = n.nodeType === 'ContractDefinition' ? (n.name as string) : contract;
  if (n.nodeType === 'FunctionDefinition' && n.kind !== 'constructor' && n.kind !== 'fallback' && n.kind !== 'receive') {
    const [s, l, f] = String(n.src).split(':').map(Number);
    out.push({ name: n.name as string, contract: here, s: s!, l: l!, f: f! });
  }
  for (const v of Object.values(n)) if (typeof v === 'object') definitionsIn(v, here, out);
}

/** Read a Foundry project written with ASTs (test/support/sourceProject.ts, `ast: true`). */
export function readBuilt(dir: string): Built {
  const codes = new Map<string, BuiltCode>();
  const definitions: Definition[] = [];
  const files = new Map<number, { path: string; bytes: Buffer }>();
  const out = join(dir, 'out');
  for (const folder of readdirSync(out).filter((f) => f.endsWith('.sol'))) {
    for (const file of readdirSync(join(out, folder))) {
      const doc = JSON.parse(readFileSync(join(out, folder, file), 'utf8'));
      codes.set(file.replace(/\.json$/, ''), { code: doc.deployedBytecode.object, entryAt: entriesOf(doc.deployedBytecode.object, doc.deployedBytecode.sourceMap) });
      if (!files.has(doc.id)) {
        files.set(doc.id, { path: doc.ast.absolutePath, bytes: readFileSync(join(dir, doc.ast.absolutePath)) });
        definitionsIn(doc.ast, null, definitions);
      }
    }
  }
  return { codes, definitions, files };
}

const spanOf = (c: WalkedCall, from: number, to: number, depth: number): WalkedSpan => ({ from, to, name: c.contract === null ? c.name : `${c.contract}.${c.name}`, depth });

const CALLS = new Set(['CALL', 'CALLCODE', 'DELEGATECALL', 'STATICCALL', 'CREATE', 'CREATE2']);

/** A listed call's steps: the step of its jump in (`from`) and of its jump out (`to`; the frame's last step where it never returned). */
export interface WalkedSpan {
  readonly from: number;
  readonly to: number;
  /** `Contract.function` (the function alone where no contract defines it). */
  readonly name: string;
  /** The depth of the frame it ran in. */
  readonly depth: number;
}

/** What a frame ran, by traceAddress ("0,1"): its internal calls, for frames whose code `codeOf` names; each listed call's steps pushed to `spans`. */
export function walkInternal(logs: readonly StructLog[], built: Built, codeOf: (address: string) => string | undefined, to: string, spans: WalkedSpan[] = []): Map<string, WalkedCall[]> {
  const out = new Map<string, WalkedCall[]>();
  const frame = (start: number, depth: number, address: string, path: number[]): number => {
    const code = built.codes.get(codeOf(address) ?? '');
    const top: WalkedCall[] = [];
    const open: Array<{ call: WalkedCall | null; gas: number; list: WalkedCall[]; owner: WalkedCall | null; at: number }> = [];
    let child = 0;
    let k = start;
    let last = start;
    for (; k < logs.length && logs[k]!.depth >= depth; k++) {
      const step = logs[k]!;
      if (step.depth > depth) continue;
      last = k;
      const next = logs[k + 1];
      if (CALLS.has(step.op) && next !== undefined && next.depth === depth + 1) {
        const owner = open.filter((o) => o.call !== null).at(-1)?.call ?? null;
        if (owner !== null) (owner.calls ??= []).push(child);
        const target = step.op.startsWith('CREATE') ? '' : `0x${BigInt(step.stack!.at(-2)!).toString(16).padStart(40, '0')}`;
        k = frame(k + 1, depth + 1, target, [...path, child++]) - 1;
        continue;
      }
      if (step.op !== 'JUMP' || code === undefined || next === undefined) continue;
      const site = code.entryAt.get(step.pc)!;
      if (site.j === 'i') {
        const land = code.entryAt.get(next.pc)!;
        const fns = built.definitions.filter((d) => d.f === land.f && d.s <= land.s && land.s + land.l <= d.s + d.l).sort((a, b) => a.l - b.l);
        const fn = fns[0];
        const list = open.filter((o) => o.call !== null).at(-1)?.call?.children ?? top;
        let call: WalkedCall | null = null;
        if (fn !== undefined && !(site.f === fn.f && site.s === fn.s && site.l === fn.l)) {
          const file = built.files.get(fn.f)!;
          call = { name: fn.name, contract: fn.contract, file: file.path, line: file.bytes.subarray(0, fn.s).toString('latin1').split('\n').length, gasUsed: 0n, children: [], callsBefore: child };
          list.push(call);
        }
        open.push({ call, gas: step.gas, list, owner: call, at: k });
      } else if (site.j === 'o') {
        const o = open.pop();
        if (o?.call) o.call.gasUsed = BigInt(o.gas - step.gas);
        if (o?.call) spans.push(spanOf(o.call, o.at, k, depth));
      }
    }
    // A frame that ends inside its internal calls: its last step's gas; a revert marks them.
    const reverted = logs[last]!.op === 'REVERT' || logs[last]!.op === 'INVALID';
    for (const o of open) {
      if (o.call === null) continue;
      spans.push(spanOf(o.call, o.at, last, depth));
      o.call.gasUsed = BigInt(o.gas - logs[last]!.gas);
      if (reverted) o.call.reverted = true;
    }
    if (code !== undefined) out.set(path.join(','), top);
    return k;
  };
  frame(0, 1, to.toLowerCase(), []);
  return out;
}
