/**
 * Where the debugger should stand, for the debug project's failing withdraw and deposit: the node's struct
 * logs, the internal calls the walk of them finds (test/support/internalWalk.ts) and the references
 * built on them with the tests' own source-map reader (referenceSteps.ts). Shared by the terminal's
 * tests and the editor's (the Debug Adapter Protocol's): both land where these say.
 */
import type { DebugScene, StructLog } from './debugProject.js';
import { structLogs } from './debugProject.js';
import { readBuilt, walkInternal, type WalkedSpan } from './internalWalk.js';
import { referenceMap } from './referenceMap.js';
import { type Reference, referenceSteps } from './referenceSteps.js';

/** The failing withdraw's external frames, outermost first. */
export const FAILING = ['Teller::cashOut', 'Bank::withdraw'];

export interface DebugReferences {
  readonly logs: Record<'failing' | 'deposit', StructLog[]>;
  readonly failing: Reference;
  readonly deposit: Reference;
  /** The failing run's internal calls as the walk of anvil's struct logs with the source map and the ASTs finds them. */
  readonly spans: WalkedSpan[];
}

export async function debugReferences(scene: DebugScene, dir: string): Promise<DebugReferences> {
  const logs = { failing: await structLogs(scene, scene.failing), deposit: await structLogs(scene, scene.deposit) };
  const teller = referenceMap(dir, 'Teller.sol', 'Teller');
  const bank = referenceMap(dir, 'Bank.sol', 'Bank');
  const names = new Map([[scene.teller.toLowerCase(), 'Teller'], [scene.bank.toLowerCase(), 'Bank']]);
  const spans: WalkedSpan[] = [];
  walkInternal(logs.failing, readBuilt(dir), (a) => names.get(a.toLowerCase()), scene.teller, spans);
  // Each step's count of open internal calls (after the jump in, up to the jump out): levels for n, o and p beside the depth.
  const open = new Int32Array(logs.failing.length);
  for (const s of spans) for (let i = s.from + 1; i <= s.to; i++) open[i]! += 1;
  const failing = referenceSteps(logs.failing, [teller, bank], FAILING, open);
  // Ledger's artifact is left out of the project: its frame has no source and no name but its address.
  const ledger = `${scene.ledger.slice(0, 6)}…${scene.ledger.slice(-4)}`;
  // Its function is named as the lookup names it (the decoder's signature database), not by its selector.
  const deposit = referenceSteps(logs.deposit, [bank, null], ['Bank::deposit', `${ledger}::record`]);
  return { logs, failing, deposit, spans };
}
