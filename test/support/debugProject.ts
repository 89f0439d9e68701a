/**
 * The debugger's project (test/fixtures/debug: a bank whose withdraw fails two internal calls deep with
 * a custom error under a teller that re-reverts, a deposit that writes storage and calls a ledger, a
 * long loop) compiled with the optimizer off as Foundry builds by default, deployed on an anvil started
 * with --steps-tracing so that its struct logs can be compared step by step.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startAnvil } from '../../scripts/lib/anvil.mjs';
import { DEV } from '../../scripts/lib/scenarios.mjs';
import { type ProjectScene, sceneTools } from './sceneTools.js';
import { writeFoundryProject } from './sourceProject.js';

export const DEBUG_FIXTURE = fileURLToPath(new URL('../fixtures/debug', import.meta.url));

export interface DebugScene extends ProjectScene {
  readonly bank: string;
  readonly teller: string;
  readonly ledger: string;
  /** Teller.cashOut → Bank.withdraw → _take → Rules.check reverts Insufficient; the teller re-reverts. */
  readonly failing: string;
  /** Bank.deposit: writes storage, calls Ledger.record (whose artifact the project leaves out: no source). */
  readonly deposit: string;
  /** Bank.spin: a loop of more than 200,000 steps. */
  readonly loop: string;
  /** ETH to an account without code: no step at all. */
  readonly transfer: string;
}

/** One step of a struct-log trace, as the node writes it. */
export interface StructLog {
  readonly pc: number;
  readonly op: string;
  readonly depth: number;
  readonly gas: number;
  readonly stack?: string[];
  readonly memory?: string[];
  readonly storage?: Record<string, string>;
}

/** The project written into `dir` (Ledger's artifact removed; `storageLayout`: the artifacts carry theirs), the contracts deployed, the transactions mined. */
export async function debugScene(dir: string, opts: { readonly storageLayout?: boolean } = {}): Promise<DebugScene> {
  const compiled = writeFoundryProject(dir, { fixture: DEBUG_FIXTURE, optimizer: false, ast: true, storageLayout: opts.storageLayout === true });
  // Ledger's code runs without an artifact to match: the debugger shows its opcodes and `-`.
  rmSync(join(dir, 'out', 'Ledger.sol'), { recursive: true });
  const anvil = await startAnvil(['--steps-tracing']);
  const { deploy, data, mined } = sceneTools(anvil.rpc, compiled);
  const ledger = await deploy('Ledger');
  const bank = await deploy('Bank', [ledger]);
  const teller = await deploy('Teller', [bank]);
  const deposit = await mined({ to: bank, data: data('Bank', 'deposit'), value: '0x64' });
  const failing = await mined({ to: teller, data: data('Teller', 'cashOut', [1000n]) });
  const loop = await mined({ to: bank, data: data('Bank', 'spin', [3000n]) });
  const transfer = await mined({ to: DEV.other, value: '0x1' });
  return { anvil, compiled, bank, teller, ledger, failing, deposit, loop, transfer };
}

/** The node's own opcode trace of `hash` (stack, memory and storage included). */
export async function structLogs(scene: DebugScene, hash: string): Promise<StructLog[]> {
  const trace = await scene.anvil.rpc('debug_traceTransaction', [hash, { enableMemory: true, disableStack: false, disableStorage: false }]);
  return trace.structLogs as StructLog[];
}

export { DEV };
