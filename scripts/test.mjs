/**
 * `npm test`: the type check (tsc) and the lint (scripts/lint.mjs) run beside the build and the test files
 * instead of before them. tsc keeps one core busy for its whole run, and the test files leave part of two
 * cores idle while they wait on their nodes, shells and time-outs: side by side the run ends sooner, and
 * nothing is skipped. Their output is kept and printed after the tests (then the summary of all four);
 * the run fails if any of the four fails. Arguments go to `vitest run` (`npm test -- test/unit/x.test.ts`).
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageRoot } from './lib/packageRoot.mjs';

const require = createRequire(import.meta.url);
const root = fileURLToPath(new URL('..', import.meta.url));

/** Run a Node script in the checkout; `keep`: its output kept (both streams, in order) instead of shown. */
function node(script, args, keep) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], { cwd: root, stdio: keep ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let output = '';
    if (keep) for (const s of [child.stdout, child.stderr]) s.setEncoding('utf8').on('data', (d) => (output += d));
    child.on('error', (err) => resolve({ code: 1, output: `${output}${err.message}\n` }));
    child.on('close', (code, signal) => resolve({ code: code ?? (signal === null ? 1 : 128), output }));
  });
}

const checks = [
  ['tsc', node(require.resolve('typescript/bin/tsc'), ['-p', 'tsconfig.json'], true)],
  ['lint', node(fileURLToPath(new URL('./lint.mjs', import.meta.url)), [], true)],
];
const build = await node(fileURLToPath(new URL('./build.mjs', import.meta.url)), [], false);
const tests = build.code === 0 ? await node(join(packageRoot('vitest'), 'vitest.mjs'), ['run', ...process.argv.slice(2)], false) : { code: 1 };

const results = [['build', build.code], ['vitest', build.code === 0 ? tests.code : null]];
for (const [name, pending] of checks) {
  const { code, output } = await pending;
  if (output !== '') process.stdout.write(`\n${name}:\n${output}`);
  results.splice(results.length - 2, 0, [name, code]);
}
const failed = results.filter(([, code]) => code !== 0);
console.log(`\nnpm test: ${results.map(([name, code]) => `${name} ${code === 0 ? 'ok' : code === null ? 'not run (the build failed)' : `failed (exit ${code})`}`).join(', ')}`);
if (failed.length > 0) process.exitCode = 1;
