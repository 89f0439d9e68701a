/**
 * V8's heap settings for the two kinds of work a run does, set while running (the bin cannot pass
 * Node flags). Only on V8 11 (Node 20), where they were measured: V8 prints an error line for a flag
 * it does not know. The code caches are made under the flags every run starts with (V8's defaults and
 * those bin/loadBundle.cjs sets) and V8 refuses a cache made under other flags, so every setting here
 * is restored to those before the EVM's file is compiled, or made only after it (tuneAfterEvmLoad).
 */
import { setFlagsFromString } from 'node:v8';

const V8_11 = process.versions.v8.startsWith('11.');

/**
 * A text run of a lookup or a simulation: answers parsed into a model of many small objects that lives
 * to the end. The young generation keeps its first size (`--semi-space-growth-factor=1`): V8 doubles it
 * when most of it survives a scavenge, as the model does, and never gives it back: growth trades a
 * higher peak for fewer scavenges, and text runs keep the peak down. --json allocates far more while writing and keeps V8's growth. Read at
 * each growth, so unlike the heap's sizes it can be set once running. The figures, and the settings
 * measured and left out, are in docs/speed.md ("V8's heap settings").
 */
export function tuneForText(): void {
  if (!V8_11) return;
  setFlagsFromString('--semi-space-growth-factor=1');
}

/**
 * Local re-execution: an EVM run's garbage is short-lived, so the young generation may grow (fewer
 * scavenges), and its code cache needs the flags the run started with. Called before the EVM's file is
 * compiled.
 */
export function tuneForEvm(): void {
  if (!V8_11) return;
  setFlagsFromString('--semi-space-growth-factor=2');
}

/**
 * Whether no code cache is made in this process after it reads its own: true in txray's own process
 * (cli/run.ts says so), false in the build's warm-up, which runs main in-process and makes the caches
 * after its runs, under the flags every run starts with.
 */
let noCacheMade = false;

/** cli/run.ts, txray's own process: nothing in it makes a code cache (see tuneAfterEvmLoad). */
export function makesNoCodeCache(): void {
  noCacheMade = true;
}

/**
 * Once the EVM's file is compiled (from its cache or from source), for the rest of the process (these
 * flags change V8's flag hash, which every code cache is checked and made under: set only where no
 * cache is made after):
 * - No incremental marking. A local run keeps each frame's objects while deeper frames run, and the
 *   young generation moves them to the old one; nearing its limit there started V8's incremental
 *   marking, whose marking and the Mark-Compact it ends with ran while the run was modelled and
 *   rendered, to free garbage a process this short never needs back. V8 still collects the old
 *   generation, in one pause, where it reaches its limit (a long replay, many hashes).
 * - Optimising compilation later: a function is compiled by TurboFan after running many times as much
 *   bytecode as V8's default asks (its interrupt budget). An EVM run makes many functions (opcodes, the
 *   interpreter, the state) hot enough for the default early on, and their compilation, on a second
 *   thread with its share on this one, cost a short run more processor than it got back; a long run
 *   (a replayed block, a large trace) is compiled a little later.
 */
export function tuneAfterEvmLoad(): void {
  if (!V8_11 || !noCacheMade) return;
  setFlagsFromString('--no-incremental-marking');
  setFlagsFromString('--interrupt-budget=1000000');
  // Sparkplug's baseline code whatever the process started with: an EVM run's hot functions run their
  // steps faster in it than in V8's interpreter alone (docs/speed.md, branch speed-h).
  setFlagsFromString('--sparkplug');
}
