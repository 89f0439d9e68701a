/**
 * V8's heap settings for the two kinds of work a run does, set while running (the bin cannot pass
 * Node flags). Only on V8 11 (Node 20), where they were measured: V8 prints an error line for a flag
 * it does not know. The code caches are made under V8's defaults and V8 refuses a cache made under
 * other flags, so every setting here has its default restored before the EVM's file is compiled.
 */
import { setFlagsFromString } from 'node:v8';

const V8_11 = process.versions.v8.startsWith('11.');

/**
 * A text run of a lookup or a simulation: answers parsed into a model of many small objects that lives
 * to the end. The young generation keeps its first size (`--semi-space-growth-factor=1`): V8 doubles it
 * (up to 2 × 16 MB) when most of it survives a scavenge, as the model does, and never gives it back:
 * ~20 MB of bench case (b)'s peak for ~40–60 ms less scavenging. --json, which allocates far more while
 * writing, spent ~25% of its time scavenging a small one, so it keeps V8's growth. Read at each growth, so
 * unlike the heap's sizes it can be set once running.
 *
 * Measured and left out (13 runs each, side by side, (b)): letting the old generation grow only 10% past
 * what the last full collection kept (`--heap-growing-percent=10`) frees the answers' text and parse
 * trees once modelled, 148 → 128 MB, but costs ~11% more wall time; one forced full collection after
 * the model, 133 MB for ~9%; two (after the head is written, and after the model), 122 MB for ~13%.
 */
export function tuneForText(): void {
  if (!V8_11) return;
  setFlagsFromString('--semi-space-growth-factor=1');
}

/**
 * Local re-execution: an EVM run's garbage is short-lived (a 200-deep chain spent ~105 ms of ~500 in
 * scavenges of the small young generation, ~70 ms with V8's default growth), and its code cache needs
 * V8's default flags. Called before the EVM's file is compiled.
 */
export function tuneForEvm(): void {
  if (!V8_11) return;
  setFlagsFromString('--semi-space-growth-factor=2');
}
