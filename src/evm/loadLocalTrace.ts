/**
 * localTrace.ts (and with it the EVM, dist/evm.cjs in the package) loaded on first use, with V8's heap
 * settings for an EVM run (see v8Tuning.ts): its garbage is short-lived, its code cache is made under
 * V8's defaults, and once it is compiled V8 is set for the run (tuneAfterEvmLoad).
 */
import { tuneAfterEvmLoad, tuneForEvm } from '../v8Tuning.js';

export async function loadLocalTrace(): Promise<typeof import('./localTrace.js')> {
  tuneForEvm();
  const loaded = await import('./localTrace.js');
  tuneAfterEvmLoad();
  return loaded;
}
