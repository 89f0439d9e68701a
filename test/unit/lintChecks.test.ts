import { expect, test } from 'vitest';
import { BUDGET, lintChecks } from '../../scripts/lintChecks.mjs';

type Source = { path: string; text: string };

/** A small repository that passes every check: each case below adds or replaces one file to break one. */
const GOOD: Source[] = [
  { path: 'src/cli/run.ts', text: "import { createRpcClient } from '../rpc/createRpcClient.js';\nimport { createDecoder } from '../decode/createDecoder.js';\nexport function run(): void {\n  createRpcClient();\n  createDecoder();\n}\n" },
  { path: 'src/rpc/createRpcClient.ts', text: "export function createRpcClient(): number {\n  return 1;\n}\n" },
  { path: 'src/decode/createDecoder.ts', text: "export interface Decoder { readonly n: number }\nexport function createDecoder(): Decoder {\n  return { n: [1][0] as number };\n}\n" },
  { path: 'src/evm/state.ts', text: "export type Overrides = Record<string, bigint>;\nexport const KINDS = ['a'] as const;\n" },
  { path: 'test/unit/state.test.ts', text: "import type { Overrides } from '../../src/evm/state.js';\nimport { KINDS } from '../../src/evm/state.js';\nconst o: Overrides = {};\nvoid o;\nvoid KINDS;\n" },
];

const ENTRY = ['src/cli/run.ts:run'];

function failuresOf(change: Source[]): string[] {
  const paths = new Set(change.map((s) => s.path));
  return lintChecks([...GOOD.filter((s) => !paths.has(s.path)), ...change], { entryExports: ENTRY }).failures;
}

test('the good example passes every check, and counts its one cast (as const is none)', () => {
  expect(lintChecks(GOOD, { entryExports: ENTRY })).toEqual({ casts: 1, nonNull: 0, failures: [] });
});

test.each<[string, Source[], RegExp]>([
  ['an export nothing else imports', [{ path: 'src/rpc/extra.ts', text: 'export const LIMIT = 3;\n' }], /^src\/rpc\/extra\.ts:1: export LIMIT is imported by no other file/],
  ['an export used only in its own file', [{ path: 'src/rpc/createRpcClient.ts', text: 'export const N = 1;\nexport function createRpcClient(): number {\n  return N;\n}\n' }], /^src\/rpc\/createRpcClient\.ts:1: export N is imported/],
  ['a type declared in two files', [{ path: 'src/decode/other.ts', text: "// the other Decoder\ninterface Decoder { readonly m: number }\nexport const d: Decoder = { m: 1 };\n" }, { path: 'test/unit/o.test.ts', text: "import { d } from '../../src/decode/other.js';\nvoid d;\n" }], /^src\/decode\/other\.ts:2: type Decoder is declared 2 times in src\/ \(src\/decode\/createDecoder\.ts:1, src\/decode\/other\.ts:2\)$/],
  ['Record<string, unknown> in src/evm', [{ path: 'src/evm/state.ts', text: "export type Overrides = Record<string, unknown>;\nexport const KINDS = ['a'] as const;\n" }], /^src\/evm\/state\.ts:1: Record<string, unknown> in src\/evm/],
  ['createRpcClient( called from two places', [{ path: 'src/cli/debug.ts', text: "import { createRpcClient } from '../rpc/createRpcClient.js';\nexport const n = createRpcClient();\n" }, { path: 'test/unit/d.test.ts', text: "import { n } from '../../src/cli/debug.js';\nvoid n;\n" }], /^src\/cli\/debug\.ts:2: createRpcClient\( is called from 2 places in src\/, not one \(src\/cli\/run\.ts:4, src\/cli\/debug\.ts:2\)$/],
  ['createDecoder( called from no place', [{ path: 'src/cli/run.ts', text: "import { createRpcClient } from '../rpc/createRpcClient.js';\nexport function run(): void {\n  createRpcClient();\n}\n" }, { path: 'test/unit/c.test.ts', text: "import { createDecoder } from '../../src/decode/createDecoder.js';\nvoid createDecoder;\n" }], /^src: createDecoder\( is called from 0 places/],
])('fires on %s', (_, change, message) => {
  const failures = failuresOf(change);
  expect(failures).toHaveLength(1);
  expect(failures[0]).toMatch(message);
});

test('an import, a re-export, a dynamic import or a type import from test/ or scripts/ counts as a use', () => {
  const uses: Source[] = [
    { path: 'src/rpc/a.ts', text: 'export const A = 1;\nexport type T = number;\n' },
    { path: 'src/rpc/b.ts', text: 'export const B = 1;\n' },
    { path: 'src/rpc/c.ts', text: 'export const C = 1;\n' },
    { path: 'src/rpc/index.ts', text: "export { A } from './a.js';\nexport async function load(): Promise<number> {\n  return (await import('./b.js')).B;\n}\n" },
    { path: 'scripts/x.mjs', text: "import { load } from '../src/rpc/index.js';\nimport * as c from '../src/rpc/c.js';\nexport const t = () => load() + c.C;\n" },
    { path: 'test/unit/t.test.ts', text: "export type U = import('../../src/rpc/a.js').T;\nimport { A } from '../../src/rpc/index.js';\nvoid A;\n" },
  ];
  expect(failuresOf(uses)).toEqual([]);
});

test('the cast budget counts `as` (not `as const`) and `!` in src/ only, and names the file with the most', () => {
  const many = (n: number, each: string): string => Array.from({ length: n }, (_, i) => `export const v${i} = ${each};\n`).join('');
  const over: Source[] = [
    { path: 'src/rpc/casts.ts', text: many(BUDGET.casts, '(1 as number)') + many(5, "(['a'] as const)") },
    { path: 'src/rpc/more.ts', text: many(1, '(2 as number)') + many(BUDGET.nonNull + 1, '[1][0]!') },
    { path: 'test/unit/casts.test.ts', text: `import * as a from '../../src/rpc/casts.js';\nimport * as b from '../../src/rpc/more.js';\nvoid a;\nvoid b;\n${many(50, '(1 as number)')}` },
  ];
  const { casts, nonNull, failures } = lintChecks([...GOOD, ...over], { entryExports: ENTRY });
  expect([casts, nonNull]).toEqual([BUDGET.casts + 2, BUDGET.nonNull + 1]);
  expect(failures).toEqual([
    `src/rpc/casts.ts (${BUDGET.casts} of them): ${BUDGET.casts + 2} \`as\` casts in src/, over the budget of ${BUDGET.casts}`,
    `src/rpc/more.ts (${BUDGET.nonNull + 1} of them): ${BUDGET.nonNull + 1} non-null assertions (\`!\`) in src/, over the budget of ${BUDGET.nonNull}`,
  ]);
  expect(lintChecks([...GOOD, ...over.map((s) => (s.path === 'src/rpc/more.ts' ? { ...s, text: many(BUDGET.nonNull, '[1][0]!') } : s))], { entryExports: ENTRY }).failures).toHaveLength(1);
});
