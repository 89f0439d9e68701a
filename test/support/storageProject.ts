/**
 * --storage's project (test/fixtures/storage: a vault with a mapping, a packed struct and a counter; a
 * delegatecall into logic that writes the vault's storage; a token that writes its own; a caught call
 * that writes and reverts; a write of the value already there; a transient-storage lock; a mapping key
 * read from storage; a transaction that reverts at the top), compiled with its storage layouts, deployed
 * on an anvil started with --steps-tracing; and an independent walk of the node's struct logs that says
 * what each frame read and wrote.
 */
import { fileURLToPath } from 'node:url';
import { startAnvil } from '../../scripts/lib/anvil.mjs';
import type { StructLog } from './debugProject.js';
import { type ProjectScene, sceneTools } from './sceneTools.js';
import { writeFoundryProject } from './sourceProject.js';

export const STORAGE_FIXTURE = fileURLToPath(new URL('../fixtures/storage', import.meta.url));

export interface StorageScene extends ProjectScene {
  readonly vault: string;
  readonly token: string;
  readonly logic: string;
  /** Vault.deposit(100): every kind of access. */
  readonly deposit: string;
  /** Vault.fail(): writes, then reverts at the top. */
  readonly fail: string;
  readonly data: (name: string, fn: string, args?: unknown[]) => string;
}

export async function storageScene(dir: string, optimizer: boolean): Promise<StorageScene> {
  const compiled = writeFoundryProject(dir, { fixture: STORAGE_FIXTURE, optimizer, storageLayout: true });
  const anvil = await startAnvil(['--steps-tracing']);
  const { deploy, data, mined } = sceneTools(anvil.rpc, compiled);
  const token = await deploy('Token');
  const logic = await deploy('Logic');
  const vault = await deploy('Vault', [logic, token]);
  const deposit = await mined({ to: vault, data: data('Vault', 'deposit', [100n]) });
  const fail = await mined({ to: vault, data: data('Vault', 'fail') });
  return { anvil, compiled, vault, token, logic, deposit, fail, data };
}

/** One access as the reference walk sees it, in --json's spelling (no names). */
export interface WalkedAccess {
  op: 'read' | 'write';
  address: string;
  slot: string;
  value?: string;
  before?: string;
  after?: string;
  transient?: true;
  reverted?: true;
}

const CALLS = new Set(['CALL', 'CALLCODE', 'DELEGATECALL', 'STATICCALL', 'CREATE', 'CREATE2']);
const word = (hex: string): string => `0x${BigInt(hex).toString(16).padStart(64, '0')}`;

interface WalkFrame {
  readonly key: string;
  readonly address: string;
  children: number;
  /** The writes made in it and below it: undone and marked where it fails. */
  readonly journal: Array<{ readonly access: WalkedAccess; readonly transient: boolean }>;
}

/**
 * Each frame's accesses (by frameKey) from the node's struct logs: SLOAD's slot is the stack's top and
 * its value the next step's top; SSTORE's slot and value are the top two; a write's before comes from
 * the walk's running values, first from `initial` (eth_getStorageAt at the parent block). A call's frame
 * is its storage address's (a DELEGATECALL or CALLCODE frame's: its caller's); a call that returns 0
 * undoes and marks its writes.
 */
export async function walkStructLogs(logs: readonly StructLog[], to: string, failed: boolean, initial: (address: string, slot: string) => Promise<string>): Promise<Map<string, WalkedAccess[]>> {
  const out = new Map<string, WalkedAccess[]>([['', []]]);
  const values = new Map<string, string>();
  const transient = new Map<string, string>();
  const stack: WalkFrame[] = [{ key: '', address: to.toLowerCase(), children: 0, journal: [] }];
  const runningValue = async (t: boolean, address: string, slot: string): Promise<string> => {
    const k = `${address}:${slot}`;
    const known = (t ? transient : values).get(k);
    if (known !== undefined) return known;
    return t ? word('0x0') : word(await initial(address, slot));
  };
  for (let i = 0; i < logs.length; i++) {
    const step = logs[i]!;
    const next = logs[i + 1];
    const frame = stack.at(-1)!;
    const s = step.stack ?? [];
    const top = (n: number): string => word(s[s.length - 1 - n]!);
    const t = step.op === 'TLOAD' || step.op === 'TSTORE';
    if (step.op === 'SLOAD' || step.op === 'TLOAD') {
      const slot = top(0);
      const value = word(next!.stack!.at(-1)!);
      (t ? transient : values).set(`${frame.address}:${slot}`, value);
      out.get(frame.key)!.push({ op: 'read', address: frame.address, slot, value, ...(t ? { transient: true as const } : {}) });
    } else if (step.op === 'SSTORE' || step.op === 'TSTORE') {
      const slot = top(0);
      const after = top(1);
      const before = await runningValue(t, frame.address, slot);
      (t ? transient : values).set(`${frame.address}:${slot}`, after);
      const access: WalkedAccess = { op: 'write', address: frame.address, slot, before, after, ...(t ? { transient: true as const } : {}) };
      out.get(frame.key)!.push(access);
      for (const f of stack) f.journal.push({ access, transient: t });
    } else if (CALLS.has(step.op)) {
      const index = frame.children++;
      if (next !== undefined && next.depth === step.depth + 1) {
        const key = frame.key === '' ? String(index) : `${frame.key},${index}`;
        const address = step.op === 'DELEGATECALL' || step.op === 'CALLCODE' ? frame.address : `0x${BigInt(top(1)).toString(16).padStart(40, '0')}`;
        stack.push({ key, address, children: 0, journal: [] });
        out.set(key, []);
      }
    }
    if (next !== undefined && next.depth < step.depth) {
      const ended = stack.pop()!;
      // The caller's next step has the call's result on top: 0 where it failed.
      if (BigInt(next.stack!.at(-1)!) === 0n) undo(ended, values, transient);
    }
  }
  if (failed) undo(stack[0]!, values, transient);
  return out;
}

/** A failed frame's writes: marked, and the running values put back (newest first). */
function undo(frame: WalkFrame, values: Map<string, string>, transient: Map<string, string>): void {
  for (const { access, transient: t } of [...frame.journal].reverse()) {
    access.reverted = true;
    (t ? transient : values).set(`${access.address}:${access.slot}`, access.before!);
  }
}
