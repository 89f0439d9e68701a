/**
 * solc's standard-JSON compile, done once per input: the output is kept under node_modules/.cache, keyed by
 * a hash of the input and solc's package version, so the test files that build the same fixture project
 * (most build test/fixtures/srcloc the same way) share one compile, and a file whose builds are all kept
 * never loads solc at all. Workers run in parallel: an entry is written to a file of its own and renamed
 * into place, so a reader sees a whole entry or none (two workers compiling the same input both write the same).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const CACHE = fileURLToPath(new URL('../../node_modules/.cache/txray-tests/solc', import.meta.url));

export interface SolcRun {
  /** solc's output document, parsed. */
  readonly output: Record<string, any>;
  /** solc.version() of the compiler that wrote it ("0.8.37+commit…"). */
  readonly version: string;
}

export function solcOnce(input: object): SolcRun {
  const { version: packageVersion } = require('solc/package.json') as { version: string };
  const key = createHash('sha256').update(packageVersion).update('\0').update(JSON.stringify(input)).digest('hex');
  const file = join(CACHE, `${key}.json`);
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as SolcRun;
  } catch {
    // Not kept yet (or a cache from elsewhere that cannot be read): compile.
  }
  const solc = require('solc') as { compile: (input: string) => string; version: () => string };
  const run: SolcRun = { output: JSON.parse(solc.compile(JSON.stringify(input))), version: solc.version() };
  mkdirSync(CACHE, { recursive: true });
  const partial = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  writeFileSync(partial, JSON.stringify(run));
  renameSync(partial, file);
  return run;
}
