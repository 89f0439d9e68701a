/**
 * localTrace.ts (and with it the EVM, dist/evm.cjs in the package) loaded on first use. A text run keeps
 * V8's young generation from growing (cli/run.ts): right for a model of many small objects kept to the
 * end, wrong for an EVM run, whose garbage is short-lived: a 200-deep chain spent ~105 ms of ~500 in
 * scavenges of the small young generation, ~70 ms with V8's default growth (measured with --cpu-prof).
 * So the default comes back first; on V8 11 (Node 20) only, as there.
 */
import { setFlagsFromString } from 'node:v8';

export async function loadLocalTrace(): Promise<typeof import('./localTrace.js')> {
  if (process.versions.v8.startsWith('11.')) setFlagsFromString('--semi-space-growth-factor=2');
  return import('./localTrace.js');
}
