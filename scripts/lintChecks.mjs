/**
 * The checks `npm run lint` adds to Biome's (issue 57's measurable goals), over sources given as text so
 * test/unit/lintChecks.test.ts can feed them small examples. Plain Node on the installed TypeScript's parser:
 * syntax only, no type checker, so a run over src/, test/ and scripts/ stays well under a second or two.
 */
import { dirname, join, normalize } from 'node:path';
import ts from 'typescript';

/** The budget for src/: `as` casts (not `as const`) and non-null assertions. */
export const BUDGET = { casts: 175, nonNull: 290 };

/**
 * Exports nothing in the repository imports, used all the same: the bundle's entry (bin/txray.cjs calls `run`,
 * scripts/warm-cache.mjs `main`), and what scripts/build.mjs bundles by path rather than imports.
 */
export const ENTRY_EXPORTS = ['src/cli/run.ts:run', 'src/cli/run.ts:main', 'src/decode/abiIndex.ts:builtinRows'];

/** Functions the issue wants called from exactly one place in src/ (the front door). */
export const ONE_CALLER = ['createRpcClient', 'createDecoder'];

/**
 * @param {{ path: string, text: string }[]} files paths relative to the repository root, '/'-separated
 * @param {{ entryExports?: string[] }} [options]
 * @returns {{ casts: number, nonNull: number, failures: string[] }}
 */
export function lintChecks(files, options = {}) {
  const entry = new Set(options.entryExports ?? ENTRY_EXPORTS);
  const parsed = files.map((f) => ({ path: f.path, sf: ts.createSourceFile(f.path, f.text, ts.ScriptTarget.Latest, true, kindOf(f.path)) }));
  const src = parsed.filter((f) => f.path.startsWith('src/') && !f.path.endsWith('.d.ts'));
  const failures = [];
  const { casts, nonNull, castsAt, nonNullAt } = countAssertions(src);
  if (casts > BUDGET.casts) failures.push(`${budgetLine(castsAt)}: ${casts} \`as\` casts in src/, over the budget of ${BUDGET.casts}`);
  if (nonNull > BUDGET.nonNull) failures.push(`${budgetLine(nonNullAt)}: ${nonNull} non-null assertions (\`!\`) in src/, over the budget of ${BUDGET.nonNull}`);
  failures.push(...unusedExports(parsed, src, entry), ...typesDeclaredTwice(src), ...looseRecords(src), ...callers(src));
  return { casts, nonNull, failures };
}

function kindOf(path) {
  if (/\.[cm]?js$/.test(path)) return ts.ScriptKind.JS;
  return path.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
}

function where(sf, node) {
  return `${sf.fileName}:${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1}`;
}

function visit(sf, fn) {
  const walk = (node) => {
    fn(node);
    ts.forEachChild(node, walk);
  };
  walk(sf);
}

function isAsConst(node) {
  return ts.isTypeReferenceNode(node.type) && ts.isIdentifier(node.type.typeName) && node.type.typeName.text === 'const';
}

function countAssertions(src) {
  let casts = 0;
  let nonNull = 0;
  const castsAt = new Map();
  const nonNullAt = new Map();
  const bump = (m, k) => m.set(k, (m.get(k) ?? 0) + 1);
  for (const { path, sf } of src)
    visit(sf, (n) => {
      if ((ts.isAsExpression(n) || ts.isTypeAssertionExpression(n)) && !isAsConst(n)) {
        casts++;
        bump(castsAt, path);
      } else if (ts.isNonNullExpression(n)) {
        nonNull++;
        bump(nonNullAt, path);
      }
    });
  return { casts, nonNull, castsAt, nonNullAt };
}

/** The file with the most, so a budget failure points somewhere to start. */
function budgetLine(perFile) {
  const [top, n] = [...perFile].sort((a, b) => b[1] - a[1])[0] ?? ['src', 0];
  return `${top} (${n} of them)`;
}

/** './x.js' from src/a/b.ts → the repository path of the file it names, or undefined when not one of ours. */
function resolve(from, specifier, known) {
  if (!specifier.startsWith('.')) return undefined;
  const base = normalize(join(dirname(from), specifier)).split('\\').join('/');
  const stem = base.replace(/\.(c|m)?js$/, '');
  for (const c of [base, `${stem}.ts`, `${stem}.mts`, `${stem}.tsx`, `${stem}/index.ts`]) if (known.has(c)) return c;
  return undefined;
}

function hasExport(node) {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
}

function bindingNames(name, out = []) {
  if (ts.isIdentifier(name)) out.push(name);
  else for (const e of name.elements) if (!ts.isOmittedExpression(e)) bindingNames(e.name, out);
  return out;
}

/** The names a file exports itself (re-exports from other files are uses of those, see importsOf). */
function exportsOf(sf) {
  const out = [];
  for (const st of sf.statements) {
    if (hasExport(st)) {
      const isDefault = (ts.getModifiers(st) ?? []).some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
      if (ts.isVariableStatement(st)) for (const d of st.declarationList.declarations) for (const id of bindingNames(d.name)) out.push({ name: id.text, node: id });
      else if (st.name !== undefined) out.push({ name: isDefault ? 'default' : st.name.text, node: st.name });
    } else if (ts.isExportDeclaration(st) && st.exportClause !== undefined && ts.isNamedExports(st.exportClause)) {
      for (const e of st.exportClause.elements) out.push({ name: e.name.text, node: e.name });
    } else if (ts.isExportAssignment(st)) out.push({ name: 'default', node: st });
  }
  return out;
}

/** Every (file, name) another file imports, re-exports or loads; '*' for all of a file's exports. */
function importsOf(sf, known, use) {
  const from = (spec) => (spec !== undefined && ts.isStringLiteralLike(spec) ? resolve(sf.fileName, spec.text, known) : undefined);
  visit(sf, (n) => {
    if (ts.isImportDeclaration(n)) {
      const target = from(n.moduleSpecifier);
      const clause = n.importClause;
      if (target === undefined || clause === undefined) return;
      if (clause.name !== undefined) use(target, 'default');
      const bindings = clause.namedBindings;
      if (bindings !== undefined && ts.isNamespaceImport(bindings)) use(target, '*');
      else if (bindings !== undefined) for (const e of bindings.elements) use(target, (e.propertyName ?? e.name).text);
    } else if (ts.isExportDeclaration(n) && n.moduleSpecifier !== undefined) {
      const target = from(n.moduleSpecifier);
      if (target === undefined) return;
      if (n.exportClause === undefined || ts.isNamespaceExport(n.exportClause)) use(target, '*');
      else for (const e of n.exportClause.elements) use(target, (e.propertyName ?? e.name).text);
    } else if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const target = from(n.arguments[0]);
      if (target !== undefined) use(target, '*');
    } else if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument)) {
      const target = from(n.argument.literal);
      if (target !== undefined) use(target, n.qualifier !== undefined ? n.qualifier.getText(sf).split('.')[0] : '*');
    }
  });
}

/**
 * A type exported beside the function whose signature names it is part of that function's interface (callers
 * may name it), so it counts as used when its own file uses it; a value used only in its own file does not.
 */
function isTypeName(node) {
  return ts.isInterfaceDeclaration(node.parent) || ts.isTypeAliasDeclaration(node.parent);
}

function typeNamesUsed(sf) {
  const names = new Set();
  visit(sf, (n) => {
    if (ts.isTypeReferenceNode(n) && ts.isIdentifier(n.typeName)) names.add(n.typeName.text);
    else if (ts.isExpressionWithTypeArguments(n) && ts.isIdentifier(n.expression)) names.add(n.expression.text);
    else if (ts.isTypeQueryNode(n) && ts.isIdentifier(n.exprName)) names.add(n.exprName.text);
  });
  return names;
}

function unusedExports(parsed, src, entry) {
  const known = new Set(parsed.map((f) => f.path));
  const used = new Map();
  for (const { path, sf } of parsed)
    importsOf(sf, known, (target, name) => {
      if (target === path) return;
      if (!used.has(target)) used.set(target, new Set());
      used.get(target).add(name);
    });
  const failures = [];
  for (const { path, sf } of src) {
    const names = used.get(path) ?? new Set();
    if (names.has('*')) continue;
    const inFile = typeNamesUsed(sf);
    for (const { name, node } of exportsOf(sf))
      if (!names.has(name) && !entry.has(`${path}:${name}`) && !(isTypeName(node) && inFile.has(name))) failures.push(`${where(sf, node)}: export ${name} is imported by no other file in src/, test/ or scripts/`);
  }
  return failures;
}

function typesDeclaredTwice(src) {
  const declared = new Map();
  const exported = new Set();
  for (const { sf } of src)
    visit(sf, (n) => {
      if (!ts.isInterfaceDeclaration(n) && !ts.isTypeAliasDeclaration(n) && !ts.isClassDeclaration(n)) return;
      if (n.name === undefined) return;
      if (!declared.has(n.name.text)) declared.set(n.name.text, []);
      declared.get(n.name.text).push(where(sf, n.name));
      if (hasExport(n)) exported.add(n.name.text);
    });
  const failures = [];
  for (const [name, at] of declared)
    if (exported.has(name) && at.length > 1) failures.push(`${at[1]}: type ${name} is declared ${at.length} times in src/ (${at.join(', ')})`);
  return failures;
}

function looseRecords(src) {
  const failures = [];
  for (const { path, sf } of src) {
    if (!path.startsWith('src/evm/')) continue;
    visit(sf, (n) => {
      if (!ts.isTypeReferenceNode(n) || !ts.isIdentifier(n.typeName) || n.typeName.text !== 'Record') return;
      const args = (n.typeArguments ?? []).map((a) => a.kind);
      if (args[0] === ts.SyntaxKind.StringKeyword && args[1] === ts.SyntaxKind.UnknownKeyword)
        failures.push(`${where(sf, n)}: Record<string, unknown> in src/evm (give the EVM typed inputs)`);
    });
  }
  return failures;
}

function callers(src) {
  const at = new Map(ONE_CALLER.map((name) => [name, []]));
  for (const { sf } of src)
    visit(sf, (n) => {
      if (!ts.isCallExpression(n)) return;
      const callee = ts.isPropertyAccessExpression(n.expression) ? n.expression.name : n.expression;
      if (ts.isIdentifier(callee) && at.has(callee.text)) at.get(callee.text).push(where(sf, n));
    });
  const failures = [];
  for (const [name, sites] of at)
    if (sites.length !== 1) failures.push(`${sites[1] ?? 'src'}: ${name}( is called from ${sites.length} places in src/, not one (${sites.join(', ')})`);
  return failures;
}
