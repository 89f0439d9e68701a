/**
 * The repository stands alone: no source, script or test refers to a file outside it (a clone with
 * nothing beside it must pass `npm test`). The scanner itself is checked on made-up lines first.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { outsideRefs } from '../support/outsideRefs.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const up = (n: number) => '../'.repeat(n);

describe('the outside-reference scanner', () => {
  const file = join(ROOT, 'test/unit/x.test.ts');
  test.each([
    ['a sibling folder of the checkout', `const F = new URL('${up(3)}shared/fixtures/', import.meta.url);`, 'a relative path that leaves the repository'],
    ['a climb in a template literal', 'readFileSync(`' + up(4) + 'elsewhere/${name}.json`)', 'a relative path that leaves the repository'],
    ['a climb in double quotes', `import x from "${up(3)}other-project/src/x.js";`, 'a relative path that leaves the repository'],
    ['a home folder', `const p = '/home/someone/abi.json';`, 'an absolute path on this machine'],
    ['this machine\'s work folder', `const p = "/work/shared/fixtures";`, 'an absolute path on this machine'],
    ['a file URL', `new URL('file:///Users/me/data.json')`, 'an absolute path on this machine'],
    ['a fixed temporary file', 'env: { ERR: `/tmp/out.err` }', 'an absolute path on this machine'],
  ])('finds %s', (_what, line, why) => {
    expect(outsideRefs(`// first line\n${line}\n`, file, ROOT)).toEqual([expect.objectContaining({ line: 2, why })]);
  });

  test.each([
    ['a path inside the repository', `new URL('${up(2)}src/decode/abiIndex.js', import.meta.url)`],
    ['the repository root', `new URL('${up(2)}', import.meta.url)`],
    ['a test fixture', `new URL('${up(1)}fixtures/real/', import.meta.url)`],
    ['a system device', `spawn('script', ['-qec', cmd, '/dev/null'])`],
    ['a path made up to be missing', `['--abi', '/nonexistent/abi.json']`],
    ['a URL path on a test server', `fetch(base + '/mainnet')`],
    ['a climb in a comment, not in a string', `// read from ${up(3)}shared once`],
  ])('lets %s be', (_what, line) => {
    expect(outsideRefs(line, file, ROOT)).toEqual([]);
  });
});

/** Every file of the tree under `dir` that holds code or configuration (not recorded data). */
function codeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'fixtures' || name === 'node_modules' ? [] : codeFiles(path);
    return /\.(ts|mts|cts|js|mjs|cjs|json|sh)$/.test(name) ? [path] : [];
  });
}

test('no file under src/, test/, scripts/ or bin/ (nor the build and test configuration) refers outside the repository', () => {
  const files = [...['src', 'test', 'scripts', 'bin'].flatMap((d) => codeFiles(join(ROOT, d))), ...['package.json', 'vitest.config.ts', 'tsconfig.json', '.ci/run'].map((f) => join(ROOT, f))];
  expect(files.length).toBeGreaterThan(80);
  const found = files.flatMap((f) => outsideRefs(readFileSync(f, 'utf8'), f, ROOT).map((r) => `${f.slice(ROOT.length)}:${r.line}: ${r.why}: ${r.text}`));
  expect(found).toEqual([]);
});
