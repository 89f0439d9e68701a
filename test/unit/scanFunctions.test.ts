/**
 * scanFunctions (the functions of a source read from its text, for a build without ASTs) against solc's own
 * AST of the same text: every function with a body, its contract and its exact byte range; nothing else.
 */
import solc from 'solc';
import { expect, test } from 'vitest';
import { functionDefinitions } from '../../src/locate/functionDefinitions.js';
import { scanFunctions } from '../../src/locate/scanFunctions.js';

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
import {A as B} from "./Other.sol"; // not there: only parsed
/* function fake() { } in a comment, and a brace { */
interface IThing { function thing(uint256 x) external returns (uint256); }
library Lib {
    function twice(uint256 x) internal pure returns (uint256) { return x * 2; } // "}"
}
function free(uint256 a) pure returns (uint256) { return a + 1; }
abstract contract Base {
    modifier only(uint256 k) { require(k > 0, "k { }"); _; }
    function hook() internal virtual;
    function label() internal pure returns (string memory) { return "function no() { '"; }
}
contract Thing is Base, IThing {
    struct S { uint256 a; }
    // é 日本: offsets are bytes
    function (uint256) pure returns (uint256) f = Lib.twice;
    function thing(uint256 x) external only(x) returns (uint256) { S memory s = S({a: x}); return hook2(s.a); }
    function hook() internal override { }
    function hook2(uint256 y) private pure returns (uint256 r) { unchecked { r = y - 1; } if (y > 2) { r = free(y); } }
}
`;

function solcAst(text: string): unknown {
  const input = { language: 'Solidity', sources: { 'T.sol': { content: text } }, settings: { outputSelection: { '*': { '': ['ast'] } } } };
  const out = JSON.parse(solc.compile(JSON.stringify(input), { import: () => ({ contents: 'contract A {}' }) }));
  return out.sources['T.sol'].ast;
}

/** solc's function definitions that have a body (the only ones a jump enters). */
function withBodies(ast: any): string[] {
  const bodies = new Set<string>();
  const walk = (n: any): void => {
    if (n?.nodeType === 'FunctionDefinition' && n.implemented === true) bodies.add(n.src);
    for (const c of n?.nodes ?? []) walk(c);
  };
  walk(ast);
  return functionDefinitions(ast)
    .filter((d) => bodies.has(`${d.start}:${d.length}:${d.sourceId}`))
    .map((d) => `${d.contract ?? '-'}.${d.name}@${d.start}:${d.length}`);
}

test('the same functions, contracts and byte ranges as solc\'s AST (bodies only)', () => {
  const bytes = Buffer.from(SOURCE, 'utf8');
  const mine = functionDefinitions(scanFunctions(bytes, 0)).map((d) => `${d.contract ?? '-'}.${d.name}@${d.start}:${d.length}`);
  expect(mine).toEqual(withBodies(solcAst(SOURCE)));
  expect(mine.map((m) => m.split('@')[0])).toEqual(['Lib.twice', '-.free', 'Base.label', 'Thing.thing', 'Thing.hook', 'Thing.hook2']);
});
