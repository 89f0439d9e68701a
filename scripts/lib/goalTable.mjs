// The bench's last table: every row with a goal, its figure, the goal and whether this run met it, under
// one line naming the machine (processors, memory, Node, `node -e 0` measured in the same run, cast's
// version), so that the README's speed table is copied from one run of the bench.
import { spawnSync } from 'node:child_process';
import os from 'node:os';

const ms = (n) => (Number.isFinite(n) ? `${Math.round(n).toLocaleString('en')} ms` : 'n/a');
const mb = (n) => (Number.isFinite(n) ? `${Math.round(n)} MB` : '');
const times = (n) => (Number.isFinite(n) ? `${n.toFixed(2)}×` : 'n/a');

/** cast's version as it says it (its first line, up to the commit), or '?'. */
export function castVersion(cast) {
  const r = spawnSync(cast, ['--version'], { encoding: 'utf8' });
  return /cast Version: (\S+)/.exec(r.stdout ?? '')?.[1] ?? r.stdout?.split('\n')[0]?.trim() ?? '?';
}

/** The line that names the machine a run's figures belong to. */
export function machineLine({ runs, bareMs, cast, only }) {
  const cpus = os.cpus();
  const model = cpus[0]?.model?.trim() ?? '?';
  return `machine: ${cpus.length} × ${model}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.platform()} ${os.release()}; Node ${process.version}; \`node -e 0\` ${ms(bareMs)} here (no NODE_EXTRA_CA_CERTS); cast ${cast}; medians of ${runs} runs, both tools from an empty folder${only ? `; rows (${only}) only` : ''}`;
}

/**
 * A row of the side-by-side tables (compareRuns' result with its goal) as a goal row: txray's time
 * (`best`: without the CA bundle where the environment sets one), cast's, the ratio against the goal;
 * with a memory goal, the peak memory too.
 */
export function compareGoal(r, best) {
  const ratio = best / r.castMs;
  const row = { case: r.case, txray: ms(best), cast: ms(r.castMs), ratio: times(ratio), goal: `≤ ${r.goal}×`, met: ratio <= r.goal };
  if (r.memoryGoal === undefined) return row;
  const memory = r.txrayMB / r.castMB;
  return {
    ...row,
    txray: `${row.txray}, ${mb(r.txrayMB)}`,
    cast: `${row.cast}, ${mb(r.castMB)}`,
    ratio: `${row.ratio}, memory ${times(memory)}`,
    goal: `${row.goal}, memory ≤ ${r.memoryGoal}×`,
    met: row.met && memory <= r.memoryGoal,
  };
}

/** A row whose goal is a time of txray's own (a bound in ms). */
export function timeGoal(name, figureMs, boundMs) {
  return { case: name, txray: ms(figureMs), cast: '', ratio: '', goal: `< ${ms(boundMs)}`, met: figureMs < boundMs };
}

/** A row whose goal is a ratio between two runs of txray (with an option and without, a replay and a live run…). */
export function ratioGoal(name, figure, ratio, bound, what) {
  return { case: name, txray: figure, cast: '', ratio: `${times(ratio)} ${what}`, goal: `≤ ${bound}×`, met: ratio <= bound };
}

/** The table, under its machine line. */
export function printGoals(title, machine, rows) {
  console.log(`\n${title}\n${machine}\n`);
  console.log('| row | txray | cast | ratio | goal | met |');
  console.log('|---|---|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.case} | ${r.txray} | ${r.cast} | ${r.ratio} | ${r.goal} | ${r.met ? 'yes' : '**no**'} |`);
  const missed = rows.filter((r) => !r.met);
  console.log(`\n${rows.length - missed.length} of ${rows.length} goals met${missed.length > 0 ? `; not met: ${missed.map((r) => r.case).join('; ')}` : ''}`);
}
